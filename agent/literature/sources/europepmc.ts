import { type SourceClientOptions, sourceHttpClient } from "../http";
import type { LiteratureRecord } from "../record";
import { isObject, readArray, readNumber, readObject, readPath, readString, readStrings } from "./json-read";
import {
  canonicalPublicationType,
  cleanMarkupText,
  deriveTitle,
  formatAuthorName,
  normalizeDoi,
  normalizePages,
  normalizePmcid,
  normalizePmid,
  parsePartialDate,
  parseYear,
  uniqueStrings,
} from "./normalize";
import { buildBroadQuery, buildStrictQuery, quoteTerm, searchAtBreadth, termsOf } from "./query-terms";
import { SourceError, type LiteratureSource, type SourceQuery } from "./types";

/** Europe PMC REST, the production default. */
export const EUROPEPMC_BASE_URL = "https://www.ebi.ac.uk/europepmc/webservices/rest";

/**
 * Europe PMC throttles at 10 requests per second and 500 per minute (its developer forum, 2026);
 * 8 per second stays under both.
 */
export const EUROPEPMC_REQUESTS_PER_SECOND = 8;

export type EuropePmcSourceOptions = SourceClientOptions & {
  requiredTerms?: number;
};

export type EuropePmcPage = { hitCount: number | null; nextCursorMark: string | null; records: LiteratureRecord[] };

export type EuropePmcSource = LiteratureSource & {
  readonly name: "europepmc";
  /** Runs a query in Europe PMC's own syntax (e.g. `DOI:"10.1/x"`, `EXT_ID:123 AND SRC:MED`). Throws SourceError. */
  searchByQueryString(queryString: string, options: { limit: number; signal?: AbortSignal }): Promise<EuropePmcPage>;
};

// One request can return at most 1000 results; a few pages are plenty for the engine's window.
const MAX_PAGE_SIZE = 1000;
const MAX_PAGES = 5;

/**
 * The Europe PMC query for a source query: terms searched in title and abstract (not the full
 * text, which matches too loosely), the top term(s) required and the rest ranked, plus the
 * preprint scope (`SRC:PPR` selects preprints) and the first-publication date range.
 */
export function buildEuropePmcQuery(query: SourceQuery, options: { broad?: boolean; requiredTerms?: number } = {}): string {
  const terms = termsOf(query);
  const formatTerm = (term: string) => `TITLE_ABS:${quoteTerm(term)}`;
  // The vocabulary's other names for a phrase go in title and abstract too (headings are PubMed's).
  const expansions = query.expansions ?? [];
  const core = options.broad ? buildBroadQuery(terms, { formatTerm, expansions }) : buildStrictQuery(terms, { formatTerm, expansions, requiredTerms: options.requiredTerms });
  if (core === "") return "";
  let built = `(${core})`;
  if (query.dateFrom !== undefined || query.dateTo !== undefined) {
    built += ` AND FIRST_PDATE:[${query.dateFrom ?? "1800-01-01"} TO ${query.dateTo ?? "3000-12-31"}]`;
  }
  if (query.scope === "preprints") built += " AND SRC:PPR";
  if (query.scope === "no-preprints") built += " NOT SRC:PPR";
  return built;
}

/** Reads a search response (`core` or `lite`). Throws SourceError "parse" when it has no result list. */
export function parseEuropePmcSearch(json: unknown): EuropePmcPage {
  const list = readObject(json, "resultList");
  if (!list) throw new SourceError("europepmc", "parse", "search answered without a resultList");
  return {
    hitCount: readNumber(json, "hitCount") ?? null,
    nextCursorMark: readString(json, "nextCursorMark") ?? null,
    records: readArray(list, "result").flatMap((result) => parseEuropePmcResult(result) ?? []),
  };
}

/** One search result, `core` or `lite`, as a record; null when it has no usable id. */
function parseEuropePmcResult(result: unknown): LiteratureRecord | null {
  if (!isObject(result)) return null;
  const origin = readString(result, "source")?.toUpperCase();
  const id = readString(result, "id");
  const isPreprint = origin === "PPR";
  const pmid = normalizePmid(readString(result, "pmid")) ?? (origin === "MED" ? normalizePmid(id) : undefined);
  const pmcid = normalizePmcid(readString(result, "pmcid")) ?? (origin === "PMC" ? normalizePmcid(id) : undefined);
  const doi = normalizeDoi(readString(result, "doi") ?? readString(result, "DOI"));
  const ppr = isPreprint && id ? id.toUpperCase() : undefined;
  if (!pmid && !pmcid && !doi && !ppr) return null;

  const types = readPublicationTypes(result);
  const publicationTypes = isPreprint && !types.includes("Preprint") ? [...types, "Preprint"] : types;
  const abstract = cleanMarkupText(readString(result, "abstractText")) || null;
  const title = cleanMarkupText(readString(result, "title"));
  const journal =
    readString(readPath(result, "journalInfo", "journal"), "title") ??
    readString(result, "journalTitle") ??
    readString(readObject(result, "bookOrReportDetails"), "publisher") ??
    null;
  const dates = parsePartialDate(readString(result, "firstPublicationDate"));
  const citedByCount = readNumber(result, "citedByCount");

  return {
    ids: { ...(pmid ? { pmid } : {}), ...(pmcid ? { pmcid } : {}), ...(doi ? { doi } : {}), ...(ppr ? { ppr } : {}) },
    title: title || deriveTitle(abstract) || `Europe PMC record ${origin ?? ""} ${id ?? ""}`.trim(),
    ...(title ? {} : { titleDerived: true }),
    abstract,
    journal,
    // `core` nests volume and issue in journalInfo; `lite` names them at the top.
    volume: readString(readObject(result, "journalInfo"), "volume") ?? readString(result, "journalVolume") ?? null,
    issue: readString(readObject(result, "journalInfo"), "issue") ?? readString(result, "issue") ?? null,
    pages: normalizePages(readString(result, "pageInfo")),
    year: parseYear(readString(result, "pubYear")) ?? parseYear(readString(readObject(result, "journalInfo"), "yearOfPublication")) ?? dates.year,
    date: dates.date,
    authors: readAuthors(result),
    publicationTypes,
    mesh: uniqueStrings(readArray(readObject(result, "meshHeadingList"), "meshHeading").flatMap((h) => readString(h, "descriptorName") ?? [])),
    source: "europepmc",
    sources: ["europepmc"],
    url: landingUrl({ pmid, pmcid, doi, ppr, origin, id }),
    isPreprint,
    isRetracted: publicationTypes.includes("Retracted Publication") || hasRetractionNotice(result),
    citedByCount: citedByCount ?? null,
  };
}

