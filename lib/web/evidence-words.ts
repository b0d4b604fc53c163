import type { EvidenceRole, EvidenceType, OutcomeDirection, Stance, StudySnapshot, StudySpecies, Verdict, VerdictBasis, VerdictConfidence, Verification } from "@/lib/shared/contracts/evidence";
import { SPECIES_PLURAL } from "@/lib/shared/contracts/designs";

/**
 * Every grade the evidence engine gives, in words a researcher reads, with what it means (the
 * page's legend and tooltips). The meanings follow docs/literature.md ("Evidence type",
 * "Verification, failing closed", "Confidence") and docs/chat.md ("The verdict"). Type imports
 * only: the page's first load does not carry the schemas.
 */

/** "1 reference", "2 references". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

type Worded = { label: string; meaning: string };

export const DESIGN_WORDS: Record<EvidenceType, Worded> = {
  systematic_review: { label: "Systematic review", meaning: "Pools the studies on a question by a stated method. Weighs most in the verdict (1)." },
  randomized_controlled_trial: { label: "Randomized trial", meaning: "People assigned at random to the intervention or a control. Weighs most in the verdict (1)." },
  controlled_trial: { label: "Controlled trial", meaning: "A trial with a control group (a placebo, a sham, another arm), not stated to be randomized. Weight 0.8 in the verdict." },
  observational: { label: "Observational", meaning: "Cohort, case-control, cross-sectional or case study: associations, not proof of cause. Weight 0.6." },
  single_arm_trial: { label: "Trial, no control named", meaning: "A trial whose record names no control group: everyone received the intervention (single-arm, open-label), or it does not say what it was compared with. Weight 0.5." },
  preclinical: { label: "Animal or cell study", meaning: "Done in animals or cells, not people. Weight 0.5, and half again for a question about people." },
  narrative_review: { label: "Narrative review", meaning: "A review without a systematic search: an expert's reading. Weight 0.3." },
  commentary: { label: "Commentary", meaning: "A comment, editorial or letter: no evidence of its own. Weight 0." },
  unknown: { label: "Design not stated", meaning: "Neither the record's publication types, MeSH terms, registry entry nor its own title and abstract say what kind of study it is. Weight 0.45." },
};

export const ROLE_WORDS: Record<EvidenceRole, Worded> = {
  supporting: {
    label: "Tests the question",
    meaning: "Studies both the question's intervention or exposure and its outcome, so it counts in the verdict (role: supporting). Its findings may still go against the claim: see its stance.",
  },
  context: {
    label: "Background",
    meaning: "Studies only part of the question (the line under its title says which part it lacks), or is a commentary: shown for context, never counted in the verdict (role: context).",
  },
  lead_only: { label: "A lead, not evidence", meaning: "Retracted, or does not study what the question asks (the line under its title says what it lacks): a lead to follow up, never cited as evidence (role: lead only)." },
};

export const VERIFICATION_WORDS: Record<Verification, Worded> = {
  verified: { label: "Verified", meaning: "Retrieved from its own registry (PubMed by PMID, ClinicalTrials.gov by NCT id), or its DOI resolved in Crossref with a matching title." },
  probable: { label: "Probably genuine", meaning: "Found only through a secondary index (Europe PMC, OpenAlex, Crossref search), or its DOI resolved but its text could not be retrieved." },
  unknown: { label: "Not verified", meaning: "No registry confirmed this record (nothing resolved it, a title did not match, or the check failed). It may well be genuine; read it at the source before relying on it." },
};

export const DIRECTION_WORDS: Record<OutcomeDirection, Worded> = {
  positive: { label: "Effect found", meaning: "The study reports an effect or association (for an intervention, a benefit)." },
  negative: { label: "Harm found", meaning: "The study reports the intervention harmed or worsened the outcome." },
  null: { label: "No effect", meaning: "The study reports no significant effect or association." },
  mixed: { label: "Mixed", meaning: "The study reports some effects and some null results." },
  unclear: { label: "Not stated", meaning: "The abstract states no finding, or only a hedged one." },
};

export const STANCE_WORDS: Record<Stance, Worded> = {
  supports: { label: "Supports the claim", meaning: "Its stated findings support the question's claim." },
  contradicts: { label: "Contradicts the claim", meaning: "Its stated findings contradict the claim: no effect, or the opposite." },
  mixed: { label: "Mixed on the claim", meaning: "Its findings weigh nearly as much for the claim as against it." },
  unclear: { label: "No finding on the claim", meaning: "It states no finding on the question's claim." },
};

/** A literature reference's relevance flags (relevance.flags), as the table's chips and tooltips. */
const RELEVANCE_FLAG_WORDS: Record<string, Worded> = {
  retracted: { label: "Retracted", meaning: "The record is marked retracted: never evidence." },
  preprint: { label: "Preprint", meaning: "Not yet peer reviewed." },
  no_abstract: { label: "No abstract", meaning: "Judged on its title alone: no abstract to read." },
  animal_only: { label: "Animal only", meaning: "Studied in animals only." },
  trial: { label: "Trial", meaning: "A clinical trial (a registry entry or a trial publication)." },
  derived_title: { label: "Title derived", meaning: "The source gave no title; one was made from its text." },
  off_topic: { label: "Off topic", meaning: "Matches the question too little (relevance below 0.4)." },
};

