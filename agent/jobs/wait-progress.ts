import type { Queryable } from "@/lib/shared/db";
import { FINAL_STATUSES, getJob, jobFinished, type Job } from "./queue";
import { jobProgressed } from "./worker";

const FINAL = new Set<string>(FINAL_STATUSES);

/**
 * Waits up to `ms` for job `id` to pass a stage (`reached(job)`) or to finish, and returns it as
 * last read (null when unknown). It wakes on this process's own announcements (a worker here
 * recorded progress, or finished the job) and re-reads the job every `recheckMs` for workers in
 * other processes. Short waits only: a paid start waits on its search this way.
 */
export async function waitForProgress({
  db,
  id,
  ms,
  reached,
  recheckMs = 200,
}: {
  db: Queryable;
  id: string;
  ms: number;
  reached: (job: Job) => boolean;
  recheckMs?: number;
}): Promise<Job | null> {
  const deadline = Date.now() + ms;
  let wake: (() => void) | null = null;
  let woken = false;
  const onEvent = (jobId: string) => {
    if (jobId !== id) return;
    woken = true;
    wake?.();
  };
  jobProgressed.on("progress", onEvent);
  jobFinished.on("finished", onEvent);
  try {
    for (;;) {
      woken = false;
      const job = await getJob({ db, id });
      if (!job || FINAL.has(job.status) || reached(job) || Date.now() >= deadline) return job;
      if (woken) continue; // announced while we read
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(recheckMs, Math.max(0, deadline - Date.now())));
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
  } finally {
    jobProgressed.off("progress", onEvent);
    jobFinished.off("finished", onEvent);
  }
}
