import type { ChatReference } from "@/lib/contracts";
import { splitSentences } from "../literature/answer";
import { extractTerms, stemSet } from "../literature/terms";
import { readMarkers } from "./quality";

export type AuditedReference = ChatReference & { passage: string; isRetracted?: boolean };

export type AuditResult = {
  answer: string;
  /** The sentences taken out, each with why. */
  removed: { sentence: string; reason: string }[];
  /** True when nothing cited survived: the model's answer must not be used. */
  rejected: boolean;
};

/** A cited sentence must share at least this many content terms with the text of what it cites. */
const MIN_SHARED_TERMS = 2;

/**
 * The citation audit of a model's answer, failing closed: a sentence stays only if every marker in
 * it resolves to a reference, none of those references is retracted or only a lead, and each cited
 * reference's own text shares enough content terms with the sentence to support it. Sentences that
 * cite nothing are kept only when they carry no claim of their own (a caveat about the evidence).
 * If no cited sentence remains, the whole answer is rejected.
 */
export function auditModelAnswer({ answer, references }: { answer: string; references: AuditedReference[] }): AuditResult {
  const byOrdinal = new Map(references.map((r) => [r.ordinal, r]));
  const kept: string[] = [];
  const removed: AuditResult["removed"] = [];
  let cited = 0;
  for (const sentence of splitSentences(answer.replace(/\n+/g, " "))) {
    const markers = [...new Set(readMarkers(sentence))];
    if (markers.length === 0) {
      if (isCaveat(sentence)) kept.push(sentence);
      else removed.push({ sentence, reason: "a claim without a citation" });
      continue;
    }
    const problem = markers
      .map((n) => {
        const ref = byOrdinal.get(n);
        if (!ref) return `[${n}] does not resolve to a reference`;
        if (ref.isRetracted) return `[${n}] is retracted`;
        if (ref.evidenceRole === "lead_only") return `[${n}] is only a lead`;
        if (sharedTerms(sentence, ref.passage + " " + ref.title) < MIN_SHARED_TERMS) return `[${n}]'s text does not support the sentence`;
        return null;
      })
      .find((p) => p !== null);
    if (problem) {
      removed.push({ sentence, reason: problem });
      continue;
    }
    kept.push(sentence);
    cited++;
  }
  return { answer: kept.join(" "), removed, rejected: cited === 0 };
}

function sharedTerms(sentence: string, text: string): number {
  const stems = stemSet(text);
  return extractTerms(sentence.replace(/\[[\d,\s–-]+\]/g, " ")).filter((t) => t.weight === 1 && t.stems.some((s) => stems.has(s))).length;
}

/** A sentence about the evidence itself ("the evidence is limited"), not a finding. */
function isCaveat(sentence: string): boolean {
  return /\b(evidence|studies|data|research)\b.*\b(limited|thin|sparse|mixed|preliminary|insufficient|lacking|inconclusive|needed)\b/i.test(sentence);
}