/** Why the relevance checks did not accept a literature reference (relevance.reason). */
const REJECTION_WORDS: Record<string, string> = {
  retracted: "retracted",
  out_of_date_range: "outside the dates asked for",
  preprint_excluded: "a preprint, and preprints were excluded",
  not_a_trial: "not a trial, and only trials were asked for",
  off_topic: "it does not study enough of what the question asks (relevance below 0.4)",
};

/** A flag or reason the service may add later, in words all the same. */
export const relevanceFlagWords = (flag: string): Worded => RELEVANCE_FLAG_WORDS[flag] ?? { label: flag.replace(/_/g, " "), meaning: "A flag the relevance checks set." };
export const rejectionWords = (reason: string): string => REJECTION_WORDS[reason] ?? reason.replace(/_/g, " ");

export const VERDICT_WORDS: Record<Verdict, Worded> = {
  supports: { label: "The evidence supports it", meaning: "Among the studies that test the question, the design-weighted findings for the claim are at least twice those against it." },
  contradicts: { label: "The evidence contradicts it", meaning: "Among the studies that test the question, the design-weighted findings against the claim are at least twice those for it." },
  mixed: { label: "The evidence is mixed", meaning: "Findings go both ways, neither side twice the other." },
  insufficient: {
    label: "The evidence is insufficient",
    meaning: "No study found tests the question (its intervention and its outcome), none that does states a finding on the claim, the only ones that do are in another species, or the evidence is too weak to weigh.",
  },
};

/** How far a verdict can be trusted (verdictBasis.confidence), as the bottom line shows it. */
export const VERDICT_CONFIDENCE_WORDS: Record<VerdictConfidence, Worded> = {
  high: { label: "High confidence", meaning: "Several strong studies (systematic reviews or randomized trials) in the question's species agree, and state their findings plainly." },
  moderate: { label: "Moderate confidence", meaning: "A randomized trial or systematic review, or two controlled or observational studies, agree; more or stronger studies could change it." },
  low: {
    label: "Low confidence",
    meaning: "It rests on one study of a weaker design, on hedged findings, or on studies that disagree: the evidence only leans this way, and one new study could overturn it.",
  },
};

/** The verdict's label, by its confidence: a low-confidence verdict leans, and never reads like a firm one. */
export function verdictLabel(verdict: Verdict, confidence: VerdictConfidence | undefined): string {
  if (confidence !== "low") return VERDICT_WORDS[verdict].label;
  if (verdict === "supports") return "The evidence leans toward it";
  if (verdict === "contradicts") return "The evidence leans against it";
  return VERDICT_WORDS[verdict].label;
}

const CONFIDENCE_MEANING =
  "How far to trust this reference as evidence for the question, 0 to 100%: the strength of its design × how well it is verified (verified ×1, probably genuine ×0.85, not verified ×0.6) × its relevance, lowered for preprints and animal-only work, 0 if retracted.";


/** Who a study was done in, in words ("mice"); null when nothing says. */
export function speciesWords(species: StudySpecies | null | undefined): string | null {
  return species ? (SPECIES_PLURAL[species] ?? species.replace(/_/g, " ")) : null;
}

/** Where the evidence comes from: human, animal, cell studies, or none stated. */
type EvidenceOrigin = "human" | "animal" | "cell" | "unstated";

function originOf(snapshot: Pick<StudySnapshot, "species" | "design"> | undefined): EvidenceOrigin {
  const species = snapshot?.species;
  if (species === "human") return "human";
  if (species === "cells") return "cell";
  if (species) return "animal";
  return "unstated";
}

