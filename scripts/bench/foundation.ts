/**
 * GET /api/health (a real database query and a real upstream call) and the cron route's 401:
 * requests per second and p50/p99 latency, against a bare node:http 401 measured in the same run.
 * Also PGlite's resident memory with its default settings and with the project's.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../../lib/shared/db/embedded";
import { freePort } from "../../tests/support/postgres";
import { gatewayServerArgs, startService, waitForHttp } from "../lib/processes";
import { connections, fixedServer, load, printTable, root, rssMb, saveResults, seconds } from "./common";

const CRON_SECRET = "bench-cron-secret-0123456789";

/** Creates a database in a fresh process, then reopens it in another (the demo's usual start). */
function pgliteMemory(mode: "defaults" | "project"): Record<string, unknown>[] {
  const run = (dir?: string) => {
    const args = ["--import", "tsx", path.join(root, "scripts/lib/pglite-memory.ts"), mode, ...(dir ? [dir] : [])];
    const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
    const lines = result.stdout.trim().split("\n");
    const createdDir = lines.find((l) => l.startsWith("DIR "))?.slice(4);
    try {
      return { createdDir, figures: JSON.parse(lines.at(-1) ?? "") as Record<string, unknown> };
    } catch {
      return { createdDir, figures: { mode, error: (result.stderr || result.stdout).slice(0, 500) } };
    }
  };
  const created = run();
  const reopened = created.createdDir ? run(created.createdDir).figures : { mode, phase: "reopen", error: "create failed" };
  if (created.createdDir) fs.rmSync(created.createdDir, { recursive: true, force: true });
  return [created.figures, reopened];
}

export async function runFoundationBench(): Promise<void> {
  console.log("\n## Health and cron (foundation)\n");
  const upstream = await fixedServer(200, '{"status":"healthy"}');
  const reference = await fixedServer(401, '{"error":"Missing Authorization header"}');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-bench-"));
  const embedded = process.env.POSTGRES_URL ? undefined : await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const databaseUrl = process.env.POSTGRES_URL ?? embedded!.url;
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const gateway = startService({
    name: "gateway",
    command: process.execPath,
    args: gatewayServerArgs(root),
    env: { ...process.env, PORT: String(port), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", POSTGRES_URL: databaseUrl, UPSTREAM_API_URL: upstream.url, CRON_SECRET, LOG_SILENT: "1" },
    quiet: true,
  });
  try {
    await waitForHttp(`${gatewayUrl}/api/health`, { statuses: [200] });
    console.log(`Load: ${connections} connections, ${seconds} s per route; database: ${embedded ? "embedded PGlite" : "POSTGRES_URL"}\n`);
    const figures = [
      await load("reference: bare node:http 401", `${reference.url}/api/cron`),
      await load("GET /api/cron (401, no token)", `${gatewayUrl}/api/cron`),
      await load("GET /api/cron (401, wrong token)", `${gatewayUrl}/api/cron`, { headers: { authorization: "Bearer wrong-token-0000000000" } }),
      await load("GET /api/health (DB + upstream)", `${gatewayUrl}/api/health`),
    ];
    printTable(figures, figures[0]!);
    const gatewayRssMb = rssMb(gateway.child.pid);
    console.log(`\nGateway (npm start) resident memory after load: ${gatewayRssMb} MB`);
    console.log("\nPGlite resident memory (a fresh process: open, migrate, 2000 inserts, 200 aggregates):");
    const memory = [...pgliteMemory("defaults"), ...pgliteMemory("project")];
    for (const m of memory) console.log(`  ${JSON.stringify(m)}`);
    saveResults("foundation", { seconds, connections, figures, gatewayRssMb, pglite: memory });
  } finally {
    await gateway.stop();
    await embedded?.stop();
    await upstream.close();
    await reference.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
