/**
 * `npm run bench`: the figures the issues ask for, measured against `next start`.
 *
 * - GET /api/health (a real database query and a real upstream call) and the cron route's 401:
 *   requests per second, p50 and p99 latency, with autocannon. The same run measures a bare Node
 *   HTTP server answering a fixed JSON 401 as a reference, and reports each figure against it,
 *   because absolute numbers on a shared machine vary from run to run.
 * - PGlite's resident memory, with its default server settings and with the project's.
 *
 * The database is POSTGRES_URL when given, otherwise the embedded PGlite (the demo's default).
 * The upstream is a fixed-answer HTTP server answering {"status":"healthy"}, so the health path is
 * complete; the reference and the upstream run in processes of their own, apart from autocannon.
 * Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { freePort } from "../tests/support/postgres";
import { ensureBuild, nextBin, startService, waitForHttp } from "./lib/processes";

const root = path.resolve(import.meta.dirname, "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const CRON_SECRET = "bench-cron-secret-0123456789";

type Figure = { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number };

async function load(name: string, url: string, headers: Record<string, string> = {}): Promise<Figure> {
  await autocannon({ url, connections, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections, duration: seconds, headers });
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

/** A fixed-answer server in a process of its own, so it does not share the load generator's thread. */
async function fixedServer(status: number, body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const service = startService({
    name: `fixed-${status}`,
    command: process.execPath,
    args: ["--import", "tsx", path.join(root, "scripts/lib/fixed-server.ts"), String(port), String(status), body],
    env: process.env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, { statuses: [status] });
  return { url, close: service.stop };
}

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

async function main(): Promise<void> {
  console.log(`Building (skipped when fresh)…`);
  await ensureBuild(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });

  const upstream = await fixedServer(200, '{"status":"healthy"}');
  const reference = await fixedServer(401, '{"error":"Missing Authorization header"}');

  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-bench-"));
  const databaseUrl = process.env.POSTGRES_URL ?? (embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() })).url;

  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const gateway = startService({
    name: "gateway",
    command: process.execPath,
    args: [nextBin(root), "start", "-p", String(port)],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      POSTGRES_URL: databaseUrl,
      UPSTREAM_API_URL: upstream.url,
      CRON_SECRET,
      LOG_SILENT: "1",
    },
    quiet: true,
  });
  try {
    await waitForHttp(`${gatewayUrl}/api/health`, { statuses: [200] });
    console.log(`Load: ${connections} connections, ${seconds} s per route; database: ${embedded ? "embedded PGlite" : "POSTGRES_URL"}\n`);
    const figures = [
      await load("reference: bare node:http 401", `${reference.url}/api/cron`),
      await load("GET /api/cron (401, no token)", `${gatewayUrl}/api/cron`),
      await load("GET /api/cron (401, wrong token)", `${gatewayUrl}/api/cron`, { authorization: "Bearer wrong-token-0000000000" }),
      await load("GET /api/health (DB + upstream)", `${gatewayUrl}/api/health`),
    ];
    const ref = figures[0]!;
    console.log("| route | req/s | vs reference | p50 ms | p99 ms | non-2xx | errors |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const f of figures) {
      console.log(`| ${f.name} | ${f.rps} | ${(f.rps / ref.rps).toFixed(3)}× | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.errors} |`);
    }

    const rss = spawnSync("ps", ["-o", "rss=", "-p", String(gateway.child.pid)], { encoding: "utf8" }).stdout.trim();
    console.log(`\nGateway (next start) resident memory after load: ${Math.round(Number(rss) / 1024)} MB`);

    console.log("\nPGlite resident memory (a fresh process: open, migrate, 2000 inserts, 200 aggregates):");
    const memory = [...pgliteMemory("defaults"), ...pgliteMemory("project")];
    for (const m of memory) console.log(`  ${JSON.stringify(m)}`);

    const out = path.join(root, "bench-results");
    fs.mkdirSync(out, { recursive: true });
    const file = path.join(out, `foundation-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(file, JSON.stringify({ seconds, connections, figures, gatewayRssKb: Number(rss), pglite: memory }, null, 2));
    console.log(`\nSaved ${path.relative(root, file)}`);
  } finally {
    await gateway.stop();
    await embedded?.stop();
    await upstream.close();
    await reference.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