/**
 * "2 human studies, 1 animal study (mice)" over the on-topic references: where the evidence behind
 * a verdict comes from. Null when there is no on-topic reference.
 */
export function describeOrigins(references: { evidenceRole: EvidenceRole; snapshot?: StudySnapshot | undefined }[]): string | null {
  const onTopic = references.filter((r) => r.evidenceRole === "supporting");
  if (onTopic.length === 0) return null;
  const counts: Record<EvidenceOrigin, number> = { human: 0, animal: 0, cell: 0, unstated: 0 };
  const animals = new Set<string>();
  for (const r of onTopic) {
    const origin = originOf(r.snapshot);
    counts[origin] += 1;
    if (origin === "animal") animals.add(speciesWords(r.snapshot?.species) ?? "animals");
  }
  const parts = [
    counts.human > 0 ? plural(counts.human, "human study", "human studies") : null,
    counts.animal > 0 ? `${plural(counts.animal, "animal study", "animal studies")} (${[...animals].join(", ")})` : null,
    counts.cell > 0 ? plural(counts.cell, "cell study", "cell studies") : null,
    counts.unstated > 0 ? `${plural(counts.unstated, "study", "studies")} not saying in whom` : null,
  ].filter((p): p is string => p !== null);
  return parts.join(", ");
}

/** How the verdict was reached, in numbers a reader can check: "2 support, 1 contradicts, 1 states nothing on it". */
export function describeBasis(basis: Pick<VerdictBasis, "supporting" | "contradicting" | "mixed" | "unclear" | "indirect">): string {
  const parts = [
    basis.supporting > 0 ? `${basis.supporting} support${basis.supporting === 1 ? "s" : ""} it` : null,
    basis.contradicting > 0 ? `${basis.contradicting} contradict${basis.contradicting === 1 ? "s" : ""} it` : null,
    basis.mixed > 0 ? `${basis.mixed} ${basis.mixed === 1 ? "is" : "are"} mixed` : null,
    basis.unclear > 0 ? `${basis.unclear} state${basis.unclear === 1 ? "s" : ""} no finding on it` : null,
  ].filter((p): p is string => p !== null);
  const total = basis.supporting + basis.contradicting + basis.mixed + basis.unclear;
  if (total === 0) return "No on-topic reference was found.";
  const indirect = basis.indirect > 0 ? ` (${basis.indirect} of them in another species than the question's, counted half)` : "";
  return `Of ${plural(total, "on-topic reference")}, ${parts.join(", ")}${indirect}.`;
}

/** A sample size in words: "1,200", or null. */
export function sampleSizeWords(sampleSize: number | null | undefined): string | null {
  return sampleSize ? sampleSize.toLocaleString("en-US") : null;
}

/** The confidence as the table shows it ("27%") with its computation, when the engine gave one, for the tooltip. */
export function confidenceWords(confidence: number, reason?: string | null): { label: string; meaning: string } {
  return {
    label: `${Math.round(confidence * 100)}%`,
    meaning: reason ? `${CONFIDENCE_MEANING} Here: ${readableConfidenceReason(reason)}.` : CONFIDENCE_MEANING,
  };
}

/**
 * The engine's confidence reason ("unknown (0.4), unknown (×0.6), relevance 0.71") with its grades
 * in the page's words: the design strength first, then the verification factor.
 */
export function readableConfidenceReason(reason: string): string {
  return reason
    .replace(/^unknown \(/, "design not stated (")
    .replace(/\bunknown \(×/, "not verified (×")
    .replace(/\bprobable \(×/, "probably genuine (×")
    .replace(/\bverified \(×/, "verified (×");
}

/**
 * The low-confidence warning of a literature result, saying which of its two causes holds:
 * nothing was accepted, or the accepted references' median confidence is below 50% (with it).
 * Null when the result is not low-confidence.
 */
export function lowConfidenceWarning({ lowConfidence, acceptedConfidences }: { lowConfidence: boolean; acceptedConfidences: number[] }): string | null {
  if (!lowConfidence) return null;
  if (acceptedConfidences.length === 0) return "Low confidence: no reference was accepted, so nothing here is evidence for an answer.";
  const sorted = [...acceptedConfidences].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return `Low confidence: the ${plural(sorted.length, "accepted reference")} ${sorted.length === 1 ? "has a" : "have a median"} confidence of ${Math.round(median * 100)}%, below 50% (weak designs, or not verified at their source).`;
}
