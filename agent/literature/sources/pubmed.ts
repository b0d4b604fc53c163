import { type SourceClientOptions, sourceHttpClient } from "../http";
import type { LiteratureRecord } from "../record";
import { readNumber, readObject, readString, readStrings } from "./json-read";
import { normalizePmid } from "./normalize";
import { createEfetchBatcher } from "./pubmed-efetch-batch";
import { parsePubmedArticleSet } from "./pubmed-xml";
import { buildBroadQuery, buildStrictQuery, searchAtBreadth, termsOf } from "./query-terms";
import { SourceError, type LiteratureSource, type SourceQuery } from "./types";

/** NCBI E-utilities, the production default. */
export const PUBMED_BASE_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils";

/** NCBI's published limits; scale them (e.g. SOURCE_RATE_MULTIPLIER) only against a replay server. */
export const PUBMED_REQUESTS_PER_SECOND = { withoutKey: 3, withKey: 10 } as const;

export type PubmedSourceOptions = SourceClientOptions & {
  /** Sent as `tool` and `email` on every request, as NCBI asks. */
  tool?: string;
  email?: string;
  apiKey?: string;
  /** How many of the top terms the strict query requires (see query-terms.ts). */
  requiredTerms?: number;
};

/** One esearch: the term sent, what PubMed made of it, and the PMIDs in relevance order. */
export type EsearchResult = {
  term: string;
  count: number;
  pmids: string[];
  /** PubMed's reading of the term; shows when automatic term mapping went astray. */
  queryTranslation: string | null;
  phrasesNotFound: string[];
};

type PubmedIdSearch = { pmids: string[]; searches: EsearchResult[] };

export type PubmedSource = LiteratureSource & {
  readonly name: "pubmed";
  /** The PMIDs a search would fetch, with every esearch made. Throws SourceError. */
  searchPmids(query: SourceQuery, options?: { signal?: AbortSignal }): Promise<PubmedIdSearch>;
  /** One esearch with a ready-made term. Throws SourceError. */
  runEsearch(term: string, options?: EsearchOptions): Promise<EsearchResult>;
  /** Records for these PMIDs, in the order given; unknown PMIDs are absent. Throws SourceError. */
  fetchByPmids(pmids: readonly string[], options?: { signal?: AbortSignal }): Promise<LiteratureRecord[]>;
};

type EsearchOptions = { retmax?: number; dateFrom?: string; dateTo?: string; signal?: AbortSignal };

// efetch takes ids in the URL; 200 keeps the URL short and one response small.
const EFETCH_BATCH = 200;

/**
 * The esearch term for a query: each term tagged [tiab] so PubMed's automatic term mapping cannot
 * read a gene as a journal name, the top term(s) required and the rest ranked (see query-terms.ts),
 * plus the preprint filter the scope asks for. Empty when the query has no usable terms.
 */
export function buildPubmedTerm(query: SourceQuery, options: { broad?: boolean; requiredTerms?: number } = {}): string {
  const terms = termsOf(query);
  const formatTerm = (term: string) => `${/^[\p{L}\p{N}-]+$/u.test(term) ? term : `"${term}"`}[tiab]`;
  const formatHeading = (heading: string) => `"${heading.replace(/"/g, "")}"[mh]`;
  const expansions = query.expansions ?? [];
  const core = options.broad
    ? buildBroadQuery(terms, { formatTerm, formatHeading, expansions })
    : buildStrictQuery(terms, { formatTerm, formatHeading, expansions, requiredTerms: options.requiredTerms });
  if (core === "") return "";
  if (query.scope === "preprints") return `(${core}) AND preprint[pt]`;
  if (query.scope === "no-preprints") return `(${core}) NOT preprint[pt]`;
  return core;
}

/**
 * Reads an esearch JSON response. Throws SourceError "http" when PubMed reports a search error and
 * "parse" when the body is not an esearch result.
 */
export function parseEsearchResponse(json: unknown, term: string): EsearchResult {
  const result = readObject(json, "esearchresult");
  if (!result) {
    const error = readString(json, "error");
    throw new SourceError("pubmed", error ? "http" : "parse", error ? `esearch failed: ${error}` : "esearch answered without an esearchresult");
  }
  const backendError = readString(result, "ERROR");
  if (backendError) throw new SourceError("pubmed", "http", `esearch failed: ${backendError}`);
  return {
    term,
    count: readNumber(result, "count") ?? 0,
    pmids: readStrings(result, "idlist").flatMap((id) => normalizePmid(id) ?? []),
    queryTranslation: readString(result, "querytranslation") ?? null,
    phrasesNotFound: readStrings(readObject(result, "errorlist"), "phrasesnotfound"),
  };
}

