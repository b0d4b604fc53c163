import pg from "pg";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";
import { log } from "@/lib/shared/log";
import { FINAL_STATUSES, getJob, JOB_FINISHED_CHANNEL, jobFinished, type Job } from "./queue";

export type JobWaiter = {
  /**
   * Waits up to `ms` for job `id` to reach a final state (completed, failed, cancelled) and returns
   * it as last read: still unfinished when the time ran out or `signal` aborted, null when the job
   * is unknown or was deleted meanwhile.
   */
  wait: (id: string, ms: number, signal?: AbortSignal) => Promise<Job | null>;
  /** Ends the LISTEN connection and the re-check; waiters still waiting return at their deadline. */
  close: () => Promise<void>;
  /** Whether the LISTEN connection is up, and how many waiters sleep until they hear of their job. */
  stats: () => { listening: boolean; sleeping: number };
};

export type JobWaiterOptions = {
  db: Queryable;
  /**
   * A fresh connection for LISTEN (one per process, shared by every waiter), or null to rely on
   * this process's own announcements and the re-check alone.
   */
  listen?: (() => pg.Client) | null;
  /** How often one query re-reads every waited-for job, in case a notification was lost. */
  recheckMs: number;
};

const MAX_RECONNECT_DELAY_MS = 5_000;
const FINAL = new Set<string>(FINAL_STATUSES);

/**
 * Long-polls on jobs without polling the database. A waiter reads its job once, then sleeps until
 * it hears that the job finished, and reads it once more: a long-poll costs two queries whatever
 * its length. It hears:
 * - `NOTIFY agent_job_finished` (finishJobs in agent/jobs/queue.ts sends one at commit for every job
 *   reaching a final state, in whichever process finished it) on ONE LISTEN connection per process,
 *   opened on the first wait and shared by all waiters. When that connection is lost it is opened
 *   again (backing off up to 5 s) while anyone waits, and every waiter then reads its job again:
 *   notifications sent while nobody listened are lost.
 * - `jobFinished`, the same announcement within this process: PGlite served over its socket hands
 *   a notification only to the connection that sent it, so with the embedded database this is what
 *   wakes a waiter when this process's workers finish the job (a single-process deployment).
 * - A safety re-check every `recheckMs` (JOB_WAIT_RECHECK_MS, default 5 s): one query for all the
 *   jobs waited on in this process, waking those that finished. A lost notification, or a job
 *   another process finished on PGlite, thus delays an answer by at most that long, never to the
 *   end of the wait.
 */
export function createJobWaiter({ db, listen = null, recheckMs }: JobWaiterOptions): JobWaiter {
  type Waiter = { woken: boolean; resolve: (() => void) | null };
  const waiters = new Map<string, Set<Waiter>>();
  let closed = false;
  let sleeping = 0;

  const wake = (w: Waiter) => {
    w.woken = true;
    w.resolve?.();
  };
  const wakeId = (id: string) => waiters.get(id)?.forEach(wake);
  const wakeAll = () => waiters.forEach((set) => set.forEach(wake));
  jobFinished.on("finished", wakeId);

  // The safety re-check: one query per tick for every job waited on here, while anyone waits.
  let ticker: NodeJS.Timeout | null = null;
  let checking = false;
  const recheck = async () => {
    if (checking || waiters.size === 0) return;
    checking = true;
    try {
      const ids = [...waiters.keys()];
      const { rows } = await db.query<{ id: string }>("SELECT id FROM agent.jobs WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'running')", [ids]);
      const unfinished = new Set(rows.map((r) => r.id));
      for (const id of ids) if (!unfinished.has(id)) wakeId(id); // finished, or deleted
    } catch (err) {
      log.warn("job wait re-check failed", { error: err });
    } finally {
      checking = false;
    }
  };
  const startTicker = () => {
    if (ticker || closed) return;
    ticker = setInterval(() => void recheck(), recheckMs);
    ticker.unref();
  };
  const stopTicker = () => {
    if (ticker) clearInterval(ticker);
    ticker = null;
  };

  // The LISTEN connection.
  let listener: pg.Client | null = null;
  let connecting = false;
  let failures = 0;
  let retry: NodeJS.Timeout | null = null;
  const ensureListening = () => {
    if (!listen || closed || listener || connecting || retry) return;
    connecting = true;
    const client = listen();
    let lost = false;
    const onLost = (err?: unknown) => {
      if (lost) return;
      lost = true;
      connecting = false;
      if (listener === client) listener = null;
      client.end().catch(() => undefined);
      if (closed) return;
      log.warn("job notifications: LISTEN connection lost; waiters fall back to the re-check until it is back", { error: err });
      // Reconnect while anyone waits; otherwise the next wait opens it again.
      if (waiters.size > 0) {
        const delay = Math.min(MAX_RECONNECT_DELAY_MS, 100 * 2 ** failures++);
        retry = setTimeout(() => {
          retry = null;
          ensureListening();
        }, delay);
        retry.unref();
      }
    };
    client.on("notification", (n) => {
      if (n.channel === JOB_FINISHED_CHANNEL && n.payload) wakeId(n.payload);
    });
    client.on("error", onLost);
    client.on("end", () => onLost());
    client
      .connect()
      .then(() => client.query(`LISTEN ${JOB_FINISHED_CHANNEL}`))
      .then(() => {
        connecting = false;
        if (lost) return;
        if (closed) {
          onLost();
          return;
        }
        listener = client;
        failures = 0;
        // Whatever finished before this connection listened was announced to nobody: read again.
        wakeAll();
      })
      .catch(onLost);
  };

  return {
    async wait(id, ms, signal) {
      if (!isUuid(id)) return null;
      const waiter: Waiter = { woken: false, resolve: null };
      // Registered before the first read, so an announcement between the read and the sleep counts.
      let set = waiters.get(id);
      if (!set) waiters.set(id, (set = new Set()));
      set.add(waiter);
      ensureListening();
      startTicker();
      const deadline = Date.now() + ms;
      try {
        for (;;) {
          waiter.woken = false;
          const job = await getJob({ db, id });
          if (!job || FINAL.has(job.status) || Date.now() >= deadline || signal?.aborted) return job;
          sleeping++;
          await new Promise<void>((resolve) => {
            let settled = false;
            const done = () => {
              if (settled) return;
              settled = true;
              clearTimeout(timer);
              signal?.removeEventListener("abort", done);
              waiter.resolve = null;
              sleeping--;
              resolve();
            };
            const timer = setTimeout(done, deadline - Date.now());
            signal?.addEventListener("abort", done, { once: true });
            waiter.resolve = done;
            if (waiter.woken) done();
          });
          if (signal?.aborted) return job;
        }
      } finally {
        set.delete(waiter);
        if (set.size === 0 && waiters.get(id) === set) waiters.delete(id);
        if (waiters.size === 0) stopTicker();
      }
    },
    stats: () => ({ listening: listener !== null, sleeping }),
    async close() {
      closed = true;
      jobFinished.off("finished", wakeId);
      stopTicker();
      if (retry) clearTimeout(retry);
      retry = null;
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
    },
  };
}

/** A LISTEN connection with the settings of `db` when it is a pg pool; null otherwise. */
export function listenConnectionOf(db: Queryable): (() => pg.Client) | null {
  // keepAlive: a connection a middlebox dropped silently is noticed (the re-check covers the meantime).
  return db instanceof pg.Pool ? () => new pg.Client({ ...db.options, keepAlive: true }) : null;
}
