import { createHash } from "node:crypto";
import { normalizeDoi, normalizeNct, normalizePages, normalizePmid } from "@/agent/literature/sources/normalize";

/**
 * Turning an incoming record (a JSON Lines entry or a parsed PubMed article) into a library row:
 * identifiers normalised by the source parsers' own rules (agent/literature/sources/normalize.ts),
 * so library records merge with the same paper from PubMed or Europe PMC; text cleaned of what
 * PostgreSQL cannot store, a title derived when there is none, and a content hash that identifies
 * the record when it has no identifier (or a different one) so a second import adds nothing.
 */

/** What an importer hands over: the JSON Lines fields, whatever their source. */
export type LibraryRecordInput = {
  pmid?: string | null;
  doi?: string | null;
  nct?: string | null;
  title?: string | null;
  abstract?: string | null;
  year?: number | null;
  journal?: string | null;
  volume?: string | null;
  issue?: string | null;
  pages?: string | null;
  authors?: string[] | null;
  publicationTypes?: string[] | null;
  mesh?: string[] | null;
};

/** A row of agent.library_records, ready to insert. */
export type LibraryRow = {
  id: string;
  pmid: string | null;
  doi: string | null;
  nct: string | null;
  contentHash: string;
  title: string;
  titleDerived: boolean;
  abstract: string;
  journal: string | null;
  volume: string | null;
  issue: string | null;
  pages: string | null;
  year: number | null;
  authors: string[];
  publicationTypes: string[];
  mesh: string[];
};

/** Longest derived title, in characters, before it is cut at a word boundary. */
const DERIVED_TITLE_MAX = 150;
/** Longer abstracts are refused: a tsvector holds at most 1 MB, and nothing real comes near this. */
const ABSTRACT_MAX = 100_000;
const TITLE_MAX = 2_000;

// Control characters other than tab and line breaks (those count as whitespace and are collapsed).
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * One line of text: whitespace collapsed and control characters dropped (PostgreSQL text cannot
 * hold NUL, and the others only break display); null for nothing left.
 */
export function cleanText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const cleaned = value.replace(CONTROL, "").replace(/\s+/g, " ").trim();
  return cleaned === "" ? null : cleaned;
}

/** Like cleanText, but keeps line breaks: structured abstracts put each section on its own line. */
export function cleanParagraphs(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const cleaned = value
    .replace(CONTROL, "")
    .split(/\s*[\r\n]+\s*/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
  return cleaned === "" ? null : cleaned;
}

/**
 * A title for a record that has none: the abstract's first sentence (without a leading section
 * label such as "BACKGROUND:"), cut at a word boundary with an ellipsis when longer than `max`.
 * Callers store it with title_derived = true so nobody mistakes it for the paper's title.
 */
export function deriveTitle(abstract: string, max = DERIVED_TITLE_MAX): string {
  // The first paragraph only: a structured abstract's next section is never part of its first sentence.
  const firstParagraph = cleanParagraphs(abstract)?.split("\n")[0] ?? "";
  const text = firstParagraph.replace(/^[A-Z][A-Z &/-]{2,40}:\s+/, "");
  // A sentence ends at . ! or ? followed by a space and a capital, digit or bracket, so
  // abbreviations in lower-case context ("e.g. mice", "vs. placebo") and decimals do not end it.
  const end = /[.!?](?=\s+[A-Z0-9(["'])/.exec(text);
  let sentence = (end ? text.slice(0, end.index + 1) : text).trim();
  sentence = sentence.replace(/[.\s]+$/, "");
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

/** sha256 of the lower-cased title and abstract: the identity of a record regardless of its ids. */
export function hashContent({ title, abstract }: { title: string; abstract: string }): string {
  const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  return createHash("sha256").update(`${normalise(title)}\n${normalise(abstract)}`).digest("hex");
}

/** A stable uuid from the content hash, so the same record has the same id in every library built from it. */
export function idFromHash(contentHash: string): string {
  const h = contentHash.slice(0, 32).split("");
  h[12] = "8"; // version 8: custom, derived from our own hash (RFC 9562)
  h[16] = ((parseInt(h[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

function cleanList(values: string[] | null | undefined): string[] {
  const seen = new Set<string>();
  for (const value of values ?? []) {
    const cleaned = cleanText(value);
    if (cleaned) seen.add(cleaned);
  }
  return [...seen];
}

/**
 * A library row from an incoming record, or the reason it cannot be one. Malformed identifiers are
 * reasons too: a record whose PMID is garbage should be fixed at its source, not stored without it.
 */
export function prepareLibraryRow(input: LibraryRecordInput): { row: LibraryRow } | { reason: string } {
  const pmid = normalizePmid(input.pmid) ?? null;
  if (cleanText(input.pmid) && !pmid) return { reason: `pmid "${input.pmid}" is not a PubMed id (digits)` };
  const doi = normalizeDoi(cleanText(input.doi)) ?? null;
  if (cleanText(input.doi) && !doi) return { reason: `doi "${input.doi}" is not a DOI (10.<registrant>/<suffix>)` };
  const nct = normalizeNct(cleanText(input.nct)) ?? null;
  if (cleanText(input.nct) && !nct) return { reason: `nct "${input.nct}" is not a ClinicalTrials.gov id (NCT and 8 digits)` };

  const abstract = cleanParagraphs(input.abstract) ?? "";
  const givenTitle = cleanText(input.title);
  if (!givenTitle && !abstract) return { reason: "no title and no abstract: nothing to search" };
  if (abstract.length > ABSTRACT_MAX) return { reason: `abstract longer than ${ABSTRACT_MAX} characters` };
  if (givenTitle && givenTitle.length > TITLE_MAX) return { reason: `title longer than ${TITLE_MAX} characters` };
  const title = givenTitle ?? deriveTitle(abstract);
  const year = input.year ?? null;
  if (year !== null && (!Number.isInteger(year) || year < 1000 || year > 2999)) return { reason: `year ${year} is not a four-digit year` };

  const contentHash = hashContent({ title, abstract });
  return {
    row: {
      id: idFromHash(contentHash),
      pmid,
      doi,
      nct,
      contentHash,
      title,
      titleDerived: !givenTitle,
      abstract,
      journal: cleanText(input.journal),
      volume: cleanText(input.volume),
      issue: cleanText(input.issue),
      pages: normalizePages(cleanText(input.pages)),
      year,
      authors: cleanList(input.authors),
      publicationTypes: cleanList(input.publicationTypes),
      mesh: cleanList(input.mesh),
    },
  };
}
