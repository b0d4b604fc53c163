import type { Stance, Verdict } from "@/lib/contracts";
import { clauses, isFindingSentence, readFinding, type FindingReading, type Valence } from "./findings";
import { splitSentences } from "./sentences";
import { stemSet, type QueryTerm } from "./terms";

/**
 * The stance of one study toward a question's claim, read from its abstract (docs/chat.md, "The
 * verdict", step 2). The verdict (verdict.ts) aggregates these over the references that test the
 * question; `npm run bench -- stance` measures this reading alone.
 */

/** What the stance reader needs of a question's claim (verdict.ts's QuestionClaim has these and more). */
export type StanceClaim = {
  valence: Valence;
  equivalence: boolean;
  terms: QueryTerm[];
};

/** A reading's stance on the claim, or null when it states nothing on it. */
export function stanceOfReading(reading: FindingReading, claim: StanceClaim): "supports" | "contradicts" | null {
  if (reading.effect === "unclear") return null;
  if (claim.equivalence) return reading.effect === "none" ? "supports" : "contradicts";
  if (reading.effect === "none") return "contradicts";
  if (claim.valence === "neutral" || reading.valence === "neutral") return "supports";
  return reading.valence === claim.valence ? "supports" : "contradicts";
}

const CONCLUSION = /^(in conclusion|conclusions?|to conclude|we conclude|overall|taken together|in summary|these (results|findings|data)|our (results|findings|data))\b/i;

/** Where a structured abstract's conclusion section starts, as PubMed labels it ("CONCLUSIONS: …"). */
const CONCLUSION_SECTION = /(?:^|\s)(?:CONCLUSIONS?|CONCLUSIONS? AND (?:RELEVANCE|IMPLICATIONS)|INTERPRETATION|IMPLICATIONS)\s*:/;

/**
 * The stance of one reference. A structured abstract's conclusion section is its authors' own
 * answer, read first; the rest of the abstract decides only when the conclusion states nothing on
 * the claim (measured: docs/literature.md, "Answer quality").
 */
export function stanceOfReference({ text, claim }: { text: string; claim: StanceClaim }): { stance: Stance; certainty: number } {
  const { stance, certainty } = readStance({ text, claim });
  return { stance, certainty };
}

/** One clause read toward the claim, and whether it counted (for the benchmark's error listing). */
export type ReadClause = { text: string; stance: "supports" | "contradicts"; counted: boolean };
export type StanceReading = { stance: Stance; certainty: number; clauses?: ReadClause[] };

/** stanceOfReference with the clauses it read. */
export function readStance({ text, claim }: { text: string; claim: StanceClaim }): StanceReading {
  const at = text.search(CONCLUSION_SECTION);
  if (at > 0) {
    const concluded = stanceOfText(text.slice(at), claim);
    if (concluded.stance !== "unclear") return concluded;
  }
  return stanceOfText(text, claim);
}

/** One study's stance as a verdict, when it is the only study: a study that states nothing is `insufficient`. */
export function verdictOfStudy({ stance }: { stance: Stance }): Verdict {
  return stance === "unclear" ? "insufficient" : stance;
}

/**
 * The stance of a text: every clause of its finding sentences read against the claim; the
 * clauses sharing the most of the question's terms decide, later ones (results, conclusions) and
 * plain ones counting more. `certainty` is how hedged its findings were (1 plain).
 */
function stanceOfText(text: string, claim: StanceClaim): StanceReading {
  const sentences = splitSentences(text);
  let forWeight = 0;
  let againstWeight = 0;
  let certaintySum = 0;
  let counted = 0;
  const read: { text: string; stance: "supports" | "contradicts"; overlap: number; weight: number; certainty: number }[] = [];
  sentences.forEach((sentence, i) => {
    if (!isFindingSentence(sentence)) return;
    const position = 0.5 + i / Math.max(1, sentences.length);
    const conclusion = CONCLUSION.test(sentence) ? 1.5 : 1;
    for (const clause of clauses(sentence)) {
      const reading = readFinding(clause);
      const stance = stanceOfReading(reading, claim);
      if (!stance) continue;
      const stems = stemSet(clause);
      const overlap = claim.terms.filter((t) => t.weight === 1 && t.stems.some((s) => stems.has(s))).length;
      read.push({ text: clause, stance, overlap, weight: (1 + overlap) * position * conclusion * reading.certainty, certainty: reading.certainty });
    }
  });
  // The findings on the question's own subject decide: clauses less on it than the closest are
  // about something else the study also measured (baseline differences, secondary outcomes).
  const closest = Math.max(0, ...read.map((r) => r.overlap));
  for (const r of read.filter((r) => r.overlap >= closest)) {
    if (r.stance === "supports") forWeight += r.weight;
    else againstWeight += r.weight;
    certaintySum += r.certainty;
    counted++;
  }
  const total = forWeight + againstWeight;
  const listed = read.map((r) => ({ text: r.text, stance: r.stance, counted: r.overlap >= closest }));
  if (total === 0) return { stance: "unclear", certainty: 0, clauses: listed };
  const certainty = certaintySum / counted;
  const minor = Math.min(forWeight, againstWeight) / total;
  return { stance: minor >= 0.48 ? "mixed" : forWeight > againstWeight ? "supports" : "contradicts", certainty, clauses: listed };
}

