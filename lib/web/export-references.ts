import type { EvidenceRole, EvidenceType, StudySnapshot, Verification } from "@/lib/shared/contracts/evidence";
import { invertedName, splitAuthorName } from "@/lib/web/author-names";
import { bareDoi, publicReferenceUrl, type LinkableReference } from "@/lib/web/reference-links";

/**
 * References taken away: BibTeX, RIS and CSV for a reference manager or a spreadsheet, and an
 * answer as plain text with its numbered sources. Pure functions over the references the page
 * shows (chat's GradedReference, a literature reference, a deep-research citation), so they are
 * tested against the contract's own result shapes. Links in exports are public ones only
 * (lib/web/reference-links.ts): PubMed, the DOI, the trial registry, or this gateway's record page.
 */

/** What an export needs of a reference: the contract's fields, and the citation details when the source gave them. */
export type ExportableReference = LinkableReference & {
  ordinal: number;
  title: string;
  /** The record had no title: `title` is its abstract's first sentence, never written as the paper's title. */
  titleDerived?: boolean | undefined;
  year?: number | null | undefined;
  journal?: string | null | undefined;
  authors?: readonly string[] | null | undefined;
  volume?: string | null | undefined;
  issue?: string | null | undefined;
  pages?: string | null | undefined;
  evidenceType?: EvidenceType | undefined;
  evidenceRole?: EvidenceRole | undefined;
  verification?: Verification | undefined;
  confidence?: number | undefined;
  snapshot?: StudySnapshot | undefined;
  isPreprint?: boolean | null | undefined;
};

/** `origin` makes this gateway's record pages absolute (the page passes location.origin). */
type ExportOptions = { origin: string };

const pmidOf = (ref: ExportableReference) => {
  const pmid = ref.pmid == null ? null : String(ref.pmid).trim();
  return pmid && /^\d+$/.test(pmid) ? pmid : null;
};

const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();
const present = (value: string | null | undefined): string | null => (value && oneLine(value) ? oneLine(value) : null);

/** What a record without a title is cited with: a note saying so, its derived text marked as the abstract's. */
const untitledNote = (ref: ExportableReference) => `Untitled in its source; its abstract begins: ${oneLine(ref.title)}`;

/** A page range split at its hyphen ("1116-1122" → 1116, 1122); an article number is a first page alone. */
function pageParts(pages: string): { first: string; last: string | null } {
  const range = /^([^-\s]+)-([^-\s]+)$/.exec(pages);
  return range ? { first: range[1]!, last: range[2]! } : { first: pages, last: null };
}

const TEX_ESCAPES: Record<string, string> = { "\\": "\\textbackslash{}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}" };

