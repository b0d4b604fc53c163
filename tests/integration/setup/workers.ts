import type { TestWallet } from "../../../scripts/lib/local-chain";
import { findPostgresBin } from "../../support/postgres";

/** Whether the suite runs on PGlite (global-setup.ts): forced, or no PostgreSQL server to use or start. */
const onPglite = process.env.TEST_DATABASE === "pglite" || (!process.env.TEST_POSTGRES_URL && !process.env.POSTGRES_URL && !findPostgresBin());

/**
 * How many integration files run at once (INTEGRATION_WORKERS, default 2). Each worker has its own
 * local chain (global-setup.ts) and each file its own database, so files of different workers
 * share nothing a test counts (payee balances, the deployer's nonces). Most of a file's time is
 * spent waiting on its gateway, agent and chain, so two files at once fill a 2-core machine that
 * one left half idle. PGlite's socket server takes one connection at a time: there, one by one.
 */
export const INTEGRATION_WORKERS = onPglite ? 1 : Math.max(1, Number(process.env.INTEGRATION_WORKERS ?? 2) || 1);

export type TestChain = { rpcUrl: string; asset: string; network: string; chainId: number; wallets: TestWallet[]; serviceToken: string };

/** This worker's chain: vitest numbers its workers from 1 (VITEST_POOL_ID). */
export function workerChainIndex(count: number): number {
  const id = Number(process.env.VITEST_POOL_ID ?? 1);
  return (Number.isInteger(id) && id > 0 ? id - 1 : 0) % count;
}
