import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { INTEGRATION_WORKERS } from "./tests/integration/setup/workers";

const root = import.meta.dirname;
const alias = {
  "@": root,
  // `server-only` throws outside React Server Components; tests call server code directly.
  "server-only": path.join(root, "tests/support/server-only.ts"),
};

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          env: { LOG_SILENT: "1" },
          // A few unit tests start processes (the MCP spend ledger's several writers): a busy CI
          // machine makes them slower, not wrong, so the bound is far above vitest's default 5 s.
          testTimeout: 30_000,
          // A thread starts far faster than a process. Vitest's default of one worker fewer than
          // the cores left a 2-core CI machine running one file at a time: 84 s there, 43 s so.
          pool: "threads",
          maxWorkers: Math.max(2, os.availableParallelism() - 1),
          // A worker keeps the modules it imported for its next file: importing them afresh for
          // each of 67 files was most of the suite's time (52 s -> 23 s here; all files pass in
          // shuffled order too, `--sequence.shuffle.files`). A file that needs a fresh module
          // state resets it itself (vi.resetModules) rather than every file paying for it.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/integration/setup/global-setup.ts"],
          // Files run INTEGRATION_WORKERS at a time, each worker on its own chain (setup/workers.ts).
          fileParallelism: INTEGRATION_WORKERS > 1,
          maxWorkers: INTEGRATION_WORKERS,
          // DATA_DIR: where a gateway run without OFFER_RECEIPT_SIGNING_KEY generates its
          // development signing key (lib/gateway/offer-receipt/signing-key.ts): outside the repository.
          env: { LOG_SILENT: process.env.LOG_SILENT ?? "1", DATA_DIR: path.join(os.tmpdir(), "longevity-integration-data") },
          // Hang guards only: every wait inside a test is for a condition. A test that starts gateway
          // processes took 2-9 s on a quiet machine and over 60 s with the machine at a load of 20.
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
