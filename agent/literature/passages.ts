import { FINDING_CUES, isFindingSentence } from "./findings";
import { splitSentences } from "./sentences";
import { stemSet, type QueryTerm } from "./terms";

/**
 * The sentences of an abstract an answer may quote, and the one it quotes. A structured abstract
 * comes as PubMed renders it ("BACKGROUND: … METHODS: … CONCLUSIONS: …"): each sentence keeps the
 * section it stands in, and loses the label, so no answer reads "CONCLUSIONS: …" mid-sentence and
 * no aim or method is quoted as what a study found.
 */

export type Section = "background" | "aim" | "methods" | "results" | "conclusions";
export type PlacedSentence = { text: string; section: Section | null };

/** A section label as PubMed gives it: upper-case words before a colon ("MAIN OUTCOME MEASURES:"). */
const LABEL = /(?:^|(?<=[\s.]))([A-Z][A-Z0-9 ,&/()-]{2,60}?):\s+(?=\S)/g;

const SECTIONS: [RegExp, Section][] = [
  [/^(conclusions?|interpretations?|implications?|conclusions? and (relevance|implications)|summary|discussion)\b/i, "conclusions"],
  [/^(results?|findings|main results|key results|outcomes?)\b/i, "results"],
  [/^(objectives?|aims?|purposes?|goals?|hypothes[ie]s|study questions?|research questions?|questions?)\b/i, "aim"],
  [/^(methods?|materials|design|setting|settings|participants|patients|subjects|interventions?|measurements?|main outcome measures?|study design|data sources|study selection|data extraction|methodology|procedures?)\b/i, "methods"],
  [/^(background|introduction|context|importance|rationale|purpose of review)\b/i, "background"],
];

/** The sentences of an abstract, each without its section label and with its section (null when unlabelled). */
export function placedSentences(abstract: string): PlacedSentence[] {
  const text = abstract.replace(/\s+/g, " ").trim();
  const labels = [...text.matchAll(LABEL)].filter((m) => SECTIONS.some(([re]) => re.test(m[1]!)));
  if (labels.length === 0) return splitSentences(text).map((s) => ({ text: s, section: null }));
  const out: PlacedSentence[] = [];
  const before = text.slice(0, labels[0]!.index).trim();
  if (before) out.push(...splitSentences(before).map((s) => ({ text: s, section: null })));
  labels.forEach((m, i) => {
    const section = SECTIONS.find(([re]) => re.test(m[1]!))![1];
    const start = m.index! + m[0].length;
    const end = i + 1 < labels.length ? labels[i + 1]!.index! : text.length;
    out.push(...splitSentences(text.slice(start, end)).map((s) => ({ text: s, section })));
  });
  return out;
}

/** A sentence without a leading section label ("RESULTS: Median lifespan rose …" → "Median lifespan rose …"). */
export function unlabelled(sentence: string): string {
  return sentence.replace(/^\s*([A-Z][A-Z0-9 ,&/()-]{2,60}?):\s+(?=\S)/, (whole, label: string) => (SECTIONS.some(([re]) => re.test(label)) ? "" : whole));
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
  const findings = sentences.filter((s) => (s.section === null || s.section === "results" || s.section === "conclusions") && isFindingSentence(s.text));
  const pool = findings.length > 0 ? findings : sentences;
  let best: { text: string; score: number } | null = null;
  pool.forEach((sentence, i) => {
    const stems = stemSet(sentence.text);
    const overlap = terms.filter((t) => t.stems.some((s) => stems.has(s))).length;
    const score =
      overlap * 2 +
      (FINDING_CUES.test(sentence.text) ? 1.5 : 0) +
      (sentence.section === "conclusions" ? 0.75 : 0) +
      (i / Math.max(1, pool.length)) * 0.5 -
      (sentence.text.length > 400 ? 1 : 0);
    if (!best || score > best.score) best = { text: sentence.text, score };
  });
  return best ? (best as { text: string }).text : null;
}
