/**
 * The browser suite's PostgreSQL server (playwright.config.ts starts it before the demo stacks and
 * stops it after them): a fresh cluster from the installed server binaries, with a database per
 * stack (`e2e_0`, `e2e_1`, …), on E2E_POSTGRES_PORT. The demo stacks then run on it instead of
 * each serving PGlite (PostgreSQL compiled to WebAssembly) from its own process, which costs a
 * stack several CPU-seconds more for the same queries.
 *
 * Usage: node --import tsx tests/e2e/support/postgres-server.ts. It prints READY_LINE once the
 * databases exist and stops the server on SIGTERM or SIGINT. Its folder is named after the port,
 * so a cluster an interrupted run left behind (pg_ctl detaches the server) is stopped and removed
 * here before the new one starts: every run's data is fresh. A folder whose launcher still runs is
 * another run's, and is left alone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { findPostgresBin, postgresCommand, startThrowawayPostgres } from "../../support/postgres";
import { isAlive } from "@/lib/shared/db/embedded";
import { E2E_POSTGRES_READY_LINE, STACK_COUNT, e2ePostgresPort, stackDatabase } from "./stacks";

/** The launcher that started the folder's server writes its pid here. */
const OWNER_FILE = "launcher.pid";

function readOwner(dir: string): string | null {
  try {
    return fs.readFileSync(path.join(dir, OWNER_FILE), "utf8").trim();
  } catch {
    return null;
  }
}


async function main(): Promise<void> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("No PostgreSQL server binaries (initdb) are installed: playwright.config.ts should not have started this");
  const port = e2ePostgresPort();
  const dir = path.join(os.tmpdir(), `lra-e2e-postgres-${port}`);
  // Another run's live launcher owns the folder: stopping its server would fail that run.
  const owner = Number(readOwner(dir));
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new Error(`The browser suite's PostgreSQL server on port ${port} belongs to a run still going (process ${owner}): set E2E_POSTGRES_PORT to another port`);
  }
  if (fs.existsSync(path.join(dir, "data", "postmaster.pid"))) {
    try {
      postgresCommand(bin)("pg_ctl", ["-D", path.join(dir, "data"), "-m", "immediate", "-w", "stop"]);
    } catch {
      // Not running any more (a stale pid file): nothing to stop.
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  let server: Awaited<ReturnType<typeof startThrowawayPostgres>>;
  try {
    server = await startThrowawayPostgres(bin, { dir, port });
  } catch (err) {
    throw new Error(`Could not start the browser suite's PostgreSQL server on port ${port} (E2E_POSTGRES_PORT; its log is in ${dir}): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  try {
    const client = new pg.Client(server.url);
    await client.connect();
    for (let i = 0; i < STACK_COUNT; i++) await client.query(`CREATE DATABASE ${stackDatabase(i)}`);
    await client.end();
  } catch (err) {
    await server.stop();
    throw err;
  }
  console.log(`${E2E_POSTGRES_READY_LINE} ${server.url}`);
  // The server runs detached (pg_ctl); this process stays until Playwright signals it, as the
  // handle by which Playwright stops the server: a webServer whose command exits counts as failed.
  setInterval(() => undefined, 1 << 30);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