// `core` gives pubTypeList.pubType[]; `lite` only a "; "-separated lower-case pubType string
// (one type, "research support, non-u.s. gov't", itself contains a comma).
function readPublicationTypes(result: Record<string, unknown>): string[] {
  const listed = readStrings(readObject(result, "pubTypeList"), "pubType");
  const types = listed.length > 0 ? listed : (readString(result, "pubType") ?? "").split(";");
  return uniqueStrings(types.map(canonicalPublicationType));
}

function readAuthors(result: Record<string, unknown>): string[] {
  const listed = readArray(readObject(result, "authorList"), "author").flatMap((author) => {
    const name =
      readString(author, "collectiveName") ??
      formatAuthorName(readString(author, "lastName"), readString(author, "firstName"), readString(author, "initials")) ??
      readString(author, "fullName");
    return name ? [name] : [];
  });
  if (listed.length > 0) return listed;
  const authorString = readString(result, "authorString") ?? "";
  return authorString
    .replace(/\.$/, "")
    .split(/,\s+/)
    .map((name) => name.trim())
    .filter(Boolean);
}

// A "Retraction in" link marks the retracted article ("Retraction of" marks the notice).
function hasRetractionNotice(result: Record<string, unknown>): boolean {
  return readArray(readObject(result, "commentCorrectionList"), "commentCorrection").some((link) =>
    /^retraction in\b/i.test(readString(link, "type") ?? ""),
  );
}

function landingUrl(ids: { pmid?: string; pmcid?: string; doi?: string; ppr?: string; origin?: string; id?: string }): string {
  if (ids.pmid) return `https://pubmed.ncbi.nlm.nih.gov/${ids.pmid}/`;
  if (ids.ppr && ids.doi) return `https://doi.org/${ids.doi}`;
  if (ids.ppr) return `https://europepmc.org/article/PPR/${ids.ppr}`;
  if (ids.pmcid) return `https://europepmc.org/article/PMC/${ids.pmcid}`;
  if (ids.doi) return `https://doi.org/${ids.doi}`;
  return `https://europepmc.org/article/${ids.origin ?? "MED"}/${ids.id ?? ""}`;
}

/** A Europe PMC source: one relevance-ranked search over title and abstract, `core` results. */
export function createEuropePmcSource(options: EuropePmcSourceOptions = {}): EuropePmcSource {
  const http = sourceHttpClient("europepmc", { baseUrl: EUROPEPMC_BASE_URL, requestsPerSecond: EUROPEPMC_REQUESTS_PER_SECOND }, options);

  async function searchByQueryString(queryString: string, { limit, signal }: { limit: number; signal?: AbortSignal }): Promise<EuropePmcPage> {
    const records: LiteratureRecord[] = [];
    let cursor = "*";
    let hitCount: number | null = null;
    for (let page = 0; page < MAX_PAGES && records.length < limit; page++) {
      const pageSize = Math.min(limit - records.length, MAX_PAGE_SIZE);
      const json = await http.getJson("/search", {
        signal,
        query: { query: queryString, format: "json", resultType: "core", pageSize, cursorMark: cursor },
      });
      const result = parseEuropePmcSearch(json);
      hitCount ??= result.hitCount;
      records.push(...result.records);
      // The last page still carries a nextCursorMark; a short page or the hit count ends the walk.
      const exhausted = result.records.length < pageSize || (hitCount !== null && records.length >= hitCount);
      if (exhausted || !result.nextCursorMark || result.nextCursorMark === cursor) break;
      cursor = result.nextCursorMark;
    }
    return { hitCount, nextCursorMark: null, records: records.slice(0, limit) };
  }

  return {
    name: "europepmc",
    async search(query, { signal } = {}) {
      if (query.scope === "trials") return [];
      const pages = await searchAtBreadth(query, {
        requiredTerms: options.requiredTerms,
        build: (broad) => buildEuropePmcQuery(query, { broad, requiredTerms: options.requiredTerms }),
        run: (queryString) => searchByQueryString(queryString, { limit: query.limit, signal }),
        hits: (page) => page.hitCount ?? 0,
      });
      return mergeByKey(pages.flatMap((page) => page.records)).slice(0, query.limit);
    },
    searchByQueryString,
  };
}

function mergeByKey(records: LiteratureRecord[]): LiteratureRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const key = record.ids.pmid ?? record.ids.ppr ?? record.ids.pmcid ?? record.ids.doi ?? record.url;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
