import type { StudySpecies } from "@/lib/shared/contracts";
import { asksAboutAttitudes, asksAboutUse } from "./attitudes";
import { valenceOf, type Valence } from "./findings";
import { ASKS_EQUIVALENCE, ASKS_SAFETY, speaksForThemselves, WHO_WORDS, type QuestionPart } from "./question";
import { contextsOf, extractTerms, stem, tokenize, type QueryTerm } from "./terms";
import { isVerbOnly } from "./vocabulary";

/**
 * A question read once, into what every stage of an answer needs: the intervention or exposure,
 * the outcome, the population or species, a comparator when one is named, and the direction of
 * the claim. Search sends its terms, relevance weighs them, the evidence roles ask whether a study
 * addresses both the exposure and the outcome, the verdict reads each study's stance against the
 * claim, and the writer names what was asked. Before this reading, each of those read the question
 * its own way, which is how relevance and the verdict came to disagree.
 *
 * A claim pasted as a statement ("Metformin extends lifespan in mice.") is read as the question
 * whether it holds: the same parts, `form: "claim"`.
 */

/**
 * The parts of a question a study must address to test it: the topic before a colon, the
 * exposure and the outcome around a relation, or the subject of a question that relates nothing.
 */
export type RequiredPart = "topic" | "exposure" | "outcome" | "subject";

/** One concept of the question (a run of adjacent content words), in the part it stands in. */
type ReadConcept = {
  /** Its words as the question has them: "telomere length", "cognitive decline". */
  label: string;
  part: RequiredPart;
  /** Its content words (not generic, not evaluative): what a record must name to address it. */
  terms: QueryTerm[];
};

export type QuestionReading = {
  question: string;
  /** `claim` when a statement was pasted rather than a question asked. */
  form: "question" | "claim";
  /**
   * It asks something a study can answer: a question, a sentence stating a claim, or words that
   * relate an exposure to an outcome. A topic alone ("aging", "rapamycin and lifespan", a tag)
   * asks nothing: no study supports or contradicts it, and it gets no verdict.
   */
  asks: boolean;
  /** Every word of the question that search and relevance use, placed in its part. */
  terms: QueryTerm[];
  /** The intervention or exposure, in the question's words; null when the question relates nothing. */
  exposure: string | null;
  /** What the exposure is said to do or be tied to; null when the question names no outcome. */
  outcome: string | null;
  /** What the question is about when it relates nothing ("rapamycin and aging", "Is X safe?"). */
  subject: string | null;
  /** What it is compared with ("versus placebo", "than open surgery"); null when not named. */
  comparator: string | null;
  /** Whom it asks about, in its words ("older adults", "women with diabetes"); null when it names no one. */
  population: string | null;
  /** The species it names ("patients" and "women" name humans); empty when it names none. */
  species: StudySpecies[];
  /** The concepts a study must address to test the question, by part. */
  concepts: ReadConcept[];
  /** The direction the question asks about: "does X reduce mortality" asks about a benefit. */
  valence: Valence;
  /** It asks whether things are alike ("comparable", "as effective as", "non-inferior"). */
  equivalence: boolean;
  /** It asks what people think, want, know or would do: a survey of attitudes can test it (attitudes.ts). */
  asksAttitudes: boolean;
  /** Whether it asks how many use something (attitudes.ts): only then does a survey of use test it. */
  asksUse: boolean;
};

const QUESTION_SPECIES: [RegExp, StudySpecies][] = [
  [/\b(mice|mouse|murine|rodents?)\b/i, "mouse"],
  [/\b(rats?|rodents?)\b/i, "rat"],
  [/\b(monkeys?|macaques?|primates?|marmosets?)\b/i, "nonhuman_primate"],
  [/\b(dogs?|canine)\b/i, "dog"],
  // Plain "fish" only as whom a study is in ("in fish", "fish models"): "fish oil", "eating fish"
  // and "fish intake" are food, asked about people.
  [/\b(zebrafish|killifish)\b|\bin (\w+ )?fish\b|\bfish (species|models?)\b/i, "fish"],
  [/\b(drosophila|flies|fruit fl(y|ies))\b/i, "fly"],
  [/\b(c\. elegans|caenorhabditis|nematodes?|worms?)\b/i, "worm"],
  [/\b(yeast)\b/i, "yeast"],
  // Work on cells as such, not a cell named in a disease or a tissue ("non-small cell lung cancer",
  // "renal cell carcinoma", "red blood cell alloimmunization", "T-cell responses"): those questions
  // are about patients or animals, and reading them as about cells made every human study indirect.
  [/\b(in vitro|cell lines?|cell cultures?|cultured (\w+ ){0,3}cells|in cells)\b/i, "cells"],
  [/\b(animals?|animal models?)\b/i, "other_mammal"],
];
/** The species a text names, by the question's own words for them (humans by "people", "patients", …). */
export function speciesNamed(text: string): StudySpecies[] {
  const found = QUESTION_SPECIES.filter(([re]) => re.test(text)).map(([, s]) => s);
  return [...new Set([...found, ...(HUMAN_WORDS.test(text) ? (["human"] as const) : [])])];
}

