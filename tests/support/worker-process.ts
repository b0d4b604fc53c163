/**
 * A stand-alone worker process for the queue tests: it runs the agent's real workers against
 * POSTGRES_URL with a literature handler that records each execution and then waits HANDLER_MS.
 * The tests start two of these to share a queue, and kill one mid-job to see its lease run out.
 * GATE_PROCESSES=N holds every job, once recorded, until N processes have each recorded one: a
 * condition, so "both processes did some of the work" holds however slowly either one runs.
 * HOLD=1 holds every job, once recorded, until the test releases it (a row in test_releases), so
 * a test decides when a worker slot frees up instead of guessing how long a job takes.
 */
import { createPool } from "../../lib/shared/db/pool";
import type { JobResult } from "../../agent/jobs/kinds";
import { startWorkers } from "../../agent/jobs/worker";

const db = createPool({ url: process.env.POSTGRES_URL!, max: 4 });
const handlerMs = Number(process.env.HANDLER_MS ?? 50);
const gateProcesses = Number(process.env.GATE_PROCESSES ?? 0);
const hold = process.env.HOLD === "1";

/** Re-reads `holds` until it is false or the job is aborted. */
async function waitWhile(holds: () => Promise<boolean>, signal: AbortSignal): Promise<void> {
  while (!signal.aborted && (await holds())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const workers = startWorkers({
  db,
  count: Number(process.env.WORKERS ?? 2),
  leaseSeconds: Number(process.env.LEASE_SECONDS ?? 30),
  pollMs: 50,
  handlers: {
    literature: async (job, { workerId, signal }) => {
      await db.query("INSERT INTO test_executions (job_id, worker) VALUES ($1, $2)", [job.id, workerId]);
      if (gateProcesses > 0) {
        await waitWhile(async () => {
          const { rows } = await db.query<{ n: number }>("SELECT count(DISTINCT split_part(worker, '/', 1))::int AS n FROM test_executions");
          return rows[0]!.n < gateProcesses;
        }, signal);
      }
      if (hold) await waitWhile(async () => (await db.query("SELECT 1 FROM test_releases WHERE job_id = $1", [job.id])).rowCount === 0, signal);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, handlerMs);
        signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))));
      });
      // The queue is under test here, not the engine: the result only says who ran the job.
      return { doneBy: workerId } as unknown as JobResult<"literature">;
    },
  },
});
console.log(`READY ${workers.processId}`);
process.on("SIGTERM", () => {
  void workers.stop().then(() => db.end()).then(() => process.exit(0));
});
