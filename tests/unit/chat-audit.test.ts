import { describe, expect, it } from "vitest";
import { auditModelAnswer, type AuditedReference } from "@/agent/chat/audit";
import { buildChatReference } from "../support/builders";

const refs: AuditedReference[] = [1, 2, 3, 4, 5, 6].map((ordinal) => ({
  ...buildChatReference({ ordinal, title: `Study ${ordinal} of rapamycin and lifespan in mice` }),
  passage: "Rapamycin extended median lifespan of genetically heterogeneous mice by about ten percent.",
}));

describe("the audit of a model's answer", () => {
  it("keeps supported, resolving sentences and caveats", () => {
    const audit = auditModelAnswer({ answer: "Rapamycin extended median lifespan in mice [1]. The evidence in humans is limited.", references: refs });
    expect(audit.rejected).toBe(false);
    expect(audit.answer).toBe("Rapamycin extended median lifespan in mice [1]. The evidence in humans is limited.");
    expect(audit.removed).toEqual([]);
  });

  it("rejects an answer citing [7] when there are six references", () => {
    const audit = auditModelAnswer({ answer: "Rapamycin extended lifespan in mice [7].", references: refs });
    expect(audit.rejected).toBe(true);
    expect(audit.removed[0]!.reason).toBe("[7] does not resolve to a reference");
  });

  it("removes a sentence citing a retracted paper, and one citing a lead", () => {
    const withRetracted = refs.map((r) => (r.ordinal === 2 ? { ...r, isRetracted: true } : r.ordinal === 3 ? { ...r, evidenceRole: "lead_only" as const } : r));
    const audit = auditModelAnswer({
      answer: "Rapamycin extended median lifespan in mice [2]. Rapamycin extended lifespan of mice [3]. Rapamycin extended median lifespan in heterogeneous mice [1].",
      references: withRetracted,
    });
    expect(audit.removed.map((r) => r.reason)).toEqual(["[2] is retracted", "[3] is only a lead"]);
    expect(audit.answer).toBe("Rapamycin extended median lifespan in heterogeneous mice [1].");
    expect(audit.rejected).toBe(false);
  });

  it("removes claims the cited text does not support, and uncited claims", () => {
    const audit = auditModelAnswer({ answer: "Metformin cures dementia in elderly patients [1]. Telomeres shorten with stress.", references: refs });
    expect(audit.removed.map((r) => r.reason)).toEqual(["[1]'s text does not support the sentence", "a claim without a citation"]);
    expect(audit.rejected).toBe(true);
  });
});

describe("the audit of a structured answer", () => {
  const structured = [
    "Bottom line: the evidence supports it.",
    "Animal and cell studies: In genetically heterogeneous mice, rapamycin extended median lifespan [1]. Rapamycin extended median lifespan of heterogeneous mice again [2].",
    "Limits: No randomized trial in humans was found. The evidence is limited to mice.",
  ].join("\n\n");

  it("keeps the paragraphs and their labels, and an uncited bottom line that states the computed verdict", () => {
    const audit = auditModelAnswer({ answer: structured, references: refs, verdict: "supports" });
    expect(audit).toMatchObject({ rejected: false, hasBottomLine: true, hasLimits: true, removed: [] });
    expect(audit.answer).toBe(structured);
  });

  it("takes out a bottom line that states another verdict than the evidence's, and keeps the rest", () => {
    const audit = auditModelAnswer({ answer: structured, references: refs, verdict: "insufficient" });
    expect(audit.hasBottomLine).toBe(false);
    expect(audit.removed).toEqual([{ sentence: "the evidence supports it.", reason: "the bottom line does not state the evidence's verdict (insufficient)" }]);
    expect(audit.answer.startsWith("Animal and cell studies: In genetically heterogeneous mice")).toBe(true);
  });

  it("takes out uncited claims in the limits, and a paragraph left empty", () => {
    const audit = auditModelAnswer({
      answer: "Bottom line: the evidence is mixed.\n\nHuman trials: Metformin cures ageing in people [1].\n\nAnimal and cell studies: Rapamycin extended median lifespan in mice [1].\n\nLimits: Rapamycin also works in humans.",
      references: refs,
      verdict: "mixed",
    });
    expect(audit.answer).toBe("Bottom line: the evidence is mixed.\n\nAnimal and cell studies: Rapamycin extended median lifespan in mice [1].");
    expect(audit.removed.map((r) => r.reason)).toEqual(["[1]'s text does not support the sentence", "a claim without a citation"]);
    expect(audit.hasLimits).toBe(false);
  });
});
