import type { SSEStreamingApi } from "hono/streaming";
import type { Queryable } from "@/lib/shared/db";
import { getJob } from "../jobs/queue";
import { hideConversation, presentChatStatus, type Audience } from "./present";

const STREAM_POLL_MS = 100;
const STREAM_TIMEOUT_MS = 5 * 60_000;

/**
 * Follows a chat job as server-sent events (POST /api/chat/sync): `queued`, then `progress` at
 * each new stage, then `completed` with the answer or `error`, until the client leaves or five
 * minutes pass (the error then says where to poll).
 */
export async function streamChatJob(
  stream: SSEStreamingApi,
  { db, jobId, conversationId, audience }: { db: Queryable; jobId: string; conversationId: string | null; audience: Audience },
): Promise<void> {
  const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
  const variantA = audience.variant === "a";
  await send("queued", { requestId: jobId, ...(variantA ? { conversationId } : {}) });
  let last = "";
  const deadline = Date.now() + STREAM_TIMEOUT_MS;
  while (!stream.aborted) {
    const current = await getJob({ db, id: jobId });
    if (current?.kind !== "chat") break;
    const status = presentChatStatus(current, audience);
    if (status.progress && status.status !== "completed") {
      const key = `${status.progress.stage}:${status.progress.percent}`;
      if (key !== last && status.status === "active") await send("progress", status.progress);
      last = key;
    }
    if (status.status === "completed" && status.result) {
      const { text, responseTime } = status.result;
      await send("completed", hideConversation({ text, responseTime, conversationId: status.result.conversationId }, { variant: audience.variant, service: false }));
      return;
    }
    if (status.status === "failed") {
      await send("error", { error: status.error ?? "The request failed" });
      return;
    }
    if (Date.now() > deadline) {
      await send("error", { error: "The answer took too long; poll GET /api/chat/status/" + jobId });
      return;
    }
    await stream.sleep(STREAM_POLL_MS);
  }
}
