import type { Job } from "../jobs/queue";
import { toWireStatus, wireErrorOf } from "../jobs/wire-status";

/** A sealed chat job as its status route shows it: the answer (sealed to the request's key) once completed. */
export function presentPrivateChatJob(job: Job<"private_chat">) {
  const status = toWireStatus(job.status, "chat");
  if (status === "completed") return { status, requestId: job.id, ...job.result };
  if (status === "failed") return { status, error: wireErrorOf(job, { failed: "The private request failed" }) };
  return { status };
}

/** A sealed literature job as its status route shows it: the answer (sealed to the request's key) once completed. */
export function presentPrivateLiteratureJob(job: Job<"private_literature">) {
  const status = toWireStatus(job.status, "privateLiterature");
  if (status === "completed") return { status, ...job.result };
  if (status === "failed") return { status, error: wireErrorOf(job, { failed: "The private literature search failed" }) };
  return { status };
}
