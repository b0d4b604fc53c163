import type { EvidenceRole, EvidenceType, Stance, StudySnapshot, Verdict, VerdictBasis, VerdictConfidence, VerdictReasonCode } from "@/lib/shared/contracts";
import type { QuestionReading } from "./reading";
import { inQuestionSpecies } from "./roles";

// The stance of one reference lives in stance/; re-exported for the verdict's callers.
export { stanceOfReference } from "./stance";

/**
 * The direction of the evidence on a question's claim. Each on-topic reference gets a stance from
 * its stated findings (the outcome direction of its finding sentences, read against what the
 * question asks); the verdict weighs the stances by design, relevance and directness
 * (docs/chat.md, "The verdict").
 */


/** Weight of a design in the verdict: a systematic review or a randomized trial counts most. */
const DESIGN_WEIGHT: Record<EvidenceType, number> = {
  systematic_review: 1,
  randomized_controlled_trial: 1,
  controlled_trial: 0.8,
  observational: 0.6,
  single_arm_trial: 0.5,
  preclinical: 0.5,
  unknown: 0.45,
  narrative_review: 0.3,
  commentary: 0,
};

/** Evidence from another species than the question's counts this much, and never decides alone. */
const INDIRECT_FACTOR = 0.5;
/** Below this much direct, design-weighted evidence, the verdict is `insufficient` (weak evidence). */
const MIN_DIRECT_WEIGHT = 0.12;

/** Whether a study's subjects are the ones the question asks about. */
export function isDirect(snapshot: Pick<StudySnapshot, "species" | "design">, claim: Pick<QuestionReading, "species">): boolean {
  return inQuestionSpecies(claim, { species: snapshot.species, evidenceType: snapshot.design });
}

export type GradedForVerdict = {
  evidenceRole: EvidenceRole;
  evidenceType: EvidenceType;
  relevance: number;
  stance: Stance;
  certainty: number;
  direct: boolean;
};

/**
 * The verdict over the references that test the question (role `supporting`): `insufficient` when
 * the search asks nothing (a topic, not a claim: `asks` false), when there are none, when none states a finding on the claim, when only indirect evidence does, or
 * when the direct evidence is too weak; otherwise `supports` when the weight for is at least twice
 * the weight against, `contradicts` when the weight against is at least twice the weight for,
 * `mixed` between. Every verdict carries its confidence (confidenceOf).
 */
export function deriveVerdict(references: GradedForVerdict[], { asks = true }: { asks?: boolean } = {}): { verdict: Verdict; basis: VerdictBasis } {
  const onTopic = references.filter((r) => r.evidenceRole === "supporting");
  const count = (stance: Stance) => onTopic.filter((r) => r.stance === stance).length;
  const stated = onTopic.filter((r) => r.stance !== "unclear");
  const weightFor = round(stated.reduce((n, r) => n + weightOf(r) * share(r, "supports"), 0));
  const weightAgainst = round(stated.reduce((n, r) => n + weightOf(r) * share(r, "contradicts"), 0));
  const direct = stated.filter((r) => r.direct);
  const directWeight = direct.reduce((n, r) => n + weightOf(r), 0);
  const basis = (verdict: Verdict, reasonCode: VerdictReasonCode) => {
    const reason = VERDICT_REASONS[reasonCode];
    const { confidence, confidenceReason } = confidenceOf({ verdict, direct, indirect: stated.length - direct.length });
    return {
      verdict,
      basis: {
        supporting: count("supports"),
        contradicting: count("contradicts"),
        mixed: count("mixed"),
        unclear: count("unclear"),
        indirect: onTopic.filter((r) => !r.direct).length,
        weightFor,
        weightAgainst,
        reason,
        reasonCode,
        confidence,
        confidenceReason,
      },
    };
  };
  // A topic alone claims nothing: whatever was found on it is no verdict (reading.ts, `asks`).
  if (!asks) return basis("insufficient", "no_claim_to_test");
  if (references.length === 0) return basis("insufficient", "nothing_on_topic");
  if (onTopic.length === 0) return basis("insufficient", "no_study_tests_it");
  if (stated.length === 0) return basis("insufficient", "no_clear_finding");
  if (direct.length === 0) return basis("insufficient", "only_other_species");
  if (directWeight < MIN_DIRECT_WEIGHT) return basis("insufficient", "only_weak_evidence");
  if (weightFor >= 2 * weightAgainst) return basis("supports", "weighted_for");
  if (weightAgainst >= 2 * weightFor) return basis("contradicts", "weighted_against");
  return basis("mixed", "weighted_both_ways");
}

/**
 * Each reason in words, as the basis carries it. The bottom line says an insufficient verdict's
 * reason in words that name the question's parts (bottom-line.ts), by its code.
 */
