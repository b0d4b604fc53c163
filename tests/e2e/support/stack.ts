import fs from "node:fs";
import path from "node:path";
import { ownStack } from "./stacks";

/** The folder of this worker's demo stack (stacks.ts). */
const demoDir = ownStack().demoDir;

export type DemoStack = { gatewayUrl: string; rpcUrl: string; asset: `0x${string}`; testWallets: { address: string; privateKey: `0x${string}` }[] };

/** The demo's stack.json: its URLs and its funded local test wallets. */
export function readStack(): DemoStack {
  return JSON.parse(fs.readFileSync(path.join(demoDir, "stack.json"), "utf8")) as DemoStack;
}

/**
 * Runs `npm run ask -- <args>` (scripts/ask.ts) against `gateway`, with the demo's folder for its
 * wallets; resolves with the exit code and both outputs. `timeoutMs` only stops a hung run.
 */
export async function runAsk(
  gateway: string,
  args: string[],
  env: Record<string, string> = {},
  { timeoutMs = 80_000 }: { timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { execFile } = await import("node:child_process");
  const root = path.resolve(import.meta.dirname, "../../..");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(root, "scripts/ask.ts"), ...args],
      // Its receipts go to the run's demo folder, never the user's own state directory.
      { cwd: root, env: { ...process.env, GATEWAY_URL: gateway, DEMO_DIR: demoDir, LONGEVITY_MCP_STATE_DIR: path.join(demoDir, "ask-state"), ...env }, timeout: timeoutMs },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
