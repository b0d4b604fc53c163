import type { EvidenceType, Stance, StudySnapshot, Verdict, VerdictBasis } from "@/lib/contracts";
import type { AnswerReference } from "./answer-reference";
import { bottomLineOf, limitsOf, unnamedConcepts } from "./bottom-line";
import { withSubject } from "./claims";
import { FINDING_CUES } from "./findings";
import { splitSentences } from "./sentences";
import { stemSet, tokenize, type QueryTerm } from "./terms";
import { deriveVerdict, isDirect, readQuestion, stanceOfReference, type GradedForVerdict } from "./verdict";

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
  /** Relevance to the question, 0 to 1. */
  relevance?: number;
  snapshot?: StudySnapshot;
  missingConcepts?: string[];
};

export type { AnswerReference } from "./answer-reference";

export type ContextPassage = { ordinal: number; referenceId: string; text: string; url: string };

/** A reference relevant enough to support a claim: it matches at least half of the question's weight. */
export const SUPPORTING_RELEVANCE = 0.5;

/**
 * The role of an accepted reference in an answer: `supporting` when its relevance is at least
 * SUPPORTING_RELEVANCE or within 90% of the best of the answer (the closest matches support it even
 * when the question is worded far from the abstracts), `context` otherwise or when it is commentary.
 */
export function onTopicRole({ score, bestScore, evidenceType }: { score: number; bestScore: number; evidenceType: EvidenceType }): "supporting" | "context" {
  if (evidenceType === "commentary") return "context";
  return score >= SUPPORTING_RELEVANCE || score >= 0.9 * bestScore ? "supporting" : "context";
}

/**
 * The passage of a reference that best answers the question: the sentence sharing the most
 * question terms, preferring sentences that state a finding, later sentences (results and
 * conclusions) breaking ties.
 */
export function bestPassage(abstract: string, terms: QueryTerm[]): string | null {
  const sentences = splitSentences(abstract);
  let best: { text: string; score: number } | null = null;
  sentences.forEach((sentence, i) => {
    const stems = stemSet(sentence);
    const overlap = terms.filter((t) => t.stems.some((s) => stems.has(s))).length;
    const score = overlap * 2 + (FINDING_CUES.test(sentence) ? 1.5 : 0) + (i / Math.max(1, sentences.length)) * 0.5 - (sentence.length > 400 ? 1 : 0);
    if (!best || score > best.score) best = { text: sentence, score };
  });
  return best ? (best as { text: string }).text : null;
}

/** The evidence groups, strongest first, and the designs each holds. */
const GROUPS: { label: string; holds: (r: AnswerReference) => boolean }[] = [
  { label: "Systematic reviews and meta-analyses", holds: (r) => r.evidenceType === "systematic_review" },
  { label: "Human trials", holds: (r) => ["randomized_controlled_trial", "controlled_trial", "single_arm_trial"].includes(r.evidenceType) },
  { label: "Observational studies", holds: (r) => r.evidenceType === "observational" },
  { label: "Animal and cell studies", holds: (r) => r.evidenceType === "preclinical" || (r.snapshot?.species != null && r.snapshot.species !== "human") },
  { label: "Other studies", holds: () => true },
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
  /** The question's concepts no supporting reference names; the bottom line says so. */
  unnamedConcepts: string[];
};

/**
 * Writes the answer over `references` (in citation order, strongest first). Claims come from the
 * supporting references, or from the context ones when none supports, at most `maxClaims`.
 */
