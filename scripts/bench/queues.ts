/**
 * `npm run bench -- queues`: the agent's hand-written Postgres queue against the maintained ones it
 * was weighed against (pg-boss 12, graphile-worker 0.18), on one throwaway PostgreSQL, each in a
 * database of its own, with the same work: 16 concurrent workers in one process, each job holding
 * its worker BENCH_QUEUE_HOLD_MS (20) as a job waiting on a source does. Measured: a job's wait
 * from enqueue to start on an idle queue (one at a time); 2,000 jobs queued at once, drained (jobs
 * per second); and a paid job's wait behind 500 free jobs queued at once, against the wait of the
 * last free one (what it would wait first-in-first-out). The two libraries are not dependencies of
 * the project (docs/decisions.md says why): install them apart and name the folder,
 * `npm i --prefix /tmp/queue-libs pg-boss@12 graphile-worker@0.18` then
 * `BENCH_QUEUE_LIBS=/tmp/queue-libs npm run bench -- queues`; without it only the agent's queue runs.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { agentMigrations } from "../../agent/db/migrations";
import type { JobResult } from "../../agent/jobs/kinds";
import { enqueueJob } from "../../agent/jobs/queue";
import { jobWakeups, startWorkers } from "../../agent/jobs/worker";
import { runMigrations } from "../../lib/shared/db/migrate";
import { createPool } from "../../lib/shared/db/pool";
import { findPostgresBin, startThrowawayPostgres } from "../../tests/support/postgres";
import { percentile, saveResults } from "./common";

const WORKERS = 16;
const HOLD_MS = Number(process.env.BENCH_QUEUE_HOLD_MS ?? 20);
const BURST = 2000;
const FREE_QUEUED = 500;

type Payload = { key: string };
/** One queue as the bench drives it: `paid` jobs go first where the queue has priorities. */
type QueueUnderTest = {
  name: string;
  start: (run: (payload: Payload) => Promise<void>) => Promise<void>;
  send: (payload: Payload, paid: boolean) => Promise<void>;
  stop: () => Promise<void>;
};

type QueueFigures = { queue: string; idleP50: number; idleP99: number; burstJobsPerSecond: number; paidWaitMs: number; lastFreeWaitMs: number };

export async function runQueuesBench(): Promise<void> {
  console.log(`\n## Job queues: the agent's against pg-boss and graphile-worker (${WORKERS} workers, jobs of ${HOLD_MS} ms)\n`);
  const bin = findPostgresBin();
  if (!bin) throw new Error("the queues bench needs the PostgreSQL server binaries (apt-get install postgresql)");
  const server = await startThrowawayPostgres(bin);
  const figures: QueueFigures[] = [];
  try {
    const admin = new pg.Pool({ connectionString: server.url, max: 1 });
    const databaseUrl = async (name: string) => {
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(server.url);
      url.pathname = `/${name}`;
      return url.toString();
    };
    const queues = [agentQueue(await databaseUrl("bench_agent"))];
    const libs = process.env.BENCH_QUEUE_LIBS;
    if (libs) queues.push(await pgBossQueue(libs, await databaseUrl("bench_pgboss")), await graphileQueue(libs, await databaseUrl("bench_graphile")));
    else console.log("(BENCH_QUEUE_LIBS unset: pg-boss and graphile-worker skipped)\n");
    await admin.end();
    for (const queue of queues) figures.push(await measure(queue));
  } finally {
    await server.stop();
  }
  const reference = figures[0]!;
  console.log("| queue | idle wait p50 ms | p99 ms | 2,000 at once: jobs/s | vs agent | paid wait behind 500 free, ms | last free's wait, ms |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const f of figures) {
    console.log(
      `| ${f.queue} | ${f.idleP50.toFixed(1)} | ${f.idleP99.toFixed(1)} | ${f.burstJobsPerSecond.toFixed(0)} | ${(f.burstJobsPerSecond / reference.burstJobsPerSecond).toFixed(2)}× | ${f.paidWaitMs.toFixed(0)} | ${f.lastFreeWaitMs.toFixed(0)} |`,
    );
  }
  saveResults("queues", { workers: WORKERS, holdMs: HOLD_MS, burst: BURST, freeQueued: FREE_QUEUED, figures });
}

