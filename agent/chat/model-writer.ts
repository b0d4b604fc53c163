import type { ChatResult } from "@/lib/contracts";
import { auditModelAnswer, type AuditedReference } from "./audit";
import { writeWithModel, type LlmSettings } from "./llm";
import { computeQuality } from "./quality";

/**
 * Lets a model rewrite an extractive chat answer from the same numbered evidence, and keeps its
 * answer only if it survives the citation audit; otherwise the extractive answer stands and the
 * metadata says why. `contractValid` is recomputed from the text either way.
 */
export async function applyModelWriter(result: ChatResult, { settings, question, signal }: { settings: LlmSettings; question: string; signal?: AbortSignal }): Promise<ChatResult> {
  if (result.references.length === 0) return result;
  const passages = new Map(((result.metadata?.contextPassages ?? []) as { ordinal: number; text: string }[]).map((p) => [p.ordinal, p.text]));
  const references: AuditedReference[] = result.references.map((r) => ({ ...r, passage: passages.get(r.ordinal) ?? r.title }));
  const written = await writeWithModel({ settings, question, references, ...(signal ? { signal } : {}) });
  if (!written) return { ...result, metadata: { ...result.metadata, modelWriter: { used: false, reason: "the model did not answer" } } };
  const audit = auditModelAnswer({ answer: written, references });
  if (audit.rejected) {
    return { ...result, metadata: { ...result.metadata, modelWriter: { used: false, reason: "no cited sentence survived the audit", removed: audit.removed } } };
  }
  const quality = computeQuality(audit.answer, references);
  if (!quality.contractValid) {
    return { ...result, metadata: { ...result.metadata, modelWriter: { used: false, reason: "the audited answer breaks the citation contract", removed: audit.removed } } };
  }
  const sources = result.text.slice(result.answer.length);
  return {
    ...result,
    answer: audit.answer,
    reply: audit.answer,
    text: `${audit.answer}${sources}`,
    quality,
    metadata: { ...result.metadata, writer: "model", model: settings.model, modelWriter: { used: true, removed: audit.removed } },
  };
}
