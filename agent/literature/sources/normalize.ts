/**
 * Identifier, text, date and name normalisation shared by the source parsers, so that records from
 * different sources merge on equal ids (record.ts documents the forms) and read alike.
 */

/** Lower-case, without `doi:` or a resolver prefix; undefined unless it looks like a DOI. */
export function normalizeDoi(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let doi = value.trim();
  doi = doi.replace(/^(?:https?:\/\/)?(?:dx\.)?doi\.org\//i, "").replace(/^doi:\s*/i, "");
  if (/%2f/i.test(doi)) doi = safeDecode(doi);
  doi = doi.toLowerCase();
  return /^10\.\d{4,9}\/\S+$/.test(doi) ? doi : undefined;
}

/** Digits only; accepts `PMID:` and PubMed URLs. */
export function normalizePmid(value: unknown): string | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const match = /^(?:pmid:\s*|https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/)?(\d{1,9})\/?$/i.exec(text);
  return match?.[1];
}

/** With the PMC prefix; accepts bare digits and PMC URLs. */
export function normalizePmcid(value: unknown): string | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const match = /(?:^|\/|^pmcid:\s*)(?:PMC)?(\d{1,10})\/?$/i.exec(text);
  return match?.[1] ? `PMC${match[1]}` : undefined;
}

