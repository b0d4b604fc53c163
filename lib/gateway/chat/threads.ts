import "server-only";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";

/**
 * Chat threads through the gateway (issue 16): the agent's variant A keeps conversations, and a
 * conversation's id is the only key to it there. The gateway records which payer address started
 * each conversation it opened (gateway.chat_conversations), so a payer continues only its own:
 * any other conversation is answered as unknown.
 */

/** The 404 for a conversation this payer did not start: the same words as for one nobody started. */
class ConversationNotFoundError extends ApiError {
  constructor() {
    super("not_found", "Unknown conversation: a chat continues only a conversation the same payer address started through this service (and for a day after its last question)", {
      reason: "not_found",
    });
    this.name = "ConversationNotFoundError";
  }
}

/**
 * Checks that `payer` started `conversationId` and marks the conversation used now (its retention
 * counts from its last use). Throws ConversationNotFoundError when another payer started it, or
 * nobody did through this gateway (or it was swept).
 */
export async function continueChatConversation({ db, conversationId, payer }: { db: Queryable; conversationId: string; payer: string }): Promise<void> {
  const { rowCount } = await db.query("UPDATE gateway.chat_conversations SET last_used_at = now() WHERE conversation_id = $1 AND payer = $2", [
    conversationId,
    payer.toLowerCase(),
  ]);
  if (!rowCount) throw new ConversationNotFoundError();
}

/**
 * Records that `payer` started `conversationId` (the agent just opened it for this payer's
 * question). A conversation already recorded keeps the payer who started it.
 */
export async function recordChatConversation({ db, conversationId, payer }: { db: Queryable; conversationId: string; payer: string }): Promise<void> {
  await db.query(
    `INSERT INTO gateway.chat_conversations (conversation_id, payer) VALUES ($1, $2)
     ON CONFLICT (conversation_id) DO UPDATE SET last_used_at = now() WHERE gateway.chat_conversations.payer = EXCLUDED.payer`,
    [conversationId, payer.toLowerCase()],
  );
}
