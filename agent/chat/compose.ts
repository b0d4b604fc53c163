import type { ChatReference, ChatRejectedReference, ChatResult, EvidenceType, LiteratureJobResult } from "@/lib/contracts";
import { bestPassage, formatSources, type Citable } from "../literature/answer";
import { extractTerms } from "../literature/terms";
import { computeQuality } from "./quality";

/**
 * A chat answer under the citation contract, from a literature search: references get an evidence
 * role, the extractive writer leads with the strongest evidence and cites each sentence's source,
 * says plainly when the evidence is thin, only preclinical or mixed, and the quality object is
 * computed from the text it wrote.
 */

type EngineReference = NonNullable<LiteratureJobResult["references"]>[number] & {
  evidenceType: EvidenceType;
  verification: ChatReference["verification"];
  confidence: number;
  confidenceReason?: string;
  doi?: string | null;
  pmid?: string | null;
  pmcid?: string | null;
  label?: string;
  isRetracted?: boolean;
  abstract?: string | null;
  relevance?: { accepted: boolean; score: number; matchedTerms: string[]; flags: string[]; reason?: string | null };
};

/** Strongest design first: the order in which the writer uses the evidence. */
const STRENGTH: EvidenceType[] = [
  "systematic_review",
  "randomized_controlled_trial",
  "controlled_trial",
  "observational",
  "single_arm_trial",
  "narrative_review",
  "preclinical",
  "unknown",
  "commentary",
];

/** A reference relevant enough to support a claim: it matches at least half of the question's weight. */
export const SUPPORTING_RELEVANCE = 0.5;

/**
 * The evidence role of a reference. `bestScore` is the highest relevance among the answer's
 * references: the closest matches to the question support it even when the question is worded far
 * from the abstracts (within 90% of the best, and above the acceptance threshold).
 */
export function assignRole(ref: EngineReference, bestScore = 1): { role: ChatReference["evidenceRole"]; reason: string } {
  const relevance = ref.relevance;
  if (ref.isRetracted) return { role: "lead_only", reason: "retracted: never supporting" };
  if (!relevance?.accepted) {
    return relevance?.reason === "off_topic"
      ? { role: "lead_only", reason: "matches too few of the question's terms to rely on" }
      : { role: "context", reason: `outside the request (${relevance?.reason ?? "filtered"})` };
  }
  if (ref.evidenceType === "commentary") return { role: "context", reason: "a comment or editorial, not evidence" };
  if (relevance.score >= SUPPORTING_RELEVANCE || relevance.score >= 0.9 * bestScore) {
    return { role: "supporting", reason: `${ref.evidenceType.replace(/_/g, " ")} matching ${relevance.matchedTerms.join(", ")}` };
  }
  return { role: "context", reason: `related (${relevance.matchedTerms.join(", ") || "few terms"}), but not directly on the question` };
}

export function composeChatResult({
  question,
  literature,
  conversationId,
  messageId = null,
}: {
  question: string;
  literature: LiteratureJobResult;
  conversationId: string;
  messageId?: string | null;
}): ChatResult {
  const all = (literature.references ?? []) as EngineReference[];
  const accepted = all.filter((r) => r.relevance?.accepted && !r.isRetracted);
  const bestScore = Math.max(0, ...accepted.map((r) => r.relevance?.score ?? 0));
  const roled = accepted.map((r) => ({ ref: r, ...assignRole(r, bestScore) }));
  // Supporting evidence first, strongest design first, then the most relevant.
  roled.sort(
    (a, b) =>
      Number(b.role === "supporting") - Number(a.role === "supporting") ||
      STRENGTH.indexOf(a.ref.evidenceType) - STRENGTH.indexOf(b.ref.evidenceType) ||
      (b.ref.relevance?.score ?? 0) - (a.ref.relevance?.score ?? 0),
  );
  const references: ChatReference[] = roled.map(({ ref, role, reason }, i) => toChatReference(ref, i + 1, role, reason));
  const rejectedSources = [...((literature.rejectedReferences ?? []) as EngineReference[]), ...all.filter((r) => r.isRetracted)];
  const rejectedReferences: ChatRejectedReference[] = rejectedSources.map((ref, i) => {
    const { role, reason } = assignRole(ref);
    const { ordinal: _o, ...rest } = toChatReference(ref, i + 1, role === "supporting" ? "context" : role, reason);
    return { ...rest, candidateOrdinal: i + 1, evidenceRole: role === "supporting" ? "context" : role };
  });

  const terms = extractTerms(question);
  // The passage of each reference that bears on the question: what the answer quotes, what a
  // model is given, and what the audit checks a model's sentence against.
  const contextPassages = references.map((ref) => {
    const source = roled[ref.ordinal - 1]!.ref;
    const abstract = source.abstract ?? passageOf(literature, ref.ordinal, source);
    // Bracketed numbers inside a quoted passage ("[18F]", a source's own "[12]") would read as markers.
    const text = ensurePeriod((abstract ? bestPassage(abstract, terms) : null) ?? source.title).replace(/\[(\d[^\]]*)\]/g, "($1)");
    return { ordinal: ref.ordinal, text };
  });
  const sentences = contextPassages.slice(0, 5).map((p) => `${p.text} [${p.ordinal}]`);
  const notes = qualifiers(references, sentences);
  const answer =
    references.length === 0
      ? `No relevant evidence on this question was found in the sources searched, so no answer can be grounded in the literature.`
      : [...sentences, ...notes].join(" ");
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
    metadata: {
      writer: "extractive",
      contextPassages,
      effectiveSources: literature.effectiveSources ?? [],
      fallbackUsed: literature.fallbackUsed ?? false,
      reasoning: literature.reasoning ?? [],
      literatureQuality: literature.quality ?? null,
    },
  };
}

function qualifiers(references: ChatReference[], sentences: string[]): string[] {
  const notes: string[] = [];
  const supporting = references.filter((r) => r.evidenceRole === "supporting");
  if (supporting.length === 0) notes.push("None of these references addresses the question directly; treat them as background.");
  else if (supporting.every((r) => r.evidenceType === "preclinical")) notes.push("All of the supporting evidence comes from animal or laboratory studies; it has not been shown in humans.");
  if (references.length < 3) notes.push(`The evidence is thin: only ${references.length} relevant reference${references.length === 1 ? " was" : "s were"} found.`);
  const negative = sentences.filter((s) => /\b(no significant|did not|was not|were not|not associated|no effect|no difference|failed to)\b/i.test(s)).length;
  if (negative > 0 && negative < sentences.length) notes.push("The findings are mixed: some studies report an effect and others do not.");
  return notes;
}

function passageOf(literature: LiteratureJobResult, ordinal: number, ref: EngineReference): string | null {
  const passages = (literature.contextPassages ?? []) as { ordinal?: number; text?: string; url?: string }[];
  return passages.find((p) => p.url === ref.url)?.text ?? passages.find((p) => p.ordinal === ordinal)?.text ?? null;
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

function ensurePeriod(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
