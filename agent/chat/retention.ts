import type { Queryable } from "@/lib/shared/db";
import { sweepFinishedJobs } from "../jobs/retention";

/**
 * Deletes finished public chat jobs past their retention (CHAT_RETENTION_SECONDS, the contract's
 * hour by default), question and answer with them: from then on the status route answers 404
 * anyway, so nothing needs the row. Counted from the job's creation, as that route counts.
 */
export function sweepChatJobs({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  return sweepFinishedJobs({ db, kinds: ["chat"], since: "created_at", retentionSeconds });
}

/**
 * Deletes variant A's conversations, their turns (question and answer) with them, once their last
 * turn is older than `retentionSeconds` (CHAT_CONVERSATION_RETENTION_SECONDS, a day by default):
 * the turns only give a follow-up its context, and a follow-up after that long starts afresh
 * (its conversationId is unknown: 404). A conversation with no turn counts from its creation.
 */
export async function sweepChatConversations({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM agent.conversations c
      WHERE c.created_at < now() - make_interval(secs => $1)
        AND NOT EXISTS (SELECT 1 FROM agent.chat_turns t WHERE t.conversation_id = c.id AND t.created_at >= now() - make_interval(secs => $1))`,
    [retentionSeconds],
  );
  return rowCount ?? 0;
}
