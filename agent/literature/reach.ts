import type { ChatResult, FailedSource, LiteratureJobResult, LiteratureReach } from "@/lib/shared/contracts";
import { describeSourceFailures, failuresInWords, listInWords, sourceLabel } from "@/lib/shared/contracts/source-words";
import type { Queryable } from "@/lib/shared/db";
import { NO_SOURCE_REACHABLE, NOTHING_IN_LIBRARY, type LiteratureUnavailableReason } from "@/lib/shared/contracts/unavailable-reasons";
import { LITERATURE_UNAVAILABLE } from "@/lib/shared/literature/unavailable";
import { JobFailure } from "../jobs/worker";
import type { SourceName } from "./record";
import type { SourceHealthTracker } from "./source-health";

/**
 * Honest reach: whether the literature can be searched at all (before anyone pays), what a search
 * that lost sources says about them, and the failure of a search that reached nothing.
 */

/**
 * A search in which every source asked failed and nothing was found: there is nothing to answer
 * from. `libraryAnswered`: the local library was searched and found nothing on the question (the
 * live sources failing), which is not the same as reaching no source at all: asking again helps
 * only once a live source answers, while other words may find something in the library now.
 */
export class NoSourceAnsweredError extends Error {
  readonly failedSources: FailedSource[];
  readonly libraryAnswered: boolean;
  constructor({ failedSources, libraryAnswered }: { failedSources: FailedSource[]; libraryAnswered: boolean }) {
    super(unavailableSentence({ failedSources, libraryAnswered }));
    this.name = "NoSourceAnsweredError";
    this.failedSources = failedSources;
    this.libraryAnswered = libraryAnswered;
  }

  /** The 503's reason: the library answered with nothing, or no source could be searched. */
  get reason(): LiteratureUnavailableReason {
    return this.libraryAnswered ? NOTHING_IN_LIBRARY : NO_SOURCE_REACHABLE;
  }
}

/**
 * "PubMed and Europe PMC could not be reached, and the local library has nothing on this
 * question." when the library answered; else "No literature source could answer: PubMed could
 * not be reached and the local library failed inside the agent."
 */
function unavailableSentence({ failedSources, libraryAnswered }: { failedSources: FailedSource[]; libraryAnswered: boolean }): string {
  const failures = failuresInWords(failedSources);
  if (!libraryAnswered) return `No literature source could answer: ${failures}.`;
  return `${failures.charAt(0).toUpperCase()}${failures.slice(1)}, and the local library has nothing on this question.`;
}

/**
 * Throws NoSourceAnsweredError when a source failed and none answered: no live source
 * answered and the local library found nothing. A search whose live sources answered with nothing
 * is an answer ("no relevant evidence"), not a failure.
 */
export function assertReached({ failedSources, used, recordCount }: { failedSources: FailedSource[]; used: ReadonlySet<SourceName>; recordCount: number }): void {
  if (failedSources.length === 0) return;
  const liveAnswered = [...used].some((s) => s !== "local");
  if (!liveAnswered && recordCount === 0) throw new NoSourceAnsweredError({ failedSources, libraryAnswered: used.has("local") });
}

/** What a job stores when it failed for want of sources, so the route that waits on it can say so (and why). */
export type UnavailableDetail = { code: typeof LITERATURE_UNAVAILABLE; failedSources: FailedSource[]; reason?: LiteratureUnavailableReason };

export function isUnavailableDetail(value: unknown): value is UnavailableDetail {
  return typeof value === "object" && value !== null && "code" in value && value.code === LITERATURE_UNAVAILABLE;
}

/** How long a client should wait after a search failed for want of sources, when no circuit says. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

export type ReachChecker = {
  /** Whether any of `sources` (default: every enabled one) can answer now. */
  check(sources?: readonly SourceName[]): Promise<LiteratureReach>;
};

/**
 * Whether the literature can be searched: available when a live source's circuit is closed or the
 * local library holds records. Whether the library holds records is read at most every few
 * seconds (one EXISTS query), so a burst of checks costs one query.
 */
