/**
 * The reasons of a 503 `literature_unavailable` (LiteratureUnavailable in source-health.ts), for
 * the agent, the gateway and the page alike. Zod-free, so the page's first load does not carry the
 * schemas (as lib/shared/contracts/limits.ts).
 */

/** No source could be searched at all: the live ones failing, the local library empty, off or failing. */
export const NO_SOURCE_REACHABLE = "no_source_reachable";
/**
 * Every live source asked failed and the local library, which answered, holds nothing on the
 * question: asking the same again helps only once a live source answers again; other words, or a
 * wider question, may find something in the library now.
 */
export const NOTHING_IN_LIBRARY = "nothing_in_library";
export const LITERATURE_UNAVAILABLE_REASONS = [NO_SOURCE_REACHABLE, NOTHING_IN_LIBRARY] as const;
export type LiteratureUnavailableReason = (typeof LITERATURE_UNAVAILABLE_REASONS)[number];

/** A reason read from a body or a stored job: one of the known ones, else the older, general one. */
export function unavailableReasonOf(value: unknown): LiteratureUnavailableReason {
  return value === NOTHING_IN_LIBRARY ? NOTHING_IN_LIBRARY : NO_SOURCE_REACHABLE;
}
