/**
 * The labelled evaluation sets of issue 25 (tests/fixtures/eval/, described in its README), written
 * without reading the engine: the paraphrase set (lay questions, each aimed at one PubMedQA
 * development item), the confusion set (questions over a synthetic library whose words match
 * studies that do not test them), the follow-up set (a message after a question: follow-up or
 * new topic) and the conclusions set (synthetic study abstracts, each labelled with the yes, no or
 * maybe it gives its question, for the stance reader). Each set is stored as its two fixed halves
 * (split.ts); the loaders here are what the benchmarks import, and `validateEvalSets` (with
 * `validateConclusionsSet`) is what keeps the files honest.
 */
import fs from "node:fs";
import path from "node:path";
import { stemmer } from "stemmer";
import { z } from "zod";
import { libraryLineSchema } from "../../agent/library/json-lines";
import { PUBMEDQA, type PubmedQaItem } from "./pubmedqa";
import { halfOf, type Half } from "./split";

export const EVAL_DIR = path.resolve(import.meta.dirname, "../../tests/fixtures/eval");

/** Each set's name in the split (halfOf's `set`), and the files of its halves. */
const EVAL_SETS = { paraphrase: "paraphrase", confusion: "confusion", followUp: "follow-up", conclusions: "conclusions" } as const;
type EvalSetName = (typeof EVAL_SETS)[keyof typeof EVAL_SETS];
export const HALVES: readonly Half[] = ["tune", "holdout"];
export const CONFUSION_LIBRARY_FILE = "confusion-library.jsonl";

function halfFile({ set, half }: { set: EvalSetName; half: Half }): string {
  return `${set}.${half}.jsonl`;
}

const id = z.string().regex(/^[a-z]\d{3}$/, "must be a letter and three digits");
const text = z.string().trim().min(3);

const paraphraseItemSchema = z.strictObject({ id, pmid: z.string().regex(/^\d+$/), question: text });
export type ParaphraseItem = z.infer<typeof paraphraseItemSchema>;

const VERDICTS = ["supports", "contradicts", "mixed", "insufficient"] as const;
const confusionItemSchema = z.strictObject({
  id,
  question: text,
  supporting: z.array(z.string()),
  never_supporting: z.array(z.string()),
  verdict: z.enum(VERDICTS).nullable(),
});
export type ConfusionItem = z.infer<typeof confusionItemSchema>;

const FOLLOW_UP_LABELS = ["follow_up", "new_topic"] as const;
const followUpItemSchema = z.strictObject({ id, previous: text, message: z.string().trim().min(1), label: z.enum(FOLLOW_UP_LABELS) });
export type FollowUpItem = z.infer<typeof followUpItemSchema>;

/** What a careful reader of the whole abstract answers to the question. */
export const CONCLUSION_DECISIONS = ["yes", "no", "maybe"] as const;
const conclusionsItemSchema = z.strictObject({
  id,
  question: text.regex(/\?$/, "must end with a question mark"),
  abstract: text,
  decision: z.enum(CONCLUSION_DECISIONS),
  // The phenomenon the item exercises (README's tag list): for reporting results by kind, never for answering.
  kind: z.string().regex(/^[a-z]+(-[a-z]+)*$/, "must be a lower-case hyphenated tag"),
});
export type ConclusionsItem = z.infer<typeof conclusionsItemSchema>;

/** A confusion-library record: the library's own import line, with the PMID every label refers to. */
const confusionRecordSchema = libraryLineSchema.extend({
  pmid: z.string().regex(/^91\d{6}$/, "must be a synthetic PMID 91xxxxxx"),
  title: text,
  year: z.number().int(),
  mesh: z.array(z.string()).min(1),
});
export type ConfusionRecord = z.infer<typeof confusionRecordSchema>;

/** One problem found in the sets, with its file and 1-based line when it belongs to one. */
export type EvalProblem = { file: string; line?: number; problem: string };

/** A malformed line met by a loader: the benchmarks stop rather than measure a broken set. */
export class EvalFileError extends Error {}

type Parsed<T> = { rows: { line: number; value: T }[]; problems: EvalProblem[] };