const VERDICT_REASONS: Record<VerdictReasonCode, string> = {
  weighted_for: "the design-weighted findings for it outweigh those against at least two to one",
  weighted_against: "the design-weighted findings against it outweigh those for at least two to one",
  weighted_both_ways: "the design-weighted findings for and against it are within two to one of each other",
  // A topic alone claims nothing (tags alone, "rapamycin and lifespan").
  no_claim_to_test: "the search names a topic, not a claim to test",
  nothing_on_topic: "nothing on-topic was found in the sources searched",
  // The writer names what was closest.
  no_study_tests_it: "no study found tests the question",
  no_clear_finding: "none of the studies that test it states a clear finding on it",
  only_other_species: "the only studies that state a finding on it are in other species than the question's (animals or cells)",
  only_weak_evidence: "the only direct evidence found is weak",
};

const weightOf = (r: GradedForVerdict) => DESIGN_WEIGHT[r.evidenceType] * Math.max(0.4, Math.min(1, r.relevance)) * (r.certainty || 1) * (r.direct ? 1 : INDIRECT_FACTOR);
const share = (r: Pick<GradedForVerdict, "stance">, side: "supports" | "contradicts") => (r.stance === side ? 1 : r.stance === "mixed" ? 0.5 : 0);

/** Designs that can carry a verdict with high confidence: a systematic review, a randomized trial. */
const STRONG_DESIGNS: EvidenceType[] = ["systematic_review", "randomized_controlled_trial"];
/** Designs that can carry one with moderate confidence when another study agrees. */
const FAIR_DESIGNS: EvidenceType[] = ["controlled_trial", "observational"];
/** Below this mean certainty (1 plain, 0.6 hedged with "may"), findings are too hedged for more than low confidence. */
const CLEAR = 0.85;

/**
 * How much a verdict can be trusted, from the direct studies that state a finding on it: how many,
 * their designs, whether they agree with the verdict, how plainly they state it. `high` needs two
 * strong designs (or one and two more studies) that agree and state it plainly; `moderate` one
 * strong design, or two fair ones, that agree; anything less is `low`, and so is every insufficient
 * verdict. A mixed verdict is at most moderate.
 */
function confidenceOf({ verdict, direct, indirect }: { verdict: Verdict; direct: Pick<GradedForVerdict, "evidenceType" | "stance" | "certainty" | "relevance" | "direct">[]; indirect: number }): {
  confidence: VerdictConfidence;
  confidenceReason: string;
} {
  if (verdict === "insufficient") return { confidence: "low", confidenceReason: "no study that tests the question states a clear finding in the question's species" };
  const n = direct.length;
  const strong = direct.filter((r) => STRONG_DESIGNS.includes(r.evidenceType)).length;
  const fair = direct.filter((r) => FAIR_DESIGNS.includes(r.evidenceType)).length;
  const clarity = direct.reduce((sum, r) => sum + (r.certainty || 1), 0) / Math.max(1, n);
  const side = verdict === "contradicts" ? "contradicts" : "supports";
  const agreement = verdict === "mixed" ? 0.5 : direct.reduce((sum, r) => sum + share(r, side), 0) / Math.max(1, n);
  const agree = agreement >= 0.75;
  const plain = clarity >= CLEAR;
  let confidence: VerdictConfidence = "low";
  if (verdict === "mixed") confidence = n >= 3 && strong >= 1 ? "moderate" : "low";
  else if (agreement >= 0.8 && plain && (strong >= 2 || (strong >= 1 && n >= 3))) confidence = "high";
  else if (agree && clarity >= 0.7 && (strong >= 1 || strong + fair >= 2)) confidence = "moderate";
  const designs = describeDesigns(direct.map((r) => r.evidenceType));
  const why = [
    designs,
    n > 1 ? (verdict === "mixed" ? "that disagree" : agree ? "that agree" : "that partly disagree") : null,
    plain ? null : "stating their findings with hedges",
    indirect > 0 ? `(and ${indirect} in another species, counted half)` : null,
  ].filter(Boolean);
  return { confidence, confidenceReason: why.join(" ") };
}

const DESIGN_WORDS: Record<EvidenceType, [string, string]> = {
  systematic_review: ["systematic review", "systematic reviews"],
  randomized_controlled_trial: ["randomized trial", "randomized trials"],
  controlled_trial: ["controlled trial", "controlled trials"],
  observational: ["observational study", "observational studies"],
  single_arm_trial: ["uncontrolled trial", "uncontrolled trials"],
  preclinical: ["animal or cell study", "animal or cell studies"],
  narrative_review: ["narrative review", "narrative reviews"],
  unknown: ["study of unstated design", "studies of unstated design"],
  commentary: ["commentary", "commentaries"],
};

/** "one randomized trial", "two observational studies and one randomized trial". */
function describeDesigns(types: EvidenceType[]): string {
  const counts = new Map<EvidenceType, number>();
  for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
  const parts = [...counts].map(([t, k]) => `${numberWord(k)} ${DESIGN_WORDS[t][k === 1 ? 0 : 1]}`);
  return parts.length <= 1 ? (parts[0] ?? "no study") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

function numberWord(n: number): string {
  return ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][n] ?? String(n);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