/** BibTeX escapes in one pass (so an escape's own braces are not escaped again), whitespace collapsed. */
function bibtexText(value: string): string {
  return oneLine(value).replace(/[\\{}&%$#_~^]/g, (ch) => TEX_ESCAPES[ch] ?? `\\${ch}`);
}

/** One BibTeX name: "Family, [Suffix, ]Given", or a group's name in braces so it is never split into first and last. */
function bibtexName(raw: string): string {
  const name = splitAuthorName(raw);
  if ("literal" in name) return `{${bibtexText(name.literal)}}`;
  return [name.family, name.suffix, name.given].filter(Boolean).map((part) => bibtexText(part!)).join(", ");
}

/** A citation key a reference manager accepts: the first author's family name (or "ref"), the year, the ordinal. */
function citationKey(ref: ExportableReference): string {
  const first = ref.authors?.[0] ? splitAuthorName(ref.authors[0]) : null;
  const family = first ? ("literal" in first ? first.literal : first.family) : "";
  const word = family.normalize("NFKD").replace(/[^A-Za-z]/g, "");
  return `${word.toLowerCase() || "ref"}${ref.year ?? ""}_${ref.ordinal}`;
}

/** A journal article is one with a journal; anything else (a trial record, a library record without one) is a generic entry. */
const isArticle = (ref: ExportableReference) => present(ref.journal) !== null;

/**
 * References as BibTeX entries, in their order: @article with its authors, journal, volume,
 * number, pages, year, DOI and PMID when it has a journal, @misc otherwise. The title is written
 * whole; a record without one gets a note instead of a made-up title.
 */
export function toBibtex(references: readonly ExportableReference[], { origin }: ExportOptions): string {
  return references
    .map((ref) => {
      const fields: [string, string][] = [];
      if (ref.titleDerived) fields.push(["note", bibtexText(untitledNote(ref))]);
      else fields.push(["title", `{${bibtexText(ref.title)}}`]);
      const authors = (ref.authors ?? []).filter((a) => present(a));
      if (authors.length > 0) fields.push(["author", authors.map(bibtexName).join(" and ")]);
      const journal = present(ref.journal);
      if (journal) fields.push(["journal", bibtexText(journal)]);
      const volume = present(ref.volume);
      if (volume) fields.push(["volume", bibtexText(volume)]);
      const issue = present(ref.issue);
      if (issue) fields.push(["number", bibtexText(issue)]);
      const pages = present(ref.pages);
      if (pages) {
        const { first, last } = pageParts(pages);
        fields.push(["pages", last ? `${bibtexText(first)}--${bibtexText(last)}` : bibtexText(pages)]);
      }
      if (ref.year) fields.push(["year", String(ref.year)]);
      const doi = bareDoi(ref.doi);
      if (doi) fields.push(["doi", bibtexText(doi)]);
      const pmid = pmidOf(ref);
      if (pmid) fields.push(["pmid", pmid]);
      const url = publicReferenceUrl(ref, origin);
      if (url) fields.push(["url", url.replace(/([{}])/g, "\\$1")]);
      const body = fields.map(([k, v]) => `  ${k} = {${v}}`).join(",\n");
      return `@${isArticle(ref) ? "article" : "misc"}{${citationKey(ref)},\n${body}\n}`;
    })
    .join("\n\n")
    .concat(references.length > 0 ? "\n" : "");
}

/**
 * References as RIS records (JOUR with a journal, GEN otherwise), CRLF line ends as the format
 * asks: authors as "Family, Given", the journal (T2 and JO), volume, issue, first and last page.
 */
export function toRis(references: readonly ExportableReference[], { origin }: ExportOptions): string {
  const line = (tag: string, value: string) => `${tag}  - ${oneLine(value)}`;
  return references
    .map((ref) => {
      const lines = [line("TY", isArticle(ref) ? "JOUR" : "GEN")];
      if (ref.titleDerived) lines.push(line("N1", untitledNote(ref)));
      else lines.push(line("TI", ref.title));
      for (const author of ref.authors ?? []) if (present(author)) lines.push(line("AU", invertedName(splitAuthorName(author))));
      const journal = present(ref.journal);
      if (journal) lines.push(line("T2", journal), line("JO", journal));
      const volume = present(ref.volume);
      if (volume) lines.push(line("VL", volume));
      const issue = present(ref.issue);
      if (issue) lines.push(line("IS", issue));
      const pages = present(ref.pages);
      if (pages) {
        const { first, last } = pageParts(pages);
        lines.push(line("SP", first));
        if (last) lines.push(line("EP", last));
      }
      if (ref.year) lines.push(line("PY", String(ref.year)));
      const doi = bareDoi(ref.doi);
      if (doi) lines.push(line("DO", doi));
      const pmid = pmidOf(ref);
      if (pmid) lines.push(line("AN", `PMID:${pmid}`));
      const url = publicReferenceUrl(ref, origin);
      if (url) lines.push(line("UR", url));
      lines.push("ER  - ");
      return lines.join("\r\n");
    })
    .join("\r\n")
    .concat(references.length > 0 ? "\r\n" : "");
}

export const CSV_COLUMNS = [
  "number",
  "title",
  "year",
  "journal",
  "design",
  "species",
  "population",
  "sample size",
  "outcome direction",
  "role",
  "verification",
  "confidence",
  "doi",
  "pmid",
  "url",
] as const;

/** A CSV field (RFC 4180), with a leading =, +, - or @ defused so a spreadsheet never runs it as a formula. */
function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** References as CSV with a header row: one row each, the study snapshot and the grades as columns. */
export function toCsv(references: readonly ExportableReference[], { origin }: ExportOptions): string {
  const rows = references.map((ref) =>
    [
      ref.ordinal,
      ref.title,
      ref.year ?? null,
      ref.journal ?? null,
      ref.evidenceType ?? ref.snapshot?.design ?? null,
      ref.snapshot?.species ?? null,
      ref.snapshot?.population ?? null,
      ref.snapshot?.sampleSize ?? null,
      ref.snapshot?.direction ?? null,
      ref.evidenceRole ?? null,
      ref.verification ?? null,
      ref.confidence ?? null,
      bareDoi(ref.doi),
      pmidOf(ref),
      publicReferenceUrl(ref, origin),
    ]
      .map(csvField)
      .join(","),
  );
  return [CSV_COLUMNS.join(","), ...rows].map((r) => `${r}\r\n`).join("");
}

/**
 * An answer to paste anywhere: its text (with [N] markers and any Markdown emphasis removed) and
 * then "Sources" with one numbered line per reference and its public link.
 */
export function answerWithCitations({ answer, references, origin }: { answer: string; references: readonly ExportableReference[]; origin: string }): string {
  const text = plainText(answer);
  if (references.length === 0) return `${text}\n`;
  const sources = references.map((ref) => {
    const url = publicReferenceUrl(ref, origin);
    const where = [ref.journal, ref.year].filter(Boolean).join(", ");
    return `[${ref.ordinal}] ${ref.title.replace(/\s+/g, " ").trim()}${where ? ` (${where})` : ""}${url ? ` ${url}` : ""}`;
  });
  return `${text}\n\nSources\n${sources.join("\n")}\n`;
}

/** Markdown emphasis and headings out of a text meant to be read as plain text ("**Sources**" → "Sources"). */
export function plainText(text: string): string {
  return text
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/__(.+?)__/g, "$1")
    .replace(/^#{1,6}\s+/gm, "")
    .trim();
}
