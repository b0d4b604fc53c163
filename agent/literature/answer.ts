import { stemSet, tokenize, type QueryTerm } from "./terms";

/** A reference the answer may cite, in citation order (`ordinal` is its [N]). */
export type Citable = {
  ordinal: number;
  title: string;
  url: string;
  abstract: string | null;
  year: number | null;
  journal: string | null;
  label: string; // "PMID 27797938", "doi:10.…", "NCT…"
};

export type ContextPassage = { ordinal: number; referenceId: string; text: string; url: string };

/** Words that mark a sentence that states a finding rather than background or methods. */
const FINDING_CUES = /\b(conclu|suggest|found|find|show|demonstrat|associat|reduc|increas|improv|extend|lower|higher|decreas|no significant|did not|was not|were not|significant)/i;

/** Splits an abstract into sentences (keeping "e.g." and decimals intact). */
export function splitSentences(text: string): string[] {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[A-Z(])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 20);
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

/**
 * An extractive answer: one sentence from each of the strongest references, each followed by its
 * [N] marker, so every claim points at the reference it was taken from. Without references it says
 * so and cites nothing. Deterministic: the same references give the same answer.
 */
export function composeAnswer({
  question,
  terms,
  citable,
  maxSentences = 5,
}: {
  question: string;
  terms: QueryTerm[];
  citable: Citable[];
  maxSentences?: number;
}): { answer: string; formattedAnswer: string; contextPassages: ContextPassage[] } {
  const passages: ContextPassage[] = [];
  for (const ref of citable) {
    if (passages.length >= maxSentences) break;
    const text = ref.abstract ? bestPassage(ref.abstract, terms) : null;
    passages.push({ ordinal: ref.ordinal, referenceId: ref.label, text: text ?? ref.title, url: ref.url });
  }
  const topic = tokenize(question).length > 0 ? question.trim().replace(/\?+$/, "") : "the question";
  const answer =
    passages.length === 0
      ? `No relevant evidence on "${topic}" was found in the sources searched.`
      : passages.map((p) => `${ensurePeriod(p.text)} [${p.ordinal}]`).join(" ");
  return { answer, formattedAnswer: `${answer}\n\n${formatSources(citable)}`.trim(), contextPassages: passages };
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

function ensurePeriod(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
