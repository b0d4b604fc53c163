import type { EvidenceRole, EvidenceType, StudySnapshot } from "@/lib/shared/contracts";

/**
 * A reference as the answer writer uses it: graded, with its role for this answer. Its own module so
 * the writer's helpers (claims, bottom line) can name it without importing the writer back.
 */
export type AnswerReference = {
  ordinal: number;
  title: string;
  /** The text to quote and to read findings from: the abstract, or a passage of it. */
  abstract: string | null;
  evidenceType: EvidenceType;
  evidenceRole: EvidenceRole;
  relevance: number;
  snapshot: StudySnapshot | null;
  /** The question's concepts it does not name (its `relevance.missingConcepts`): closest evidence, not an answer on them. */
  missingConcepts?: string[];
};
