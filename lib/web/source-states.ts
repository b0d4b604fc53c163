import type { ComponentHealth, LiteratureReach, PaidRequests, SourceHealth } from "@/lib/shared/contracts";
import { listInWords, sourceLabel } from "@/lib/shared/contracts/source-words";

/**
 * What /status says of each literature source and of them all, from what the agent reports: only
 * what its calls have shown. A source no search has asked yet is "not tried yet" (a neutral badge),
 * never "healthy"; an open circuit's `retryAt` is when it will next be tried, a time to come.
 */

/** A badge: a component status, or `untried` for a source no call has reached yet. */
export type SourceBadge = ComponentHealth["status"] | "untried";

type SourceState = {
  badge: SourceBadge;
  /** What the source is doing, in words. */
  label: string;
  /** An open circuit's next try (ISO time), when it is still to come at `now`; null otherwise. */
  nextTryAt: string | null;
  /** An open circuit whose next try is due: the probe is on its way. */
  nextTryDue: boolean;
};

const tried = (s: SourceHealth) => s.successes + s.failures > 0;

/** One source's state at `now` (the report's timestamp, so the agent's and the reader's clocks never mix). */
export function sourceState(s: SourceHealth, { now }: { now: string }): SourceState {
  if (s.circuit === "open") {
    const future = s.retryAt !== null && Date.parse(s.retryAt) > Date.parse(now);
    return { badge: "down", label: "skipped (failing)", nextTryAt: future ? s.retryAt : null, nextTryDue: !future };
  }
  if (s.circuit === "half_open") return { badge: "degraded", label: "being tried again", nextTryAt: null, nextTryDue: false };
  if (!tried(s)) return { badge: "untried", label: "asked at the first search that needs it", nextTryAt: null, nextTryDue: false };
  if (s.consecutiveFailures > 0) {
    return { badge: "degraded", label: `its last ${s.consecutiveFailures === 1 ? "call" : `${s.consecutiveFailures} calls`} failed`, nextTryAt: null, nextTryDue: false };
  }
  return { badge: "healthy", label: "answering", nextTryAt: null, nextTryDue: false };
}

/** The literature as a whole: the agent's own words when it has some, else what the sources' calls show. */
export function literatureSummary(literature: LiteratureReach, { now }: { now: string }): { badge: SourceBadge; text: string } {
  if (!literature.available) return { badge: "down", text: `${literature.message ?? "no source can answer"} Paid chat and literature answer 503 until one can; nothing is charged.` };
  if (literature.message) return { badge: "degraded", text: literature.message };
  const states = literature.sources.map((s) => ({ source: s.source, state: sourceState(s, { now }) }));
  const names = (badge: SourceBadge) => states.filter((s) => s.state.badge === badge).map((s) => sourceLabel(s.source));
  const untried = names("untried");
  if (states.length > 0 && untried.length === states.length) return { badge: "untried", text: "not tried yet: no search has asked a source since the agent started" };
  const failing = [...names("degraded"), ...names("down")];
  const notYet = untried.length > 0 ? `; ${listInWords(untried)} not tried yet` : "";
  if (failing.length > 0) return { badge: "degraded", text: `${listInWords(failing)} failed when last asked${notYet}` };
  return { badge: "healthy", text: `every source asked is answering${notYet}` };
}

/** "21 chats · 2 literature searches · 1 deep-research run". */
export function paidRequestsInWords(paid: PaidRequests): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    count(paid.chats, "chat", "chats"),
    count(paid.literatureSearches, "literature search", "literature searches"),
    count(paid.deepResearchRuns, "deep-research run", "deep-research runs"),
  ].join(" · ");
}
