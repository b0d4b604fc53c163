import type { Queryable } from "@/lib/shared/db/pool";
import type { ConversationStats } from "@/lib/shared/contracts";

/** Counts deep-research conversations by status, for the health report. */
export async function countConversationsByStatus({ db }: { db: Queryable }): Promise<ConversationStats> {
  const { rows } = await db.query<{ status: string; count: string }>(
    "SELECT status, count(*)::text AS count FROM gateway.deep_research_conversations GROUP BY status ORDER BY status",
  );
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    byStatus[row.status] = Number(row.count);
    total += Number(row.count);
  }
  return { total, byStatus };
}

/** Records a conversation's status (insert or update). */
export async function upsertConversationStatus({
  db,
  conversationId,
  status,
}: {
  db: Queryable;
  conversationId: string;
  status: string;
}): Promise<void> {
  await db.query(
    `INSERT INTO gateway.deep_research_conversations (conversation_id, status) VALUES ($1, $2)
     ON CONFLICT (conversation_id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()`,
    [conversationId, status],
  );
}