export function createReachChecker({
  tracker,
  db,
  enabledSources,
  libraryCacheMs = 5_000,
  now = Date.now,
}: {
  tracker: SourceHealthTracker;
  db: Queryable;
  enabledSources: readonly SourceName[];
  libraryCacheMs?: number;
  now?: () => number;
}): ReachChecker {
  let library: { hasRecords: boolean; at: number } | null = null;
  const libraryHasRecords = async (): Promise<boolean | null> => {
    if (library && now() - library.at < libraryCacheMs) return library.hasRecords;
    try {
      const { rows } = await db.query<{ has: boolean }>("SELECT EXISTS (SELECT 1 FROM agent.library_records) AS has");
      library = { hasRecords: Boolean(rows[0]?.has), at: now() };
      return library.hasRecords;
    } catch {
      return null;
    }
  };

  return {
    async check(sources = enabledSources) {
      const asked = sources.filter((s) => enabledSources.includes(s));
      const live: SourceName[] = asked.filter((s) => s !== "local");
      const snapshot = tracker.snapshot();
      const liveUp = live.filter((s) => tracker.isUp(s));
      const localEnabled = asked.includes("local");
      const hasRecords = localEnabled ? await libraryHasRecords() : null;
      const localLibrary: LiteratureReach["localLibrary"] = !localEnabled ? "disabled" : hasRecords === null ? "unknown" : hasRecords ? "has_records" : "empty";
      const available = liveUp.length > 0 || localLibrary === "has_records";
      const down = live.filter((s) => !tracker.isUp(s));
      const retryAts = snapshot.filter((s) => live.some((name) => name === s.source) && s.retryAt).map((s) => Date.parse(s.retryAt!));
      const retryAfterSeconds = available
        ? null
        : retryAts.length > 0
          ? Math.max(1, Math.ceil((Math.min(...retryAts) - now()) / 1000) + 1)
          : DEFAULT_RETRY_AFTER_SECONDS;
      return {
        available,
        localLibrary,
        sources: snapshot,
        retryAfterSeconds,
        message: reachMessage({ available, down, live, localLibrary }),
      };
    },
  };
}

function reachMessage({ available, down, live, localLibrary }: { available: boolean; down: SourceName[]; live: SourceName[]; localLibrary: LiteratureReach["localLibrary"] }): string | null {
  const failing = down.length > 0 ? `${listInWords(down.map(sourceLabel))} ${down.length === 1 ? "is" : "are"} failing` : null;
  if (available) return failing ? `${failing}; searches use the other sources.` : null;
  const library = localLibrary === "disabled" ? "the local library is not in use" : localLibrary === "unknown" ? "the local library cannot be read" : "the local library is empty";
  if (live.length === 0) return `No live source is configured and ${library}: no search can be answered.`;
  return `No literature source can answer right now: ${failing ?? "every live source is failing"} and ${library}.`;
}

/**
 * The job failure of a search that reached no source: its message in words for the status route,
 * and the typed sources for the route that waits on the job (agent/routes: 503 before settlement).
 */
export function unavailableJobFailure(err: NoSourceAnsweredError): JobFailure {
  const detail: UnavailableDetail = { code: LITERATURE_UNAVAILABLE, failedSources: err.failedSources, reason: err.reason };
  return new JobFailure(err.message, { detail });
}

/**
 * A model-written chat answer that says which sources failed: the extractive answer says it in its
 * limits (describeSourceFailures, passed to the writer), and a model's answer that left the
 * sentence out gets it after its last sentence, with the sources typed either way.
 */
export function withChatSourceFailures(result: ChatResult, literature: Pick<LiteratureJobResult, "failedSources" | "effectiveSources">): ChatResult {
  const failedSources = literature.failedSources ?? [];
  const note = describeSourceFailures({ failed: failedSources, used: literature.effectiveSources ?? [] });
  if (!note || result.answer.includes(note)) return { ...result, failedSources };
  const answer = `${result.answer} ${note}`;
  const text = result.text.startsWith(result.answer) ? `${answer}${result.text.slice(result.answer.length)}` : `${result.text}\n\n${note}`;
  return { ...result, answer, reply: answer, text, failedSources };
}
