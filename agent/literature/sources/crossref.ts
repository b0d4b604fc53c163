import { type SourceClientOptions, createRateLimiter, createSourceHttpClient } from "../http";
import { applyUpdates, parseCrossrefWork, parseCrossrefWorkList, readNoticesFor, type CrossrefUpdate, type CrossrefWork } from "./crossref-parse";
import { normalizeDoi } from "./normalize";
import { termsOf } from "./query-terms";
import type { LiteratureSource, SourceQuery } from "./types";

export { classifyUpdateType, parseCrossrefWork } from "./crossref-parse";
;

/** The Crossref REST API, the production default. */
export const CROSSREF_BASE_URL = "https://api.crossref.org";

/** A polite default; lowered further when the API advertises less (x-rate-limit-* headers). */
export const CROSSREF_REQUESTS_PER_SECOND = 5;

export type CrossrefSourceOptions = SourceClientOptions & {
  /** Sent as `mailto` (and in the User-Agent) to be served from the polite pool. */
  mailto?: string;
};

type CrossrefRateLimit = { limit: number; intervalMs: number };

export type CrossrefSource = LiteratureSource & {
  readonly name: "crossref";
  /**
   * One work by DOI; null when Crossref does not know it. With `includeNotices`, also searches for
   * notices that update it (a second request), since many retracted works carry no `updated-by`.
   * Throws SourceError.
   */
  getWork(doi: string, options?: { includeNotices?: boolean; signal?: AbortSignal }): Promise<CrossrefWork | null>;
  /** The retraction, correction and other notices that update `doi`. Throws SourceError. */
  findUpdateNotices(doi: string, options?: { signal?: AbortSignal }): Promise<CrossrefUpdate[]>;
  /** The rate limit the API last advertised, if any. */
  advertisedRateLimit(): CrossrefRateLimit | null;
};

/** The x-rate-limit-limit / x-rate-limit-interval pair ("50", "1s"), or null. */
function parseRateLimitHeaders(headers: Headers): CrossrefRateLimit | null {
  const limit = Number(headers.get("x-rate-limit-limit"));
  const interval = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(headers.get("x-rate-limit-interval")?.trim() ?? "");
  if (!Number.isFinite(limit) || limit <= 0 || !interval) return null;
  const unit = interval[2] === "ms" ? 1 : interval[2] === "m" ? 60_000 : 1000;
  const intervalMs = Number(interval[1]) * unit;
  return intervalMs > 0 ? { limit, intervalMs } : null;
}

/** A Crossref source: DOI lookups with retraction/correction links, and bibliographic search. */
export function createCrossrefSource(options: CrossrefSourceOptions = {}): CrossrefSource {
  const configuredRate = options.requestsPerSecond ?? CROSSREF_REQUESTS_PER_SECOND;
  const limiter = options.rateLimiter ?? createRateLimiter({ requestsPerSecond: configuredRate });
  let advertised: CrossrefRateLimit | null = null;
  const http = createSourceHttpClient({
    source: "crossref",
    baseUrl: options.baseUrl ?? CROSSREF_BASE_URL,
    timeoutMs: options.timeoutMs ?? 8_000,
    requestsPerSecond: configuredRate,
    maxRetries: options.maxRetries ?? 2,
    retryBaseDelayMs: options.retryBaseDelayMs,
    rateLimiter: limiter,
    fetchImpl: options.fetchImpl,
    headers: options.mailto ? { "user-agent": `longevity-research-agent (mailto:${options.mailto})` } : undefined,
    onResponse: ({ headers }) => {
      const parsed = parseRateLimitHeaders(headers);
      if (!parsed) return;
      advertised = parsed;
      // Never exceed what the service says it allows; never go faster than configured either.
      limiter.setRequestsPerSecond(Math.min(configuredRate, (parsed.limit * 1000) / parsed.intervalMs));
    },
  });
  const polite = { mailto: options.mailto };

  async function findUpdateNotices(doi: string, { signal }: { signal?: AbortSignal } = {}): Promise<CrossrefUpdate[]> {
    const normalized = normalizeDoi(doi);
    if (!normalized) return [];
    const json = await http.getJson("/works", { signal, query: { filter: `updates:${normalized}`, rows: 20, ...polite } });
    return readNoticesFor(normalized, parseCrossrefWorkList(json));
  }

  return {
    name: "crossref",
    async search(query: SourceQuery, { signal } = {}) {
      // Crossref registers DOIs, not trials.
      if (query.scope === "trials") return [];
      const text = termsOf(query).join(" ");
      if (text === "") return [];
      const filters = [
        query.dateFrom ? `from-pub-date:${query.dateFrom}` : null,
        query.dateTo ? `until-pub-date:${query.dateTo}` : null,
        query.scope === "preprints" ? "type:posted-content" : null,
      ].filter((f): f is string => f !== null);
      const json = await http.getJson("/works", {
        signal,
        query: { "query.bibliographic": text, rows: Math.min(query.limit, 1000), filter: filters.join(",") || undefined, ...polite },
      });
      const works = parseCrossrefWorkList(json);
      // Crossref filters cannot negate a type, so preprints are dropped here.
      const kept = query.scope === "no-preprints" ? works.filter((w) => !w.record.isPreprint) : works;
      return kept.map((w) => w.record);
    },
    async getWork(doi, { includeNotices = false, signal } = {}) {
      const normalized = normalizeDoi(doi);
      if (!normalized) return null;
      const json = await http.findJson(`/works/${encodeURIComponent(normalized)}`, { signal, query: polite });
      const work = json === null ? null : parseCrossrefWork(json);
      if (!work || !includeNotices) return work;
      return applyUpdates(work, await findUpdateNotices(normalized, { signal }));
    },
    findUpdateNotices,
    advertisedRateLimit: () => advertised,
  };
}
