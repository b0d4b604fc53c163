import type { Queryable } from "@/lib/shared/db";
import { sweepFinishedJobs } from "../jobs/retention";

/**
 * Deletes finished literature jobs (the question, the result) past their retention
 * (LITERATURE_RETENTION_SECONDS, a day by default), counted from their creation: the gateway polls
 * a search for seconds, and keeps what it answered a payer in its own ledger. Returns how many went.
 */
export function sweepLiteratureJobs({ db, retentionSeconds }: { db: Queryable; retentionSeconds: number }): Promise<number> {
  return sweepFinishedJobs({ db, kinds: ["literature"], since: "created_at", retentionSeconds });
}
