import { describe, expect, it } from "vitest";
import {
  buildOrTsquery,
  chooseCandidateLexemes,
  inverseDocumentFrequency,
  listQueryTerms,
  FEEDBACK_TERMS,
  FEEDBACK_WEIGHT,
  matchTerms,
  MAX_TERMS,
  relevanceModel,
  scoreCandidate,
  splitQueryText,
  yearBounds,
  type CandidateTerms,
} from "@/agent/library/ranking";

describe("the terms a library search uses", () => {
  it("are the engine's terms when it sent some, trimmed and deduplicated case-insensitively", () => {
    expect(listQueryTerms({ text: "ignored question", terms: [" Rapamycin ", "lifespan", "rapamycin", ""] })).toEqual(["Rapamycin", "lifespan"]);
  });

  it("are the question's words when it sent none", () => {
    expect(listQueryTerms({ text: "Does rapamycin extend lifespan in mice?", terms: [] })).toEqual(["Does", "rapamycin", "extend", "lifespan", "in", "mice"]);
  });

  it("are capped, so a pasted essay cannot make an unbounded query", () => {
    const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    expect(listQueryTerms({ text, terms: [] })).toHaveLength(MAX_TERMS);
  });

  it("keep the inner hyphens, dots and apostrophes the text search parser reads as one word", () => {
    expect(splitQueryText("IL-6 and covid-19: 1.5-fold, Alzheimer's (APOE4)?")).toEqual(["IL-6", "and", "covid-19", "1.5-fold", "Alzheimer's", "APOE4"]);
    expect(splitQueryText("  ?! ")).toEqual([]);
  });
});

describe("the OR tsquery", () => {
  it("ORs the lexemes, each quoted, without duplicates", () => {
    expect(buildOrTsquery(["telomer", "mortal", "telomer"])).toBe("'telomer' | 'mortal'");
  });

  it("doubles quotes and backslashes, so no lexeme can change the query's structure", () => {
    expect(buildOrTsquery(["o'brien", "a\\b", "x' | 'y"])).toBe("'o''brien' | 'a\\\\b' | 'x'' | ''y'");
  });

  it("is null without lexemes (a question of stop words cannot be ranked)", () => {
    expect(buildOrTsquery([])).toBeNull();
    expect(buildOrTsquery([""])).toBeNull();
  });
});

describe("candidate lexemes", () => {
  const lexemes = [
    { lexeme: "patient", records: 60_000 },
    { lexeme: "telomer", records: 900 },
    { lexeme: "mortal", records: 1_500 },
    { lexeme: "zebrafish", records: 0 },
    { lexeme: "leucocyt", records: 40 },
  ];

  it("take the rarest first while their records fit the budget, and never a lexeme no record holds", () => {
    expect(chooseCandidateLexemes({ lexemes, budget: 2_000 })).toEqual(["leucocyt", "telomer"]);
    expect(chooseCandidateLexemes({ lexemes, budget: 10_000 })).toEqual(["leucocyt", "telomer", "mortal"]);
  });

  it("always include the rarest, so a query of only common words still finds records", () => {
    expect(chooseCandidateLexemes({ lexemes: [{ lexeme: "patient", records: 60_000 }, { lexeme: "age", records: 90_000 }], budget: 2_000 })).toEqual(["patient"]);
  });

  it("are none when no record holds any of them", () => {
    expect(chooseCandidateLexemes({ lexemes: [{ lexeme: "zebrafish", records: 0 }] })).toEqual([]);
  });
});

describe("the BM25 score", () => {
  const idf = new Map([
    ["telomer", inverseDocumentFrequency({ records: 1000, holding: 10 })],
    ["patient", inverseDocumentFrequency({ records: 1000, holding: 900 })],
  ]);
  const score = (candidate: CandidateTerms, averageTokens = 100) => scoreCandidate({ candidate, idf, averageTokens });

  it("weighs a rare lexeme above a common one", () => {
    expect(score({ tokens: 100, lexemes: [{ lexeme: "telomer", weights: "B" }] })).toBeGreaterThan(
      score({ tokens: 100, lexemes: [{ lexeme: "patient", weights: "B" }] }) * 5,
    );
  });

  it("counts a title occurrence above an abstract one", () => {
    expect(score({ tokens: 100, lexemes: [{ lexeme: "telomer", weights: "A" }] })).toBeGreaterThan(
      score({ tokens: 100, lexemes: [{ lexeme: "telomer", weights: "B" }] }),
    );
  });

  it("grows with occurrences, but saturates", () => {
    const once = score({ tokens: 100, lexemes: [{ lexeme: "telomer", weights: "B" }] });
    const twice = score({ tokens: 100, lexemes: [{ lexeme: "telomer", weights: "BB" }] });
    const tenTimes = score({ tokens: 100, lexemes: [{ lexeme: "telomer", weights: "BBBBBBBBBB" }] });
    expect(twice).toBeGreaterThan(once);
    expect(tenTimes).toBeLessThan(once * 2.2);
  });

  it("normalises by length: the same match in a longer record scores lower", () => {
    expect(score({ tokens: 400, lexemes: [{ lexeme: "telomer", weights: "B" }] })).toBeLessThan(
      score({ tokens: 50, lexemes: [{ lexeme: "telomer", weights: "B" }] }),
    );
  });

  it("counts a phrase once, by its best name: the question's words, another name held whole, or its heading in MeSH only", () => {
    const withGroups = new Map([...idf, ["broken", 5], ["hip", 3], ["fractur", 2], ["age", 0.5]]);
    const groups = [{ own: ["broken", "hip"], alternatives: [["hip", "fractur"]], headings: [["age"]] }];
    const scored = (lexemes: CandidateTerms["lexemes"]) => scoreCandidate({ candidate: { tokens: 100, lexemes }, idf: withGroups, averageTokens: 100, groups });
    const synonym = scored([{ lexeme: "hip", weights: "B" }, { lexeme: "fractur", weights: "B" }]);
    const partial = scored([{ lexeme: "fractur", weights: "B" }]);
    const both = scored([{ lexeme: "broken", weights: "B" }, { lexeme: "hip", weights: "B" }, { lexeme: "fractur", weights: "B" }]);
    const own = scored([{ lexeme: "broken", weights: "B" }, { lexeme: "hip", weights: "B" }]);
    expect(synonym).toBeGreaterThan(0);
    expect(partial).toBe(0);
    expect(both).toBe(Math.max(own, synonym));
    expect(scored([{ lexeme: "age", weights: "C" }])).toBeGreaterThan(0);
    expect(scored([{ lexeme: "age", weights: "B" }])).toBe(0);
  });

  it("ignores lexemes that are not the query's, and is zero without matches", () => {
    expect(score({ tokens: 100, lexemes: [{ lexeme: "unrelated", weights: "AAA" }] })).toBe(0);
  });

  it("uses an idf that stays positive even for a lexeme in every record", () => {
    expect(inverseDocumentFrequency({ records: 100, holding: 100 })).toBeGreaterThan(0);
    expect(inverseDocumentFrequency({ records: 100, holding: 1 })).toBeGreaterThan(inverseDocumentFrequency({ records: 100, holding: 50 }));
  });
});