const ANY_ANIMAL: StudySpecies[] = ["mouse", "rat", "nonhuman_primate", "dog", "other_mammal", "fish", "fly", "worm", "yeast"];
const HUMAN_WORDS = /\b(humans?|people|patients?|adults?|women|men|children|elderly|older|persons?|individuals?|participants?|clinical)\b/i;
const HARM_QUESTION = /\b(harmful|dangerous|toxic|risk of|risk for|increase[sd]? (the )?risk|worsen|impair|adverse)\b/i;

/**
 * What a question's population has that sets it apart ("in people with dementia", "in obese
 * patients"): its words the vocabulary knows as a concept, not age, sex or the word for people. A
 * study none of whose text names any of them (by any of its names) was done in other people (roles.ts).
 */
export function populationCondition(reading: Pick<QuestionReading, "population" | "terms">): QueryTerm[] {
  // Only a concept the vocabulary knows (a MeSH heading or other names): a word of description
  // ("Thai women", "web-wise young people") is often not repeated by the study's own text.
  return contextTermsIn(reading, reading.population).filter(
    // A species is read as one (roles.ts), not as a condition.
    (t) => speciesNamed(t.term).length === 0 && ((t.headings?.length ?? 0) > 0 || t.synonyms.length > 0),
  );
}

/** The question's context terms that stand in `text` (its population, its comparator) and could name something: not generic, evaluative, a number, or a word for who. */
function contextTermsIn(reading: Pick<QuestionReading, "terms">, text: string | null): QueryTerm[] {
  if (!text) return [];
  const words = new Set(tokenize(text));
  return reading.terms.filter((t) => t.part === "context" && words.has(t.term) && !t.generic && t.weight === 1 && !/^\d/.test(t.term) && !WHO_WORDS.test(t.term));
}

/**
 * The words of what a question compares its subject with ("Is warfarin better than aspirin …?"):
 * its content words, not generic ones ("standard dose" names no thing). A study that names none of
 * them anywhere did not compare with it (roles.ts).
 */
export function comparatorTerms(reading: Pick<QuestionReading, "comparator" | "terms">): QueryTerm[] {
  // A word the compared thing shares ("short bursts of hard exercise … more than steady exercise")
  // or its form ("diclofenac gel … than a dummy gel") says nothing of what it was compared with.
  const compared = new Set(reading.terms.filter((t) => t.part !== "context").flatMap((t) => t.stems));
  return contextTermsIn(reading, reading.comparator).filter(
    (t) =>
      !FORMULATION.test(t.term) &&
      !t.stems.some((st) => compared.has(st)) &&
      // An everyday word only where the vocabulary knows it ("dummy" for a placebo).
      (!t.everyday || t.synonyms.length > 0 || (t.headings?.length ?? 0) > 0),
  );
}
/** How a thing is made up to be taken, not what it is: "a dummy gel" is a placebo. */
const FORMULATION = /^(gels?|creams?|ointments?|tablets?|pills?|capsules?|sprays?|drops|patch(es)?|injections?|infusions?|drips?|lozenges?|solutions?|formulations?)$/;

/**
 * The condition a question's population is said to be without ("in people without diabetes", "who
 * do not have heart disease", "non-smokers"): the stems of its words. A study done in people with
 * it (its title: "… in type 2 diabetes") was done in other people (roles.ts).
 */
const EXCLUDED =
  /\b(?:people|persons|patients|adults|women|men|children|individuals|those|participants|subjects|seniors)\s+(?:(?:aged|over|under)\s+\d+\s+)?(?:without|who (?:do|does|did) not have|free of)\s+((?:type \d\s+)?[a-z][\w-]+(?:\s+(?:disease|failure|syndrome|cancer|disorder|infection|impairment|injury|arthritis|fibrillation|diabetes|dementia))?)|\bnon-?((?:smokers|diabetics|drinkers|diabetic))\b/i;
export function excludedCondition(question: string): string[] {
  const m = EXCLUDED.exec(question);
  if (!m) return [];
  return tokenize(m[1] ?? m[2]!)
    .filter((w) => w.length > 3 && !WHO_WORDS.test(w))
    .map(stem);
}

/** A question opens with an interrogative or an auxiliary, or ends with a question mark; a claim does neither. */
const QUESTION_OPENING =
  /^\s*(does|do|did|is|are|was|were|can|could|should|would|will|may|might|has|have|had|what|which|who|whom|whose|when|where|why|how|whether|any|in what|to what)\b/i;