function parseFile<T>({ dir, file, schema }: { dir: string; file: string; schema: z.ZodType<T> }): Parsed<T> {
  const parsed: Parsed<T> = { rows: [], problems: [] };
  if (!fs.existsSync(path.join(dir, file))) return { rows: [], problems: [{ file, problem: "file is missing" }] };
  fs.readFileSync(path.join(dir, file), "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (text.trim() === "") return;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        parsed.problems.push({ file, line: i + 1, problem: `invalid JSON: ${(err as Error).message}` });
        return;
      }
      const result = schema.safeParse(json);
      if (result.success) parsed.rows.push({ line: i + 1, value: result.data });
      else parsed.problems.push({ file, line: i + 1, problem: result.error.issues.map((x) => `${x.path.join(".") || "line"}: ${x.message}`).join("; ") });
    });
  return parsed;
}

function readRows<T>(args: { dir?: string; file: string; schema: z.ZodType<T> }): T[] {
  const { rows, problems } = parseFile({ ...args, dir: args.dir ?? EVAL_DIR });
  if (problems.length > 0) throw new EvalFileError(problems.map((p) => `${p.file}:${p.line ?? "-"}: ${p.problem}`).join("\n"));
  return rows.map((r) => r.value);
}

/** The paraphrase questions of one half (throws EvalFileError on a malformed line). */
export function readParaphraseSet({ half, dir }: { half: Half; dir?: string }): ParaphraseItem[] {
  return readRows({ dir, file: halfFile({ set: EVAL_SETS.paraphrase, half }), schema: paraphraseItemSchema });
}

/** The confusion questions of one half; their record ids are PMIDs of readConfusionLibrary(). */
export function readConfusionSet({ half, dir }: { half: Half; dir?: string }): ConfusionItem[] {
  return readRows({ dir, file: halfFile({ set: EVAL_SETS.confusion, half }), schema: confusionItemSchema });
}

/** The synthetic records both confusion halves are asked over, as the library's import lines. */
export function readConfusionLibrary({ dir }: { dir?: string } = {}): ConfusionRecord[] {
  return readRows({ dir, file: CONFUSION_LIBRARY_FILE, schema: confusionRecordSchema });
}

/** The follow-up pairs of one half. */
export function readFollowUpSet({ half, dir }: { half: Half; dir?: string }): FollowUpItem[] {
  return readRows({ dir, file: halfFile({ set: EVAL_SETS.followUp, half }), schema: followUpItemSchema });
}

/** The labelled abstracts of one half of the conclusions set. */
export function readConclusionsSet({ half, dir }: { half: Half; dir?: string }): ConclusionsItem[] {
  return readRows({ dir, file: halfFile({ set: EVAL_SETS.conclusions, half }), schema: conclusionsItemSchema });
}

/**
 * Words that do not count when a paraphrase is compared with its item: function words, and the
 * two nouns every clinical question may use. Kept short and generic on purpose (issue 25).
 */