describe("matched terms", () => {
  const termLexemes = new Map([
    ["rapamycin", ["rapamycin"]],
    ["insulin resistance", ["insulin", "resist"]],
    ["the", []],
    ["zebrafish", ["zebrafish"]],
  ]);

  it("are the terms whose every lexeme the record holds, in query order", () => {
    expect(matchTerms({ termLexemes, recordLexemes: new Set(["rapamycin", "insulin", "resist"]) })).toEqual(["rapamycin", "insulin resistance"]);
  });

  it("leave out a term only partly present, and terms without lexemes", () => {
    expect(matchTerms({ termLexemes, recordLexemes: new Set(["insulin"]) })).toEqual([]);
  });
});

describe("year bounds", () => {
  it("are the years of dateFrom and dateTo, inclusive", () => {
    expect(yearBounds({ dateFrom: "2019-06-01", dateTo: "2021-12-31" })).toEqual({ from: 2019, to: 2021 });
    expect(yearBounds({})).toEqual({ from: null, to: null });
    expect(yearBounds({ dateTo: "2010-01-01" })).toEqual({ from: null, to: 2010 });
  });
});

describe("pseudo-relevance feedback: the best records lend the question their words", () => {
  const top = [
    { score: 9, tokens: 100 },
    { score: 3, tokens: 100 },
  ];
  const rows = [
    { record: 0, lexeme: "hypoglycaem", tf: 6, records: 12 },
    { record: 1, lexeme: "hypoglycaem", tf: 2, records: 12 },
    { record: 0, lexeme: "insulin", tf: 4, records: 30 },
    { record: 1, lexeme: "fall", tf: 8, records: 20 },
    { record: 0, lexeme: "sugar", tf: 5, records: 3 },
  ];

  it("weighs a word by how much of each best record it makes up, the records by their scores, and never lends the question's own words", () => {
    const model = relevanceModel({ top, rows, exclude: new Set(["sugar"]), libraryRecords: 500, queryWeight: 4 });
    expect([...model.keys()]).toEqual(["hypoglycaem", "insulin", "fall"]);
    // Together the lent words weigh FEEDBACK_WEIGHT of the question's four terms, before their idf.
    const idf = (held: number) => inverseDocumentFrequency({ records: 500, holding: held });
    const shares = model.get("hypoglycaem")! / idf(12) + model.get("insulin")! / idf(30) + model.get("fall")! / idf(20);
    expect(shares).toBeCloseTo(4 * FEEDBACK_WEIGHT, 10);
    // hypoglycaemia: 0.75 × 6% + 0.25 × 2% of the records' words; a fall only in the weaker record: 0.25 × 8%.
    expect(model.get("hypoglycaem")! / idf(12)).toBeGreaterThan(model.get("fall")! / idf(20));
  });

  it("keeps the heaviest words only, and lends nothing when the records scored nothing", () => {
    const many = Array.from({ length: FEEDBACK_TERMS + 5 }, (_, k) => ({ record: 0, lexeme: `word${String.fromCharCode(97 + k)}`, tf: k + 1, records: 5 }));
    const model = relevanceModel({ top, rows: many, exclude: new Set(), libraryRecords: 500, queryWeight: 3 });
    expect(model.size).toBe(FEEDBACK_TERMS);
    expect(model.has("worda")).toBe(false);
    expect(relevanceModel({ top: [{ score: 0, tokens: 10 }], rows, exclude: new Set(), libraryRecords: 500, queryWeight: 3 }).size).toBe(0);
  });
});