/** Upper-case NCT id, found anywhere in the text. */
export function normalizeNct(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return /\bNCT\d{8}\b/i.exec(value)?.[0]?.toUpperCase();
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Decodes the XML entities and numeric character references. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * Text of raw XML content (inline markup such as `<i>` and `<sup>` removed, entities decoded,
 * whitespace collapsed). In XML content a literal `<` is always escaped, so every tag is markup.
 */
export function cleanXmlText(raw: string): string {
  return collapse(decodeEntities(raw.replace(/<[^>]*>/g, "")));
}

// JSON APIs embed HTML/JATS markup in titles and abstracts, sometimes escaped twice. Only known
// tags are removed, because a bare `<` in "p<0.05" is text, not markup. Inline tags vanish
// ("NAD<sup>+</sup>" → "NAD+"); block tags become a space so that sections do not run together.
const INLINE_TAG = /<\/?(?:i|b|u|em|strong|sub|sup|sc|span|italic|bold|jats:(?:italic|bold|sub|sup|sc|underline|monospace)|mml:[a-z]+|inline-formula)\b[^<>]*\/?>/gi;
const BLOCK_TAG = /<\/?(?:p|br|div|h[1-6]|title|sec|list|list-item|jats:[a-z-]+)\b[^<>]*\/?>/gi;

/** A section heading inside an abstract ("<h4>Results</h4>", "<jats:title>Conclusions</jats:title>"). */
const HEADING = /<(h[1-6]|title|jats:title)\b[^<>]*>([^<>]{1,60})<\/\1>/gi;

/**
 * An abstract's section headings become labels as PubMed's client renders them ("RESULTS: …"), so
 * every source's structured abstract is read by the one section reader and no heading is left as a
 * word of the sentence after it ("Results Median lifespan rose …").
 */
function stripKnownTags(text: string): string {
  return text
    // "Abstract" heads the whole text, not one of its sections.
    .replace(HEADING, (_, _tag: string, heading: string) => (/^\s*abstract\s*:?\s*$/i.test(heading) ? " " : ` ${heading.trim().replace(/:$/, "").toUpperCase()}: `))
    .replace(INLINE_TAG, "")
    .replace(BLOCK_TAG, " ");
}

/** Text of a JSON field that may hold HTML or JATS markup. */
export function cleanMarkupText(value: unknown): string {
  if (typeof value !== "string") return "";
  return collapse(stripKnownTags(decodeEntities(stripKnownTags(value))));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** 1-12 from "06", "6" or "Jun"/"June"; undefined otherwise. */
function parseMonth(value: unknown): number | undefined {
  if (typeof value === "number") return value >= 1 && value <= 12 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  if (/^\d{1,2}$/.test(text)) {
    const month = Number(text);
    return month >= 1 && month <= 12 ? month : undefined;
  }
  const index = MONTHS.indexOf(text.slice(0, 3));
  return index >= 0 ? index + 1 : undefined;
}

/** YYYY-MM-DD when year, month and day make a real date, else null. */
export function formatIsoDate(year: unknown, month: unknown, day: unknown): string | null {
  const y = typeof year === "number" ? year : Number(year);
  const m = parseMonth(month);
  const d = typeof day === "number" ? day : Number(day);
  if (!Number.isInteger(y) || y < 1000 || y > 9999 || m === undefined || !Number.isInteger(d) || d < 1) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

/** The date and year of a `YYYY`, `YYYY-MM` or `YYYY-MM-DD` string (a day is needed for `date`). */
export function parsePartialDate(value: unknown): { year: number | null; date: string | null } {
  if (typeof value !== "string") return { year: null, date: null };
  const match = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?/.exec(value.trim());
  if (!match) return { year: null, date: null };
  return { year: Number(match[1]), date: formatIsoDate(match[1], match[2], match[3]) };
}

/** A plausible publication year from a number or the first four-digit year in a string. */
export function parseYear(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  const match = /\b(1[5-9]\d\d|2\d\d\d)\b/.exec(text);
  return match ? Number(match[1]) : null;
}

/** "Family Initials", the Vancouver form PubMed and Europe PMC use ("Bao Y", "Buring JE"). */
export function formatAuthorName(family: string | undefined, given?: string, initials?: string): string | undefined {
  const last = family?.trim();
  if (!last) return given?.trim() || undefined;
  const inits = initials?.trim() || initialsOf(given);
  return inits ? `${last} ${inits}` : last;
}

function initialsOf(given: string | undefined): string {
  if (!given) return "";
  return given
    .split(/[\s.-]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() ?? "")
    .join("");
}

// Europe PMC's lite results give publication types in lower case ("randomized controlled trial");
// the evidence rules read PubMed's spelling, so the common ones are mapped back to it.
const CANONICAL_TYPES = [
  "Journal Article", "Randomized Controlled Trial", "Controlled Clinical Trial", "Pragmatic Clinical Trial",
  "Clinical Trial", "Clinical Trial, Phase I", "Clinical Trial, Phase II", "Clinical Trial, Phase III",
  "Clinical Trial, Phase IV", "Clinical Trial Protocol", "Multicenter Study", "Observational Study",
  "Comparative Study", "Case Reports", "Systematic Review", "Meta-Analysis", "Review", "Scoping Review",
  "Comment", "Editorial", "Letter", "News", "Preprint", "Retracted Publication", "Retraction of Publication",
  "Published Erratum", "Expression of Concern", "Practice Guideline", "Guideline", "Validation Study",
  "Evaluation Study", "Twin Study", "Equivalence Trial", "Adaptive Clinical Trial",
  "Research Support, Non-U.S. Gov't", "Research Support, N.I.H., Extramural", "Research Support, N.I.H., Intramural",
  "Research Support, U.S. Gov't, Non-P.H.S.", "Research Support, U.S. Gov't, P.H.S.",
];
const CANONICAL_BY_LOWER = new Map(CANONICAL_TYPES.map((type) => [type.toLowerCase(), type]));

/** PubMed's spelling of a publication type when it is a known one; otherwise the input, trimmed. */
export function canonicalPublicationType(type: string): string {
  const trimmed = type.trim();
  return CANONICAL_BY_LOWER.get(trimmed.toLowerCase()) ?? trimmed;
}

/** Unique values in first-seen order, compared case-insensitively. */
export function uniqueStrings(values: Iterable<string>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const key = value.toLowerCase();
    if (value === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

/**
 * A page range as a citation gives it, from what a source sends: dashes made one hyphen, and the
 * last page written whole where MEDLINE shortens it ("1116-22" → "1116-1122"). An article number
 * ("e100814") or a list of ranges stays as it is; null for nothing.
 */
export function normalizePages(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.replace(/\s*[-\u2010-\u2015]+\s*/g, "-").replace(/\s+/g, " ").trim();
  if (text === "" || text === "-") return null;
  const range = /^([A-Za-z]*)(\d+)-([A-Za-z]*)(\d+)$/.exec(text);
  if (!range) return text;
  // Every group takes part in a match (an empty prefix is ""): the defaults are for the compiler.
  const [, firstPrefix = "", first = "", lastPrefix = "", last = ""] = range;
  const whole = last.length < first.length ? first.slice(0, first.length - last.length) + last : last;
  // A shortened last page that would come before the first is not one MEDLINE wrote: keep it as sent.
  return Number(whole) >= Number(first) ? `${firstPrefix}${first}-${lastPrefix}${whole}` : text;
}

/** "12-19" from a first and a last page, "12" when they are one page or the last is unknown; null without a first. */
export function pageRange(first: unknown, last: unknown): string | null {
  const from = typeof first === "string" || typeof first === "number" ? String(first).trim() : "";
  const to = typeof last === "string" || typeof last === "number" ? String(last).trim() : "";
  if (from === "") return null;
  return to === "" || to === from ? normalizePages(from) : normalizePages(`${from}-${to}`);
}

/** A title for a record that has none: the abstract's first sentence, shortened. */
export function deriveTitle(abstract: string | null): string | null {
  if (!abstract) return null;
  const sentence = /^(.{20,200}?[.!?])(\s|$)/.exec(abstract)?.[1] ?? abstract.slice(0, 160);
  return sentence.trim() || null;
}
