import { FINDING_CUES, isAimSentence, isFindingSentence } from "./findings";
import { splitSentences } from "./sentences";
import { NOT_FINDINGS, roleOfLabel, sectionsOf, type SectionRole } from "./stance/sections";
import { stemSet, type QueryTerm } from "./terms";

/**
 * The sentences of an abstract an answer may quote, and the one it quotes. A structured abstract
 * comes as PubMed renders it ("BACKGROUND: … METHODS: … CONCLUSIONS: …"): each sentence keeps the
 * section it stands in, and loses the label, so no answer reads "CONCLUSIONS: …" mid-sentence and
 * no aim or method is quoted as what a study found.
 */

type Section = "background" | "aim" | "methods" | "results" | "conclusions";
export type PlacedSentence = { text: string; section: Section | null };

const SECTION_OF_ROLE: Record<SectionRole, Section | null> = { background: "background", aim: "aim", methods: "methods", results: "results", conclusion: "conclusions", other: null };

/**
 * The sentences of an abstract, each without its section label and with its section (null when
 * unlabelled). Labels are read by the one section reader (stance/sections.ts), so any label PubMed
 * gives ("DESIGN, SETTING, AND PARTICIPANTS", "SUMMARY OF BACKGROUND DATA") leaves the text.
 */
export function placedSentences(abstract: string): PlacedSentence[] {
  const text = abstract.replace(/\s+/g, " ").trim();
  return sectionsOf(text).flatMap((s) => splitSentences(s.text).map((sentence) => ({ text: unlabelled(sentence), section: SECTION_OF_ROLE[s.role] })));
}

/** The sentences of an abstract that may state a finding: none of its background, aims or methods. */
export function findingSentences(abstract: string): string[] {
  return sectionsOf(abstract.replace(/\s+/g, " ").trim())
    .filter((s) => !NOT_FINDINGS.has(s.role))
    .flatMap((s) => splitSentences(s.text).map(unlabelled));
}

/** A leading section label in capitals ("RESULTS: …", "DESIGN, SETTING, AND PARTICIPANTS: …"). */
const LEADING_LABEL = /^\s*([A-Z][A-Z]+(?:[ ,/&-]+(?:[A-Z]{2,}|and|of|the))*)\s*:\s+(?=\S)/;

/** A sentence without a leading section label ("RESULTS: Median lifespan rose …" → "Median lifespan rose …"). */
export function unlabelled(sentence: string): string {
  return sentence.replace(LEADING_LABEL, (whole, label: string) => (label.length >= 4 || roleOfLabel(label) !== "other" ? "" : whole));
}

/** A sentence fit to quote: one line, no section label, ending in a full stop, and no bracketed number that would read as a marker. */
export function quotable(text: string): string {
  const one = unlabelled(text.replace(/\s+/g, " ").trim()).replace(/\[(\d[^\]]*)\]/g, "($1)");
  return /[.!?]$/.test(one) ? one : `${one}.`;
}

/**
 * The passage of an abstract that best answers the question: among the sentences that state a
 * finding (never the background, aims or methods of a structured abstract), the one sharing the
 * most question terms, the conclusion and later sentences breaking ties. An abstract that states no
 * finding gives its sentence sharing the most terms.
 */
export function bestPassage(abstract: string, terms: QueryTerm[]): string | null {
  const sentences = placedSentences(abstract);
  const stated = sentences.filter((s) => s.section === null || s.section === "results" || s.section === "conclusions");
  const findings = stated.filter((s) => isFindingSentence(s.text));
  // Never an aim, a method or the background: an abstract whose other sentences state no finding gives its results or conclusion as they are, else nothing.
  const pool = findings.length > 0 ? findings : stated.filter((s) => s.section !== null || !isAimSentence(s.text));
  let best: { text: string; score: number } | null = null;
  for (const [i, sentence] of pool.entries()) {
    const stems = stemSet(sentence.text);
    const overlap = terms.filter((t) => t.stems.some((s) => stems.has(s))).length;
    const score =
      overlap * 2 +
      (FINDING_CUES.test(sentence.text) ? 1.5 : 0) +
      (sentence.section === "conclusions" ? 0.75 : 0) +
      (i / Math.max(1, pool.length)) * 0.5 -
      (sentence.text.length > 400 ? 1 : 0);
    if (!best || score > best.score) best = { text: sentence.text, score };
  }
  return best ? best.text : null;
}
