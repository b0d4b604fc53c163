import type { EngineStep } from "@/lib/shared/contracts";
import { EventEmitter, setMaxListeners } from "node:events";
import { randomBytes } from "node:crypto";
import type { Queryable } from "@/lib/shared/db";
import { log } from "@/lib/shared/log";
import { InvalidJobInputError, parseJobInput, type JobInput, type JobKind, type JobResult } from "./kinds";
import { claimJob, completeJob, extendLease, failExhaustedJobs, failJob, reportProgress, type Job } from "./queue";
import { keysOf } from "@/lib/shared/narrow";

/**
 * An error whose message may be shown to the client as the job's `error`. `detail`, when given, is
 * kept in the failed job's row for the agent's own routes (e.g. the typed sources a search lacked);
 * the status routes never show it.
 */
export class JobFailure extends Error {
  readonly detail: unknown;
  constructor(message: string, { detail }: { detail?: unknown } = {}) {
    super(message);
    this.name = "JobFailure";
    this.detail = detail;
  }
}

type JobContext = {
  /** Aborted when the job was cancelled or this worker lost its lease: stop work, write nothing. */
  signal: AbortSignal;
  progress: (stage: string, percent: number, step?: EngineStep) => Promise<void>;
  workerId: string;
};

/** A job as its handler gets it: its input checked against its kind's schema. */
type HandledJob<K extends JobKind> = Omit<Job<K>, "input"> & { input: JobInput<K> };

export type JobHandler<K extends JobKind> = (job: HandledJob<K>, context: JobContext) => Promise<JobResult<K>>;

/** One handler per kind a process runs. */
export type JobHandlers = { [K in JobKind]?: JobHandler<K> };

/** Runs the handler of `job`'s kind on its input checked against the kind's schema. Throws InvalidJobInputError. */
async function runHandler<K extends JobKind>(handlers: JobHandlers, job: Job<K>, context: JobContext): Promise<JobResult<K>> {
  const handler = handlers[job.kind];
  if (!handler) throw new Error(`no handler for ${job.kind} jobs in this process`);
  return handler({ ...job, input: parseJobInput(job.kind, job.input) }, context);
}

/**
 * Announces, within this process, each progress a worker here recorded (the job's id): what a
 * route waiting for a job to reach a stage listens to (agent/jobs/wait-progress.ts).
 */
export const jobProgressed = new EventEmitter<{ progress: [id: string] }>();
jobProgressed.setMaxListeners(0);

/** Wakes this process's idle workers at once when a job is queued here (others poll). */
export const jobWakeups = new EventEmitter();
jobWakeups.setMaxListeners(0);

/** Idle workers other than the first re-check the queue this many times less often (they are woken instead). */
const IDLE_BACKUP_FACTOR = 8;

/**
 * Starts `count` workers running `handlers`. Each claims a job under a lease, renews the lease
 * while the handler runs (a third of the lease each time), and aborts the handler when the lease
 * is lost or the job was cancelled. A handler's JobFailure becomes the job's error; any other
 * error is logged and the job fails with a generic message (private work must leak nothing).
 * Jobs wait on sources, not on the CPU, so a process runs many at once; to keep an idle process
 * cheap, only the first worker polls the queue every `pollMs`. A job queued here wakes one idle
 * worker, and a worker that claims a job wakes the next, so a burst (from any process) is taken
 * up by as many workers as it needs, one claim query each.
 */
export function startWorkers({
  db,
  handlers,
  count,
  leaseSeconds,
  pollMs,
  sweeps = [],
}: {
  db: Queryable;
  handlers: JobHandlers;
  count: number;
  leaseSeconds: number;
  pollMs: number;
  /** Housekeeping run with the exhausted-job sweep (every 10 s, by one worker of the process). */
  sweeps?: (() => Promise<unknown>)[];
}): { stop: () => Promise<void>; processId: string } {
  const processId = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const kinds = keysOf(handlers);
  let running = true;
  const wake = new Set<() => void>();
  const wakeAll = () => wake.forEach((w) => w());
  const wakeOne = () => wake.values().next().value?.();
  jobWakeups.on("job", wakeOne);

  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake.add(done);
    });

  const runOne = async (workerId: string, job: Job) => {
    const controller = new AbortController();
    // One job's signal fans out to every source request it makes (deep mode makes dozens at once).
    setMaxListeners(0, controller.signal);
    const heartbeat = setInterval(() => {
      extendLease({ db, id: job.id, workerId, leaseSeconds })
        .then((held) => {
          if (!held) controller.abort(new Error("lease lost or job cancelled"));
        })
        .catch((err: unknown) => log.warn("job lease renewal failed", { jobId: job.id, error: err }));
    }, Math.max(250, (leaseSeconds * 1000) / 3));
    try {
      const result = await runHandler(handlers, job, {
        signal: controller.signal,
        workerId,
        progress: async (stage, percent, step) => {
          if (!(await reportProgress({ db, id: job.id, workerId, stage, percent, step }))) controller.abort(new Error("lease lost or job cancelled"));
          else jobProgressed.emit("progress", job.id);
        },
      });
      if (!controller.signal.aborted) await completeJob({ db, id: job.id, workerId, result });
    } catch (err) {
      if (controller.signal.aborted) return; // cancelled or taken over: the new state stands
      const message = err instanceof JobFailure ? err.message : err instanceof InvalidJobInputError ? "The job's input is not valid" : "The job failed unexpectedly";
      if (!(err instanceof JobFailure)) log.error("job failed", { jobId: job.id, kind: job.kind, error: err });
      const detail = err instanceof JobFailure ? err.detail : undefined;
      await failJob({ db, id: job.id, workerId, error: message, detail }).catch((e: unknown) => log.error("could not record a job failure", { jobId: job.id, error: e }));
    } finally {
      clearInterval(heartbeat);
    }
  };

  const loop = async (index: number) => {
    const workerId = `${processId}/${index}`;
    let sweepAt = 0;
    while (running) {
      try {
        if (index === 0 && Date.now() > sweepAt) {
          sweepAt = Date.now() + 10_000;
          await failExhaustedJobs({ db });
          for (const sweep of sweeps) await sweep();
        }
        const job = await claimJob({ db, workerId, kinds, leaseSeconds });
        if (job) {
          wakeOne(); // there may be more: the next idle worker looks
          await runOne(workerId, job);
        } else {
          await idle(pollMs * (index === 0 ? 1 : IDLE_BACKUP_FACTOR) * (0.75 + Math.random() / 2));
        }
      } catch (err) {
        log.error("job worker error", { workerId, error: err });
        await idle(pollMs * 4);
      }
    }
  };

  const loops = Array.from({ length: count }, (_, i) => loop(i));
  return {
    processId,
    stop: async () => {
      running = false;
      jobWakeups.off("job", wakeOne);
      wakeAll();
      await Promise.all(loops);
    },
  };
}
