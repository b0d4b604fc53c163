import path from "node:path";
import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { boundaries } from "../../eslint-rules/boundaries.mjs";

const root = path.resolve(__dirname, "../..");
const linter = new Linter({ cwd: root });
const config = [
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parser: tseslint.parser },
    plugins: { local: { rules: { boundaries } } },
    rules: { "local/boundaries": "error" as const },
  },
];

/** The boundary messages of one file's source, linted as if it stood at `file`. */
function outside(file: string, code: string): string[] {
  return linter.verify(code, config, { filename: path.join(root, file) }).map((m) => m.message);
}

describe("lint: who may import what (eslint-rules/boundaries.mjs)", () => {
  it("keeps gateway code out of shared code, the agent, the clients and the page", () => {
    for (const file of ["lib/shared/contracts/x.ts", "agent/x.ts", "lib/client/x.ts", "lib/web/x.ts", "components/x.tsx"]) {
      expect(outside(file, 'import { getDb } from "@/lib/gateway/db";\nexport const x = getDb;'), file).toEqual([expect.stringContaining("may not import lib/gateway/db")]);
    }
  });

  it("resolves relative imports too, so a ../../ path cannot slip by", () => {
    expect(outside("lib/shared/contracts/x.ts", 'import { getDb } from "../../gateway/db";\nexport const x = getDb;')).toEqual([expect.stringContaining("may not import lib/gateway/db")]);
    expect(outside("lib/client/mcp-local/x.ts", 'export * from "../../web/thread";')).toEqual([expect.stringContaining("may not import lib/web/thread")]);
  });

  it("keeps the clients' code out of shared code and the gateway, and the agent out of everyone's", () => {
    expect(outside("lib/shared/sealing/x.ts", 'import { poll } from "@/lib/client/poll";\nexport const x = poll;')).toHaveLength(1);
    expect(outside("lib/gateway/x.ts", 'import { thread } from "@/lib/web/thread";\nexport const x = thread;')).toHaveLength(1);
    expect(outside("lib/gateway/x.ts", 'import { run } from "@/agent/runtime";\nexport const x = run;')).toHaveLength(1);
  });

  it("allows what each zone may use, packages, and a type of another zone (erased at build)", () => {
    expect(outside("agent/x.ts", 'import { z } from "zod";\nimport type { Queryable } from "@/lib/shared/db";\nexport const x: Queryable | null = null; export const y = z;')).toEqual([]);
    expect(outside("lib/web/x.ts", 'import { poll } from "@/lib/client/poll";\nimport { PAID_OPERATIONS } from "@/lib/shared/operations";\nexport const x = [poll, PAID_OPERATIONS];')).toEqual([]);
    expect(outside("lib/gateway/x.ts", 'import type { WebConfig } from "@/lib/web/types";\nexport const x: WebConfig | null = null;')).toEqual([]);
    expect(outside("app/api/x/route.ts", 'import { getDb } from "@/lib/gateway/db";\nexport const x = getDb;')).toEqual([]);
  });
});
