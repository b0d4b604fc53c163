import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../../lib/shared/db/embedded";
import { startLocalChain } from "../../../scripts/lib/local-chain";
import { INTEGRATION_WORKERS, type TestChain } from "./workers";
import { findPostgresBin, freePort, startThrowawayPostgres } from "../../support/postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** A server URL whose maintenance database may be used to create per-file databases. */
    adminDatabaseUrl: string;
    /** `server` for real PostgreSQL; `pglite` when only the embedded database was available. */
    databaseKind: "server" | "pglite";
    /**
     * The local chains (Hardhat nodes with Circle's USDC): one per worker, so the files one worker
     * runs one after another share a chain and its payee balances, and never with another worker.
     */
    chains: TestChain[];
  }
}

/**
 * Integration tests run against a real PostgreSQL server: POSTGRES_URL when given, otherwise a
 * throwaway cluster from the installed binaries. Where neither exists they fall back to PGlite,
 * and tests that need competing connections skip themselves with that reason.
 * TEST_DATABASE=pglite forces the fallback, to check that path. A local chain is started too.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // One after another: each port is asked for once the chain before it holds its own.
  const chains: Awaited<ReturnType<typeof startLocalChain>>[] = [];
  try {
    for (let i = 0; i < INTEGRATION_WORKERS; i++) chains.push(await startLocalChain({ port: await freePort(), walletCount: 80 }));
  } catch (err) {
    await Promise.all(chains.map((chain) => chain.stop()));
    throw err;
  }
  project.provide(
    "chains",
    chains.map((chain) => ({
      rpcUrl: chain.rpcUrl,
      asset: chain.asset,
      network: chain.network,
      chainId: chain.chainId,
      wallets: chain.testWallets,
      serviceToken: chain.serviceToken,
    })),
  );
  const stopDatabase = await setupDatabase(project);
  return async () => {
    await stopDatabase();
    await Promise.all(chains.map((chain) => chain.stop()));
  };
}

async function setupDatabase(project: TestProject): Promise<() => Promise<void>> {
  // TEST_DATABASE=pglite runs the suite as a machine without PostgreSQL would.
  const forcePglite = process.env.TEST_DATABASE === "pglite";
  const given = forcePglite ? undefined : (process.env.TEST_POSTGRES_URL ?? process.env.POSTGRES_URL);
  if (given) {
    project.provide("adminDatabaseUrl", given);
    project.provide("databaseKind", "server");
    return async () => undefined;
  }
  const bin = forcePglite ? null : findPostgresBin();
  if (bin) {
    const pg = await startThrowawayPostgres(bin);
    project.provide("adminDatabaseUrl", pg.url);
    project.provide("databaseKind", "server");
    return pg.stop;
  }
  console.warn("No PostgreSQL server found: integration tests run on PGlite; concurrency tests will be skipped.");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-pglite-"));
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  project.provide("adminDatabaseUrl", embedded.url);
  project.provide("databaseKind", "pglite");
  return async () => {
    await embedded.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
