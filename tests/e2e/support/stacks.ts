import os from "node:os";
import path from "node:path";
import { findPostgresBin } from "../../support/postgres";

/**
 * The demo stacks the browser tests run against: one per Playwright worker, each a whole
 * `npm run demo` (gateway, agent, chain, database, test wallet) on ports and folders of its own,
 * so two workers share no wallet, history, ledger, rate limit or counter, and a test sees only its
 * own worker's doing. E2E_STACKS (default 2) sets how many; E2E_PORT, E2E_AGENT_PORT,
 * E2E_CHAIN_PORT, E2E_DB_PORT, E2E_DATA_DIR and E2E_DEMO_DIR name the first stack's, and stack `i`
 * takes each port plus 2·i (so one checkout's gateway and agent ports never meet) and each folder
 * with `-i` appended.
 *
 * Where PostgreSQL's server binaries are installed, every stack's gateway and agent use a database
 * of their own (`e2e_<i>`) on one throwaway server (postgres-server.ts, on E2E_POSTGRES_PORT); the
 * stacks otherwise, or with E2E_DATABASE=pglite, each serve PGlite on their E2E_DB_PORT, as a
 * newcomer's `npm run demo` does.
 */
export const STACK_COUNT = Math.max(1, Number(process.env.E2E_STACKS ?? 2) || 1);

const PORT_STEP = 2;

/** The browser suite's PostgreSQL server, when one is used: on this port of loopback. */
export const e2ePostgresPort = (): number => Number(process.env.E2E_POSTGRES_PORT ?? 54399);

/** Whether the stacks run on a PostgreSQL server (started by playwright.config.ts) rather than on PGlite. */
export const usesPostgresServer = (): boolean => process.env.E2E_DATABASE !== "pglite" && findPostgresBin() !== null;

/** What postgres-server.ts prints, followed by its URL, once every stack's database exists. */
export const E2E_POSTGRES_READY_LINE = "e2e PostgreSQL ready:";

/** Stack `index`'s database on that server. */
export const stackDatabase = (index: number): string => `e2e_${index}`;

export type E2eStack = {
  baseURL: string;
  port: number;
  agentPort: number;
  chainPort: number;
  dbPort: number;
  /** The stack's database on the suite's PostgreSQL server, or null when it serves PGlite itself. */
  databaseUrl: string | null;
  dataDir: string;
  demoDir: string;
};

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
    databaseUrl: usesPostgresServer() ? `postgres://postgres@127.0.0.1:${e2ePostgresPort()}/${stackDatabase(index)}` : null,
    dataDir: folder("E2E_DATA_DIR", "lra-e2e-data"),
    demoDir: folder("E2E_DEMO_DIR", "lra-e2e-demo"),
  };
}

/** The stack of the worker this code runs in (Playwright numbers its worker slots from 0). */
export function ownStack(): E2eStack {
  return stackOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0) || 0);
}
