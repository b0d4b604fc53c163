import type { LiteratureRecord, SourceName } from "../record";

/** What the engine asks every source for. */
export type SourceQuery = {
  /** The question as the user wrote it (sources with a relevance ranking may use it). */
  text: string;
  /** Content terms extracted from the question, most important first (stop words removed). */
  terms: string[];
  /** Records wanted at most. */
  limit: number;
  /** `preprints`: preprint servers only; `no-preprints`: exclude them; `trials`: the trial registry only. */
  scope?: "preprints" | "no-preprints" | "trials";
  /** Inclusive publication date bounds, YYYY-MM-DD. */
  dateFrom?: string;
  dateTo?: string;
  /**
   * Which boolean form a source that has both sends (sources/query-terms.ts): `auto` (the default)
   * the strict query, then the broadened one when it finds fewer than `limit`; `strict` or `broad`
   * that one query alone. The engine's fast plan asks PubMed strict and Europe PMC broad, so a chat
   * makes one round trip per source (docs/literature.md, "Chat latency").
   */
  breadth?: "auto" | "strict" | "broad";
  /**
   * What else the literature calls the question's phrases (agent/literature/vocabulary): each
   * stands for some of `terms` ("broken", "hip") and lists its other names ("hip fracture",
   * "femoral neck fracture") and MeSH headings ("Hip Fractures"). A source that can search any of
   * them in place of those terms does (sources/query-terms.ts, the local library's ranking).
   */
  expansions?: SourceExpansion[];
};

export type SourceExpansion = {
  /** Words of `terms` the phrase is made of. */
  terms: string[];
  /** Its other names, most useful first. */
  alternatives: string[];
  /**
   * Narrower names (WordNet's hyponyms: "psychosis" → schizophrenia), for the local library's
   * ranking only. Never sent to a live source: a query widened by them fills its capped result list
   * with studies of the narrower thing, which relevance then does not count as the question's.
   */
  narrower?: string[];
  /** MeSH descriptors naming it (matched against MeSH only). */
  headings: string[];
};

/** A searchable literature source. `search` throws SourceError on failure; the engine carries on without it. */
export interface LiteratureSource {
  readonly name: SourceName;
  search(query: SourceQuery, options?: { signal?: AbortSignal }): Promise<LiteratureRecord[]>;
}

/**
 * A source failed: unreachable, timed out, rate limited past its retries, or answered nonsense; or
 * it was not asked because its circuit is open (agent/literature/source-health.ts).
 */
export class SourceError extends Error {
  readonly source: SourceName;
  readonly kind: "timeout" | "rate_limited" | "http" | "network" | "parse" | "circuit_open";
  constructor(source: SourceName, kind: SourceError["kind"], message: string, options?: { cause?: unknown }) {
    super(`${source}: ${message}`, options);
    this.name = "SourceError";
    this.source = source;
    this.kind = kind;
  }
}
