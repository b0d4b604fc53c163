import type { Queryable } from "@/lib/shared/db";

/** How old the job counts health reports may be: at most one count of agent.jobs per this long per process. */
export const JOB_COUNTS_MAX_AGE_MS = 5_000;

/**
 * The number of jobs in each status, for the agent's open /api/health, counted at most once every
 * `maxAgeMs` however often health is asked (concurrent askers share one count). Counting is a
 * scan of agent.jobs, bounded by the retention sweeps (agent/lifecycle.ts) but still the one
 * costly read on a route anyone may call in a loop, so a figure a few seconds old is served
 * instead. A failed count is not kept: the next call counts again.
 */
export function createJobCounts({ db, maxAgeMs = JOB_COUNTS_MAX_AGE_MS, now = Date.now }: { db: Queryable; maxAgeMs?: number; now?: () => number }) {
  let cached: { counts: Record<string, number>; at: number } | null = null;
  let inFlight: Promise<Record<string, number>> | null = null;
  return (): Promise<Record<string, number>> => {
    if (cached && now() - cached.at < maxAgeMs) return Promise.resolve(cached.counts);
    inFlight ??= db
      .query<{ status: string; count: string }>("SELECT status, count(*)::text AS count FROM agent.jobs GROUP BY status")
      .then(({ rows }) => {
        const counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
        cached = { counts, at: now() };
        return counts;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}
