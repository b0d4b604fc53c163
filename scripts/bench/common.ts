/** Helpers shared by the benchmark sections. */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { startEmbeddedPostgres } from "../../lib/shared/db/embedded";
import { findPostgresBin, freePort, startThrowawayPostgres } from "../../tests/support/postgres";
import { startService, waitForHttp } from "../lib/processes";

export const root = path.resolve(import.meta.dirname, "../..");
export const seconds = Number(process.env.BENCH_SECONDS ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** `cpuMsPerRequest`: CPU the server (`cpuPid` and the processes below it) spent per request, when asked. */
export type Figure = { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number; cpuMsPerRequest?: number };

/**
 * Loads `url` with autocannon after a 2-second warm-up. With `cpuPid`, also the server's CPU time
 * per request: on a machine others share, requests per second follow the share of CPU the server
 * was given, the CPU each request costs does not.
 */
export async function load(
  name: string,
  url: string,
  options: { headers?: Record<string, string>; method?: "GET" | "POST"; body?: string; cpuPid?: number } = {},
): Promise<Figure> {
  const opts = {
    url,
    connections,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.method ? { method: options.method } : {}),
    ...(options.body ? { body: options.body } : {}),
  };
  await autocannon({ ...opts, duration: 2 });
  const cpuBefore = treeCpuSeconds(options.cpuPid);
  const r = await autocannon({ ...opts, duration: seconds });
  const cpuMsPerRequest = ((treeCpuSeconds(options.cpuPid) - cpuBefore) * 1000) / r.requests.total;
  return {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    ...(Number.isFinite(cpuMsPerRequest) ? { cpuMsPerRequest: Math.round(cpuMsPerRequest * 100) / 100 } : {}),
  };
}

/** CPU seconds (user and system) `pid` and every process below it have used so far, from Linux's /proc; NaN elsewhere or without a pid. */
function treeCpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const stats = fs
      .readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .flatMap((entry) => {
        try {
          // Fields after the parenthesised command name: state, ppid, …; utime and stime are the 14th and 15th of the whole line.
          const fields = fs.readFileSync(`/proc/${entry}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
          return [{ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
        } catch {
          return []; // the process ended meanwhile
        }
      });
    const tree = new Set([pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const s of stats) {
        if (tree.has(s.pid) || !tree.has(s.ppid)) continue;
        tree.add(s.pid);
        grew = true;
      }
    }
    return stats.filter((s) => tree.has(s.pid)).reduce((sum, s) => sum + s.ticks, 0) / clockTicksPerSecond();
  } catch {
    return NaN;
  }
}

let ticksPerSecond: number | undefined;
function clockTicksPerSecond(): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ticksPerSecond;
}

/** A fixed-answer server in a process of its own, so it does not share the load generator's thread. */
export async function fixedServer(status: number, body: string): Promise<{ url: string; close: () => Promise<void> }> {
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

export function printTable(figures: Figure[], reference: Figure): void {
  console.log("| route | req/s | vs reference | p50 ms | p99 ms | non-2xx | errors |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const f of figures) {
    console.log(`| ${f.name} | ${f.rps} | ${(f.rps / reference.rps).toFixed(3)}× | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.errors} |`);
  }
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function saveResults(section: string, data: unknown): void {
  const out = path.join(root, "bench-results");
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `${section}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(data, null, 2));
  console.log(`\nSaved ${path.relative(root, file)}`);
}

/** RSS of a process in MB (Linux ps). */
export function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(text)?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return NaN;
  }
}

/**
 * POSTGRES_URL (in a database of its own, dropped afterwards, so the bench never touches real
 * data); else a throwaway PostgreSQL cluster; else, or with BENCH_DATABASE=pglite, embedded PGlite.
 */
export async function openBenchDatabase(prefix = "bench"): Promise<{ url: string; label: string; stop: () => Promise<void> }> {
  const given = process.env.POSTGRES_URL ?? process.env.DATABASE_URL;
  if (given && process.env.BENCH_DATABASE !== "pglite") {
    const name = `${prefix}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client(given);
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(given);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      label: "PostgreSQL (POSTGRES_URL, fresh database)",
      stop: async () => {
        const c = new pg.Client(given);
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const bin = process.env.BENCH_DATABASE === "pglite" ? null : findPostgresBin();
  if (bin) {
    const server = await startThrowawayPostgres(bin);
    const version = path.basename(path.dirname(bin));
    return { url: server.url, label: `PostgreSQL ${version} (throwaway cluster)`, stop: server.stop };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lra-${prefix}-pglite-`));
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  return {
    url: embedded.url,
    label: "embedded PGlite 0.5 (over its socket server)",
    stop: async () => {
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
