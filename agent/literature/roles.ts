import type { EvidenceRole, EvidenceType } from "@/lib/contracts";
import { phrasesOf, requiredParts, type QuestionReading, type RequiredPart } from "./reading";
import type { RejectionReason, RequiredQuestionPart } from "./relevance";
import { listed } from "./words";

/**
 * The one place that decides a reference's evidence role, for chat, literature search and deep
 * research alike (and the page shows it, never re-derives it).
 *
 * A reference is `supporting` only when it tests the question: it addresses the question's
 * intervention or exposure AND its outcome (or, for a question that relates nothing, every concept
 * of its subject), by name, synonym, lay term, class member or MeSH heading (relevance.ts decides
 * what a record names). Addressing one part only makes it `context`, its reason saying which part
 * it lacks: a rapamycin study is never evidence on metformin, and a metformin trial that says
 * nothing of aging is not evidence on whether metformin slows aging. Nothing is promoted for
 * being the closest match found.
 */

export type RoleInput = {
  /** Relevance's judgement of the record against the question. */
  accepted: boolean;
  reason: RejectionReason | null;
  /** The question's required concepts the record does not name (relevance.missingConcepts). */
  missingConcepts: readonly string[];
  /** The required parts it addresses (relevance.partsAddressed); absent on references stored before it existed. */
  partsAddressed?: readonly RequiredQuestionPart[] | undefined;
  evidenceType: EvidenceType;
  isRetracted: boolean;
};

export type RoleDecision = {
  role: EvidenceRole;
  /** Why, in plain words: "studies metformin and aging", "does not study aging". */
  reason: string;
  /** It addresses every required part of the question. */
  testsQuestion: boolean;
  /** The required parts it does not address. */
  missingParts: RequiredPart[];
};

export function decideRole({ reading, reference }: { reading: QuestionReading; reference: RoleInput }): RoleDecision {
  const missingParts = partsMissing(reading, reference);
  const decision = (role: EvidenceRole, reason: string): RoleDecision => ({ role, reason, testsQuestion: role === "supporting", missingParts });
  if (reference.isRetracted) return decision("lead_only", "retracted: never evidence");
  if (!reference.accepted) {
    if (reference.reason !== null && reference.reason !== "off_topic") return decision("context", `outside the request (${REJECTION_WORDS[reference.reason]})`);
    return decision("lead_only", `off topic: ${doesNotStudy(reading, reference.missingConcepts, missingParts)}`);
  }
  if (reference.evidenceType === "commentary") return decision("context", "a comment or editorial, not evidence");
  if (missingParts.length > 0) return decision("context", `${doesNotStudy(reading, reference.missingConcepts, missingParts)}; shown for context, not counted in the verdict`);
  return decision("supporting", `studies ${studied(reading)}`);
}

const RELEVANCE_PART: Record<RequiredPart, RequiredQuestionPart> = { topic: "topic", exposure: "exposure", outcome: "outcome", subject: "main" };

/** The required parts a record does not address (relevance's partsAddressed, else the concepts it misses). */
export function partsMissing(reading: QuestionReading, reference: Pick<RoleInput, "missingConcepts" | "partsAddressed">): RequiredPart[] {
  const missing = new Set(reference.missingConcepts);
  const addressed = reference.partsAddressed;
  return requiredParts(reading).filter((part) => (addressed ? !addressed.includes(RELEVANCE_PART[part]) : reading.concepts.some((c) => c.part === part && missing.has(c.label))));
}

/** "metformin and aging": what a study that tests the question studies. */
function studied(reading: QuestionReading): string {
  const parts = requiredParts(reading);
  const labels = parts.flatMap((part) => reading.concepts.filter((c) => c.part === part).flatMap((c) => phrasesOf(c.label)));
  return listed(labels.length > 0 ? labels : [reading.question.replace(/[?.!]+$/, "")]);
}

/** "does not study aging": the concepts of the parts a record does not address, in the question's words. */
function doesNotStudy(reading: QuestionReading, missingConcepts: readonly string[], missingParts: RequiredPart[]): string {
  const missing = new Set(missingConcepts);
  const inParts = reading.concepts.filter((c) => missingParts.includes(c.part));
  const named = inParts.filter((c) => missing.has(c.label)).map((c) => c.label);
  if (named.length > 0) return `does not study ${listed(named.flatMap(phrasesOf), "or")}`;
  if (inParts.length > 0) return `does not study ${listed(inParts.flatMap((c) => phrasesOf(c.label)), "or")}`;
  if (missingConcepts.length > 0) return `does not study ${listed([...missingConcepts], "or")}`;
  return "matches too few of the question's words to rely on";
}

const REJECTION_WORDS: Record<RejectionReason, string> = {
  off_topic: "off topic",
  retracted: "retracted",
  out_of_date_range: "outside the dates asked for",
  preprint_excluded: "a preprint, and preprints were excluded",
  not_a_trial: "not a trial, and only trials were asked for",
};
