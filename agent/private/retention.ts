import type { Queryable } from "@/lib/db";

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
  const { rowCount } = await db.query(
    `DELETE FROM agent.jobs
      WHERE kind IN ('private_chat', 'private_literature', 'private_deep_research')
        AND status IN ('completed', 'failed', 'cancelled')
        AND finished_at < now() - make_interval(secs => $1)`,
    [retentionSeconds],
  );
  return rowCount ?? 0;
}
