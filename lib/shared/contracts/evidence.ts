import { z } from "zod";
import { evidenceTypes } from "@/lib/shared/contracts/designs";
import { responseRegistry } from "@/lib/shared/contracts/registry";

/**
 * How the evidence behind an answer is graded: the contract's evidence roles, designs and
 * verification levels (section 2.5), and what this service adds beside them: a study snapshot per
 * reference, the stance of each reference toward the question, and the answer's verdict.
 */

export const evidenceRoles = ["supporting", "context", "lead_only"] as const;
export { evidenceTypes };
export const verificationLevels = ["verified", "probable", "unknown"] as const;

export const evidenceRoleSchema = z.enum(evidenceRoles);
export const evidenceTypeSchema = z.enum(evidenceTypes);
export const verificationSchema = z.enum(verificationLevels);
export type EvidenceRole = z.infer<typeof evidenceRoleSchema>;
export type EvidenceType = z.infer<typeof evidenceTypeSchema>;
export type Verification = z.infer<typeof verificationSchema>;

/** Who or what a study was done in, as far as its abstract, MeSH and registry record tell. */
const studySpecies = ["human", "mouse", "rat", "nonhuman_primate", "dog", "other_mammal", "fish", "fly", "worm", "yeast", "cells"] as const;
export const studySpeciesSchema = z.enum(studySpecies);
export type StudySpecies = z.infer<typeof studySpeciesSchema>;

/**
 * The direction of a study's own main finding, whatever the question: `positive` an effect or an
 * association was found (for an intervention, a benefit); `negative` the intervention harmed or
 * worsened the outcome; `null` no significant effect or association; `mixed` some of each;
 * `unclear` no finding is stated, or only a hedged one.
 */
export const outcomeDirections = ["positive", "negative", "null", "mixed", "unclear"] as const;
export const outcomeDirectionSchema = z.enum(outcomeDirections);
export type OutcomeDirection = z.infer<typeof outcomeDirectionSchema>;

/** A study at a glance, extracted deterministically from its abstract, MeSH, publication types and registry record. */
export const studySnapshotSchema = z
  .object({
    design: evidenceTypeSchema.describe("the reference's evidenceType"),
    species: studySpeciesSchema.nullable().describe("human, an animal, or cells; null when nothing says"),
    population: z.string().nullable().describe('who was studied, as the abstract names them: "older adults", "patients with idiopathic pulmonary fibrosis", "mice"'),
    sampleSize: z.int().min(1).nullable().describe("participants or animals (a registry's enrollment); null when not stated"),
    intervention: z.string().nullable().describe("the intervention or exposure studied, as the record names it"),
    direction: outcomeDirectionSchema,
    finding: z.string().nullable().describe("the sentence of the abstract that states its main finding"),
  })
  .describe("A study at a glance, extracted deterministically from its abstract, MeSH, publication types and registry record")
  .register(responseRegistry, { id: "StudySnapshot" });
export type StudySnapshot = z.infer<typeof studySnapshotSchema>;

/**
 * What a reference's stated findings say about the question's claim: `supports`, `contradicts`
 * (no effect, or the opposite), `mixed`, or `unclear` (no finding on it).
 */
export const stances = ["supports", "contradicts", "mixed", "unclear"] as const;
export const stanceSchema = z.enum(stances);
export type Stance = z.infer<typeof stanceSchema>;

/**
 * The bottom line of an answer, derived from its on-topic references' stances weighted by design
 * (docs/chat.md, "The verdict"): `supports`, `contradicts`, `mixed`, or `insufficient` when nothing
 * on-topic was found, no study states a finding on it, or the evidence is only weak or indirect.
 */
export const verdicts = ["supports", "contradicts", "mixed", "insufficient"] as const;
export const verdictSchema = z
  .enum(verdicts)
  .describe(
    "The direction of the evidence on the question's claim: supports, contradicts, mixed, or insufficient (nothing on-topic, no stated finding, or only weak or indirect evidence)",
  )
  .register(responseRegistry, { id: "Verdict" });
export type Verdict = z.infer<typeof verdictSchema>;

/**
 * How much the verdict can be trusted, from the studies that test the question: how many state a
 * finding, their designs, whether they were done in the question's species, whether they agree and
 * how plainly each states its finding (docs/chat.md, "The verdict"). A `low` verdict leans; it is
 * never shown like a `high` one.
 */
const verdictConfidences = ["high", "moderate", "low"] as const;
const verdictConfidenceSchema = z
  .enum(verdictConfidences)
  .describe("How much the verdict can be trusted: high, moderate or low (few, weak, indirect, hedged or disagreeing studies)")
  .register(responseRegistry, { id: "VerdictConfidence" });
export type VerdictConfidence = z.infer<typeof verdictConfidenceSchema>;

/**
 * Why the verdict is what it is, as a code (`reason` says it in words): the weights' balance for a
 * committed or mixed verdict, or what was missing for an insufficient one.
 */
const verdictReasonCodes = [
  "weighted_for",
  "weighted_against",
  "weighted_both_ways",
  "no_claim_to_test",
  "nothing_on_topic",
  "no_study_tests_it",
  "no_clear_finding",
  "only_other_species",
  "only_weak_evidence",
] as const;
export type VerdictReasonCode = (typeof verdictReasonCodes)[number];

/** How the verdict was reached: how many on-topic references took each stance, and the weights. */
export const verdictBasisSchema = z
  .object({
    supporting: z.int().min(0).describe("on-topic references whose findings support the claim"),
    contradicting: z.int().min(0).describe("on-topic references whose findings contradict it"),
    mixed: z.int().min(0),
    unclear: z.int().min(0).describe("on-topic references that state no finding on it"),
    indirect: z.int().min(0).describe("of those, references in another species than the question's (animals or cells for a human question)"),
    weightFor: z.number().min(0).describe("design-weighted sum of the supporting stances"),
    weightAgainst: z.number().min(0).describe("design-weighted sum of the contradicting stances"),
    reason: z.string().describe("the verdict in words"),
    reasonCode: z.enum(verdictReasonCodes).optional().describe("the same reason as a code; absent only on results stored before it existed"),
    confidence: verdictConfidenceSchema.optional().describe("set on every verdict; absent only on results stored before it existed"),
    confidenceReason: z.string().optional().describe('why the confidence is what it is: "one observational study", "two randomized trials that agree"'),
  })
  .register(responseRegistry, { id: "VerdictBasis" });
export type VerdictBasis = z.infer<typeof verdictBasisSchema>;

/**
 * What grading adds to a reference, whatever shape carries it (the engine's LiteratureReference,
 * chat's GradedReference): its design, verification and confidence with their reasons, its study
 * snapshot and its stance toward the question.
 */
export type ReferenceGrading = {
  evidenceType: EvidenceType;
  evidenceReason?: string;
  verification: Verification;
  verificationReason?: string;
  confidence: number;
  confidenceReason?: string;
  snapshot?: StudySnapshot;
  stance?: Stance;
};
