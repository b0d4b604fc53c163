import type { ChatJobStatus } from "@/lib/contracts";
import type { Job } from "../jobs/queue";

export type Audience = { variant: "a" | "b"; service: boolean };

/**
 * A chat job as the API shows it (section 2.8 / 4.6). Variant B never mentions conversations to
 * the public; the gateway (service key) always gets the full QueuedChatResult it relays.
 */
export function presentChatStatus(job: Job, audience: Audience): ChatJobStatus {
  const status: ChatJobStatus["status"] =
    job.status === "completed" ? "completed" : job.status === "running" ? "active" : job.status === "queued" ? "queued" : "failed";
  if (status === "failed") {
    return { status, progress: job.progress, result: null, error: job.status === "cancelled" ? "The request was cancelled" : (job.error ?? "The request failed") };
  }
  if (status !== "completed") return { status, progress: job.progress ?? { stage: status, percent: status === "queued" ? 0 : 5 }, result: null, error: null };
  return { status, progress: { stage: "done", percent: 100 }, result: hideConversation(job.result as ChatJobStatus["result"], audience), error: null };
}

export function hideConversation<T>(value: T, audience: Audience): T {
  if (audience.variant === "a" || audience.service || !value || typeof value !== "object") return value;
  const { conversationId: _c, ...rest } = value as Record<string, unknown>;
  return rest as T;
}
