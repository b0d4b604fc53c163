import { searchedAt } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";
import type { Job } from "../jobs/queue";
import { waitForProgress } from "../jobs/wait-progress";
import { NO_SOURCE_REACHABLE, NOTHING_IN_LIBRARY, unavailableReasonOf } from "@/lib/shared/contracts/unavailable-reasons";
import { LiteratureUnavailableError } from "@/lib/shared/literature/unavailable";
import { DEFAULT_RETRY_AFTER_SECONDS, isUnavailableDetail, type ReachChecker } from "../literature/reach";
import type { SourceName } from "../literature/record";

/**
 * The agent's side of honest reach on the routes that start a search (docs/literature.md,
 * "Honest reach"): refuse before queueing when no source can answer, and hold a paid start's 202
 * until its search reached a source, so that the gateway settles nothing for a search that
 * reached none.
 */

/** Throws 503 `literature_unavailable` (with Retry-After) when none of `sources` can answer now. */
export async function assertLiteratureReach(reach: ReachChecker | undefined, sources: readonly SourceName[]): Promise<void> {
  if (!reach) return;
  const state = await reach.check(sources);
  if (state.available) return;
  throw new LiteratureUnavailableError({
    message: `${state.message ?? "No literature source can answer right now."} Nothing was queued or charged.`,
    retryAfterSeconds: state.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
    failedSources: state.sources
      .filter((s) => sources.some((name) => name === s.source) && s.circuit !== "closed")
      .map((s) => ({ source: s.source, kind: "circuit_open" as const })),
  });
}

/**
 * Waits (at most `waitMs`) until `job` has searched its sources (its engine step is past searching) or
 * ended. Throws 503 `literature_unavailable` when it failed for want of sources, and 500 when it
 * failed otherwise; either way the gateway answers an error and charges nothing. Returns when the
 * search reached a source, or when the wait ran out (the job goes on; the start is accepted).
 */
export async function awaitSearch({ db, reach, job, waitMs }: { db: Queryable; reach: ReachChecker | undefined; job: Job; waitMs: number }): Promise<void> {
  if (waitMs <= 0) return;
  const seen = await waitForProgress({ db, id: job.id, ms: waitMs, reached: (j) => searchedAt(j.progress?.step) });
  if (!seen || (seen.status !== "failed" && seen.status !== "cancelled")) return;
  if (isUnavailableDetail(seen.result)) {
    const state = reach ? await reach.check() : null;
    const stored = unavailableReasonOf(seen.result.reason);
    // An empty library has nothing on any question: no other words would find anything in it.
    const reason = stored === NOTHING_IN_LIBRARY && state?.localLibrary === "empty" ? NO_SOURCE_REACHABLE : stored;
    throw new LiteratureUnavailableError({
      message: `${seen.error ?? "No literature source could answer."} Nothing was charged.`,
      retryAfterSeconds: state?.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
      failedSources: seen.result.failedSources,
      reason,
    });
  }
  throw new ApiError("internal", "The request failed before its answer", { reason: "job_failed", message: seen.error ?? "The job failed" });
}
