import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { agentMigrations } from "@/agent/db/migrations";
import { cancelJob, claimJob, enqueueJob, getJob } from "@/agent/jobs/queue";
import { runMigrations } from "@/lib/db/migrate";
import { createTestDatabase, databaseKind, NEEDS_SERVER } from "../support/database";

const root = path.resolve(import.meta.dirname, "../..");

function startWorkerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/support/worker-process.ts")], {
    cwd: root,
    env: { ...process.env, LOG_SILENT: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("READY") && resolve(child));
    child.once("exit", (code) => reject(new Error(`worker exited ${code}: ${err}`)));
  });
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out waiting");
}

describe("the agent's job queue", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    await pool.query("DROP SCHEMA IF EXISTS agent CASCADE");
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
    await pool.query("CREATE TABLE IF NOT EXISTS test_executions (job_id uuid NOT NULL, worker text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())");
  });
  afterEach(async () => {
    // Wait for each process to be gone: one still dying could claim the next test's job (with its
    // own long lease) between the kill and its exit.
    await Promise.all(
      children.splice(0).map((child) =>
        child.exitCode !== null || child.signalCode !== null ? undefined : new Promise<void>((resolve) => (child.once("exit", () => resolve()), child.kill("SIGKILL"))),
      ),
    );
    await pool.query("DELETE FROM agent.jobs; DELETE FROM test_executions");
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it("gives jobs unguessable ids and answers unknown ids with null", async () => {
    const job = await enqueueJob({ db: pool, kind: "literature", input: { question: "q" } });
    expect(job.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await getJob({ db: pool, id: "not-a-uuid" })).toBeNull();
    expect(await cancelJob({ db: pool, id: job.id })).toBe("cancelled");
    expect(await claimJob({ db: pool, workerId: "w", kinds: ["literature"], leaseSeconds: 30 })).toBeNull();
  });

  it("shares the work of two agent processes on one database: every job done exactly once", async ({ skip }) => {
    skip(databaseKind() === "pglite", NEEDS_SERVER);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await enqueueJob({ db: pool, kind: "literature", input: { i } })).id);
    // Each job, once taken, waits until both processes have taken one: however slowly the second
    // starts on a busy machine, the first cannot finish the queue alone.
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "3", HANDLER_MS: "40", GATE_PROCESSES: "2" }));
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "3", HANDLER_MS: "40", GATE_PROCESSES: "2" }));
    await until(async () => (await pool.query("SELECT count(*)::int AS n FROM agent.jobs WHERE status = 'completed'")).rows[0].n === 40, 30_000);
    const { rows } = await pool.query("SELECT job_id, count(*)::int AS n FROM test_executions GROUP BY job_id");
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const processes = await pool.query("SELECT DISTINCT split_part(worker, '/', 1) AS p FROM test_executions");
    expect(processes.rows.length).toBe(2); // both processes did some of the work
    const attempts = await pool.query("SELECT max(attempts)::int AS a FROM agent.jobs");
    expect(attempts.rows[0].a).toBe(1);
  });

  it("picks up the job of a worker killed mid-job once its lease runs out", async () => {
    const job = await enqueueJob({ db: pool, kind: "literature", input: { slow: true } });
    const doomed = await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "1", HANDLER_MS: "60000", LEASE_SECONDS: "2" });
    children.push(doomed);
    await until(async () => (await getJob({ db: pool, id: job.id }))?.status === "running", 10_000);
    const { rows: lease } = await pool.query("SELECT locked_until FROM agent.jobs WHERE id = $1", [job.id]);
    doomed.kill("SIGKILL");
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "1", HANDLER_MS: "50", LEASE_SECONDS: "2" }));
    await until(async () => (await getJob({ db: pool, id: job.id }))?.status === "completed", 20_000);
    const done = await getJob({ db: pool, id: job.id });
    expect(done!.attempts).toBe(2);
    const { rows } = await pool.query("SELECT worker, at FROM test_executions WHERE job_id = $1 ORDER BY at", [job.id]);
    expect(rows).toHaveLength(2);
    // The second worker took it only once the dead worker's lease had run out.
    expect((rows[1].at as Date).getTime()).toBeGreaterThanOrEqual((lease[0].locked_until as Date).getTime() - 5);
    expect(new Set(rows.map((r) => r.worker.split("/")[0])).size).toBe(2);
  });
});