async function measure(queue: QueueUnderTest): Promise<QueueFigures> {
  const sentAt = new Map<string, number>();
  const startedAt = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  await queue.start(async ({ key }) => {
    startedAt.set(key, performance.now());
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    waiting.get(key)?.();
  });
  const done = (key: string) => new Promise<void>((resolve) => waiting.set(key, resolve));
  const send = async (key: string, paid: boolean) => {
    sentAt.set(key, performance.now());
    await queue.send({ key }, paid);
  };
  const waitOf = (key: string) => startedAt.get(key)! - sentAt.get(key)!;
  try {
    // One at a time on an idle queue (five warm-up jobs).
    const idle: number[] = [];
    for (let i = 0; i < 45; i++) {
      const finished = done(`idle-${i}`);
      await send(`idle-${i}`, true);
      await finished;
      if (i >= 5) idle.push(waitOf(`idle-${i}`));
    }
    // A burst, queued at once (50 senders), drained.
    const burstStarted = performance.now();
    const drained = Promise.all(Array.from({ length: BURST }, (_, i) => done(`burst-${i}`)));
    for (let i = 0; i < BURST; i += 50) await Promise.all(Array.from({ length: Math.min(50, BURST - i) }, (_, j) => send(`burst-${i + j}`, false)));
    await drained;
    const burstJobsPerSecond = BURST / ((performance.now() - burstStarted) / 1000);
    // 500 free jobs queued at once, then a paid one.
    const allDone = Promise.all([...Array.from({ length: FREE_QUEUED }, (_, i) => done(`free-${i}`)), done("paid")]);
    for (let i = 0; i < FREE_QUEUED; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => send(`free-${i + j}`, false)));
    await send("paid", true);
    await allDone;
    const figures = {
      queue: queue.name,
      idleP50: percentile(idle, 50),
      idleP99: percentile(idle, 99),
      burstJobsPerSecond,
      paidWaitMs: waitOf("paid"),
      lastFreeWaitMs: Math.max(...Array.from({ length: FREE_QUEUED }, (_, i) => waitOf(`free-${i}`))),
    };
    console.log(`${queue.name}: measured`);
    return figures;
  } finally {
    await queue.stop();
  }
}

/** The agent's own queue, as the agent runs it (its defaults: 250 ms poll, in-process wake-ups). */
function agentQueue(url: string): QueueUnderTest {
  const db = createPool({ url, max: 20 });
  let stop = async () => undefined as void;
  return {
    name: "agent (hand-written)",
    start: async (run) => {
      await runMigrations(db, { schema: "agent", migrations: agentMigrations });
      const workers = startWorkers({
        db,
        count: WORKERS,
        leaseSeconds: 30,
        pollMs: 250,
        handlers: {
          chat: async (job) => {
            await run({ key: job.input.message });
            return {} as JobResult<"chat">; // the queue is measured, not the engine
          },
        },
      });
      stop = workers.stop;
    },
    send: async ({ key }, paid) => {
      await enqueueJob({ db, kind: "chat", input: { message: key, conversationId: null }, lane: paid ? "paid" : "free" });
      jobWakeups.emit("job");
    },
    stop: async () => {
      await stop();
      await db.end();
    },
  };
}

/** Imports `name` from the folder the libraries were installed in (they are not the project's). */
async function importFrom<T>(folder: string, name: string): Promise<T> {
  const resolved = createRequire(`${folder}/package.json`).resolve(name);
  return (await import(pathToFileURL(resolved).href)) as T;
}

async function pgBossQueue(folder: string, url: string): Promise<QueueUnderTest> {
  type Boss = {
    start: () => Promise<unknown>;
    stop: (o: { graceful: boolean }) => Promise<void>;
    createQueue: (n: string) => Promise<void>;
    work: (n: string, o: object, h: (jobs: { data: Payload }[]) => Promise<void>) => Promise<string>;
    send: (n: string, d: Payload, o: { priority: number }) => Promise<string | null>;
    on: (e: string, l: (err: unknown) => void) => void;
  };
  const { PgBoss } = await importFrom<{ PgBoss: new (o: object) => Boss }>(folder, "pg-boss");
  const boss = new PgBoss({ connectionString: url, max: 20 });
  boss.on("error", (err) => console.error("pg-boss", err));
  return {
    name: "pg-boss 12",
    start: async (run) => {
      await boss.start();
      await boss.createQueue("bench");
      // Its fastest documented poll (0.5 s). A batch of 16 run together: its fastest setting here
      // (16 workers of one job each drained about 32 jobs a second, one poll per worker per job).
      await boss.work("bench", { batchSize: WORKERS, pollingIntervalSeconds: 0.5 }, async (jobs) => void (await Promise.all(jobs.map((job) => run(job.data)))));
    },
    send: async (payload, paid) => void (await boss.send("bench", payload, { priority: paid ? 2 : 0 })),
    stop: () => boss.stop({ graceful: true }),
  };
}

async function graphileQueue(folder: string, url: string): Promise<QueueUnderTest> {
  type Runner = { stop: () => Promise<void> };
  type Utils = { migrate: () => Promise<void>; addJob: (t: string, p: Payload, o: { priority: number }) => Promise<unknown>; release: () => Promise<void> };
  const lib = await importFrom<{ run: (o: object) => Promise<Runner>; makeWorkerUtils: (o: object) => Promise<Utils>; Logger: new (f: () => () => void) => unknown }>(
    folder,
    "graphile-worker",
  );
  const logger = new lib.Logger(() => () => undefined); // it logs every job
  const utils = await lib.makeWorkerUtils({ connectionString: url, logger });
  let runner: Runner | undefined;
  return {
    name: "graphile-worker 0.18",
    start: async (run) => {
      await utils.migrate();
      runner = await lib.run({
        connectionString: url,
        concurrency: WORKERS,
        noHandleSignals: true,
        logger,
        pollInterval: 250,
        taskList: { bench: async (payload: unknown) => run(payload as Payload) },
      });
    },
    // graphile-worker runs lower numbers first.
    send: async (payload, paid) => void (await utils.addJob("bench", payload, { priority: paid ? -1 : 0 })),
    stop: async () => {
      await runner?.stop();
      await utils.release();
    },
  };
}