const PARAPHRASE_STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the and or but if of in on at by for with to from into as than that this these those it its is are was were be been
  being do does did can could will would should may might must have has had after before what which who when where why how
  whether not no any i me my we our you your they them their there so people person patient patients`.split(/\s+/),
);

/** A text's words, lower-case and unaccented, possessive 's dropped, split at anything but letters and digits. */
function wordsOf(value: string): string[] {
  return value
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’]s\b/g, "")
    .replace(/['’]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function contentStems(value: string): Set<string> {
  return new Set(wordsOf(value).filter((w) => !PARAPHRASE_STOP_WORDS.has(w)).map((w) => stemmer(w)));
}

/** The words of a paraphrase whose Porter stem is also a stem of the item's question or MeSH headings. */
export function sharedStemWords({ question, item }: { question: string; item: Pick<PubmedQaItem, "QUESTION" | "MESHES"> }): string[] {
  const itemStems = contentStems([item.QUESTION, ...(item.MESHES ?? [])].join(" "));
  return wordsOf(question).filter((w) => !PARAPHRASE_STOP_WORDS.has(w) && itemStems.has(stemmer(w)));
}

/** The least each set must hold (issue 25 asks at least 40 paraphrases; each half here at least 35). */
const MINIMUM_SIZES = { paraphrasePerHalf: 35, confusion: 40, followUp: 80, conclusions: 200 } as const;

const STRUCTURED_ABSTRACT = /^BACKGROUND: .+\nMETHODS: .+\nRESULTS: .+\nCONCLUSIONS: .+$/s;

/** Both halves of a set, with the problems of their lines, ids that repeat and ids in the wrong half. */
function readSet<T extends { id: string }>({ dir, set, schema }: { dir: string; set: EvalSetName; schema: z.ZodType<T> }) {
  const rows: { file: string; line: number; value: T }[] = [];
  const problems: EvalProblem[] = [];
  const seen = new Set<string>();
  for (const half of HALVES) {
    const file = halfFile({ set, half });
    const parsed = parseFile({ dir, file, schema });
    problems.push(...parsed.problems);
    for (const { line, value } of parsed.rows) {
      if (seen.has(value.id)) problems.push({ file, line, problem: `id ${value.id} is used twice` });
      seen.add(value.id);
      const expected = halfOf({ set, id: value.id });
      if (expected !== half) problems.push({ file, line, problem: `${value.id} belongs to the ${expected} half (scripts/bench/split.ts)` });
      rows.push({ file, line, value });
    }
  }
  return { rows, problems };
}

function repeated<T>(values: readonly T[]): T[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}

function checkParaphrases({ dir, pubmedqa }: { dir: string; pubmedqa: ReadonlyMap<string, Pick<PubmedQaItem, "QUESTION" | "MESHES">> }): EvalProblem[] {
  const { rows, problems } = readSet({ dir, set: EVAL_SETS.paraphrase, schema: paraphraseItemSchema });
  for (const { file, line, value } of rows) {
    const item = pubmedqa.get(value.pmid);
    if (!item) {
      problems.push({ file, line, problem: `PMID ${value.pmid} is not a PubMedQA development item` });
      continue;
    }
    const shared = sharedStemWords({ question: value.question, item });
    if (shared.length > 0) problems.push({ file, line, problem: `${value.id} shares a stem with its item's question or MeSH: ${shared.join(", ")}` });
  }
  for (const pmid of repeated(rows.map((r) => r.value.pmid))) problems.push({ file: "paraphrase", problem: `PMID ${pmid} is targeted twice` });
  for (const half of HALVES) {
    const file = halfFile({ set: EVAL_SETS.paraphrase, half });
    const size = rows.filter((r) => r.file === file).length;
    if (size < MINIMUM_SIZES.paraphrasePerHalf) problems.push({ file, problem: `${size} questions, fewer than ${MINIMUM_SIZES.paraphrasePerHalf}` });
  }
  return problems;
}

function checkConfusion({ dir }: { dir: string }): EvalProblem[] {
  const library = parseFile({ dir, file: CONFUSION_LIBRARY_FILE, schema: confusionRecordSchema });
  const problems = [...library.problems];
  const pmids = library.rows.map((r) => r.value.pmid);
  for (const pmid of repeated(pmids)) problems.push({ file: CONFUSION_LIBRARY_FILE, problem: `PMID ${pmid} is used twice` });
  for (const { line, value } of library.rows) {
    if (!STRUCTURED_ABSTRACT.test(value.abstract)) problems.push({ file: CONFUSION_LIBRARY_FILE, line, problem: `${value.pmid}: not a BACKGROUND/METHODS/RESULTS/CONCLUSIONS abstract` });
  }
  const known = new Set(pmids);
  const set = readSet({ dir, set: EVAL_SETS.confusion, schema: confusionItemSchema });
  problems.push(...set.problems);
  for (const { file, line, value } of set.rows) {
    const say = (problem: string) => problems.push({ file, line, problem: `${value.id}: ${problem}` });
    for (const pmid of [...value.supporting, ...value.never_supporting]) if (!known.has(pmid)) say(`record ${pmid} is not in ${CONFUSION_LIBRARY_FILE}`);
    for (const pmid of repeated([...value.supporting, ...value.never_supporting])) say(`record ${pmid} is listed twice`);
    const committed = value.verdict === "supports" || value.verdict === "contradicts" || value.verdict === "mixed";
    if (committed && value.supporting.length === 0) say(`a "${value.verdict}" verdict needs a record that tests the question`);
    if (value.supporting.length === 0 && value.never_supporting.length === 0) say("names no record: nothing to measure");
  }
  if (set.rows.length < MINIMUM_SIZES.confusion) problems.push({ file: "confusion", problem: `${set.rows.length} questions, fewer than ${MINIMUM_SIZES.confusion}` });
  return problems;
}

