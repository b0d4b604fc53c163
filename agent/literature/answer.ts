import type { EvidenceRole, EvidenceType, Stance, StudySnapshot, Verdict, VerdictBasis } from "@/lib/shared/contracts";
import type { AnswerReference } from "./answer-reference";
import { bottomLineOf, limitsOf } from "./bottom-line";
import { withSubject } from "./claims";
import { bestPassage, quotable } from "./passages";
import { splitSentences } from "./sentences";
import type { QuestionReading } from "./reading";
import { tokenize } from "./terms";
import { deriveVerdict, isDirect, stanceOfReference, type GradedForVerdict } from "./verdict";
import { designGroupOf, type DesignGroup } from "@/lib/shared/contracts/designs";
import { BOTTOM_LINE_LEAD } from "@/lib/shared/contracts/bottom-line";

export { splitSentences, withSubject };

/**
 * The extractive answer: a bottom line (the verdict), then the evidence grouped by strength, each
 * claim a sentence of a study's abstract with its subject (intervention, population) named and its
 * [N], then the limits of the evidence. Deterministic: the same references give the same answer,
 * and no sentence is written twice.
 */

/** A reference the answer may cite, in citation order (`ordinal` is its [N]). */
export type Citable = {
  ordinal: number;
  title: string;
  url: string;
  abstract: string | null;
  year: number | null;
  journal: string | null;
  label: string; // "PMID 27797938", "doi:10.…", "NCT…"
  evidenceType?: EvidenceType;
  /** Its role for this question (roles.ts); a citable reference without one is context. */
  evidenceRole?: EvidenceRole;
  /** Relevance to the question, 0 to 1. */
  relevance?: number;
  snapshot?: StudySnapshot;
  missingConcepts?: string[];
};

export type { AnswerReference } from "./answer-reference";

export type ContextPassage = { ordinal: number; referenceId: string; text: string; url: string };

/** The evidence groups, strongest first, and the designs each holds. */
const GROUPS: { label: string; group: DesignGroup }[] = [
  { label: "Systematic reviews and meta-analyses", group: "systematic_review" },
  { label: "Human trials", group: "human_trial" },
  { label: "Observational studies", group: "observational" },
  { label: "Animal and cell studies", group: "animal_or_cell" },
  { label: "Other studies", group: "other" },
];
export const SECTION_LABELS = [...GROUPS.map((g) => g.label), "Bottom line", "Limits"];

export type WrittenAnswer = {
  answer: string;
  verdict: Verdict;
  verdictBasis: VerdictBasis;
  /** Each reference's stance toward the question, by ordinal. */
  stances: Map<number, Stance>;
  /** The sentence quoted from each reference (all of them, cited or not), by ordinal. */
  passages: Map<number, string>;
  bottomLine: string;
  limits: string | null;
};

/**
 * Writes the answer over `references` (in citation order, strongest first). Claims come from the
 * supporting references, or from the context ones when none supports, at most `maxClaims`.
 */
export function writeAnswer({
  reading,
  references,
  sourcesNote = null,
  maxClaims = 6,
}: {
  reading: QuestionReading;
  references: AnswerReference[];
  /** The sentence naming the sources the search lost (describeSourceFailures), said in the limits. */
  sourcesNote?: string | null;
  maxClaims?: number;
}): WrittenAnswer {
  const claim = reading;
  const terms = reading.terms;
  const stances = new Map<number, Stance>();
  const graded: GradedForVerdict[] = references.map((r) => {
    const { stance, certainty } = referenceStance(r, claim);
    stances.set(r.ordinal, stance);
    const direct = isDirect(r.snapshot ?? { species: null, design: r.evidenceType }, claim);
    return { evidenceRole: r.evidenceRole, evidenceType: r.evidenceType, relevance: r.relevance, stance, certainty, direct };
  });
  const { verdict, basis } = deriveVerdict(graded, { asks: reading.asks });

  const passages = new Map<number, string>();
  for (const r of references) passages.set(r.ordinal, quotable((r.abstract ? bestPassage(r.abstract, terms) : null) ?? r.snapshot?.finding ?? r.title));

  const supporting = references.filter((r) => r.evidenceRole === "supporting");
  const quoted = (supporting.length > 0 ? supporting : references.filter((r) => r.evidenceRole === "context")).slice(0, maxClaims);
  // One claim per distinct sentence: a sentence two references share is written once, citing both.
  const claims: { group: number; text: string; key: string; ordinals: number[] }[] = [];
  for (const r of quoted) {
    const sentence = withSubject(passages.get(r.ordinal)!, r);
    const key = normalise(passages.get(r.ordinal)!);
    const same = claims.find((c) => c.key === key || normalise(c.text) === normalise(sentence));
    if (same) {
      same.ordinals.push(r.ordinal);
      continue;
    }
    const group = designGroupOf({ evidenceType: r.evidenceType, species: r.snapshot?.species ?? null });
    claims.push({ group: GROUPS.findIndex((g) => g.group === group), text: sentence, key, ordinals: [r.ordinal] });
  }
  const sections = GROUPS.map((group, i) => {
    const inGroup = claims.filter((c) => c.group === i);
    if (inGroup.length === 0) return null;
    return `${group.label}: ${inGroup.map((c) => `${ensurePeriod(c.text)} ${c.ordinals.map((n) => `[${n}]`).join("")}`).join(" ")}`;
  }).filter((s): s is string => s !== null);

  const bottomLine = bottomLineOf({ reading, verdict, basis, references, graded });
  const notes = limitsOf({ references, graded, verdict, basis, reading, sourcesNote });
  const limits = notes.length > 0 ? `Limits: ${notes.join(" ")}` : null;
  const answer = [bottomLine, ...sections, ...(limits ? [limits] : [])].join("\n\n");
  return { answer, verdict, verdictBasis: basis, stances, passages, bottomLine, limits };
}

