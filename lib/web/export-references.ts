import type { EvidenceRole, EvidenceType, StudySnapshot, Verification } from "@/lib/contracts/evidence";
import { bareDoi, publicReferenceUrl, type LinkableReference } from "./reference-links";

/**
 * References taken away: BibTeX, RIS and CSV for a reference manager or a spreadsheet, and an
 * answer as plain text with its numbered sources. Pure functions over the references the page
 * shows (chat's GradedReference, a literature reference, a deep-research citation), so they are
 * tested against the contract's own result shapes. Links in exports are public ones only
 * (lib/web/reference-links.ts): PubMed, the DOI, the trial registry, or this gateway's record page.
 */

/** What an export needs of a reference: the contract's fields, and the optional ones literature adds. */
export type ExportableReference = LinkableReference & {
  ordinal: number;
  title: string;
  year?: number | null | undefined;
  journal?: string | null | undefined;
  authors?: readonly string[] | null | undefined;
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

/** BibTeX escapes: braces balanced away, the special characters escaped, whitespace collapsed. */
function bibtexText(value: string): string {
  return value
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\\/g, "\\textbackslash{}")
    .replace(/([{}&%$#_])/g, "\\$1")
    .replace(/~/g, "\\textasciitilde{}")
    .replace(/\^/g, "\\textasciicircum{}");
}

/** A citation key a reference manager accepts: the first author's surname (or "ref"), the year, the ordinal. */
function citationKey(ref: ExportableReference): string {
  const surname = (ref.authors?.[0] ?? "").split(/[ ,]/)[0]?.normalize("NFKD").replace(/[^A-Za-z]/g, "") ?? "";
  return `${surname.toLowerCase() || "ref"}${ref.year ?? ""}_${ref.ordinal}`;
}

/** References as BibTeX entries (@article, or @misc without a journal), in their order. */
export function toBibtex(references: readonly ExportableReference[], { origin }: ExportOptions): string {
  return references
    .map((ref) => {
      const fields: [string, string][] = [["title", `{${bibtexText(ref.title)}}`]];
      if (ref.authors && ref.authors.length > 0) fields.push(["author", bibtexText(ref.authors.join(" and "))]);
      if (ref.journal) fields.push(["journal", bibtexText(ref.journal)]);
      if (ref.year) fields.push(["year", String(ref.year)]);
      const doi = bareDoi(ref.doi);
      if (doi) fields.push(["doi", bibtexText(doi)]);
      const pmid = pmidOf(ref);
      if (pmid) fields.push(["pmid", pmid]);
      const url = publicReferenceUrl(ref, origin);
      if (url) fields.push(["url", url.replace(/([{}])/g, "\\$1")]);
      const body = fields.map(([k, v]) => `  ${k} = {${v}}`).join(",\n");
      return `@${ref.journal ? "article" : "misc"}{${citationKey(ref)},\n${body}\n}`;
    })
    .join("\n\n")
    .concat(references.length > 0 ? "\n" : "");
}

/** References as RIS records (JOUR, or GEN without a journal), CRLF line ends as the format asks. */
export function toRis(references: readonly ExportableReference[], { origin }: ExportOptions): string {
  const line = (tag: string, value: string) => `${tag}  - ${value.replace(/\s+/g, " ").trim()}`;
  return references
    .map((ref) => {
      const lines = [line("TY", ref.journal ? "JOUR" : "GEN"), line("TI", ref.title)];
      for (const author of ref.authors ?? []) lines.push(line("AU", author));
      if (ref.journal) lines.push(line("JO", ref.journal));
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
