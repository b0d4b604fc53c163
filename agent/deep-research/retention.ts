import type { Queryable } from "@/lib/shared/db";

/**
 * Deletes deep-research conversations untouched for `retentionSeconds` (DEEP_RESEARCH_RETENTION_DAYS,
 * 30 by default), with their turns (objectives, replies, citations) and their jobs; reading one
 * after that is a 404. A conversation with a job still queued or running is left to finish, whatever
 * its age. Jobs go first, so a sweep cut short leaves nothing without its conversation.
 */
export async function sweepDeepResearch({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  const old = `SELECT c.id FROM agent.dr_conversations c
                WHERE c.updated_at < now() - make_interval(secs => $1)
                  AND NOT EXISTS (SELECT 1 FROM agent.dr_turns t JOIN agent.jobs j
                                      ON j.kind = 'deep_research' AND j.input->>'messageId' = t.message_id::text
                                   WHERE t.conversation_id = c.id AND j.status IN ('queued', 'running'))`;
  await db.query(
    `DELETE FROM agent.jobs j USING agent.dr_turns t
      WHERE j.kind = 'deep_research' AND j.input->>'messageId' = t.message_id::text AND t.conversation_id IN (${old})`,
    [retentionSeconds],
  );
  const { rowCount } = await db.query(`DELETE FROM agent.dr_conversations WHERE id IN (${old})`, [retentionSeconds]);
  return rowCount ?? 0;
}
