import type { Queryable } from "@/lib/db";

/**
 * Deletes finished public chat jobs past their retention (CHAT_RETENTION_SECONDS, the contract's
 * hour by default), question and answer with them: from then on the status route answers 404
 * anyway, so nothing needs the row. Counted from the job's creation, as that route counts. A job
 * still queued or running is left to finish (a dead worker's job is failed by the queue, then
 * swept). Returns how many rows went.
 */
export async function sweepChatJobs({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM agent.jobs
      WHERE kind = 'chat'
        AND status IN ('completed', 'failed', 'cancelled')
        AND created_at < now() - make_interval(secs => $1)`,
    [retentionSeconds],
  );
  return rowCount ?? 0;
}
