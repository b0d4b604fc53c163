import { type SourceClientOptions, sourceHttpClient } from "../http";
import type { LiteratureRecord } from "../record";
import { isObject, readNumber, readString } from "./json-read";
import { cleanMarkupText, formatAuthorName, normalizeDoi, parsePartialDate } from "./normalize";
import { SourceError } from "./types";

/** The bioRxiv/medRxiv API, the production default (one API serves both servers). */
export const BIORXIV_BASE_URL = "https://api.biorxiv.org";

/** bioRxiv publishes no limit; one lookup per preprint needs little. */
export const BIORXIV_REQUESTS_PER_SECOND = 2;

type PreprintServer = "biorxiv" | "medrxiv";

export type BiorxivSourceOptions = SourceClientOptions & {
  /** Which server this source stands for (its `name`), and the one tried first in lookups. */
  server?: PreprintServer;
};

/** A preprint and, when it has one, the DOI of its journal version. */
type PublishedVersion = {
  doi: string;
  server: PreprintServer;
  /** The journal version's DOI; null while the server lists none ("NA"). */
  publishedDoi: string | null;
  latestVersion: number | null;
  /** The preprint as a record (latest version's metadata, first version's posting date). */
  record: LiteratureRecord;
};

export type BiorxivSource = {
  readonly name: PreprintServer;
  /**
   * Looks a preprint DOI up on `server` (default: this source's server, then the other one).
   * Null when neither server knows it. Throws SourceError.
   */
  getPublishedVersion(doi: string, server?: PreprintServer, options?: { signal?: AbortSignal }): Promise<PublishedVersion | null>;
};

/**
 * Reads a `/details/{server}/{doi}/na/json` response: `collection` holds one entry per version.
 * Null when the collection is empty ("no posts found"). Throws SourceError "parse" when the body
 * is not a details response at all.
 */
function parseBiorxivDetails(json: unknown, server: PreprintServer): PublishedVersion | null {
  if (!isObject(json) || !Array.isArray(json.collection)) throw new SourceError(server, "parse", "details answered without a collection");
  const versions = json.collection
    .filter(isObject)
    .map((entry) => ({ entry, version: readNumber(entry, "version") ?? 0 }))
    .sort((a, b) => a.version - b.version);
  const first = versions[0];
  const latest = versions[versions.length - 1];
  if (!first || !latest) return null;
  const doi = normalizeDoi(readString(latest.entry, "doi"));
  if (!doi) return null;
  const entryServer = readString(latest.entry, "server")?.toLowerCase();
  const actualServer: PreprintServer = entryServer === "medrxiv" || entryServer === "biorxiv" ? entryServer : server;
  // Any version may carry the link once the paper is out; the API sets it on the latest.
  const publishedDoi = versions.map((v) => normalizeDoi(readString(v.entry, "published"))).findLast(Boolean) ?? null;
  const posted = parsePartialDate(readString(first.entry, "date"));
  const abstract = cleanMarkupText(readString(latest.entry, "abstract")) || null;
  const title = cleanMarkupText(readString(latest.entry, "title"));
  const host = actualServer === "medrxiv" ? "www.medrxiv.org" : "www.biorxiv.org";
  return {
    doi,
    server: actualServer,
    publishedDoi,
    latestVersion: latest.version || null,
    record: {
      ids: { doi },
      title: title || doi,
      ...(title ? {} : { titleDerived: true }),
      abstract,
      journal: actualServer === "medrxiv" ? "medRxiv" : "bioRxiv",
      year: posted.year,
      date: posted.date,
      authors: parseAuthorList(readString(latest.entry, "authors")),
      publicationTypes: ["Preprint"],
      mesh: [],
      source: actualServer,
      sources: [actualServer],
      url: `https://${host}/content/${doi}${latest.version ? `v${latest.version}` : ""}`,
      isPreprint: true,
      isRetracted: false,
      publishedDoi,
    },
  };
}

// The API lists authors as "Family, G. H.; Other, A." in one string.
function parseAuthorList(authors: string | undefined): string[] {
  if (!authors) return [];
  return authors
    .split(";")
    .map((part) => part.trim())
    .filter(Boolean)
    .flatMap((part) => {
      const [family, given] = part.split(/,\s*/, 2);
      return formatAuthorName(family, given?.replace(/\./g, " ")) ?? [];
    });
}

/**
 * bioRxiv's and medRxiv's lookup, never searched: their API has no keyword search, so preprints
 * are found through Europe PMC (`SRC:PPR`) and this links each one to its journal version.
 */
export function createBiorxivSource(options: BiorxivSourceOptions = {}): BiorxivSource {
  const server = options.server ?? "biorxiv";
  const http = sourceHttpClient(server, { baseUrl: BIORXIV_BASE_URL, requestsPerSecond: BIORXIV_REQUESTS_PER_SECOND }, options);

  async function lookUp(doi: string, on: PreprintServer, signal: AbortSignal | undefined): Promise<PublishedVersion | null> {
    // The DOI's slash separates path segments in this API's documented URLs; keep it.
    const path = `/details/${on}/${doi.split("/").map(encodeURIComponent).join("/")}/na/json`;
    const json = await http.findJson(path, { signal });
    return json === null ? null : parseBiorxivDetails(json, on);
  }

  return {
    name: server,
    async getPublishedVersion(doi, onServer, { signal } = {}) {
      const normalized = normalizeDoi(doi);
      if (!normalized) return null;
      const order: PreprintServer[] = onServer ? [onServer] : [server, server === "biorxiv" ? "medrxiv" : "biorxiv"];
      for (const candidate of order) {
        const found = await lookUp(normalized, candidate, signal);
        if (found) return found;
      }
      return null;
    },
  };
}
