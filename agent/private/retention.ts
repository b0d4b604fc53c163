import type { Queryable } from "@/lib/db";

/**
 * Deletes private chat and literature jobs past their retention (their rows hold only ciphertext,
 * but nothing is kept longer than promised), and finished private deep-research jobs (the run's
 * encrypted state lives on in agent.private_runs for its recovery key's holder).
 */
export async function sweepPrivateJobs({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM agent.jobs
      WHERE kind IN ('private_chat', 'private_literature', 'private_deep_research')
        AND status IN ('completed', 'failed', 'cancelled')
        AND finished_at < now() - make_interval(secs => $1)`,
    [retentionSeconds],
  );
  return rowCount ?? 0;
}
