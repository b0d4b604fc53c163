import type { ChatMetadata, ChatReference, ChatRejectedReference, ChatResult, FailedSource, GradedReference } from "@/lib/shared/contracts";
import { formatSources, nothingFound, writeAnswer, type Citable } from "../literature/answer";
import { readQuestion, type QuestionReading } from "../literature/reading";
import type { EngineReference, EngineResult } from "../literature/result";
import { decideRole } from "../literature/roles";
import { citationOf } from "./citation";
import { computeQuality } from "./quality";
import { describeSourceFailures } from "@/lib/shared/contracts/source-words";
import { DESIGN_STRENGTH_ORDER } from "@/lib/shared/contracts/designs";

/**
 * A chat answer under the citation contract, from a literature search: references get an evidence
 * role and their grading (GradedReference), the extractive writer (agent/literature/answer.ts)
 * opens with the verdict, gives the evidence by strength with each claim's subject and its [N],
 * and ends with the limits; the quality object is computed from the text it wrote.
 */

/**
 * A chat answer as the agent composes it: the ChatResult of section 2.4 with its metadata typed
 * (ChatMetadata), which the model writer and deep research read; it is the wire ChatResult as it is.
 */
export type ChatAnswer = Omit<ChatResult, "metadata"> & { metadata: ChatMetadata };

/**
 * What a chat answer is composed from: the engine's result, or (deep research) the references its
 * iterations kept.
 */
type ChatLiterature = Pick<EngineResult, "references"> & Partial<Pick<EngineResult, "rejectedReferences" | "contextPassages" | "reasoning" | "quality" | "fallbackUsed" | "failedSources" | "effectiveSources">>;

/**
 * The evidence role of a reference: the engine's (roles.ts, decided against the question's
 * reading), or, for a reference stored before the engine carried one, the same decision made here.
 */
export function roleOf(ref: EngineReference, reading: QuestionReading): { role: ChatReference["evidenceRole"]; reason: string } {
  if (ref.evidenceRole && ref.roleReason) return { role: ref.evidenceRole, reason: ref.roleReason };
  const relevance = ref.relevance;
  const decided = decideRole({
    reading,
    reference: {
      accepted: relevance?.accepted ?? false,
      reason: relevance?.reason ?? (relevance?.accepted ? null : "off_topic"),
      missingConcepts: relevance?.missingConcepts ?? [],
      partsAddressed: relevance?.partsAddressed,
      evidenceType: ref.evidenceType,
      isRetracted: ref.isRetracted ?? false,
      species: ref.snapshot ? ref.snapshot.species : undefined,
    },
  });
  return { role: decided.role, reason: decided.reason };
}

