import type { EngineStep } from "@/lib/shared/contracts";
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Queryable } from "@/lib/shared/db";
import type { Caller } from "../http/context";
import { afterCommit } from "@/lib/shared/db/transaction";
import { isUuid } from "@/lib/shared/db/uuid";
import { parseJobInput, type JobInputOf, type JobKind, type JobResult } from "./kinds";

export type { JobKind } from "./kinds";

/**
 * The agent's job queue, in Postgres. Workers claim jobs with FOR UPDATE SKIP LOCKED under a lease:
 * several agent processes on one database share the work without duplicates, and the jobs of a
 * worker that died are taken again once its lease has run out (up to `max_attempts` times).
 * Every write of a running job is conditional on the caller still holding it, so a worker that lost
 * its lease (it stalled, another took over) cannot overwrite the new owner's work; cancelling
 * (cancelJob, cancelTurnJobs, withdrawJob) takes the lease away, so the holder's next write finds
 * it gone and stops.
 * Jobs are taken by lane first (paid work before a premium key's, both before free public chat),
 * then oldest first: a burst of free work never delays paid work beyond the job a worker holds.
 */

export type JobStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

/**
 * Who a job is for, as the claim orders it. `paid`: the gateway's service key (someone paid for
 * this very request, and a deep-research authorization is waiting on it); `premium`: a premium
 * key; `free`: the public chat API.
 */
const JOB_LANES = { paid: 2, premium: 1, free: 0 } as const;
export type JobLane = keyof typeof JOB_LANES;

/** The lane of work a caller starts. */
export function laneOf(caller: Caller): JobLane {
  return caller.kind === "service" ? "paid" : caller.kind === "premium" ? "premium" : "free";
}

type JobOf<K extends JobKind> = {
  id: string;
  kind: K;
  status: JobStatus;
  /** As stored: the worker checks it against the kind's schema before its handler sees it. */
  input: unknown;
  result: JobResult<K> | null;
  error: string | null;
  progress: { stage: string; percent: number; step?: EngineStep } | null;
  attempts: number;
  maxAttempts: number;
  /** Who started it: the owner of private work and deep research (agent/http/access.ts `ownerOf`), else the caller's kind. */
  caller: string | null;
  lockedBy: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

/** A job as read from the queue; its kind tells its result's type. */
export type Job<K extends JobKind = JobKind> = { [P in K]: JobOf<P> }[K];

/** The states a job never leaves: what a long-poll waits for. */
export const FINAL_STATUSES: readonly JobStatus[] = ["completed", "failed", "cancelled"];

/**
 * The Postgres channel on which every job that reaches a final state is announced, with its id as
 * the payload (sent at commit, to every agent process listening: agent/jobs/wait.ts). The id says
 * nothing beyond itself, and the channel is inside the database.
 */
export const JOB_FINISHED_CHANNEL = "agent_job_finished";

/**
 * The same announcement within this process: PGlite served over its socket delivers a
 * notification only to the connection that sent it, so in a single-process deployment on the
 * embedded database this is how a waiter hears of a job this process finished.
 */
export const jobFinished = new EventEmitter<{ finished: [id: string] }>();
jobFinished.setMaxListeners(0);

/**
 * Runs `update`, an UPDATE of agent.jobs into a final state that ends in `RETURNING id`, and
 * announces each job it finished: pg_notify in the same statement (delivered at commit) and
 * jobFinished here. Every write that finishes a job goes through this. Returns the ids.
 */
async function finishJobs(db: Queryable, update: string, params: unknown[] = []): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH finished AS (${update}) SELECT id, pg_notify('${JOB_FINISHED_CHANNEL}', id::text) FROM finished`,
    params,
  );
  const ids = rows.map((r) => r.id);
  // Inside a transaction the announcement waits for the commit, as pg_notify's does.
  afterCommit(db, () => ids.forEach((id) => jobFinished.emit("finished", id)));
  return ids;
}

const COLUMNS = "id, kind, status, input, result, error, progress, attempts, max_attempts, caller, locked_by, created_at, started_at, finished_at";

/**
 * A row of agent.jobs as COLUMNS reads it (the table's CHECK constraints hold kind and status to
 * their values; a completed job's result was written by its kind's handler, kinds.ts, and a failed
 * one's holds its JobFailure detail, which its readers check with a guard).
 */
type JobRow<K extends JobKind = JobKind> = {
  id: string;
  kind: K;
  status: JobStatus;
  input: unknown;
  result: JobResult<K> | null;
  error: string | null;
  progress: Job["progress"];
  attempts: number;
  max_attempts: number;
  caller: string | null;
  locked_by: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

function toJob<K extends JobKind>(r: JobRow<K>): Job<K> {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    input: r.input,
    result: r.result ?? null,
    error: r.error,
    progress: r.progress,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    caller: r.caller,
    lockedBy: r.locked_by,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/** Whether `job` is of `kind` (its result then is that kind's). */
function isOfKind<K extends JobKind>(job: JobOf<JobKind>, kind: K): job is Job<K> {
  return job.kind === kind;
}

/**
 * Queues a job in its lane; its id is a random UUID (v4), unguessable. Throws InvalidJobInputError
 * when `input` does not fit the kind's schema (agent/jobs/kinds.ts): nothing is queued.
 */
export async function enqueueJob<K extends JobKind>({
  db,
  kind,
  input,
  lane,
  caller = null,
  maxAttempts = 3,
}: {
  db: Queryable;
  kind: K;
  input: JobInputOf<K>;
  lane: JobLane;
  caller?: string | null;
  maxAttempts?: number;
}): Promise<Job<K>> {
  const { rows } = await db.query<JobRow<K>>(
    `INSERT INTO agent.jobs (id, kind, status, input, caller, max_attempts, priority) VALUES ($1, $2, 'queued', $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [randomUUID(), kind, JSON.stringify(parseJobInput(kind, input)), caller, maxAttempts, JOB_LANES[lane]],
  );
  return toJob(rows[0]!);
}

