import type { LiteratureRecord } from "../record";
import { isObject, readArray, readNumber, readObject, readString, readStrings, type JsonObject } from "./json-read";
import { cleanMarkupText, formatAuthorName, formatIsoDate, normalizeDoi, normalizePages, uniqueStrings } from "./normalize";
import { SourceError } from "./types";

/**
 * Crossref work metadata to LiteratureRecord, with the update links that mark retractions and
 * corrections. Crossref records them on the notice (`update-to`: "this notice updates DOI X") and,
 * where the registry has filled it in, on the updated work (`updated-by`).
 */

export type CrossrefUpdateKind = "retraction" | "withdrawal" | "removal" | "partial_retraction" | "correction" | "expression_of_concern" | "other";

/** One update link. `doi` is the other side: the notice in `updatedBy`, the updated work in `updateTo`. */
export type CrossrefUpdate = {
  doi: string;
  type: string;
  kind: CrossrefUpdateKind;
  label: string | null;
  date: string | null;
  /** Who asserted it, e.g. "publisher" or "retraction-watch", when given. */
  source: string | null;
};

type CrossrefRelation = { type: string; id: string; idType: string };

export type CrossrefWork = {
  record: LiteratureRecord;
  type: string | null;
  /** The works this record is a notice for. */
  updateTo: CrossrefUpdate[];
  /** The notices that update this record. */
  updatedBy: CrossrefUpdate[];
  relations: CrossrefRelation[];
};

const RETRACTING_KINDS = new Set<CrossrefUpdateKind>(["retraction", "withdrawal", "removal"]);

/** The kind of a Crossref update type ("retraction", "erratum", "expression_of_concern", ...). */
export function classifyUpdateType(type: string): CrossrefUpdateKind {
  const normalized = type.trim().toLowerCase().replace(/[\s-]+/g, "_");
  if (normalized === "retraction" || normalized === "withdrawal" || normalized === "removal" || normalized === "partial_retraction") return normalized;
  if (normalized === "correction" || normalized === "corrigendum" || normalized === "erratum") return "correction";
  if (normalized === "expression_of_concern") return "expression_of_concern";
  return "other";
}

/** Reads a `/works` list response. Throws SourceError "parse" when it has no `message.items`. */
export function parseCrossrefWorkList(json: unknown): CrossrefWork[] {
  const items = readObject(json, "message")?.items;
  if (!Array.isArray(items)) throw new SourceError("crossref", "parse", "works answered without message.items");
  return items.flatMap((item) => parseCrossrefWork(item) ?? []);
}

/** Reads a `/works/{doi}` response or its `message`; null when it has no DOI. */
export function parseCrossrefWork(json: unknown): CrossrefWork | null {
  const work = isObject(json) && isObject(json.message) ? json.message : json;
  if (!isObject(work)) return null;
  const doi = normalizeDoi(readString(work, "DOI"));
  if (!doi) return null;
  const type = readString(work, "type") ?? null;
  const updateTo = readUpdates(work["update-to"]);
  const updatedBy = readUpdates(work["updated-by"]);
  const relations = readRelations(work);
  const title = cleanMarkupText(readStrings(work, "title")[0]);
  const abstract = cleanMarkupText(readString(work, "abstract")).replace(/^Abstract\s+/i, "") || null;
  const { year, date } = readIssued(work);
  const isPreprint = type === "posted-content" && (readString(work, "subtype") ?? "preprint") === "preprint";
  const publishedDoi = isPreprint
    ? relations.find((r) => r.type === "is-preprint-of" && r.idType === "doi")?.id ?? null
    : undefined;

  const record: LiteratureRecord = {
    ids: { doi },
    title: title || doi,
    ...(title ? {} : { titleDerived: true }),
    abstract,
    journal:
      readStrings(work, "container-title")[0] ??
      readStrings(work, "short-container-title")[0] ??
      readString(readArray(work, "institution")[0], "name") ??
      null,
    volume: readString(work, "volume") ?? null,
    issue: readString(work, "issue") ?? null,
    // An article with no pages has an article number (Cell Genomics' "100814").
    pages: normalizePages(readString(work, "page") ?? readString(work, "article-number")),
    year,
    date,
    authors: readArray(work, "author").flatMap((author) => formatAuthorName(readString(author, "family"), readString(author, "given")) ?? readString(author, "name") ?? []),
    publicationTypes: [],
    mesh: [],
    source: "crossref",
    sources: ["crossref"],
    url: `https://doi.org/${doi}`,
    isPreprint,
    isRetracted: false,
    ...(publishedDoi !== undefined ? { publishedDoi } : {}),
    citedByCount: readNumber(work, "is-referenced-by-count") ?? null,
  };
  return applyUpdates({ record, type, updateTo, updatedBy, relations }, []);
}

