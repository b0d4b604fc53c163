import type { KnipConfig } from "knip";

/**
 * The dead-code check (`npx knip`, a suite of `npm test`): unused files, exports, types and
 * dependencies. Its plugins find the entry points that configs name (Next.js's app router, proxy.ts
 * and instrumentation.ts, vitest, playwright, eslint, package.json's scripts and `bin`); the
 * entries below are the files started by path, which no import or config names.
 */
const config: KnipConfig = {
  entry: [
    // The local MCP server: bin/longevity-mcp.mjs imports it by a path it builds at run time.
    "scripts/mcp.ts",
    // Child processes the benchmarks and tests start by path (`node --import tsx <file>`).
    "scripts/lib/{fixed-server,pglite-memory,route-server}.ts",
    "tests/support/{finish-job-process,gateway-process,worker-process}.ts",
    // The local chain's Hardhat config, passed to hardhat by path (scripts/lib/local-chain.ts).
    "scripts/chain/hardhat.config.cjs",
    // The payments benchmark's reference app, a Next.js app of its own built by path.
    "bench/reference-app/next.config.ts",
    "bench/reference-app/app/**/route.ts",
    // Vitest aliases `server-only` to this file (vitest.config.ts).
    "tests/support/server-only.ts",
    // tsc reads these for the types of the .mjs file beside each.
    "server.d.mts",
    "lib/shared/http/api-routes.d.mts",
    "eslint-rules/boundaries.d.mts",
  ],
  project: ["**/*.{ts,tsx,mts,mjs,cjs}"],
};

export default config;
