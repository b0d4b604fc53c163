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
