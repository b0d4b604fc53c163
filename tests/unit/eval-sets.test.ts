import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  EVAL_DIR,
  CONCLUSION_DECISIONS,
  EvalFileError,
  hasPubmedQa,
  readConclusionsSet,
  readConfusionLibrary,
  readConfusionSet,
  readFollowUpSet,
  readParaphraseSet,
  sharedStemWords,
  validateConclusionsSet,
  validateEvalSets,
  type EvalProblem,
} from "@/scripts/bench/eval-sets";
import { readPubmedQa } from "@/scripts/bench/pubmedqa";
import { halfOf } from "@/scripts/bench/split";

const SHARED_ABSENT = "../shared/eval/pubmedqa-dev is absent: the evaluation sets cannot be checked against it";
const shared = hasPubmedQa();
if (!shared) console.warn(`eval-sets.test.ts: skipped, ${SHARED_ABSENT}`);

describe("the paraphrase rule", () => {
  const item = { QUESTION: "Does hip fracture rehabilitation restore walking in the elderly?", MESHES: ["Aged", "Hip Fractures", "Walking"] };

  it("flags a word with the same Porter stem as a word of the item's question or MeSH", () => {
    expect(sharedStemWords({ question: "Do fractured hips heal with rehabilitating exercise?", item })).toEqual(["fractured", "hips", "rehabilitating"]);
    expect(sharedStemWords({ question: "Does aging slow a walker down?", item })).toEqual(["aging"]);
  });

  it("lets lay words and the short stop list through", () => {
    expect(sharedStemWords({ question: "Can people with a broken hip get back on their feet after rehab?", item })).toEqual(["hip"]);
    expect(sharedStemWords({ question: "Do old people with a broken thighbone get back on their feet after rehab?", item })).toEqual([]);
  });
});

describe("the conclusions set in tests/fixtures/eval (needs no shared data)", () => {
  let copy: string | undefined;
  afterEach(() => {
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
    copy = undefined;
  });

  /** A copy of the set's two files with the first line of each replaced, or lines appended. */
  function damaged({ tune, holdout, append }: { tune?: (row: Record<string, unknown>) => unknown; holdout?: (row: Record<string, unknown>) => unknown; append?: (dir: string) => void }) {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), "conclusions-"));
    for (const [half, edit] of [["tune", tune], ["holdout", holdout]] as const) {
      const file = path.join(copy, `conclusions.${half}.jsonl`);
      const lines = fs.readFileSync(path.join(EVAL_DIR, `conclusions.${half}.jsonl`), "utf8").trimEnd().split("\n");
      if (edit) lines[0] = JSON.stringify(edit(JSON.parse(lines[0]!) as Record<string, unknown>));
      fs.writeFileSync(file, `${lines.join("\n")}\n`);
    }
    append?.(copy);
    return { dir: copy, problems: validateConclusionsSet({ dir: copy }).map((p) => p.problem) };
  }

  it("passes its checks", () => {
    expect(validateConclusionsSet()).toEqual([]);
  });

  it("loads through the typed reader, each item in the half the fixed split gives it, every decision in each half", () => {
    let total = 0;
    for (const half of ["tune", "holdout"] as const) {
      const items = readConclusionsSet({ half });
      for (const item of items) expect(halfOf({ set: "conclusions", id: item.id })).toBe(half);
      expect(new Set(items.map((item) => item.decision))).toEqual(new Set(CONCLUSION_DECISIONS));
      total += items.length;
    }
    expect(total).toBeGreaterThanOrEqual(200);
  });

  it("reports a question without a question mark, an unknown decision and abstracts without a conclusion", () => {
    const { problems } = damaged({
      tune: (row) => ({ ...row, abstract: (row.abstract as string).split("\n").slice(0, -1).join("\n") }),
      holdout: (row) => ({ ...row, question: "Aspirin prevents stroke", decision: "unsure" }),
      append: (dir) => {
        const line = { id: "s999", question: "Does X help?", abstract: "X was tested. It helped.", decision: "yes", kind: "plain-positive" };
        const half = halfOf({ set: "conclusions", id: line.id });
        fs.appendFileSync(path.join(dir, `conclusions.${half}.jsonl`), `${JSON.stringify(line)}\n`);
      },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^s\d{3}: a structured abstract must end with a conclusion section, ends with [A-Z ]+$/),
        expect.stringMatching(/question: must end with a question mark.*decision: /),
        "s999: an unstructured abstract needs at least three sentences, has 2",
      ]),
    );
  });

  it("reports an item filed in the wrong half and an id used twice, and makes the reader throw on a broken line", () => {
    const first = fs.readFileSync(path.join(EVAL_DIR, "conclusions.tune.jsonl"), "utf8").split("\n")[0]!;
    const { dir, problems } = damaged({ holdout: (row) => ({ ...row, decision: "perhaps" }), append: (d) => fs.appendFileSync(path.join(d, "conclusions.holdout.jsonl"), `${first}\n`) });
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^s\d{3} belongs to the tune half/), expect.stringMatching(/^id s\d{3} is used twice$/)]));
    expect(() => readConclusionsSet({ half: "holdout", dir })).toThrow(EvalFileError);
  });
});

