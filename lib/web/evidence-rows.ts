import type { LiteratureReference } from "@/lib/shared/contracts/literature";
import type { GradedReference } from "@/lib/shared/contracts/chat";
import type { EvidenceType, Stance, StudySnapshot, Verification } from "@/lib/shared/contracts/evidence";
import type { ExportableReference } from "@/lib/web/export-references";
import { isEvidenceType } from "@/lib/shared/contracts/designs";

/**
 * One row of the evidence table (components/app/evidence-table.tsx) and of the exports: the
 * reference's identity and links, its grades, their reasons and its study snapshot. Chat and deep
 * research give GradedReferences; a literature search gives LiteratureReferences, accepted or not
 * by the relevance checks; both carry the role the engine gave them.
 */
export type EvidenceRow = ExportableReference & {
  evidenceType: EvidenceType;
  verification: Verification;
  confidence: number;
  stance?: Stance | undefined;
  snapshot?: StudySnapshot | undefined;
  roleReason?: string | undefined;
  evidenceReason?: string | undefined;
  verificationReason?: string | undefined;
  confidenceReason?: string | undefined;
  /** Literature only: whether the relevance checks accepted it. */
  accepted?: boolean | undefined;
  /** Literature only: the relevance score (0–1), the question's terms it matched, its flags and why it was not accepted. */
  relevanceScore?: number | undefined;
  matchedTerms?: string[] | undefined;
  flags?: string[] | undefined;
  rejectionReason?: string | undefined;
};

/** A chat or deep-research reference as a row (its fields already typed by the contract). */
export function rowFromGraded(ref: Pick<GradedReference, "ordinal" | "title" | "url" | "source" | "year" | "doi" | "pmid" | "evidenceType" | "verification" | "confidence" | "evidenceRole" | "roleReason"> &
  Partial<Pick<GradedReference, "snapshot" | "stance" | "evidenceReason" | "verificationReason" | "confidenceReason" | CitationField>>): EvidenceRow {
  return { ...ref };
}

/** What a reference manager needs, carried to the exports (lib/shared/contracts/citation.ts). */
type CitationField = "journal" | "authors" | "volume" | "issue" | "pages" | "titleDerived";

const VERIFICATIONS: readonly Verification[] = ["verified", "probable", "unknown"];
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v : undefined);

/**
 * A literature reference as a row: the typed fields (snapshot, stance, relevance) as they are, and
 * the fields the contract leaves open (design, verification, confidence, journal, authors, ids)
 * checked one by one, anything malformed left out. Its ordinal is its numeric id ([N] in the answer).
 */
export function rowFromLiterature(ref: LiteratureReference, index: number): EvidenceRow {
  const raw: Record<string, unknown> = ref;
  const id = typeof ref.id === "number" ? ref.id : /^\d+$/.test(String(ref.id)) ? Number(ref.id) : NaN;
  const confidence = typeof raw.confidence === "number" && Number.isFinite(raw.confidence) ? Math.min(1, Math.max(0, raw.confidence)) : 0;
  const designText = text(raw.evidenceType);
  const verificationText = text(raw.verification);
  return {
    ordinal: Number.isInteger(id) && id > 0 ? id : index + 1,
    title: ref.title,
    url: ref.url,
    source: ref.source ?? null,
    year: typeof ref.year === "number" ? ref.year : null,
    journal: text(raw.journal) ?? null,
    authors: Array.isArray(raw.authors) ? raw.authors.filter((a): a is string => typeof a === "string") : null,
    volume: text(raw.volume) ?? null,
    issue: text(raw.issue) ?? null,
    pages: text(raw.pages) ?? null,
    titleDerived: raw.titleDerived === true,
    doi: text(raw.doi) ?? null,
    pmid: text(raw.pmid) ?? null,
    nct: text(raw.nct) ?? null,
    publishedDoi: text(raw.publishedDoi) ?? null,
    isPreprint: raw.isPreprint === true,
    evidenceType: isEvidenceType(designText) ? designText : "unknown",
    verification: VERIFICATIONS.find((v) => v === verificationText) ?? "unknown",
    confidence,
    snapshot: ref.snapshot,
    stance: ref.stance,
    evidenceReason: text(raw.evidenceReason),
    verificationReason: text(raw.verificationReason),
    confidenceReason: text(raw.confidenceReason),
    // The engine's role for this question (roles.ts), never re-derived here; absent on results stored before it.
    ...(ref.evidenceRole ? { evidenceRole: ref.evidenceRole } : {}),
    ...(text(ref.roleReason) ? { roleReason: text(ref.roleReason) } : {}),
    accepted: ref.relevance?.accepted ?? true,
    relevanceScore: ref.relevance?.score,
    matchedTerms: ref.relevance?.matchedTerms,
    flags: ref.relevance?.flags,
    rejectionReason: ref.relevance?.reason ?? undefined,
  };
}
