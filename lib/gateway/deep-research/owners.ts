import "server-only";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";

/**
 * Whose deep-research conversation it is (issue 24). The gateway calls the agent with its one
 * service key, so to the agent every conversation started through the gateway is the gateway's:
 * the gateway itself records which payer address started each one
 * (gateway.deep_research_conversations.payer), and only that payer continues it, as chat threads
 * (lib/gateway/chat/threads.ts). Anyone else's turn would be a stranger's unpaid turn in the owner's
 * conversation.
 */

/** The 404 for a conversation this payer did not start: the same words as for one nobody started. */
class DeepResearchConversationNotFoundError extends ApiError {
  constructor() {
    super("not_found", "Unknown conversation: deep research continues only a conversation the same payer address started through this service", {
      reason: "not_found",
    });
    this.name = "DeepResearchConversationNotFoundError";
  }
}

/**
 * Checks that `payer` started `conversationId`. Throws DeepResearchConversationNotFoundError when
 * another payer started it, or nobody did through this gateway (or it was swept).
 */
export async function requireOwnConversation({ db, conversationId, payer }: { db: Queryable; conversationId: string; payer: string }): Promise<void> {
  const { rowCount } = await db.query("SELECT 1 FROM gateway.deep_research_conversations WHERE conversation_id = $1 AND payer = $2", [
    conversationId,
    payer.toLowerCase(),
  ]);
  if (!rowCount) throw new DeepResearchConversationNotFoundError();
}

/**
 * Records a turn the agent just queued: a new conversation as `payer`'s, a continued one (already
 * `payer`'s, checked before) as queued again. A conversation never changes hands.
 */
export async function recordQueuedTurn({ db, conversationId, payer }: { db: Queryable; conversationId: string; payer: string }): Promise<void> {
  await db.query(
    `INSERT INTO gateway.deep_research_conversations (conversation_id, status, payer) VALUES ($1, 'queued', $2)
     ON CONFLICT (conversation_id) DO UPDATE SET status = 'queued', updated_at = now()
       WHERE gateway.deep_research_conversations.payer = EXCLUDED.payer`,
    [conversationId, payer.toLowerCase()],
  );
}
