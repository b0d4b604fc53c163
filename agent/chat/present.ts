import type { ChatJobStatus } from "@/lib/shared/contracts";
import type { Job } from "../jobs/queue";
import { toWireStatus, wireErrorOf } from "../jobs/wire-status";

export type Audience = { variant: "a" | "b"; service: boolean };

/**
 * A chat job as the API shows it (section 2.8 / 4.6). Variant B never mentions conversations to
 * the public; the gateway (service key) always gets the full QueuedChatResult it relays.
 */
export function presentChatStatus(job: Job<"chat">, audience: Audience): ChatJobStatus {
  const status = toWireStatus(job.status, "chat");
  if (status === "failed") {
    return { status, progress: job.progress, result: null, error: wireErrorOf(job, { failed: "The request failed", cancelled: "The request was cancelled" }) };
  }
  if (status !== "completed") return { status, progress: job.progress ?? { stage: status, percent: status === "queued" ? 0 : 5 }, result: null, error: null };
  return { status, progress: { stage: "done", percent: 100 }, result: hideConversation(job.result, audience), error: null };
}

export function hideConversation<T>(value: T, audience: Audience): T {
  if (audience.variant === "a" || audience.service || !value || typeof value !== "object") return value;
  const { conversationId: _c, ...rest } = value as Record<string, unknown>;
  return rest as T;
}
