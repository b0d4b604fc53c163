import type { Queryable } from "@/lib/shared/db";
import { enqueueJob, type Job, type JobKind, type JobLane } from "./queue";
import type { JobInputOf } from "./kinds";
import { jobWakeups } from "./worker";

/**
 * Queues a job and wakes a worker of this process for it (an idle queue is otherwise polled), so work a
 * route accepts starts at once. Throws InvalidJobInputError as enqueueJob does.
 */
export async function submitJob<K extends JobKind>(args: { db: Queryable; kind: K; input: JobInputOf<K>; lane: JobLane; caller?: string | null; maxAttempts?: number }): Promise<Job<K>> {
  const job = await enqueueJob(args);
  jobWakeups.emit("job");
  return job;
}
