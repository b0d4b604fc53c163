/**
 * Child process of the benchmark: opens PGlite in a fresh folder with either the default server
 * settings or the low-memory ones the project uses, runs the gateway migrations and a burst of
 * queries through the socket server, and prints its resident memory as JSON.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../lib/shared/db/embedded";
import { runMigrations } from "../../lib/shared/db/migrate";
import { gatewayMigrations } from "../../lib/shared/db/migrations/gateway";
import { freePort } from "../../tests/support/postgres";

const mode = process.argv[2] === "defaults" ? "defaults" : "project";
// With a folder argument the database is reopened there (the demo's everyday case) and kept.
const reopen = process.argv[3] !== undefined;
const dir = process.argv[3] ?? fs.mkdtempSync(path.join(os.tmpdir(), "lra-pglite-mem-"));
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main(): Promise<void> {
  const before = process.memoryUsage().rss;
  const port = await freePort();
  let stop: () => Promise<void>;
  let url: string;
  if (mode === "defaults") {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    const db = await PGlite.create(path.join(dir, "pglite"));
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 8 });
    await server.start();
    url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    stop = async () => {
      await server.stop();
      await db.close();
    };
  } else {
    const embedded = await startEmbeddedPostgres({ dataDir: dir, port });
    url = embedded.url;
    stop = embedded.stop;
  }
  const opened = process.memoryUsage().rss;
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  await runMigrations(pool, { schema: "gateway", migrations: gatewayMigrations });
  for (let i = 0; i < 2000; i++) {
    await pool.query(
      "INSERT INTO gateway.deep_research_conversations (conversation_id, status) VALUES ($1, 'queued') ON CONFLICT DO NOTHING",
      [`c${i}`],
    );
  }
  for (let i = 0; i < 200; i++) {
    await pool.query("SELECT status, count(*) FROM gateway.deep_research_conversations GROUP BY status");
  }
  const loaded = process.memoryUsage().rss;
  await pool.end();
  await stop();
  if (!reopen) console.log(`DIR ${dir}`);
  console.log(JSON.stringify({ mode, phase: reopen ? "reopen" : "create", baselineMb: mb(before), openedMb: mb(opened), afterWorkMb: mb(loaded) }));
}

void main();