function checkFollowUps({ dir }: { dir: string }): EvalProblem[] {
  const { rows, problems } = readSet({ dir, set: EVAL_SETS.followUp, schema: followUpItemSchema });
  for (const { file, line, value } of rows) {
    if (value.previous.trim().toLowerCase() === value.message.trim().toLowerCase()) problems.push({ file, line, problem: `${value.id}: the message repeats the previous question` });
  }
  for (const pair of repeated(rows.map((r) => `${r.value.previous}\n${r.value.message}`))) problems.push({ file: "follow-up", problem: `pair repeated: ${pair.replace("\n", " → ")}` });
  if (rows.length < MINIMUM_SIZES.followUp) problems.push({ file: "follow-up", problem: `${rows.length} pairs, fewer than ${MINIMUM_SIZES.followUp}` });
  return problems;
}

/** Section labels that close an abstract with the authors' conclusion (the set varies them as journals do). */
const CONCLUSION_LABELS: ReadonlySet<string> = new Set(["CONCLUSION", "CONCLUSIONS", "INTERPRETATION", "CONCLUSIONS AND RELEVANCE"]);
const SECTION = /^([A-Z][A-Z ]*[A-Z]): \S/;

/**
 * Why an abstract lacks a conclusion to read, or undefined when it has one: a structured abstract is
 * one labelled section a line and ends with a conclusion section; an unstructured one is a single
 * paragraph of at least three sentences, its conclusion the last.
 */
function conclusionProblem(abstract: string): string | undefined {
  const lines = abstract.split("\n");
  const labels = lines.map((line) => SECTION.exec(line)?.[1]);
  if (labels.every((label) => label === undefined)) {
    if (lines.length > 1) return "an unstructured abstract must be one paragraph";
    const sentences = abstract.split(/(?<=[.!?])\s+(?=[A-Z0-9])/).length;
    return sentences >= 3 ? undefined : `an unstructured abstract needs at least three sentences, has ${sentences}`;
  }
  if (labels.some((label) => label === undefined)) return "a structured abstract has a line without a section label";
  const last = labels.at(-1)!;
  if (!CONCLUSION_LABELS.has(last)) return `a structured abstract must end with a conclusion section, ends with ${last}`;
  if (labels.length < 3) return `a structured abstract needs at least three sections, has ${labels.length}`;
  return undefined;
}

function checkConclusions({ dir }: { dir: string }): EvalProblem[] {
  const { rows, problems } = readSet({ dir, set: EVAL_SETS.conclusions, schema: conclusionsItemSchema });
  for (const { file, line, value } of rows) {
    const problem = conclusionProblem(value.abstract);
    if (problem) problems.push({ file, line, problem: `${value.id}: ${problem}` });
  }
  if (rows.length < MINIMUM_SIZES.conclusions) problems.push({ file: "conclusions", problem: `${rows.length} abstracts, fewer than ${MINIMUM_SIZES.conclusions}` });
  return problems;
}

/**
 * Every problem with the conclusions set in `dir` (empty when it is sound): line shapes (a question
 * ending in "?", a decision among yes, no and maybe, an abstract that ends with its conclusion),
 * unique ids, each item in the half split.ts gives it, and the set's minimum size. It needs no shared
 * data, unlike validateEvalSets, so it runs wherever the repository does.
 */
export function validateConclusionsSet({ dir = EVAL_DIR }: { dir?: string } = {}): EvalProblem[] {
  return checkConclusions({ dir });
}

/**
 * Every problem with the sets in `dir` (empty when they are sound): line shapes, unique ids, each
 * item in the half split.ts gives it, paraphrase PMIDs among the PubMedQA development items and no
 * paraphrase word sharing a Porter stem with its item's question or MeSH, every confusion record
 * id in the library, verdicts that agree with their records, the conclusions set's checks
 * (validateConclusionsSet), and the sets' minimum sizes.
 */
export function validateEvalSets({ dir = EVAL_DIR, pubmedqa }: { dir?: string; pubmedqa: ReadonlyMap<string, Pick<PubmedQaItem, "QUESTION" | "MESHES">> }): EvalProblem[] {
  return [...checkParaphrases({ dir, pubmedqa }), ...checkConfusion({ dir }), ...checkFollowUps({ dir }), ...checkConclusions({ dir })];
}

/** Whether the shared PubMedQA development set is present (it lives outside the repository). */
export function hasPubmedQa(): boolean {
  return fs.existsSync(PUBMEDQA);
}
