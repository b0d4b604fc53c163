import { describe, expect, it } from "vitest";
import { FINDING_WORDS, negationCovers, negationWords } from "@/agent/literature/negation";
import { scopeCues } from "@/agent/literature/stance/scope";
import { stem } from "@/agent/literature/terms";

/** NegEx-style negation scope and the general cues the stance model reads (sentences written for these tests). */
const negatesFinding = (clause: string) => negationCovers(negationWords(clause), (s) => FINDING_WORDS.has(s));

describe("negation scope (NegEx)", () => {
  it.each([["Zinc was no better than placebo for colds."], ["Zinc was without effect on colds."], ["Nothing suggests that zinc shortens colds."], ["Zinc didn't improve sleep."]])(
    "a negation covering a finding word: %s",
    (clause) => expect(negatesFinding(clause)).toBe(true),
  );

  it.each([
    ["Zinc not only improved sleep but also mood."],
    ["In patients with no history of diabetes, zinc improved sleep."],
    ["Zinc improved sleep with or without melatonin."],
    // The scope ends at a termination term and after five words.
    ["No patients dropped out, but zinc improved sleep."],
    ["No patients dropped out of the trial early and zinc improved sleep."],
  ])("no negation of a finding: %s", (clause) => expect(negatesFinding(clause)).toBe(false));
});

describe("the general cues of a deciding text", () => {
  const claimStems = new Set(["zinc", "cold"].map(stem));

  it("reads a negation on the claim, in its first clause naming it", () => {
    const cues = scopeCues({ text: "Zinc did not shorten colds in older adults. Zinc was well tolerated.", claimStems });
    expect(cues.firstNegated).toBe(1);
    expect(cues.negatedOnClaim).toBeCloseTo(0.5, 10);
  });

  it("reads none in a plain finding, and counts speculation and comparisons found alike", () => {
    const plain = scopeCues({ text: "Zinc shortened colds by two days.", claimStems });
    expect(plain).toMatchObject({ negatedOnClaim: 0, firstNegated: 0, negatedAny: 0, speculation: 0, alike: 0 });
    const hedged = scopeCues({ text: "Zinc may shorten colds; cold duration was similar with placebo.", claimStems });
    expect(hedged.speculation).toBeGreaterThan(0);
    expect(hedged.alike).toBeGreaterThan(0);
  });
});