describe.skipIf(!shared)(`the evaluation sets in tests/fixtures/eval (skipped when ${SHARED_ABSENT})`, () => {
  const pubmedqa = new Map(shared ? readPubmedQa() : []);
  let copy: string | undefined;
  afterEach(() => {
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
    copy = undefined;
  });

  function damagedCopy(damage: (file: string) => string): { file: string; problems: EvalProblem[] } {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), "eval-sets-"));
    fs.cpSync(EVAL_DIR, copy, { recursive: true });
    const file = damage(copy);
    return { file, problems: validateEvalSets({ dir: copy, pubmedqa }) };
  }

  function editLine(file: string, edit: (row: Record<string, unknown>) => Record<string, unknown>): void {
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    lines[0] = JSON.stringify(edit(JSON.parse(lines[0]!) as Record<string, unknown>));
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
  }

  it("pass every check", () => {
    expect(validateEvalSets({ pubmedqa })).toEqual([]);
  });

  it("load through the typed readers, each item in the half the fixed split gives it", () => {
    for (const half of ["tune", "holdout"] as const) {
      for (const item of readParaphraseSet({ half })) expect(halfOf({ set: "paraphrase", id: item.id })).toBe(half);
      for (const item of readConfusionSet({ half })) expect(halfOf({ set: "confusion", id: item.id })).toBe(half);
      for (const item of readFollowUpSet({ half })) expect(halfOf({ set: "follow-up", id: item.id })).toBe(half);
      for (const item of readConclusionsSet({ half })) expect(halfOf({ set: "conclusions", id: item.id })).toBe(half);
    }
    expect(readConfusionLibrary().length).toBeGreaterThan(40);
  });

  it("report a paraphrase that reuses its item's words, or aims at a PMID that is not an item", () => {
    const { problems } = damagedCopy((dir) => {
      const file = path.join(dir, "paraphrase.tune.jsonl");
      editLine(file, (row) => ({ ...row, question: pubmedqa.get(row.pmid as string)!.QUESTION }));
      const other = path.join(dir, "paraphrase.holdout.jsonl");
      editLine(other, (row) => ({ ...row, pmid: "1" }));
      return file;
    });
    expect(problems.map((p) => p.problem)).toEqual(
      expect.arrayContaining([expect.stringMatching(/shares a stem with its item's question or MeSH/), "PMID 1 is not a PubMedQA development item"]),
    );
  });

  it("report an item filed in the wrong half and an id used twice", () => {
    const { problems } = damagedCopy((dir) => {
      const from = path.join(dir, "follow-up.tune.jsonl");
      const first = fs.readFileSync(from, "utf8").split("\n")[0]!;
      fs.appendFileSync(path.join(dir, "follow-up.holdout.jsonl"), `${first}\n`);
      return from;
    });
    expect(problems.map((p) => p.problem)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^f\d{3} belongs to the tune half/), expect.stringMatching(/^id f\d{3} is used twice$/)]),
    );
  });

  it("report a confusion question naming a record the library lacks, or a verdict with no record to rest on", () => {
    const { problems } = damagedCopy((dir) => {
      const file = path.join(dir, "confusion.holdout.jsonl");
      editLine(file, (row) => ({ ...row, supporting: [], never_supporting: ["91999999"], verdict: "supports" }));
      return file;
    });
    expect(problems.map((p) => p.problem)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/record 91999999 is not in confusion-library\.jsonl$/),
        expect.stringMatching(/a "supports" verdict needs a record that tests the question$/),
      ]),
    );
  });

  it("report a library record without a structured abstract, and a line that is not JSON", () => {
    const { problems } = damagedCopy((dir) => {
      const file = path.join(dir, "confusion-library.jsonl");
      editLine(file, (row) => ({ ...row, abstract: "Rapamycin extended lifespan in mice." }));
      fs.appendFileSync(path.join(dir, "follow-up.holdout.jsonl"), "{not json\n");
      return file;
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: "confusion-library.jsonl", line: 1, problem: expect.stringMatching(/not a BACKGROUND\/METHODS\/RESULTS\/CONCLUSIONS abstract/) }),
        expect.objectContaining({ file: "follow-up.holdout.jsonl", problem: expect.stringMatching(/^invalid JSON/) }),
      ]),
    );
  });

  it("make the readers throw rather than hand a benchmark a broken line", () => {
    const { file } = damagedCopy((dir) => {
      const target = path.join(dir, "follow-up.tune.jsonl");
      editLine(target, (row) => ({ ...row, label: "maybe" }));
      return target;
    });
    expect(() => readFollowUpSet({ half: "tune", dir: path.dirname(file) })).toThrow(EvalFileError);
  });
});
