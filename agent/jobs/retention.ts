import type { Queryable } from "@/lib/shared/db";
import type { JobKind } from "./queue";

/**
 * Deletes finished jobs of `kinds` (completed, failed or cancelled) older than `retentionSeconds`,
 * counted from `since`: their creation, as a status route counts, or when they finished. A job
 * still queued or running is left to finish (a dead worker's job is failed by the queue, then
 * swept). The sweeps of each kind (chat, literature, private) say which and why. Returns how many went.
 */
export async function sweepFinishedJobs({
  db,
  kinds,
  since,
  retentionSeconds,
}: {
  db: Queryable;
  kinds: readonly JobKind[];
  since: "created_at" | "finished_at";
  retentionSeconds: number;
}): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM agent.jobs
      WHERE kind = ANY($1::text[])
        AND status IN ('completed', 'failed', 'cancelled')
        AND ${since} < now() - make_interval(secs => $2)`,
    [kinds, retentionSeconds],
  );
  return rowCount ?? 0;
}
