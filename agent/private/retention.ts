import type { Queryable } from "@/lib/shared/db";
import { sweepFinishedJobs } from "../jobs/retention";

/**
 * Deletes private chat and literature jobs past their retention (their rows hold only ciphertext,
 * but nothing is kept longer than promised), and finished private deep-research jobs (the run's
 * encrypted state lives on in agent.private_runs for its recovery key's holder).
 */
export async function sweepPrivateJobs({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  // A run whose job died for good (its worker crashed on every attempt) is failed for good, so it
  // still reads failed once that job's row is gone.
  await db.query(
    `UPDATE agent.private_runs r SET status = 'failed', error = 'The private research run failed; nothing was charged for it', updated_at = now()
      WHERE r.status IN ('queued', 'running')
        AND EXISTS (SELECT 1 FROM agent.jobs j WHERE j.kind = 'private_deep_research' AND j.input->>'messageId' = r.message_id::text
                     AND j.status IN ('failed', 'cancelled'))`,
  );
  return sweepFinishedJobs({ db, kinds: ["private_chat", "private_literature", "private_deep_research"], since: "finished_at", retentionSeconds });
}

/**
 * Deletes private conversations and private deep-research runs unused for `retentionSeconds`
 * (PRIVATE_CONVERSATION_RETENTION_DAYS, 90 by default). They hold only ciphertext under the
 * client's recovery key, but nothing is kept for ever: a recovery key used after that starts a new
 * conversation, and a run's poll is a 404. A run whose job is still queued or running stays.
 */
export async function sweepPrivateConversations({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  const conversations = await db.query("DELETE FROM agent.private_conversations WHERE updated_at < now() - make_interval(secs => $1)", [retentionSeconds]);
  const runs = await db.query(
    `DELETE FROM agent.private_runs r
      WHERE r.updated_at < now() - make_interval(secs => $1)
        AND NOT EXISTS (SELECT 1 FROM agent.jobs j WHERE j.kind = 'private_deep_research' AND j.input->>'messageId' = r.message_id::text
                         AND j.status IN ('queued', 'running'))`,
    [retentionSeconds],
  );
  return (conversations.rowCount ?? 0) + (runs.rowCount ?? 0);
}
