import { type SourceClientOptions, sourceHttpClient } from "../http";
import type { LiteratureRecord } from "../record";
import { isObject, readArray, readBoolean, readNumber, readObject, readPath, readString } from "./json-read";
import { cleanMarkupText, deriveTitle, normalizeDoi, normalizePmcid, normalizePmid, pageRange, parsePartialDate, uniqueStrings } from "./normalize";
import { termsOf } from "./query-terms";
import { SourceError, type LiteratureSource } from "./types";

/** The OpenAlex API, the production default. It needs an API key since February 2026. */
export const OPENALEX_BASE_URL = "https://api.openalex.org";

/** Well under OpenAlex's documented 10 requests/s. */
export const OPENALEX_REQUESTS_PER_SECOND = 5;

export type OpenAlexSourceOptions = SourceClientOptions & {
  /** Required: without a key the source is not used at all (agent/config.ts leaves it out). */
  apiKey: string;
  mailto?: string;
};

export type OpenAlexSource = LiteratureSource & {
  readonly name: "openalex";
  /** One work by DOI; null when OpenAlex does not know it. Throws SourceError. */
  getWorkByDoi(doi: string, options?: { signal?: AbortSignal }): Promise<LiteratureRecord | null>;
};

// Only what the record needs: a full work carries referenced/related works, topics and more.
const SELECT = [
  "id", "doi", "title", "display_name", "publication_year", "publication_date", "ids", "primary_location",
  "type", "authorships", "is_retracted", "mesh", "abstract_inverted_index", "cited_by_count", "biblio",
].join(",");

const TYPE_NAMES: Record<string, string> = {
  article: "Journal Article",
  review: "Review",
  preprint: "Preprint",
  letter: "Letter",
  editorial: "Editorial",
  erratum: "Published Erratum",
  retraction: "Retraction of Publication",
};

/** The abstract text of an inverted index ({ word: [positions] }); null when there is none. */
export function rebuildAbstract(invertedIndex: unknown): string | null {
  if (!isObject(invertedIndex)) return null;
  const words: string[] = [];
  for (const [word, positions] of Object.entries(invertedIndex)) {
    for (const position of readArray(positions)) {
      if (typeof position === "number" && Number.isInteger(position) && position >= 0 && position < 100_000) words[position] = word;
    }
  }
  const text = words.filter((word) => word !== undefined).join(" ");
  return text === "" ? null : text;
}

/** Reads a `/works` list response. Throws SourceError "parse" when it has no `results`. */
function parseOpenAlexWorkList(json: unknown): LiteratureRecord[] {
  if (!isObject(json) || !Array.isArray(json.results)) throw new SourceError("openalex", "parse", "works answered without results");
  return json.results.flatMap((work) => parseOpenAlexWork(work) ?? []);
}

/** One OpenAlex work as a record; null when it has no id at all. */
function parseOpenAlexWork(work: unknown): LiteratureRecord | null {
  if (!isObject(work)) return null;
  const ids = readObject(work, "ids");
  const openalex = /W\d+$/i.exec(readString(work, "id") ?? readString(ids, "openalex") ?? "")?.[0]?.toUpperCase();
  const doi = normalizeDoi(readString(work, "doi") ?? readString(ids, "doi"));
  const pmid = normalizePmid(readString(ids, "pmid"));
  const pmcid = normalizePmcid(readString(ids, "pmcid"));
  if (!openalex && !doi && !pmid) return null;

  const type = readString(work, "type") ?? null;
  const isRetracted = readBoolean(work, "is_retracted") ?? false;
  const abstract = rebuildAbstract(work.abstract_inverted_index);
  const title = cleanMarkupText(readString(work, "title") ?? readString(work, "display_name"));
  const dates = parsePartialDate(readString(work, "publication_date"));
  const types = [type ? (TYPE_NAMES[type] ?? type) : null, isRetracted ? "Retracted Publication" : null].filter((t): t is string => t !== null);

  return {
    ids: {
      ...(pmid ? { pmid } : {}),
      ...(pmcid ? { pmcid } : {}),
      ...(doi ? { doi } : {}),
      ...(openalex ? { openalex } : {}),
    },
    title: title || deriveTitle(abstract) || openalex || doi || "OpenAlex work",
    ...(title ? {} : { titleDerived: true }),
    abstract,
    journal: readString(readPath(work, "primary_location", "source"), "display_name") ?? null,
    volume: readString(readObject(work, "biblio"), "volume") ?? null,
    issue: readString(readObject(work, "biblio"), "issue") ?? null,
    pages: pageRange(readString(readObject(work, "biblio"), "first_page"), readString(readObject(work, "biblio"), "last_page")),
    year: readNumber(work, "publication_year") ?? dates.year,
    date: dates.date,
    authors: readArray(work, "authorships").flatMap((a) => readString(readObject(a, "author"), "display_name") ?? readString(a, "raw_author_name") ?? []),
    publicationTypes: uniqueStrings(types),
    mesh: uniqueStrings(readArray(work, "mesh").flatMap((m) => readString(m, "descriptor_name") ?? [])),
    source: "openalex",
    sources: ["openalex"],
    url: doi ? `https://doi.org/${doi}` : pmid ? `https://pubmed.ncbi.nlm.nih.gov/${pmid}/` : `https://openalex.org/${openalex ?? ""}`,
    isPreprint: type === "preprint",
    isRetracted,
    citedByCount: readNumber(work, "cited_by_count") ?? null,
  };
}

/** An OpenAlex source: relevance search over works and lookup by DOI. Throws Error without an API key. */
export function createOpenAlexSource(options: OpenAlexSourceOptions): OpenAlexSource {
  if (!options.apiKey) throw new Error("OpenAlex needs an API key (OPENALEX_API_KEY) since February 2026");
  const http = sourceHttpClient("openalex", { baseUrl: OPENALEX_BASE_URL, requestsPerSecond: OPENALEX_REQUESTS_PER_SECOND }, options);
  const auth = { api_key: options.apiKey, mailto: options.mailto };

  return {
    name: "openalex",
    async search(query, { signal } = {}) {
      if (query.scope === "trials") return [];
      const text = termsOf(query).join(" ");
      if (text === "") return [];
      const filters = [
        query.dateFrom ? `from_publication_date:${query.dateFrom}` : null,
        query.dateTo ? `to_publication_date:${query.dateTo}` : null,
        query.scope === "preprints" ? "type:preprint" : query.scope === "no-preprints" ? "type:!preprint" : null,
      ].filter((f): f is string => f !== null);
      const json = await http.getJson("/works", {
        signal,
        query: { search: text, filter: filters.join(",") || undefined, "per-page": Math.min(query.limit, 200), select: SELECT, ...auth },
      });
      return parseOpenAlexWorkList(json).slice(0, query.limit);
    },
    async getWorkByDoi(doi, { signal } = {}) {
      const normalized = normalizeDoi(doi);
      if (!normalized) return null;
      const json = await http.findJson(`/works/doi:${encodeURIComponent(normalized)}`, { signal, query: { select: SELECT, ...auth } });
      return json === null ? null : parseOpenAlexWork(json);
    },
  };
}
