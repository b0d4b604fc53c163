import { describe, expect, it } from "vitest";
import { evidenceRoles, evidenceTypes, outcomeDirections, stances, verdicts, verificationLevels } from "@/lib/shared/contracts";
import {
  DESIGN_WORDS,
  describeBasis,
  describeOrigins,
  DIRECTION_WORDS,
  lowConfidenceWarning,
  plural,
  readableConfidenceReason,
  ROLE_WORDS,
  STANCE_WORDS,
  VERDICT_WORDS,
  VERIFICATION_WORDS,
} from "@/lib/web/evidence-words";

describe("the grades in words", () => {
  it("has a label and a meaning for every value the contract defines", () => {
    for (const [values, words] of [
      [evidenceTypes, DESIGN_WORDS],
      [evidenceRoles, ROLE_WORDS],
      [verificationLevels, VERIFICATION_WORDS],
      [outcomeDirections, DIRECTION_WORDS],
      [stances, STANCE_WORDS],
      [verdicts, VERDICT_WORDS],
    ] as const) {
      for (const value of values) expect((words as Record<string, { label: string; meaning: string }>)[value], value).toMatchObject({ label: expect.any(String), meaning: expect.stringMatching(/\w{3}/) });
    }
  });

  it("calls only a verified reference verified", () => {
    expect(Object.entries(VERIFICATION_WORDS).filter(([, w]) => /^verified$/i.test(w.label)).map(([k]) => k)).toEqual(["verified"]);
  });

  it("counts in correct plurals", () => {
    expect(plural(1, "reference")).toBe("1 reference");
    expect(plural(2, "reference")).toBe("2 references");
    expect(plural(1, "study", "studies")).toBe("1 study");
  });

  it("says where the on-topic evidence comes from: human, animal (which), cell", () => {
    const ref = (species: "human" | "mouse" | "cells" | null, evidenceRole: "supporting" | "context" = "supporting") => ({
      evidenceRole,
      snapshot: { design: "unknown" as const, species, population: null, sampleSize: null, intervention: null, direction: "unclear" as const, finding: null },
    });
    expect(describeOrigins([ref("human"), ref("human"), ref("mouse"), ref("cells"), ref(null), ref("human", "context")])).toBe(
      "2 human studies, 1 animal study (mice), 1 cell study, 1 study not saying in whom",
    );
    expect(describeOrigins([ref("human", "context")])).toBeNull();
  });

  it("explains how the verdict was reached from its basis", () => {
    expect(describeBasis({ supporting: 2, contradicting: 1, mixed: 0, unclear: 1, indirect: 1 })).toBe(
      "Of 4 on-topic references, 2 support it, 1 contradicts it, 1 states no finding on it (1 of them in another species than the question's, counted half).",
    );
    expect(describeBasis({ supporting: 0, contradicting: 0, mixed: 0, unclear: 0, indirect: 0 })).toBe("No on-topic reference was found.");
  });

  it("puts the engine's confidence reason in the page's words", () => {
    expect(readableConfidenceReason("unknown (0.4), unknown (×0.6), relevance 0.71")).toBe("design not stated (0.4), not verified (×0.6), relevance 0.71");
    expect(readableConfidenceReason("preclinical (0.45), probable (×0.85), relevance 0.90, animal-only (×0.8)")).toBe(
      "preclinical (0.45), probably genuine (×0.85), relevance 0.90, animal-only (×0.8)",
    );
  });

  it("says which cause makes a literature result low-confidence", () => {
    expect(lowConfidenceWarning({ lowConfidence: false, acceptedConfidences: [] })).toBeNull();
    expect(lowConfidenceWarning({ lowConfidence: true, acceptedConfidences: [] })).toBe("Low confidence: no reference was accepted, so nothing here is evidence for an answer.");
    expect(lowConfidenceWarning({ lowConfidence: true, acceptedConfidences: [0.27] })).toBe(
      "Low confidence: the 1 accepted reference has a confidence of 27%, below 50% (weak designs, or not verified at their source).",
    );
    expect(lowConfidenceWarning({ lowConfidence: true, acceptedConfidences: [0.6, 0.2, 0.3, 0.4] })).toBe(
      "Low confidence: the 4 accepted references have a median confidence of 35%, below 50% (weak designs, or not verified at their source).",
    );
  });
});