/** Reads a question (or a pasted claim) once, for every stage of the answer. */
export function readQuestion(question: string): QuestionReading {
  const text = question.trim();
  const terms = extractTerms(text);
  const form = /\?\s*$/.test(text) || QUESTION_OPENING.test(text) ? "question" : "claim";
  const concepts = requiredConcepts(terms);
  const contexts = contextsOf(text);
  const label = (part: RequiredPart) => joinLabels(concepts.filter((c) => c.part === part).map((c) => c.label));
  const labelOf = (parts: QuestionPart[]) => joinLabels(uniqueConcepts(terms.filter((t) => parts.includes(t.part ?? "context"))));
  const found = QUESTION_SPECIES.filter(([re]) => re.test(text)).map(([, s]) => s);
  let species: StudySpecies[] = [...new Set(found.includes("other_mammal") ? [...found, ...ANY_ANIMAL] : found)];
  if (HUMAN_WORDS.test(text)) species = [...species, "human"];
  // A person asking for themselves asks about people, unless the question names whom else ("my dog").
  else if (species.length === 0 && speaksForThemselves(text)) species = ["human"];
  const valence: Valence = ASKS_SAFETY.test(text) && !HARM_QUESTION.test(text) ? "benefit" : valenceOf(text);
  return {
    question: text,
    form,
    asks: form === "question" || /[.!]\s*$/.test(text) || concepts.some((c) => c.part === "exposure" || c.part === "outcome"),
    terms,
    exposure: label("exposure") ?? (concepts.some((c) => c.part === "outcome") ? labelOf(["exposure"]) : null),
    outcome: label("outcome") ?? labelOf(["outcome"]),
    subject: joinLabels([label("topic"), label("subject")].filter((l): l is string => l !== null)),
    comparator: contexts.comparator[0] ?? null,
    population: contexts.population.length > 0 ? contexts.population.join(", ") : null,
    species,
    concepts,
    valence: valence === "neutral" && HARM_QUESTION.test(text) ? "harm" : valence,
    equivalence: ASKS_EQUIVALENCE.test(text),
    asksAttitudes: asksAboutAttitudes(text),
    asksUse: asksAboutUse(text),
  };
}

/**
 * The concepts a study must address: each run of content words of the exposure, the outcome, and,
 * when the question relates nothing, of its topic or main part. Generic words ("length", "risk")
 * and evaluative ones ("effective", "safe") never make a concept by themselves: "Is it safe?"
 * names nothing a study must address, and the risk of dementia is about dementia.
 */
function requiredConcepts(terms: QueryTerm[]): ReadConcept[] {
  const partOf = (p: QuestionPart | undefined): RequiredPart | null => (p === "topic" ? "topic" : p === "exposure" ? "exposure" : p === "outcome" ? "outcome" : p === "main" ? "subject" : null);
  const byLabel = new Map<string, ReadConcept>();
  for (const term of terms) {
    const part = partOf(term.part);
    if (!part || term.generic || term.weight !== 1) continue;
    const label = term.concept ?? term.term;
    const concept = byLabel.get(label) ?? { label, part, terms: [] };
    concept.terms.push(term);
    byLabel.set(label, concept);
  }
  return [...byLabel.values()];
}

/** The required parts a question has: the exposure and the outcome when it relates them, else its subject. */
/** The first concept of the question's intervention or exposure, else of its subject: "quercetin". */
export function firstConcept(reading: Pick<QuestionReading, "concepts">): string | null {
  const first = reading.concepts.find((c) => c.part === "exposure") ?? reading.concepts.find((c) => c.part === "subject" || c.part === "topic");
  return first?.label ?? null;
}

export function requiredParts(reading: Pick<QuestionReading, "concepts">): RequiredPart[] {
  return (["topic", "exposure", "outcome", "subject"] as const).filter((part) => reading.concepts.some((c) => c.part === part));
}

function uniqueConcepts(terms: QueryTerm[]): string[] {
  return [...new Set(terms.filter((t) => !t.generic && t.weight === 1).map((t) => t.concept ?? t.term))];
}

function joinLabels(labels: string[]): string | null {
  if (labels.length === 0) return null;
  return labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/**
 * A concept's label as the noun phrases an answer may write: split at any word WordNet knows only
 * as a verb ("yoga relieve chronic" → "yoga", "chronic"), so every phrase built from a question's
 * parts is grammatical however the reading placed its words.
 */
export function phrasesOf(label: string): string[] {
  const phrases: string[][] = [[]];
  for (const word of label.split(/\s+/).filter(Boolean)) {
    if (isVerbOnly(word)) phrases.push([]);
    else phrases.at(-1)!.push(word);
  }
  // An age word alone names an age: "no study found tests older age and hip fracture", not "older and".
  return phrases.filter((p) => p.length > 0).map((p) => (p.length === 1 && AGE_ALONE[p[0]!.toLowerCase()]) || p.join(" "));
}
const AGE_ALONE: Record<string, string> = { older: "older age", old: "old age", elderly: "old age", young: "young age", younger: "younger age" };
