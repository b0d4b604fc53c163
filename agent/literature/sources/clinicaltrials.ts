import { type SourceClientOptions, sourceHttpClient } from "../http";
import type { LiteratureRecord, TrialDesign } from "../record";
import { isObject, readArray, readBoolean, readNumber, readObject, readPath, readString, readStrings } from "./json-read";
import { cleanMarkupText, normalizeNct, parsePartialDate, uniqueStrings } from "./normalize";
import { buildBroadQuery, buildStrictQuery, quoteTerm, searchAtBreadth, termsOf } from "./query-terms";
import { SourceError, type LiteratureSource, type SourceQuery } from "./types";

/** ClinicalTrials.gov (API v2 lives under /api/v2), the production default. */
export const CLINICALTRIALS_BASE_URL = "https://clinicaltrials.gov";

/**
 * The fields requested: enough for the record and for the evidence rules (design allocation,
 * intervention model, masking, results). Without `fields` the API sends whole studies, results
 * sections included, which are large.
 */
const CLINICALTRIALS_FIELDS = [
  "NCTId", "BriefTitle", "OfficialTitle", "BriefSummary", "OverallStatus", "StudyType", "Phase",
  "DesignAllocation", "DesignInterventionModel", "DesignPrimaryPurpose", "DesignMasking", "EnrollmentCount",
  "Condition", "InterventionName", "HasResults", "ResultsFirstPostDate", "StudyFirstPostDate", "StartDate",
  "LeadSponsorName", "ConditionMeshTerm", "InterventionMeshTerm",
] as const;

/** The site asks crawlers for a 1 s delay between requests. */
export const CLINICALTRIALS_REQUESTS_PER_SECOND = 1;

export type ClinicalTrialsSourceOptions = SourceClientOptions & {
  requiredTerms?: number;
};

type ClinicalTrialsPage = { totalCount: number | null; nextPageToken: string | null; records: LiteratureRecord[] };

export type ClinicalTrialsSource = LiteratureSource & {
  readonly name: "clinicaltrials";
  /** One study by NCT id; null when the registry does not know it. Throws SourceError. */
  getTrial(nct: string, options?: { signal?: AbortSignal }): Promise<LiteratureRecord | null>;
};

// The API allows 1000 per page; the engine's window is far smaller.
const MAX_PAGE_SIZE = 100;
const MAX_PAGES = 5;

/** The `query.term` for a source query (Essie syntax: quoted phrases, AND/OR). */
function buildClinicalTrialsTerm(query: SourceQuery, options: { broad?: boolean; requiredTerms?: number } = {}): string {
  const terms = termsOf(query);
  const formatTerm = quoteTerm;
  return options.broad ? buildBroadQuery(terms, { formatTerm }) : buildStrictQuery(terms, { formatTerm, requiredTerms: options.requiredTerms });
}

/** Reads a `/api/v2/studies` response. Throws SourceError "parse" when it has no `studies` list. */
function parseClinicalTrialsSearch(json: unknown): ClinicalTrialsPage {
  if (!isObject(json) || !Array.isArray(json.studies)) throw new SourceError("clinicaltrials", "parse", "studies answered without a studies list");
  return {
    totalCount: readNumber(json, "totalCount") ?? null,
    nextPageToken: readString(json, "nextPageToken") ?? null,
    records: json.studies.flatMap((study) => parseClinicalTrialsStudy(study) ?? []),
  };
}