export async function getJob({ db, id }: { db: Queryable; id: string }): Promise<Job | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<JobRow>(`SELECT ${COLUMNS} FROM agent.jobs WHERE id = $1`, [id]);
  return rows[0] ? toJob(rows[0]) : null;
}

/**
 * A job of `kind`, or null when it is unknown, of another kind, older than `maxAgeMs` (the
 * retention a status route keeps: past it the job reads as unknown before the sweep deletes it),
 * or, when `caller` is given, started by anyone else (indistinguishable from unknown on purpose).
 */
export async function getJobOfKind<K extends JobKind>({
  db,
  id,
  kind,
  maxAgeMs = Infinity,
  caller,
}: {
  db: Queryable;
  id: string;
  kind: K;
  maxAgeMs?: number;
  caller?: string;
}): Promise<Job<K> | null> {
  const job = await getJob({ db, id });
  if (!job || !isOfKind(job, kind) || Date.now() - job.createdAt.getTime() > maxAgeMs) return null;
  return caller === undefined || job.caller === caller ? job : null;
}

/**
 * Claims the next claimable job of `kinds`: queued, or running with an expired lease (its worker
 * died); the highest lane first, then the oldest. Returns null when there is none. Jobs out of
 * attempts are failed by failExhaustedJobs.
 */
export async function claimJob({
  db,
  workerId,
  kinds,
  leaseSeconds,
}: {
  db: Queryable;
  workerId: string;
  kinds: readonly JobKind[];
  leaseSeconds: number;
}): Promise<Job | null> {
  const { rows } = await db.query<JobRow>(
    `UPDATE agent.jobs
        SET status = 'running', locked_by = $1, locked_until = now() + make_interval(secs => $3),
            attempts = attempts + 1, started_at = coalesce(started_at, now()), updated_at = now()
      WHERE id = (
        SELECT id FROM agent.jobs
         WHERE kind = ANY($2::text[])
           AND (status = 'queued' OR (status = 'running' AND locked_until < now()))
           AND attempts < max_attempts
         ORDER BY priority DESC, created_at
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
      RETURNING ${COLUMNS}`,
    [workerId, kinds, leaseSeconds],
  );
  return rows[0] ? toJob(rows[0]) : null;
}

/** Keeps a running job's lease. Returns false when the worker no longer holds it. */
export async function extendLease({ db, id, workerId, leaseSeconds }: { db: Queryable; id: string; workerId: string; leaseSeconds: number }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE agent.jobs SET locked_until = now() + make_interval(secs => $3), updated_at = now()
      WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [id, workerId, leaseSeconds],
  );
  return (rowCount ?? 0) > 0;
}

