import type { UpstreamChatRequestA, UpstreamChatRequestB } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";
import type { Caller } from "../http/context";
import { getJobOfKind, laneOf, type Job } from "../jobs/queue";
import { submitJob } from "../jobs/submit";
import { continueOrOpenChatConversation } from "./conversations";

/**
 * Queues a chat request of the public API (section 4.6) in the caller's lane. Variant A answers
 * within a conversation (the one the request names, else a new one); variant B knows none.
 * Throws ApiError 404 for an unknown conversation (nothing is queued).
 */
export async function submitChat({
  db,
  variant,
  request,
  caller,
}: {
  db: Queryable;
  variant: "a" | "b";
  request: UpstreamChatRequestA | UpstreamChatRequestB;
  caller: Caller;
}): Promise<{ job: Job<"chat">; conversationId: string | null }> {
  const conversationId = variant === "a" ? await continueOrOpenChatConversation({ db, requested: "conversationId" in request ? request.conversationId : undefined }) : null;
  const input = { message: request.message, conversationId, ...(request.fast !== undefined ? { fast: request.fast } : {}) };
  const job = await submitJob({ db, kind: "chat", input, lane: laneOf(caller), caller: caller.kind });
  return { job, conversationId };
}

/** A chat job of this API. Throws ApiError 404 when it is unknown or past its retention (`retentionSeconds`, an hour by default). */
export async function getChatJobOrThrow({ db, id, retentionSeconds }: { db: Queryable; id: string; retentionSeconds: number }): Promise<Job<"chat">> {
  const job = await getJobOfKind({ db, id, kind: "chat", maxAgeMs: retentionSeconds * 1000 });
  if (!job) throw new ApiError("not_found", "Unknown or expired request id", { reason: "not_found" });
  return job;
}