/**
 * A reference's stance toward the question, read from its abstract (its main finding when it has
 * none): the one reading the verdict and deep research's findings share. The finding is a sentence
 * of the abstract; appended, it would be read twice, as part of the conclusion, which is not the
 * text the stance model was fitted on.
 */
export function referenceStance(reference: Pick<AnswerReference, "abstract" | "snapshot">, reading: QuestionReading): { stance: Stance; certainty: number } {
  const text = reference.abstract || reference.snapshot?.finding;
  return text ? stanceOfReference({ text, claim: reading }) : { stance: "unclear", certainty: 0 };
}

/**
 * The literature engine's answer over its accepted references (`citable`, in ordinal order), with
 * the deterministic source list and the passages it quotes.
 */
export function composeAnswer({
  reading,
  citable,
  sourcesNote = null,
  maxSentences = 6,
}: {
  reading: QuestionReading;
  citable: Citable[];
  sourcesNote?: string | null;
  maxSentences?: number;
}): { answer: string; formattedAnswer: string; contextPassages: ContextPassage[]; verdict: Verdict; verdictBasis: VerdictBasis; stances: Map<number, Stance>; bottomLine: string } {
  const references: AnswerReference[] = citable.map((c) => ({
    ordinal: c.ordinal,
    title: c.title,
    abstract: c.abstract,
    evidenceType: c.evidenceType ?? "unknown",
    evidenceRole: c.evidenceRole ?? "context",
    relevance: c.relevance ?? 1,
    snapshot: c.snapshot ?? null,
    missingConcepts: c.missingConcepts ?? [],
  }));
  const written = writeAnswer({ reading, references, sourcesNote, maxClaims: maxSentences });
  const opened = references.length === 0 ? nothingFound(reading.question, sourcesNote) : written;
  const answer = opened.answer;
  const contextPassages = citable
    .slice(0, maxSentences)
    .map((c) => ({ ordinal: c.ordinal, referenceId: c.label, text: written.passages.get(c.ordinal) ?? c.title, url: c.url }));
  return {
    answer,
    formattedAnswer: `${answer}\n\n${formatSources(citable)}`.trim(),
    contextPassages,
    verdict: written.verdict,
    verdictBasis: written.verdictBasis,
    stances: written.stances,
    bottomLine: opened.bottomLine,
  };
}

/** The answer when no reference was accepted: the verdict, and nothing cited. */
export function nothingFound(question: string, sourcesNote: string | null): { answer: string; bottomLine: string } {
  const topic = tokenize(question).length > 0 ? `“${question.trim().replace(/\?+$/, "")}”` : "this question";
  const bottomLine = `${BOTTOM_LINE_LEAD}the evidence is insufficient. No relevant evidence on ${topic} was found in the sources searched, so no answer can be grounded in the literature.`;
  return { answer: [bottomLine, ...(sourcesNote ? [`Limits: ${sourcesNote}`] : [])].join("\n\n"), bottomLine };
}

/** The deterministic source list: "N. Title. Journal (Year). label <url>". */
export function formatSources(citable: Citable[]): string {
  if (citable.length === 0) return "";
  const lines = citable.map((r) => {
    const where = [r.journal, r.year ? `(${r.year})` : null].filter(Boolean).join(" ");
    return `${r.ordinal}. ${ensurePeriod(r.title)}${where ? ` ${where}.` : ""} ${r.label} <${r.url}>`;
  });
  return `**Sources**\n\n${lines.join("\n")}`;
}

// ---------------------------------------------------------------------------------------------

function normalise(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

function ensurePeriod(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
