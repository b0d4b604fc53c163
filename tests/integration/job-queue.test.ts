import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { agentMigrations } from "@/agent/db/migrations";
import { InvalidJobInputError } from "@/agent/jobs/kinds";
import { cancelConversation, createTurn, finishTurn, getConversation, setRunState } from "@/agent/deep-research/store";
import { cancelJob, cancelTurnJobs, claimJob, completeJob, enqueueJob, extendLease, getJob, jobFinished, type JobLane } from "@/agent/jobs/queue";
import { withTransaction } from "@/lib/shared/db/transaction";
import { runMigrations } from "@/lib/shared/db/migrate";
import { createPool } from "@/lib/shared/db/pool";
import { createTestDatabase, databaseKind, NEEDS_SERVER } from "../support/database";
import { until } from "../support/until";

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


describe("the agent's job queue", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // The project's pool: an idle client the server drops (the database's forced drop, a fast
    // shutdown) is logged, not an unhandled error that fails the run (seen once in the stress runs).
    pool = createPool({ url: database.url, max: 4 });
    await pool.query("DROP SCHEMA IF EXISTS agent CASCADE");
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
    await pool.query("CREATE TABLE IF NOT EXISTS test_executions (job_id uuid NOT NULL, worker text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())");
    await pool.query("CREATE TABLE IF NOT EXISTS test_releases (job_id uuid PRIMARY KEY)");
  });
  afterEach(async () => {
    // Wait for each process to be gone: one still dying could claim the next test's job (with its
    // own long lease) between the kill and its exit.
    await Promise.all(
      children.splice(0).map((child) =>
        child.exitCode !== null || child.signalCode !== null ? undefined : new Promise<void>((resolve) => (child.once("exit", () => resolve()), child.kill("SIGKILL"))),
      ),
    );
    await pool.query("DELETE FROM agent.jobs; DELETE FROM agent.dr_conversations; DELETE FROM test_executions; DELETE FROM test_releases");
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const literatureJob = (question: string, lane: JobLane) => enqueueJob({ db: pool, kind: "literature", input: { question }, lane });
  /** The jobs the worker processes started, in the order they started them. */
  const started = async () => (await pool.query<{ job_id: string }>("SELECT job_id FROM test_executions ORDER BY at, job_id")).rows.map((r) => r.job_id);

  it("gives jobs unguessable ids and answers unknown ids with null", async () => {
    const job = await literatureJob("q", "paid");
    expect(job.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await getJob({ db: pool, id: "not-a-uuid" })).toBeNull();
    expect(await cancelJob({ db: pool, id: job.id })).toBe("cancelled");
    expect(await claimJob({ db: pool, workerId: "w", kinds: ["literature"], leaseSeconds: 30 })).toBeNull();
  });

  it("shares the work of two agent processes on one database: every job done exactly once", async ({ skip }) => {
    skip(databaseKind() === "pglite", NEEDS_SERVER);
    // Both processes are ready before the jobs arrive, and each job, once taken, waits until both
    // processes have taken one: however slowly either runs on a busy machine, neither can finish
    // the queue alone.
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "3", HANDLER_MS: "40", GATE_PROCESSES: "2" }));
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "3", HANDLER_MS: "40", GATE_PROCESSES: "2" }));
    for (let i = 0; i < 40; i++) await literatureJob(`q ${i}`, "paid");
    await until(async () => (await pool.query("SELECT count(*)::int AS n FROM agent.jobs WHERE status = 'completed'")).rows[0].n === 40);
    const { rows } = await pool.query("SELECT job_id, count(*)::int AS n FROM test_executions GROUP BY job_id");
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    const processes = await pool.query("SELECT DISTINCT split_part(worker, '/', 1) AS p FROM test_executions");
    expect(processes.rows.length).toBe(2); // both processes did some of the work
    const attempts = await pool.query("SELECT max(attempts)::int AS a FROM agent.jobs");
    expect(attempts.rows[0].a).toBe(1);
  });

  it("picks up the job of a worker killed mid-job once its lease runs out", async () => {
    const job = await literatureJob("slow", "paid");
    const doomed = await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "1", HANDLER_MS: "60000", LEASE_SECONDS: "2" });
    children.push(doomed);
    // Killed once its handler has started (its execution recorded), not merely once it claimed the
    // job: a kill between the claim and the handler's first write left one execution, not two.
    await until(async () => (await pool.query("SELECT 1 FROM test_executions WHERE job_id = $1", [job.id])).rows.length === 1);
    const { rows: lease } = await pool.query("SELECT locked_until FROM agent.jobs WHERE id = $1", [job.id]);
    doomed.kill("SIGKILL");
    // Its own lease is long: however slowly it runs, it keeps the job it took over (one more attempt, not two).
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "1", HANDLER_MS: "50", LEASE_SECONDS: "30" }));
    await until(async () => (await getJob({ db: pool, id: job.id }))?.status === "completed");
    const done = await getJob({ db: pool, id: job.id });
    expect(done!.attempts).toBe(2);
    const { rows } = await pool.query("SELECT worker, at FROM test_executions WHERE job_id = $1 ORDER BY at", [job.id]);
    expect(rows).toHaveLength(2);
    // The second worker took it only once the dead worker's lease had run out.
    expect((rows[1].at as Date).getTime()).toBeGreaterThanOrEqual((lease[0].locked_until as Date).getTime() - 5);
    expect(new Set(rows.map((r) => r.worker.split("/")[0])).size).toBe(2);
  });

  it("takes a paid job before 500 free ones queued earlier, and a premium key's between: the next job any worker takes", async () => {
    const free = [];
    for (let i = 0; i < 500; i++) free.push(await literatureJob(`free ${i}`, "free"));
    const premium = await literatureJob("premium", "premium");
    const paid = await literatureJob("paid", "paid");
    const claim = () => claimJob({ db: pool, workerId: "w", kinds: ["literature"], leaseSeconds: 30 });
    expect((await claim())?.id).toBe(paid.id);
    expect((await claim())?.id).toBe(premium.id);
    // Within a lane, oldest first.
    expect((await claim())?.id).toBe(free[0]!.id);
    expect((await claim())?.id).toBe(free[1]!.id);
  });

  it("gives a paid job the first worker slot that frees up while every worker is busy with free work and 500 more wait", async ({ skip }) => {
    skip(databaseKind() === "pglite", NEEDS_SERVER);
    // Two workers, each holding a free job until the test releases it.
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "2", HANDLER_MS: "0", HOLD: "1" }));
    const free = [];
    for (let i = 0; i < 502; i++) free.push(await literatureJob(`free ${i}`, "free"));
    await until(async () => (await started()).length === 2);
    const paid = await literatureJob("paid", "paid");
    const [first] = await started();
    await pool.query("INSERT INTO test_releases (job_id) VALUES ($1)", [first]);
    // The released worker's next job is the paid one; the other worker still holds its free job.
    await until(async () => (await started()).length === 3);
    expect((await started())[2]).toBe(paid.id);
    expect(free.slice(0, 2).map((j) => j.id).sort()).toEqual((await started()).slice(0, 2).sort());
  });

  it("refuses to queue a job whose input does not fit its kind, and fails one found in the table that way instead of running it", async ({ skip }) => {
    skip(databaseKind() === "pglite", NEEDS_SERVER);
    await expect(enqueueJob({ db: pool, kind: "literature", input: { mode: "fast" } as never, lane: "paid" })).rejects.toThrow(InvalidJobInputError);
    expect((await pool.query("SELECT count(*)::int AS n FROM agent.jobs")).rows[0].n).toBe(0);
    // As an older version or a hand-written row might have left it.
    const { rows } = await pool.query("INSERT INTO agent.jobs (id, kind, status, input, priority) VALUES (gen_random_uuid(), 'literature', 'queued', '{\"i\": 1}', 2) RETURNING id");
    children.push(await startWorkerProcess({ POSTGRES_URL: database.url, WORKERS: "1", HANDLER_MS: "0" }));
    await until(async () => (await getJob({ db: pool, id: rows[0].id }))?.status === "failed");
    expect((await getJob({ db: pool, id: rows[0].id }))?.error).toBe("The job's input is not valid");
    expect(await started()).toEqual([]);
  });

  it("cancels a deep-research turn through the queue in one transaction: the worker holding its job loses the lease, and waiters hear of it once committed", async () => {
    const turn = (await createTurn({ db: pool, objective: "telomeres" }))!;
    const job = await enqueueJob({ db: pool, kind: "deep_research", input: { messageId: turn.messageId }, lane: "paid" });
    expect((await claimJob({ db: pool, workerId: "holder", kinds: ["deep_research"], leaseSeconds: 30 }))?.id).toBe(job.id);
    // Announced only once committed: not inside the transaction, never after a rollback.
    let announced = false;
    const announce = (id: string) => void (id === job.id && (announced = true));
    jobFinished.on("finished", announce);
    await expect(
      withTransaction(pool, async (tx) => {
        expect(await cancelTurnJobs({ db: tx, kind: "deep_research", messageIds: [turn.messageId] })).toEqual([job.id]);
        expect(announced).toBe(false);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    jobFinished.off("finished", announce);
    expect(announced).toBe(false);
    expect(await getJob({ db: pool, id: job.id })).toMatchObject({ status: "running", lockedBy: "holder" });
    // A waiter in this process reads the job when told it finished: it must find it finished.
    const heard = new Promise<string | undefined>((resolve) => {
      const listener = (id: string) => {
        if (id !== job.id) return;
        jobFinished.off("finished", listener);
        void getJob({ db: pool, id }).then((j) => resolve(j?.status));
      };
      jobFinished.on("finished", listener);
    });
    expect(await cancelConversation({ db: pool, conversationId: turn.conversationId })).toBe(true);
    expect(await heard).toBe("cancelled");
    const cancelled = await getJob({ db: pool, id: job.id });
    expect(cancelled).toMatchObject({ status: "cancelled", lockedBy: null });
    // The holder's next write finds the job gone, and writes nothing.
    expect(await extendLease({ db: pool, id: job.id, workerId: "holder", leaseSeconds: 30 })).toBe(false);
    expect(await completeJob({ db: pool, id: job.id, workerId: "holder", result: { skipped: true } })).toBe(false);
    expect((await getJob({ db: pool, id: job.id }))?.status).toBe("cancelled");
    const conversation = await getConversation({ db: pool, conversationId: turn.conversationId });
    expect(conversation).toMatchObject({ status: "cancelled", turns: [expect.objectContaining({ status: "cancelled" })] });
    expect(await cancelConversation({ db: pool, conversationId: "00000000-0000-4000-8000-000000000000" })).toBe(false);
  });

  // Deep research writes a turn, then its conversation (cancelConversation does, in one
  // transaction). A write that locked the conversation first and then the turn would deadlock with
  // a cancel in between: PostgreSQL kills one of the two, and the caller sees a 500 (seen once in a
  // stress run, from the cancel route). Each test holds the cancel's first lock until the run's
  // write is waiting on it, so the interleaving is certain, not a matter of timing.
  describe.skipIf(databaseKind() === "pglite")(`deep research's writes take the turn, then its conversation (${NEEDS_SERVER})`, () => {
    const waitingOnLocks = async () =>
      (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]!.n;

    it.each([
      ["a run's state change", (t: { conversationId: string; messageId: string }) => setRunState({ db: pool, ...t, status: "running", sessionStatus: "Iteration 1 of 3" })],
      ["a turn's completion", (t: { conversationId: string; messageId: string }) => finishTurn({ db: pool, messageId: t.messageId, reply: "r", citations: [], sessionStatus: "done", worldState: { objectives: [], findings: [], hypotheses: [], openQuestions: [], sources: [], axes: [], contradictions: [], runs: [], messageIds: [] } })],
    ])("%s that meets a cancel in progress waits for it, and neither fails", async (_name, write) => {
      const turn = (await createTurn({ db: pool, objective: "telomeres" }))!;
      await pool.query("UPDATE agent.dr_turns SET status = 'running' WHERE message_id = $1", [turn.messageId]);
      const canceller = await pool.connect();
      try {
        await canceller.query("BEGIN");
        // The cancel's first statement: the turn is locked.
        await canceller.query("UPDATE agent.dr_turns SET status = 'cancelled', updated_at = now() WHERE message_id = $1", [turn.messageId]);
        const written = write(turn);
        written.catch(() => undefined); // awaited below; not an unhandled rejection if the cancel fails first
        await until(async () => (await waitingOnLocks()) > 0, { what: "the run's write to wait on the cancel" });
        // Its last: the conversation. A write holding it now would make this a deadlock.
        await canceller.query("UPDATE agent.dr_conversations SET status = 'cancelled', active_message_id = NULL, updated_at = now() WHERE id = $1", [turn.conversationId]);
        await canceller.query("COMMIT");
        await written;
      } finally {
        canceller.release();
      }
      expect(await getConversation({ db: pool, conversationId: turn.conversationId })).toMatchObject({ status: "cancelled", turns: [expect.objectContaining({ status: "cancelled" })] });
    });
  });
});
