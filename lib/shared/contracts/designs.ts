import type { StudySpecies } from "@/lib/shared/contracts/evidence";

/**
 * Study designs, defined once: the contract's evidence types (section 2.5) and the groupings every
 * part of the service uses (the engine's quality flags, the verdict, the answer's sections, deep
 * research's axes, the page). Zod-free, so the page's first load does not carry the schemas.
 */

export const evidenceTypes = [
  "randomized_controlled_trial",
  "controlled_trial",
  "single_arm_trial",
  "observational",
  "systematic_review",
  "narrative_review",
  "preclinical",
  "commentary",
  "unknown",
] as const;
export type EvidenceTypeName = (typeof evidenceTypes)[number];

/** Strongest first: the order answers list evidence in and name "the strongest" by. */
export const DESIGN_STRENGTH_ORDER: readonly EvidenceTypeName[] = [
  "systematic_review",
  "randomized_controlled_trial",
  "controlled_trial",
  "observational",
  "single_arm_trial",
  "preclinical",
  "narrative_review",
  "unknown",
  "commentary",
];

/** Primary evidence in people: a trial of any kind, an observational study, or a systematic review of them. */
export const PRIMARY_DESIGNS: readonly EvidenceTypeName[] = ["randomized_controlled_trial", "controlled_trial", "single_arm_trial", "observational", "systematic_review"];

/** Trials in people, controlled or not. */
export const HUMAN_TRIAL_DESIGNS: readonly EvidenceTypeName[] = ["randomized_controlled_trial", "controlled_trial", "single_arm_trial"];

/** Designs with a comparison that can show cause: a systematic review, a randomized or a controlled trial. */
export const CONTROLLED_DESIGNS: readonly EvidenceTypeName[] = ["systematic_review", "randomized_controlled_trial", "controlled_trial"];

export function isEvidenceType(value: unknown): value is EvidenceTypeName {
  return evidenceTypes.some((type) => type === value);
}

/** Where a study's design puts it among an answer's evidence: the answer's groups and deep research's design axes alike. */
export type DesignGroup = "systematic_review" | "human_trial" | "observational" | "animal_or_cell" | "other";

/**
 * The one rule placing a study by the engine's evidence type and the species it was done in: a
 * systematic review; else a study in animals or cells (a randomized study in mice is an animal
 * study); else a trial in people, an observational study, or another or unstated design.
 */
export function designGroupOf({ evidenceType, species }: { evidenceType: EvidenceTypeName; species?: string | null }): DesignGroup {
  if (evidenceType === "systematic_review") return "systematic_review";
  if (evidenceType === "preclinical" || (species != null && species !== "human")) return "animal_or_cell";
  if (HUMAN_TRIAL_DESIGNS.includes(evidenceType)) return "human_trial";
  if (evidenceType === "observational") return "observational";
  return "other";
}

/** Who a study was done in, in words, as the answer, the roles' reasons and the page say it. */
export const SPECIES_PLURAL: Record<StudySpecies, string> = {
  human: "humans",
  mouse: "mice",
  rat: "rats",
  nonhuman_primate: "non-human primates",
  dog: "dogs",
  other_mammal: "other mammals",
  fish: "fish",
  fly: "flies",
  worm: "worms",
  yeast: "yeast",
  cells: "cells",
};
