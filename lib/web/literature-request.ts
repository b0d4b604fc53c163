/**
 * The literature search form and the LiteratureQueryRequest it stands for, or what is wrong with
 * it in words, per field, before anything is paid. No zod here (the first page load stays small):
 * tests/unit/request-builders.test.ts holds every body built to the contract's schema.
 */
import type { LiteratureQueryInput } from "@/lib/shared/contracts";
import { MAX_QUESTION_CHARS, MAX_RESULTS_LIMIT, MAX_TAG_CHARS, MAX_TAGS } from "@/lib/shared/contracts/limits";

type Mode = "fast" | "deep";
export type Scope = "" | "preprints" | "no-preprints" | "trials";
type TagMode = "fanout" | "combined";
type DateFilter = "any" | "years" | "dates";

/**
 * The form. Only the request fields that change the search are offered (docs/literature.md,
 * agent/literature/engine.ts): `sources`, `perSourceLimit`, `allowSourceExpansion` and
 * `sourceProfile` are accepted by the service but ignored, so they are not shown.
 */
export type LiteratureForm = {
  question: string;
  mode: Mode;
  /** retrievalProfile `litqa-recall`: the deep sources with up to 8 query variants. */
  recall: boolean;
  scope: Scope;
  tags: string[];
  /** Text typed in the tag box but not yet added; added on submit so it is not lost. */
  tagDraft: string;
  tagMode: TagMode;
  dateFilter: DateFilter;
  yearFrom: string;
  yearTo: string;
  dateFrom: string;
  dateTo: string;
  maxResults: string;
  filterReferences: boolean;
  includeRejected: boolean;
  /** privacyMode: the agent then never logs the question. */
  keepOutOfLogs: boolean;
};

export const INITIAL_LITERATURE_FORM: LiteratureForm = {
  question: "",
  mode: "fast",
  recall: false,
  scope: "",
  tags: [],
  tagDraft: "",
  tagMode: "fanout",
  dateFilter: "any",
  yearFrom: "",
  yearTo: "",
  dateFrom: "",
  dateTo: "",
  maxResults: "",
  filterReferences: true,
  includeRejected: false,
  keepOutOfLogs: false,
};

export type LiteratureField = "question" | "tags" | "yearFrom" | "yearTo" | "dateFrom" | "dateTo" | "maxResults";
export type LiteratureErrors = Partial<Record<LiteratureField, string>>;

/** The element each field's error belongs to (focused when it is the first error). */
export const FIELD_IDS: Record<LiteratureField, string> = {
  question: "literature-question",
  tags: "literature-tag-input",
  yearFrom: "literature-year-from",
  yearTo: "literature-year-to",
  dateFrom: "literature-date-from",
  dateTo: "literature-date-to",
  maxResults: "literature-max-results",
};

/** Length in Unicode code points, as the contract counts `question`. */
export const codePoints = (s: string) => [...s].length;

/** A real calendar date written YYYY-MM-DD (browsers without a date picker give free text). */
function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Adds the comma- or line-separated tags of `draft` to `tags`: trimmed, no empties, no duplicates. */
export function addTags(tags: string[], draft: string): { tags: string[]; error?: string } {
  const next = [...tags];
  for (const raw of draft.split(/[,\n]/)) {
    const tag = raw.trim();
    if (!tag) continue;
    if (codePoints(tag) > MAX_TAG_CHARS) return { tags, error: `A tag may have at most ${MAX_TAG_CHARS} characters.` };
    if (next.some((t) => t.toLowerCase() === tag.toLowerCase())) continue;
    if (next.length >= MAX_TAGS) return { tags, error: `At most ${MAX_TAGS} tags.` };
    next.push(tag);
  }
  return { tags: next };
}

/**
 * The request the form stands for, or what is wrong with it, in words, per field. Checked here
 * so that nothing is paid for a request the service would refuse with a 400.
 */
export function buildLiteratureRequest(form: LiteratureForm, { thisYear = new Date().getFullYear() }: { thisYear?: number } = {}): { body: LiteratureQueryInput; tags: string[] } | { errors: LiteratureErrors } {
  const errors: LiteratureErrors = {};
  const question = form.question.trim();
  if (!question) errors.question = "Enter a question: it is empty (only spaces or line breaks). Nothing was paid.";
  else if (codePoints(question) > MAX_QUESTION_CHARS) errors.question = `The question is ${codePoints(question).toLocaleString("en")} characters long; at most ${MAX_QUESTION_CHARS.toLocaleString("en")} are accepted. Shorten it: nothing was cut and nothing was paid.`;

  const added = addTags(form.tags, form.tagDraft);
  if (added.error) errors.tags = added.error;
  const tags = added.tags;

  let year: string | undefined;
  let dateFrom: string | undefined;
  let dateTo: string | undefined;
  if (form.dateFilter === "years") {
    const from = form.yearFrom.trim();
    const to = form.yearTo.trim();
    if (!from && !to) errors.yearFrom = "Enter the first year, or choose “Any time”.";
    else if (from && !/^\d{4}$/.test(from)) errors.yearFrom = "Write the year with four digits, e.g. 2015.";
    else if (to && !/^\d{4}$/.test(to)) errors.yearTo = "Write the year with four digits, e.g. 2024.";
    else if (!from) errors.yearFrom = "Enter the first year too (for a single year, enter it in both).";
    else if (to && Number(to) < Number(from)) errors.yearTo = "The last year must not come before the first.";
    else {
      // An open end means "up to this year"; the contract's `year` is YYYY or YYYY-YYYY.
      const last = to || String(Math.max(Number(from), thisYear));
      year = last === from ? from : `${from}-${last}`;
    }
  } else if (form.dateFilter === "dates") {
    const from = form.dateFrom.trim();
    const to = form.dateTo.trim();
    if (!from && !to) errors.dateFrom = "Enter a start date, an end date or both, or choose “Any time”.";
    if (from && !isIsoDate(from)) errors.dateFrom = "Enter a real date, written YYYY-MM-DD.";
    if (to && !isIsoDate(to)) errors.dateTo = "Enter a real date, written YYYY-MM-DD.";
    if (!errors.dateFrom && !errors.dateTo && from && to && to < from) errors.dateTo = "The end date must not come before the start date.";
    dateFrom = from || undefined;
    dateTo = to || undefined;
  }

  let maxResults: number | undefined;
  const max = form.maxResults.trim();
  if (max) {
    const n = Number(max);
    if (!/^\d+$/.test(max) || n < 1 || n > MAX_RESULTS_LIMIT) errors.maxResults = `Enter a whole number from 1 to ${MAX_RESULTS_LIMIT}, or leave it empty for the default.`;
    else maxResults = n;
  }

  if (Object.keys(errors).length > 0) return { errors };
  const body: LiteratureQueryInput = {
    question,
    mode: form.mode,
    filterReferences: form.filterReferences,
    includeRejected: form.includeRejected,
    ...(form.recall ? { retrievalProfile: "litqa-recall" as const } : {}),
    ...(form.scope ? { scope: form.scope } : {}),
    ...(tags.length > 0 ? { tags, tagMode: form.tagMode } : {}),
    ...(maxResults !== undefined ? { maxResults } : {}),
    ...(year ? { year } : {}),
    ...(dateFrom ? { date_from: dateFrom } : {}),
    ...(dateTo ? { date_to: dateTo } : {}),
    // Any value turns question logging off (agent/literature/job.ts); "strict" names the intent.
    ...(form.keepOutOfLogs ? { privacyMode: "strict" } : {}),
  };
  return { body, tags };
}