/**
 * The work with `extraNotices` added to its `updatedBy`, and its retraction flag and publication
 * types recomputed from every link it has.
 */
export function applyUpdates(work: CrossrefWork, extraNotices: CrossrefUpdate[]): CrossrefWork {
  const seen = new Set<string>();
  const updatedBy = [...work.updatedBy, ...extraNotices].filter((update) => {
    const key = `${update.doi}|${update.kind}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // Some publishers (Elsevier among them) retitle a retracted article "RETRACTED: ...".
  const retitled = /^retracted\s*[:\-–]/i.test(work.record.title);
  const isRetracted = retitled || updatedBy.some((update) => RETRACTING_KINDS.has(update.kind));
  const types = [typeName(work.type, work.record.isPreprint)];
  if (work.updateTo.some((u) => RETRACTING_KINDS.has(u.kind))) types.push("Retraction of Publication");
  if (work.updateTo.some((u) => u.kind === "correction")) types.push("Published Erratum");
  if (work.updateTo.some((u) => u.kind === "expression_of_concern")) types.push("Expression of Concern");
  if (isRetracted) types.push("Retracted Publication");
  return {
    ...work,
    updatedBy,
    record: { ...work.record, isRetracted, publicationTypes: uniqueStrings(types.filter((t): t is string => t !== null)) },
  };
}

/** The updates that notices (the items of a `filter=updates:{doi}` search) make to `doi`. */
export function readNoticesFor(doi: string, notices: CrossrefWork[]): CrossrefUpdate[] {
  return notices.flatMap((notice) =>
    notice.updateTo.filter((update) => update.doi === doi).map((update) => ({ ...update, doi: notice.record.ids.doi ?? update.doi })),
  );
}

function readUpdates(value: unknown): CrossrefUpdate[] {
  return readArray(value).flatMap((entry) => {
    const doi = normalizeDoi(readString(entry, "DOI"));
    const type = readString(entry, "type");
    if (!doi || !type) return [];
    return [{ doi, type, kind: classifyUpdateType(type), label: readString(entry, "label") ?? null, date: readDateParts(readObject(entry, "updated")).date, source: readString(entry, "source") ?? null }];
  });
}

function readRelations(work: JsonObject): CrossrefRelation[] {
  const relation = readObject(work, "relation");
  if (!relation) return [];
  return Object.entries(relation).flatMap(([type, links]) =>
    readArray(links).flatMap((link) => {
      const idType = readString(link, "id-type") ?? "";
      const raw = readString(link, "id");
      if (!raw) return [];
      const id = idType === "doi" ? (normalizeDoi(raw) ?? raw) : raw;
      return [{ type, id, idType }];
    }),
  );
}

function readIssued(work: JsonObject): { year: number | null; date: string | null } {
  for (const key of ["issued", "published", "published-online", "published-print", "posted"]) {
    const parsed = readDateParts(readObject(work, key));
    if (parsed.year !== null) return parsed;
  }
  return { year: null, date: null };
}

function readDateParts(value: JsonObject | undefined): { year: number | null; date: string | null } {
  const parts = readArray(readArray(value, "date-parts")[0]);
  const year = readNumber(parts[0]);
  if (year === undefined) return { year: null, date: null };
  return { year, date: formatIsoDate(year, readNumber(parts[1]), readNumber(parts[2])) };
}

const TYPE_NAMES: Record<string, string> = {
  "journal-article": "Journal Article",
  "posted-content": "Preprint",
  "book-chapter": "Book Chapter",
  "proceedings-article": "Conference Paper",
  "peer-review": "Peer Review",
  dataset: "Dataset",
};

function typeName(type: string | null, isPreprint: boolean): string | null {
  if (isPreprint) return "Preprint";
  if (type === null) return null;
  return TYPE_NAMES[type] ?? type;
}
