/**
 * The literature sources, defined once, and which of them a search asks (docs/literature.md,
 * "Sources by mode and scope"): the agent plans its searches with it and the page says where a
 * search is looking with it. Zod-free, so the page's first load does not carry the schemas.
 */

/**
 * The sources the agent can call (LITERATURE_SOURCES names a subset). Each is searched except
 * bioRxiv, whose API only links a preprint to its journal version: preprints come from Europe PMC.
 */
export const literatureSources = ["pubmed", "europepmc", "clinicaltrials", "biorxiv", "crossref", "openalex", "local"] as const;
export type LiteratureSourceName = (typeof literatureSources)[number];

/** A fast search (chat's, and the default): one round trip to each. */
export const FAST_SOURCES: readonly LiteratureSourceName[] = ["pubmed", "europepmc", "local"];
/** A deep search (deep mode, litqa-recall, deep research): every index. */
export const DEEP_SOURCES: readonly LiteratureSourceName[] = ["pubmed", "europepmc", "clinicaltrials", "crossref", "openalex", "local"];

/** How many references a search returns when the request names no `maxResults`, by its width. */
export const DEFAULT_MAX_RESULTS = { fast: 10, deep: 25 } as const;

export type SearchPlanRequest = { mode?: "fast" | "deep" | undefined; retrievalProfile?: string | undefined; scope?: "preprints" | "no-preprints" | "trials" | undefined };

/** A deep search: deep mode, or the recall profile, which asks every index. */
export function isWideSearch(request: SearchPlanRequest): boolean {
  return request.mode === "deep" || request.retrievalProfile === "litqa-recall";
}

/** The sources a search asks, by its mode and scope, among those `available` (`literatureSources`: all of them), in the plan's order. */
export function plannedSources<S extends string>(request: SearchPlanRequest, available: readonly S[]): S[] {
  const wide = isWideSearch(request);
  let wanted: readonly string[] = wide ? DEEP_SOURCES : FAST_SOURCES;
  if (request.scope === "preprints") wanted = ["europepmc"];
  if (request.scope === "trials") wanted = ["clinicaltrials", "local"];
  return wanted.flatMap((name) => available.filter((s) => s === name).slice(0, 1));
}
