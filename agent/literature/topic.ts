import type { LiteratureRecord } from "./record";
import { sectionsOf } from "./stance/sections";
import { splitSentences } from "./sentences";
import { readQuestion } from "./reading";
import { contextsOf, type QueryTerm } from "./terms";
import { normalizeHeading, otherSpelling, tokenize } from "./vocabulary/words";

/**
 * Whether a record is about a topic (a tag, or a search that is only a topic): the topic is its
 * subject, not a word it passes by. Relevance (relevance.ts) counts a word anywhere in a record;
 * for a topic searched on its own that accepts every record naming it: the tag "aging" took 27 of
 * 27 candidates, a kidney-donor study among them, because "aging" and "age" share a Porter stem and
 * every abstract gives its participants' age, and a background sentence ("with an aging
 * population") is not what a study is about.
 *
 * A record is about a topic when one of the places that state its subject names every content word
 * of the topic (by the word, its plural or other spelling, or one of the vocabulary's names for it):
 * - its title (a real one: a derived title is the abstract's first sentence), outside the title's
 *   context: "falls in adults aged 70 and older" is about falls, not aging (a topic that names
 *   whom a study is of, "monkeys" or "older adults", counts there too);
 * - its MeSH terms, a descriptor that is the topic's heading or one of its names ("Aging"; not
 *   "Aged" or "Age Factors", which index the participants' age);
 * - the abstract's aim: an aim or objective section, or a sentence that opens as one ("To assess…",
 *   "We examined…", "The aim of this study was…"), outside its context.
 * Words match as written, up to a plural and the British or American spelling, not by stem:
 * Porter stems join "medication" to "medical" (and would join "aging" to "aged", but that stem is kept apart: vocabulary/words.ts).
 */

export type Topic = {
  /** The topic as given ("aging", "caloric restriction"). */
  label: string;
  /** Its content words, each with every name that counts for it. */
  words: { term: string; names: string[][]; headings: string[] }[];
  /**
   * It names whom a study is of (a species, "older adults", "women"): those words stand in a
   * title's context ("… in rhesus monkeys"), which then counts.
   */
  population: boolean;
};

/** Reads a topic (a tag) once: its content words and the names that count for each. */
export function readTopic(text: string): Topic {
  const { terms, species } = readQuestion(text);
  const content = terms.filter((t) => t.weight === 1 && !t.generic);
  const chosen: QueryTerm[] = content.length > 0 ? content : terms.filter((t) => t.weight === 1).length > 0 ? terms.filter((t) => t.weight === 1) : terms;
  return {
    label: text.trim(),
    words: chosen.map((t) => ({
      term: t.term,
      names: [[t.term], ...t.synonyms.map((s) => tokenize(s))].map((name) => name.map(wordKey)).filter((name) => name.length > 0),
      headings: (t.headings ?? []).map(normalizeHeading),
    })),
    population: species.length > 0,
  };
}

/** Where a record states that a topic is its subject, or null when it states it nowhere. */
export function topicPlace(record: Pick<LiteratureRecord, "title" | "titleDerived" | "abstract" | "mesh">, topic: Topic): "title" | "mesh" | "aim" | null {
  if (topic.words.length === 0) return null;
  const words = (text: string) => (topic.population ? tokenize(text).map(wordKey) : subjectWords(text));
  if (!record.titleDerived && namesAll(words(record.title), topic)) return "title";
  if (meshNames(record.mesh, topic)) return "mesh";
  if (aimSentences(record.abstract ?? "").some((s) => namesAll(words(s), topic))) return "aim";
  return null;
}

/** A word as it is compared: lower case, one spelling of the two, singular. */
function wordKey(word: string): string {
  const w = word.toLowerCase();
  // Either spelling stands for both: the one that sorts first.
  const other = otherSpelling(w);
  const spelled = other !== null && other < w ? other : w;
  if (/[^aeiou]ies$/.test(spelled)) return `${spelled.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(spelled)) return spelled.slice(0, -2);
  if (/[^sui]s$/.test(spelled) && spelled.length > 3) return spelled.slice(0, -1);
  return spelled;
}

/** The words of a text that state its subject: all of them but its context ("in adults aged 70 and older", "versus placebo"). */
function subjectWords(text: string): string[] {
  const words = tokenize(text);
  const { population, comparator } = contextsOf(text);
  const removed = new Set<number>();
  for (const stretch of [...population, ...comparator].map(tokenize)) {
    for (let i = 0; i + stretch.length <= words.length; i++) {
      if (stretch.every((w, k) => words[i + k] === w)) {
        for (let k = 0; k < stretch.length; k++) removed.add(i + k);
        break;
      }
    }
  }
  return words.filter((_, i) => !removed.has(i)).map(wordKey);
}

function namesAll(words: string[], topic: Topic): boolean {
  return topic.words.every((w) => w.names.some((name) => holdsRun(words, name)));
}

function holdsRun(words: string[], name: string[]): boolean {
  for (let i = 0; i + name.length <= words.length; i++) if (name.every((w, k) => words[i + k] === w)) return true;
  return false;
}

/** A descriptor names a topic word when it is the word's heading or one of its names, whole. */
function meshNames(mesh: readonly string[], topic: Topic): boolean {
  const descriptors = mesh.map(normalizeHeading);
  const keyed = descriptors.map((d) => tokenize(d).map(wordKey).join(" "));
  return topic.words.every((w) => descriptors.some((d, i) => w.headings.includes(d) || w.names.some((name) => name.join(" ") === keyed[i])));
}

/** Sentences that open by stating a study's aim. */
const AIM_OPENING =
  /^(?:(?:the|our) (?:main |primary )?(?:aims?|purposes?|objectives?|goals?) (?:of (?:this|the present|our|the current) (?:study|trial|work|paper|review|analysis|survey|research) )?(?:was|were|is|are)\b|to (?:assess|determine|evaluate|examine|investigate|compare|test|study|describe|identify|explore|establish|estimate|analy[sz]e|characteri[sz]e|quantify|measure|define|clarify|ascertain)\b|(?:we|this (?:study|trial|paper|review|analysis|work)|the (?:present|current) (?:study|trial|work)|the authors) (?:aimed|aims|aim|sought|set out|investigated|investigates|examined|examines|evaluated|evaluates|assessed|assesses|tested|tests|determined|compared|compares|explored|explores|hypothesi[sz]ed|studied|was designed|were designed|is designed|was undertaken|was conducted)\b|here,? we\b)/i;

/** A sentence that opens by stating a study's aim ("To assess…", "We examined…"). */
export function opensAsAim(sentence: string): boolean {
  return AIM_OPENING.test(sentence.trim());
}

/** The abstract's aim: its aim or objective sections, and the sentences elsewhere that open as one. */
function aimSentences(abstract: string): string[] {
  return sectionsOf(abstract).flatMap((section) => {
    const sentences = splitSentences(section.text);
    return section.role === "aim" ? sentences : sentences.filter(opensAsAim);
  });
}
