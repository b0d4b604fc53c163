import type { GradedReference } from "@/lib/shared/contracts";
import { auditModelAnswer, type AuditedReference } from "./audit";
import type { ChatAnswer } from "./compose";
import { writeWithModel, type LlmSettings } from "./llm";
import { computeQuality } from "./quality";

/**
 * Lets a model rewrite an extractive chat answer from the same numbered evidence, in the same
 * structure (bottom line, evidence by strength, limits), and keeps its answer only if it survives
 * the citation audit; otherwise the extractive answer stands and the metadata says why. The bottom
 * line must state the verdict computed from the evidence: a model's bottom line that does not is
 * replaced by the extractive one, and the extractive limits are added when the model wrote none.
 * `contractValid` is recomputed from the text either way.
 */
export async function applyModelWriter(result: ChatAnswer, { settings, question, signal }: { settings: LlmSettings; question: string; signal?: AbortSignal }): Promise<ChatAnswer> {
  if (result.references.length === 0) return result;
  const passages = new Map(result.metadata.contextPassages.map((p) => [p.ordinal, p.text]));
  const references: (AuditedReference & GradedReference)[] = result.references.map((r) => ({ ...r, passage: passages.get(r.ordinal) ?? r.title }));
  const verdict = result.verdict ? { verdict: result.verdict, basis: result.verdictBasis ?? null } : null;
  const written = await writeWithModel({ settings, question, references, verdict, ...(signal ? { signal } : {}) });
  if (!written) return { ...result, metadata: { ...result.metadata, modelWriter: { used: false, reason: "the model did not answer" } } };
  const audit = auditModelAnswer({
    answer: written,
    references,
    ...(result.verdict ? { verdict: result.verdict } : {}),
    ...(result.verdictBasis?.confidence ? { confidence: result.verdictBasis.confidence } : {}),
  });
  if (audit.rejected) {
    return { ...result, metadata: { ...result.metadata, modelWriter: { used: false, reason: "no cited sentence survived the audit", removed: audit.removed } } };
  }
  const { bottomLine, limits } = result.metadata;
  const modelAnswer = audit.answer;
  const answer = [audit.hasBottomLine || !bottomLine ? null : bottomLine, modelAnswer, audit.hasLimits || !limits ? null : limits].filter(Boolean).join("\n\n");
  const quality = computeQuality(answer, references);
  if (!quality.contractValid) {
    return { ...result, metadata: { ...result.metadata, modelWriter: { used: false, reason: "the audited answer breaks the citation contract", removed: audit.removed } } };
  }
  const sources = result.text.slice(result.answer.length);
  return {
    ...result,
    answer,
    reply: answer,
    text: `${answer}${sources}`,
    quality,
    metadata: {
      ...result.metadata,
      // The sentence the answer opens with: the model's own bottom line when it stands.
      bottomLine: audit.bottomLine ?? bottomLine,
      writer: "model",
      model: settings.model,
      modelWriter: { used: true, removed: audit.removed, bottomLine: audit.hasBottomLine ? "model" : "extractive", limits: audit.hasLimits ? "model" : "extractive" },
    },
  };
}