export function composeChatResult({
  question,
  literature,
  conversationId,
  messageId = null,
}: {
  question: string;
  literature: ChatLiterature;
  conversationId: string;
  messageId?: string | null;
}): ChatAnswer {
  const all = literature.references;
  const accepted = all.filter((r) => r.relevance?.accepted && !r.isRetracted);
  const reading = readQuestion(question);
  const roled = accepted.map((r) => ({ ref: r, ...roleOf(r, reading) }));
  // Supporting evidence first, strongest design first, then the most relevant.
  roled.sort(
    (a, b) =>
      Number(b.role === "supporting") - Number(a.role === "supporting") ||
      DESIGN_STRENGTH_ORDER.indexOf(a.ref.evidenceType) - DESIGN_STRENGTH_ORDER.indexOf(b.ref.evidenceType) ||
      (b.ref.relevance?.score ?? 0) - (a.ref.relevance?.score ?? 0),
  );
  const rejectedSources = [...(literature.rejectedReferences ?? []), ...all.filter((r) => r.isRetracted)];
  const rejectedReferences: ChatRejectedReference[] = rejectedSources.map((ref, i) => {
    const { role, reason } = roleOf(ref, reading);
    const { ordinal: _o, ...rest } = toChatReference(ref, i + 1, role === "supporting" ? "context" : role, reason);
    return { ...rest, candidateOrdinal: i + 1, evidenceRole: role === "supporting" ? "context" : role };
  });

  const failedSources = failedSourcesOf(literature);
  const sourcesNote = describeSourceFailures({ failed: failedSources, used: literature.effectiveSources ?? [] });
  const written = writeAnswer({
    reading,
    references: roled.map(({ ref, role }, i) => ({
      ordinal: i + 1,
      title: ref.title,
      abstract: ref.abstract ?? passageOf(literature, ref),
      evidenceType: ref.evidenceType,
      evidenceRole: role,
      relevance: ref.relevance?.score ?? 0,
      snapshot: ref.snapshot ?? null,
      missingConcepts: ref.relevance?.missingConcepts ?? [],
    })),
    sourcesNote,
  });
  const references: GradedReference[] = roled.map(({ ref, role, reason }, i) => ({
    ...toChatReference(ref, i + 1, role, reason),
    ...graded(ref),
    ...citationOf(ref),
    ...(written.stances.has(i + 1) ? { stance: written.stances.get(i + 1)! } : {}),
  }));
  // The passage of each reference that bears on the question: what the answer quotes, what a
  // model is given, and what the audit checks a model's sentence against.
  const contextPassages = references.map((ref) => ({ ordinal: ref.ordinal, text: written.passages.get(ref.ordinal) ?? ref.title }));
  const opened = references.length === 0 ? nothingFound(question, sourcesNote) : written;
  const answer = opened.answer;
  const sourceList = formatSources(
    references.map((r): Citable => ({ ordinal: r.ordinal, title: r.title, url: r.url, abstract: null, year: r.year ?? null, journal: null, label: labelOf(r) })),
  );
  const quality = computeQuality(answer, references.map((r) => ({ ...r, isRetracted: false })));
  return {
    reply: answer,
    answer,
    text: sourceList ? `${answer}\n\n${sourceList}` : answer,
    conversationId,
    messageId,
    references,
    rejectedReferences,
    quality,
    verdict: written.verdict,
    verdictBasis: written.verdictBasis,
    failedSources,
    metadata: {
      writer: "extractive",
      contextPassages,
      // What a model writer must keep: the bottom line it opens with and the limits it ends with.
      bottomLine: opened.bottomLine,
      limits: written.limits,
      effectiveSources: literature.effectiveSources ?? [],
      fallbackUsed: literature.fallbackUsed ?? false,
      reasoning: literature.reasoning ?? [],
      literatureQuality: literature.quality ?? null,
    },
  };
}

/** The grading a reference carries beside the contract's fields. */
function graded(ref: EngineReference): Partial<GradedReference> {
  return {
    ...(ref.snapshot ? { snapshot: ref.snapshot } : {}),
    ...(ref.relevance ? { matchedTerms: ref.relevance.matchedTerms, relevanceScore: Math.max(0, Math.min(1, ref.relevance.score)) } : {}),
    ...(ref.evidenceReason ? { evidenceReason: ref.evidenceReason } : {}),
    ...(ref.verificationReason ? { verificationReason: ref.verificationReason } : {}),
    ...(ref.confidenceReason ? { confidenceReason: ref.confidenceReason } : {}),
  };
}

/** The sources the search lost, typed `{source, kind}` (the engine's `failedSources`). */
function failedSourcesOf(literature: ChatLiterature): FailedSource[] {
  return literature.failedSources ?? [];
}

function passageOf(literature: ChatLiterature, ref: EngineReference): string | null {
  return (literature.contextPassages ?? []).find((p) => p.url === ref.url)?.text ?? null;
}

function toChatReference(ref: EngineReference, ordinal: number, role: ChatReference["evidenceRole"], reason: string): ChatReference {
  return {
    ordinal,
    id: ref.pmid ? `pmid:${ref.pmid}` : ref.doi ? `doi:${ref.doi}` : String(ref.label ?? ref.url),
    title: ref.title,
    url: ref.url,
    source: ref.source ?? "unknown",
    year: typeof ref.year === "number" ? ref.year : null,
    doi: ref.doi ?? null,
    pmid: ref.pmid ?? null,
    pmcid: ref.pmcid ?? null,
    evidenceRole: role,
    evidenceType: ref.evidenceType,
    verification: ref.verification,
    confidence: ref.confidence,
    roleReason: reason,
    duplicateOfOrdinal: null,
  };
}

function labelOf(r: ChatReference): string {
  return r.pmid ? `PMID ${r.pmid}` : r.doi ? `doi:${r.doi}` : r.id;
}