/** A PubMed source: esearch for relevance-ranked PMIDs, then efetch for the records. */
export function createPubmedSource(options: PubmedSourceOptions = {}): PubmedSource {
  const http = sourceHttpClient("pubmed", { baseUrl: PUBMED_BASE_URL, requestsPerSecond: (options.apiKey ? PUBMED_REQUESTS_PER_SECOND.withKey : PUBMED_REQUESTS_PER_SECOND.withoutKey) }, options);
  const identity = { tool: options.tool ?? "longevity-research-agent", email: options.email, api_key: options.apiKey };

  async function runEsearch(term: string, esearch: EsearchOptions = {}): Promise<EsearchResult> {
    const dated = esearch.dateFrom !== undefined || esearch.dateTo !== undefined;
    const json = await http.getJson("/esearch.fcgi", {
      signal: esearch.signal,
      query: {
        db: "pubmed",
        term,
        retmode: "json",
        retmax: esearch.retmax ?? 20,
        sort: "relevance",
        ...(dated ? { datetype: "pdat", mindate: toEutilsDate(esearch.dateFrom ?? "1800-01-01"), maxdate: toEutilsDate(esearch.dateTo ?? "3000-12-31") } : {}),
        ...identity,
      },
    });
    return parseEsearchResponse(json, term);
  }

  async function searchPmids(query: SourceQuery, { signal }: { signal?: AbortSignal } = {}): Promise<PubmedIdSearch> {
    const esearch = { retmax: query.limit, dateFrom: query.dateFrom, dateTo: query.dateTo, signal };
    const searches = await searchAtBreadth(query, {
      requiredTerms: options.requiredTerms,
      build: (broad) => buildPubmedTerm(query, { broad, requiredTerms: options.requiredTerms }),
      run: (term) => runEsearch(term, esearch),
      hits: (search) => search.count,
    });
    const pmids = [...new Set(searches.flatMap((s) => s.pmids))].slice(0, query.limit);
    return { pmids, searches };
  }

  // Concurrent searches share efetches (pubmed-efetch-batch.ts): NCBI counts requests, not ids.
  const efetch = createEfetchBatcher({
    limiter: http.rateLimiter,
    maxIds: EFETCH_BATCH,
    send: async (ids) => {
      const response = await http.getText("/efetch.fcgi", {
        slotHeld: true,
        accept: "application/xml",
        query: { db: "pubmed", id: ids.join(","), retmode: "xml", rettype: "abstract", ...identity },
      });
      return parseEfetch(response.text);
    },
  });

  async function fetchByPmids(pmids: readonly string[], { signal }: { signal?: AbortSignal } = {}): Promise<LiteratureRecord[]> {
    const wanted = [...new Set(pmids.flatMap((id) => normalizePmid(id) ?? []))];
    const chunks: string[][] = [];
    for (let start = 0; start < wanted.length; start += EFETCH_BATCH) chunks.push(wanted.slice(start, start + EFETCH_BATCH));
    const records = (await Promise.all(chunks.map((chunk) => efetch.fetch(chunk, signal)))).flat();
    const order = new Map(wanted.map((id, index) => [id, index]));
    const rank = (record: LiteratureRecord) => order.get(record.ids.pmid ?? "") ?? wanted.length;
    return records.sort((a, b) => rank(a) - rank(b));
  }

  return {
    name: "pubmed",
    async search(query, searchOptions = {}) {
      // PubMed holds no trial registrations; a trials-only search is ClinicalTrials.gov's.
      if (query.scope === "trials") return [];
      const { pmids } = await searchPmids(query, searchOptions);
      return pmids.length > 0 ? fetchByPmids(pmids, searchOptions) : [];
    },
    searchPmids,
    runEsearch,
    fetchByPmids,
  };
}

function parseEfetch(text: string): LiteratureRecord[] {
  if (!text.includes("PubmedArticleSet")) {
    throw new SourceError("pubmed", "parse", `efetch answered something other than a PubmedArticleSet: ${text.slice(0, 120)}`);
  }
  try {
    return parsePubmedArticleSet(text);
  } catch (err) {
    throw new SourceError("pubmed", "parse", "efetch answered XML that could not be parsed", { cause: err });
  }
}

function toEutilsDate(isoDate: string): string {
  return isoDate.replace(/-/g, "/");
}
