import { randomUUID } from "node:crypto";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";

/**
 * Variant A's chat conversations (agent.conversations) and their turns (agent.chat_turns): a turn
 * keeps a question and its answer only to give a follow-up its context. Both are deleted after
 * CHAT_CONVERSATION_RETENTION_SECONDS (sweepChatConversations in ./retention.ts).
 */

/**
 * The conversation a chat request continues (`requested`), or a new one when it names none.
 * Throws ApiError 404 `not_found` for an unknown (or swept) conversation.
 */
export async function continueOrOpenChatConversation({ db, requested }: { db: Queryable; requested: string | undefined }): Promise<string> {
  if (requested) {
    const { rowCount } = await db.query("SELECT 1 FROM agent.conversations WHERE id = $1", [requested]);
    if (!rowCount) throw new ApiError("not_found", "Unknown conversation", { reason: "not_found" });
    return requested;
  }
  const id = randomUUID();
  await db.query("INSERT INTO agent.conversations (id) VALUES ($1)", [id]);
  return id;
}

/** The questions of the conversation's last `count` turns, oldest first. */
export async function getRecentChatQuestions({ db, conversationId, count }: { db: Queryable; conversationId: string; count: number }): Promise<string[]> {
  const { rows } = await db.query<{ message: string }>("SELECT message FROM agent.chat_turns WHERE conversation_id = $1 ORDER BY created_at DESC LIMIT $2", [conversationId, count]);
  return rows.map((r) => r.message).reverse();
}

/** Records an answered turn (once per request: a job taken over after a crash records nothing twice). */
export async function recordChatTurn({ db, requestId, conversationId, message, answer }: { db: Queryable; requestId: string; conversationId: string; message: string; answer: string }): Promise<void> {
  await db.query("INSERT INTO agent.chat_turns (request_id, conversation_id, message, answer) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", [
    requestId,
    conversationId,
    message,
    answer,
  ]);
}
