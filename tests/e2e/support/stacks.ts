import os from "node:os";
import path from "node:path";

/**
 * The demo stacks the browser tests run against: one per Playwright worker, each a whole
 * `npm run demo` (gateway, agent, chain, database, test wallet) on ports and folders of its own,
 * so two workers share no wallet, history, ledger, rate limit or counter, and a test sees only its
 * own worker's doing. E2E_STACKS (default 2) sets how many; E2E_PORT, E2E_AGENT_PORT,
 * E2E_CHAIN_PORT, E2E_DB_PORT, E2E_DATA_DIR and E2E_DEMO_DIR name the first stack's, and stack `i`
 * takes each port plus 2·i (so one checkout's gateway and agent ports never meet) and each folder
 * with `-i` appended.
 */
export const STACK_COUNT = Math.max(1, Number(process.env.E2E_STACKS ?? 2) || 1);

const PORT_STEP = 2;

export type E2eStack = { baseURL: string; port: number; agentPort: number; chainPort: number; dbPort: number; dataDir: string; demoDir: string };

export function stackOf(index: number): E2eStack {
  const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback) + PORT_STEP * index;
  const folder = (name: string, fallback: string) => `${process.env[name] ?? path.join(os.tmpdir(), fallback)}${index === 0 ? "" : `-${index}`}`;
  const gateway = port("E2E_PORT", 3100);
  return {
    baseURL: `http://localhost:${gateway}`,
    port: gateway,
    agentPort: port("E2E_AGENT_PORT", 3111),
    chainPort: port("E2E_CHAIN_PORT", 8555),
    dbPort: port("E2E_DB_PORT", 54339),
    dataDir: folder("E2E_DATA_DIR", "lra-e2e-data"),
    demoDir: folder("E2E_DEMO_DIR", "lra-e2e-demo"),
  };
}

/** The stack of the worker this code runs in (Playwright numbers its worker slots from 0). */
export function ownStack(): E2eStack {
  return stackOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0) || 0);
}