export async function reportProgress({ db, id, workerId, stage, percent, step }: { db: Queryable; id: string; workerId: string; stage: string; percent: number; step?: EngineStep | undefined }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE agent.jobs SET progress = $3, updated_at = now() WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [id, workerId, JSON.stringify({ stage, percent: Math.max(0, Math.min(100, Math.round(percent))), ...(step ? { step } : {}) })],
  );
  return (rowCount ?? 0) > 0;
}

/** Finishes a job this worker holds. Returns false when it no longer held it (nothing written). */
export async function completeJob<K extends JobKind>({ db, id, workerId, result }: { db: Queryable; id: string; workerId: string; result: JobResult<K> }): Promise<boolean> {
  const finished = await finishJobs(
    db,
    `UPDATE agent.jobs SET status = 'completed', result = $3, progress = '{"stage":"done","percent":100}', locked_by = NULL, locked_until = NULL,
            finished_at = now(), updated_at = now()
      WHERE id = $1 AND locked_by = $2 AND status = 'running'
      RETURNING id`,
    [id, workerId, JSON.stringify(result)],
  );
  return finished.length > 0;
}

/**
 * Fails a job this worker holds, for good (the error is for the client: say nothing private in it).
 * `detail` goes in the result column, which no status route shows for a failed job.
 */
export async function failJob({ db, id, workerId, error, detail }: { db: Queryable; id: string; workerId: string; error: string; detail?: unknown }): Promise<boolean> {
  const finished = await finishJobs(
    db,
    `UPDATE agent.jobs SET status = 'failed', error = $3, result = $4, locked_by = NULL, locked_until = NULL, finished_at = now(), updated_at = now()
      WHERE id = $1 AND locked_by = $2 AND status = 'running'
      RETURNING id`,
    [id, workerId, error, detail === undefined ? null : JSON.stringify(detail)],
  );
  return finished.length > 0;
}

/** Ends a job as cancelled and takes its lease away: its holder's next write finds it gone and stops. */
const CANCEL = "status = 'cancelled', locked_by = NULL, locked_until = NULL, finished_at = coalesce(finished_at, now()), updated_at = now()";

/** Cancels a queued or running job. Returns its status afterwards, or null when unknown. */
export async function cancelJob({ db, id }: { db: Queryable; id: string }): Promise<JobStatus | null> {
  if (!isUuid(id)) return null;
  const cancelled = await finishJobs(db, `UPDATE agent.jobs SET ${CANCEL} WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`, [id]);
  if (cancelled.length > 0) return "cancelled";
  return (await getJob({ db, id }))?.status ?? null;
}

/**
 * Cancels the queued or running jobs of `kind` that run the turns `messageIds` (deep research).
 * Call it in the transaction that records the turns cancelled (withTransaction), so nobody sees
 * one without the other. Returns the ids of the jobs cancelled.
 */
export async function cancelTurnJobs({ db, kind, messageIds }: { db: Queryable; kind: "deep_research" | "private_deep_research"; messageIds: string[] }): Promise<string[]> {
  if (messageIds.length === 0) return [];
  return finishJobs(
    db,
    `UPDATE agent.jobs SET ${CANCEL} WHERE kind = $1 AND input->>'messageId' = ANY($2::text[]) AND status IN ('queued', 'running') RETURNING id`,
    [kind, messageIds],
  );
}

/**
 * Withdraws a job of `kinds` whatever its state, with `error` as its reason: a queued or running
 * one is cancelled (its holder stops), a finished one's result is discarded. Returns false when
 * there is no such job.
 */
export async function withdrawJob({ db, id, kinds, error }: { db: Queryable; id: string; kinds: readonly JobKind[]; error: string }): Promise<boolean> {
  if (!isUuid(id)) return false;
  const withdrawn = await finishJobs(db, `UPDATE agent.jobs SET ${CANCEL}, result = NULL, error = $3 WHERE id = $1 AND kind = ANY($2::text[]) RETURNING id`, [id, kinds, error]);
  return withdrawn.length > 0;
}

/** Fails jobs whose worker died on their last attempt (lease expired, no attempts left). */
export async function failExhaustedJobs({ db }: { db: Queryable }): Promise<number> {
  const failed = await finishJobs(
    db,
    `UPDATE agent.jobs SET status = 'failed', error = 'The job was interrupted too many times', locked_by = NULL, locked_until = NULL,
            finished_at = now(), updated_at = now()
      WHERE status = 'running' AND locked_until < now() AND attempts >= max_attempts
      RETURNING id`,
  );
  return failed.length;
}
