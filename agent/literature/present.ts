import type { Job } from "../jobs/queue";
import { toWireStatus, wireErrorOf } from "../jobs/wire-status";

/** A literature job as GET /api/literature/jobs/:jobId shows it: its LiteratureJobResult (section 2.11) once completed. */
export function presentLiteratureJob(job: Job<"literature">) {
  const status = toWireStatus(job.status, "literature");
  if (status === "completed") return { ...job.result, jobId: job.id, status };
  if (status === "failed") return { jobId: job.id, status, error: wireErrorOf(job, { failed: "The job failed", cancelled: "The job was cancelled" }) };
  return { jobId: job.id, status };
}