export function writeAnswer({
  question,
  terms,
  references,
  sourcesNote = null,
  maxClaims = 6,
}: {
  question: string;
  terms: QueryTerm[];
  references: AnswerReference[];
  /** The sentence naming the sources the search lost (describeSourceFailures), said in the limits. */
  sourcesNote?: string | null;
  maxClaims?: number;
}): WrittenAnswer {
  const claim = readQuestion(question, terms);
  const stances = new Map<number, Stance>();
  const graded: GradedForVerdict[] = references.map((r) => {
    const text = [r.abstract, r.snapshot?.finding].filter(Boolean).join(" ");
    const { stance, certainty } = text ? stanceOfReference({ text, claim }) : { stance: "unclear" as const, certainty: 0 };
    stances.set(r.ordinal, stance);
    const direct = isDirect(r.snapshot ?? { species: null, design: r.evidenceType }, claim);
    return { evidenceRole: r.evidenceRole, evidenceType: r.evidenceType, relevance: r.relevance, stance, certainty, direct };
  });
  const { verdict, basis } = deriveVerdict(graded);

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
    claims.push({ group: GROUPS.findIndex((g) => g.holds(r)), text: sentence, key, ordinals: [r.ordinal] });
  }
  const sections = GROUPS.map((group, i) => {
    const inGroup = claims.filter((c) => c.group === i);
    if (inGroup.length === 0) return null;
    return `${group.label}: ${inGroup.map((c) => `${ensurePeriod(c.text)} ${c.ordinals.map((n) => `[${n}]`).join("")}`).join(" ")}`;
  }).filter((s): s is string => s !== null);

  const unnamed = unnamedConcepts(references);
  const bottomLine = bottomLineOf({ verdict, basis, references, graded, unnamed });
  const notes = limitsOf({ references, graded, verdict, basis, claim, sourcesNote });
  const limits = notes.length > 0 ? `Limits: ${notes.join(" ")}` : null;
  const answer = [bottomLine, ...sections, ...(limits ? [limits] : [])].join("\n\n");
  return { answer, verdict, verdictBasis: basis, stances, passages, bottomLine, limits, unnamedConcepts: unnamed };
}

/**
 * The literature engine's answer over its accepted references (`citable`, in ordinal order), with
 * the deterministic source list and the passages it quotes.
 */
export function composeAnswer({
  question,
  terms,
  citable,
  sourcesNote = null,
  maxSentences = 6,
}: {
  question: string;
  terms: QueryTerm[];
  citable: Citable[];
  sourcesNote?: string | null;
  maxSentences?: number;
}): { answer: string; formattedAnswer: string; contextPassages: ContextPassage[]; verdict: Verdict; verdictBasis: VerdictBasis; stances: Map<number, Stance> } {
  const bestScore = Math.max(0, ...citable.map((c) => c.relevance ?? 1));
  const references: AnswerReference[] = citable.map((c) => ({
    ordinal: c.ordinal,
    title: c.title,
    abstract: c.abstract,
    evidenceType: c.evidenceType ?? "unknown",
    evidenceRole: onTopicRole({ score: c.relevance ?? 1, bestScore, evidenceType: c.evidenceType ?? "unknown" }),
    relevance: c.relevance ?? 1,
    snapshot: c.snapshot ?? null,
    missingConcepts: c.missingConcepts ?? [],
  }));
  const written = writeAnswer({ question, terms, references, sourcesNote, maxClaims: maxSentences });
  const answer = references.length === 0 ? nothingFound(question, sourcesNote) : written.answer;
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
  };
}

/** The answer when no reference was accepted: the verdict, and nothing cited. */
export function nothingFound(question: string, sourcesNote: string | null): string {
  const topic = tokenize(question).length > 0 ? `“${question.trim().replace(/\?+$/, "")}”` : "this question";
  return [
    `Bottom line: the evidence is insufficient. No relevant evidence on ${topic} was found in the sources searched, so no answer can be grounded in the literature.`,
    ...(sourcesNote ? [`Limits: ${sourcesNote}`] : []),
  ].join("\n\n");
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

/** Bracketed numbers inside a quoted passage ("[18F]", a source's own "[12]") would read as markers. */
function quotable(text: string): string {
  return ensurePeriod(text.replace(/\s+/g, " ").trim()).replace(/\[(\d[^\]]*)\]/g, "($1)");
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

function ensurePeriod(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