/** One study (as `/api/v2/studies/{nct}` or an element of `studies`) as a record; null without an NCT id. */
function parseClinicalTrialsStudy(study: unknown): LiteratureRecord | null {
  const protocol = readObject(study, "protocolSection");
  const identification = readObject(protocol, "identificationModule");
  const nct = normalizeNct(readString(identification, "nctId"));
  if (!protocol || !nct) return null;
  const status = readObject(protocol, "statusModule");
  const design = readObject(protocol, "designModule");
  const designInfo = readObject(design, "designInfo");
  const firstPosted = parsePartialDate(readString(readObject(status, "studyFirstPostDateStruct"), "date"));
  const started = parsePartialDate(readString(readObject(status, "startDateStruct"), "date"));
  const resultsPosted = readString(readObject(status, "resultsFirstPostDateStruct"), "date");
  const hasResults = readBoolean(study, "hasResults") ?? (resultsPosted ? true : null);
  const summary = cleanMarkupText(readString(readObject(protocol, "descriptionModule"), "briefSummary"));

  const trial: TrialDesign = {
    studyType: readString(design, "studyType") ?? null,
    // "NA" means no phase applies (devices, behavioural studies); it is not a phase.
    phases: readStrings(design, "phases").filter((phase) => phase.toUpperCase() !== "NA"),
    allocation: readString(designInfo, "allocation") ?? null,
    interventionModel: readString(designInfo, "interventionModel") ?? null,
    primaryPurpose: readString(designInfo, "primaryPurpose") ?? null,
    masking: readString(readObject(designInfo, "maskingInfo"), "masking") ?? null,
    hasResults,
    overallStatus: readString(status, "overallStatus") ?? null,
    enrollment: readNumber(readObject(design, "enrollmentInfo"), "count") ?? null,
    conditions: readStrings(readObject(protocol, "conditionsModule"), "conditions"),
    interventions: readArray(readObject(protocol, "armsInterventionsModule"), "interventions").flatMap((i) => readString(i, "name") ?? []),
  };

  return {
    ids: { nct },
    title: readString(identification, "briefTitle") ?? readString(identification, "officialTitle") ?? nct,
    abstract: summary || null,
    journal: null,
    // The registry's publication is the first posting; a start date stands in for the year only.
    year: firstPosted.year ?? started.year,
    date: firstPosted.date,
    authors: [],
    publicationTypes: [],
    mesh: readMeshTerms(study),
    source: "clinicaltrials",
    sources: ["clinicaltrials"],
    url: `https://clinicaltrials.gov/study/${nct}`,
    isPreprint: false,
    isRetracted: false,
    trial,
  };
}

function readMeshTerms(study: unknown): string[] {
  const terms = ["conditionBrowseModule", "interventionBrowseModule"].flatMap((module) =>
    readArray(readPath(study, "derivedSection", module), "meshes").flatMap((mesh) => readString(mesh, "term") ?? []),
  );
  return uniqueStrings(terms);
}

/** A ClinicalTrials.gov source: relevance-ranked study search and lookup by NCT id. */
export function createClinicalTrialsSource(options: ClinicalTrialsSourceOptions = {}): ClinicalTrialsSource {
  const http = sourceHttpClient("clinicaltrials", { baseUrl: CLINICALTRIALS_BASE_URL, requestsPerSecond: CLINICALTRIALS_REQUESTS_PER_SECOND }, options);
  const fields = CLINICALTRIALS_FIELDS.join(",");

  async function searchTerm(term: string, query: SourceQuery, signal: AbortSignal | undefined): Promise<ClinicalTrialsPage> {
    const records: LiteratureRecord[] = [];
    let pageToken: string | undefined;
    let totalCount: number | null = null;
    for (let page = 0; page < MAX_PAGES && records.length < query.limit; page++) {
      const json = await http.getJson("/api/v2/studies", {
        signal,
        query: {
          "query.term": term,
          "filter.advanced": dateFilter(query),
          pageSize: Math.min(query.limit - records.length, MAX_PAGE_SIZE),
          countTotal: page === 0 ? "true" : undefined,
          fields,
          pageToken,
        },
      });
      const result = parseClinicalTrialsSearch(json);
      totalCount ??= result.totalCount;
      records.push(...result.records);
      if (!result.nextPageToken || result.nextPageToken === pageToken || result.records.length === 0) break;
      pageToken = result.nextPageToken;
    }
    return { totalCount, nextPageToken: null, records: records.slice(0, query.limit) };
  }

  return {
    name: "clinicaltrials",
    async search(query, { signal } = {}) {
      // A registry holds no preprints.
      if (query.scope === "preprints") return [];
      const pages = await searchAtBreadth(query, {
        requiredTerms: options.requiredTerms,
        build: (broad) => buildClinicalTrialsTerm(query, { broad, requiredTerms: options.requiredTerms }),
        run: (term) => searchTerm(term, query, signal),
        hits: (page) => page.totalCount ?? page.records.length,
      });
      // The broadened page repeats what the strict one found: each trial once, by its NCT id, first found first.
      const byNct = new Map<string, LiteratureRecord>();
      for (const record of pages.flatMap((page) => page.records)) {
        const key = record.ids.nct ?? record.url;
        if (!byNct.has(key)) byNct.set(key, record);
      }
      return [...byNct.values()].slice(0, query.limit);
    },
    async getTrial(nct, { signal } = {}) {
      const id = normalizeNct(nct);
      if (!id) return null;
      const json = await http.findJson(`/api/v2/studies/${id}`, { signal, query: { fields } });
      return json === null ? null : parseClinicalTrialsStudy(json);
    },
  };
}

// Date bounds apply to the first posting, the registry's equivalent of publication.
function dateFilter(query: SourceQuery): string | undefined {
  if (query.dateFrom === undefined && query.dateTo === undefined) return undefined;
  return `AREA[StudyFirstPostDate]RANGE[${query.dateFrom ?? "MIN"},${query.dateTo ?? "MAX"}]`;
}
