import type { EvidenceType, Verification } from "@/lib/shared/contracts";
import type { LiteratureRecord } from "./record";

/**
 * Verification fails closed (../shared/notes/literature-sources.md):
 * - `verified`: the record came from its own registry (PubMed for a PMID, ClinicalTrials.gov for
 *   an NCT id) or its DOI resolved in Crossref with a matching title, and the text the answer rests
 *   on (an abstract or the registry record) was actually retrieved;
 * - `probable`: found only through a secondary index (Europe PMC, OpenAlex), or only the title matched;
 * - `unknown`: nothing resolved it (a local-library record without a registry check), or the check failed.
 */
export type RegistryCheck = { doi?: "match" | "mismatch" | "missing" | "failed" };

export function verifyRecord(record: LiteratureRecord, check: RegistryCheck = {}): { level: Verification; reason: string } {
  const hasText = Boolean(record.abstract) || Boolean(record.trial);
  if (record.sources.includes("pubmed") && record.ids.pmid && hasText) return { level: "verified", reason: "retrieved from PubMed by its PMID" };
  if (record.sources.includes("clinicaltrials") && record.ids.nct) return { level: "verified", reason: "retrieved from ClinicalTrials.gov by its NCT id" };
  if (check.doi === "match" && hasText) return { level: "verified", reason: "DOI resolved in Crossref with a matching title" };
  if (check.doi === "match") return { level: "probable", reason: "DOI resolved in Crossref, but no text was retrieved" };
  const secondary = record.sources.filter((s) => s === "europepmc" || s === "openalex" || s === "crossref");
  if (secondary.length > 0 && (record.ids.pmid || record.ids.doi || record.ids.ppr)) {
    return { level: "probable", reason: `resolved only through ${secondary.join(" and ")}` };
  }
  if (check.doi === "failed") return { level: "unknown", reason: "the registry check failed" };
  return { level: "unknown", reason: record.sources.includes("local") ? "local-library record without a registry check" : "not resolved in a registry" };
}

const TYPE_STRENGTH: Record<EvidenceType, number> = {
  systematic_review: 0.9,
  randomized_controlled_trial: 0.9,
  controlled_trial: 0.8,
  observational: 0.65,
  single_arm_trial: 0.6,
  narrative_review: 0.5,
  preclinical: 0.45,
  unknown: 0.4,
  commentary: 0.3,
};
const VERIFICATION_FACTOR: Record<Verification, number> = { verified: 1, probable: 0.85, unknown: 0.6 };

/**
 * Confidence in a reference as evidence for the question, 0 to 1: the strength of its design,
 * scaled by how well it is verified and how relevant it is, lowered for preprints and animal-only
 * work, zero for a retracted paper. The reason names each factor.
 */
export function scoreConfidence({
  record,
  evidenceType,
  verification,
  relevance,
  animalOnly,
}: {
  record: LiteratureRecord;
  evidenceType: EvidenceType;
  verification: Verification;
  relevance: number;
  animalOnly: boolean;
}): { confidence: number; reason: string } {
  if (record.isRetracted) return { confidence: 0, reason: "retracted" };
  let value = TYPE_STRENGTH[evidenceType] * VERIFICATION_FACTOR[verification] * (0.5 + 0.5 * Math.min(1, relevance));
  const notes = [`${evidenceType.replace(/_/g, " ")} (${TYPE_STRENGTH[evidenceType]})`, `${verification} (×${VERIFICATION_FACTOR[verification]})`, `relevance ${relevance.toFixed(2)}`];
  if (record.isPreprint) {
    value *= 0.8;
    notes.push("preprint (×0.8)");
  }
  if (animalOnly && evidenceType !== "preclinical") {
    value *= 0.8;
    notes.push("animal-only (×0.8)");
  }
  return { confidence: Math.round(value * 100) / 100, reason: notes.join(", ") };
}
