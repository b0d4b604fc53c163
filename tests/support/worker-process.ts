/**
 * A stand-alone worker process for the queue tests: it runs the agent's real workers against
 * POSTGRES_URL with a handler that records each execution and then waits HANDLER_MS. The tests
 * start two of these to share a queue, and kill one mid-job to see its lease run out.
 * GATE_PROCESSES=N holds every job, once recorded, until N processes have each recorded one: a
 * condition, so "both processes did some of the work" holds however slowly the second one starts.
 */
import { createPool } from "../../lib/db/pool";
import { startWorkers } from "../../agent/jobs/worker";

const db = createPool({ url: process.env.POSTGRES_URL!, max: 4 });
const handlerMs = Number(process.env.HANDLER_MS ?? 50);
const gateProcesses = Number(process.env.GATE_PROCESSES ?? 0);

async function gate(signal: AbortSignal): Promise<void> {
  while (gateProcesses > 0 && !signal.aborted) {
    const { rows } = await db.query<{ n: number }>("SELECT count(DISTINCT split_part(worker, '/', 1))::int AS n FROM test_executions");
    if (rows[0]!.n >= gateProcesses) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const workers = startWorkers({
  db,
  count: Number(process.env.WORKERS ?? 2),
  leaseSeconds: Number(process.env.LEASE_SECONDS ?? 30),
  pollMs: 50,
  handlers: {
    literature: async (job, { workerId, signal }) => {
      await db.query("INSERT INTO test_executions (job_id, worker) VALUES ($1, $2)", [job.id, workerId]);
      await gate(signal);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, handlerMs);
        signal.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))));
      });
      return { doneBy: workerId };
    },
  },
});
console.log(`READY ${workers.processId}`);
process.on("SIGTERM", () => {
  void workers.stop().then(() => db.end()).then(() => process.exit(0));
});
