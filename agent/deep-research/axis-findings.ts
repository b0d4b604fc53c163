import type { OutcomeDirection, StudySpecies } from "@/lib/shared/contracts";
import { referenceStance, withSubject } from "../literature/answer";
import type { QuestionReading } from "../literature/reading";
import { bestPassage, findingSentences, placedSentences, quotable, unlabelled } from "../literature/passages";
import { isFindingSentence, readFinding } from "../literature/findings";
import { directionOf } from "../literature/snapshot";
import type { QueryTerm } from "../literature/terms";
import { type AxisId } from "./axes";
import type { Finding, FindingReference, StoredReference } from "./world";
import { designGroupOf, HUMAN_TRIAL_DESIGNS } from "@/lib/shared/contracts/designs";
import { keysOf } from "@/lib/shared/narrow";

/**
 * Which evidence axes a reference bears on, and the finding it states on each: its main finding on
 * the axis of its design (a trial in people on human trials, a cohort on observational cohorts, a
 * study in mice on animal models), and each sentence it has on safety, dose and timing, or
 * mechanism on that axis. One reference can thus be on two axes, never twice on one, and a
 * sentence is one finding only.
 */

const TOPICAL: Partial<Record<AxisId, RegExp>> = {
  safety:
    /\b(adverse (events?|effects?|reactions?)|side[- ]effects?|toxicit(y|ies)|tolerat(ed|ability|e)|safety|safe|harms?|complications?|discontinu\w+|hyperglyc\w+|hyperlipid\w+|stomatitis|mouth ulcers?|infections?|bleeding)\b/i,
  dose_timing:
    /\b(\d+(\.\d+)?\s?(mg|µg|mcg|g|iu|ppm)(\/kg)?\b|doses?|dosing|dosage|intermittent\w*|regimens?|schedules?|timing|late in life|early in life|midlife|middle age|(beginning|starting|started) at|at \d+ (days|weeks|months|years) of age|once (a|per) (day|week)|weekly|every other (day|week))\b/i,
  mechanism:
    /\b(mechanisms?|mechanistic|pathways?|signal(l)?ing|mtorc?[12]?|ampk|sirtuins?|autophag\w+|mitochondri\w+|senescent cells?|gene expression|transcription\w*|mediated (by|through)|inhibition of|phosphorylat\w+)\b/i,
};
const AIM = /\b(whether|aims?|aimed|objectives?|purpose|we (sought|investigated|examined|assessed|evaluated|hypothesi[sz]ed))\b/i;
/** A sentence of the methods: what was measured or given, not what was found. */
const METHODS = /\b((primary|secondary) (outcomes?|end ?points?)|outcomes included|were (randomi[sz]ed|assigned|enrolled|recruited)|enrolling|we (conducted|enrolled|recruited|measured)|participants received|received .{1,60}\bor (placebo|usual care))\b/i;
/** What a report says happened: adverse events, a comparison. */
const REPORTED = /\b(caused|occurred|more (frequent|common)|less (frequent|common)|reported|led to|developed|experienced|rates?|incidence|\d+(\.\d+)?\s?%|less|fewer|as much as|than)\b/i;
const REVIEW_TRIALS = /\brandomi[sz]ed|\btrials?\b/i;
const REVIEW_COHORTS = /\b(cohorts?|observational|prospective|population-based)\b/i;
const REVIEW_ANIMALS = /\b(mice|mouse|rats?|rodents?|animal models?|monkeys?|worms?|flies|drosophila|elegans)\b/i;
/** The axes whose findings answer the question itself (the verdict's studies, by design). */
export const ANSWERING_AXES: AxisId[] = ["human_trials", "observational", "animal"];
const ANIMALS: StudySpecies[] = ["mouse", "rat", "nonhuman_primate", "dog", "other_mammal", "fish", "fly", "worm", "yeast"];

/**
 * The axis a reference's design puts it on, by the one rule of lib/shared/contracts/designs.ts (the
 * engine's evidence type and species): a trial on human trials, an observational study on
 * observational cohorts, animals on animal models, cells on mechanism. Reviews go by what their
 * text reviews; other and unstated designs stay on the axis searched, and the reply quotes them
 * apart from that axis' own design (report.ts).
 */
function designAxis(ref: StoredReference, searched: AxisId): AxisId {
  const type = ref.evidenceType ?? "unknown";
  const species = ref.snapshot?.species ?? null;
  const group = designGroupOf({ evidenceType: type, species });
  if (group === "animal_or_cell") return species === "cells" ? "mechanism" : "animal";
  if (group === "human_trial") return "human_trials";
  if (group === "observational") return "observational";
  const text = `${ref.title} ${ref.abstract ?? ""}`;
  if (type === "systematic_review" || type === "narrative_review") {
    if (REVIEW_TRIALS.test(text) && searched === "human_trials") return "human_trials";
    if (REVIEW_COHORTS.test(text) && searched === "observational") return "observational";
    if (REVIEW_ANIMALS.test(text) && searched === "animal") return "animal";
  }
  return searched;
}

/** Whether a reference counts as evidence of its axis' design (a review or an unknown design does not). */
export function isDesignEvidence(axis: AxisId, finding: Pick<Finding, "design" | "species">): boolean {
  const design = finding.design ?? "unknown";
  switch (axis) {
    case "human_trials":
      return HUMAN_TRIAL_DESIGNS.includes(design) || (design === "systematic_review" && finding.species !== "mouse");
    case "observational":
      return design === "observational";
    case "animal":
      return design === "preclinical" || (finding.species != null && ANIMALS.includes(finding.species));
    default:
      return design !== "commentary";
  }
}

/** The sentence of a reference on a topical axis: the first of its abstract's sentences in the axis' vocabulary, other than `except`. */
function topicalSentence(ref: StoredReference, axis: AxisId, except: (sentence: string) => boolean = () => false): string | null {
  if (!TOPICAL[axis] || !ref.abstract) return null;
  const { sentences, background } = quotableSentences(ref.abstract);
  return sentences.find((s, at) => !(at === 0 && background) && statesTopical(s, axis) && !except(s)) ?? null;
}

/**
 * The sentences of an abstract a finding may quote: never its background, aims or methods
 * (passages.ts). In an unlabelled abstract of three or more sentences, the first is the background.
 */
function quotableSentences(abstract: string): { sentences: string[]; background: boolean } {
  const labelled = placedSentences(abstract).some((s) => s.section !== null);
  const sentences = findingSentences(abstract);
  return { sentences, background: !labelled && sentences.length >= 3 };
}

/**
 * Each topical axis' sentence of a reference, a sentence on one axis only: the pairs whose
 * sentence holds the most of an axis' vocabulary are taken first ("the intermittent schedule
 * caused less hyperglycemia" is on dose and timing more than on safety).
 */
function topicalSentences(ref: StoredReference, taken: (sentence: string) => boolean): { axis: AxisId; sentence: string }[] {
  if (!ref.abstract) return [];
  const pairs: { axis: AxisId; sentence: string; hits: number; at: number }[] = [];
  const { sentences, background } = quotableSentences(ref.abstract);
  sentences.forEach((sentence, at) => {
    if (taken(sentence) || (at === 0 && background)) return;
    for (const axis of keysOf(TOPICAL)) {
      const vocabulary = TOPICAL[axis];
      if (!vocabulary || !statesTopical(sentence, axis)) continue;
      const hits = [...sentence.matchAll(new RegExp(vocabulary.source, "gi"))].length;
      if (hits > 0) pairs.push({ axis, sentence, hits, at });
    }
  });
  pairs.sort((a, b) => b.hits - a.hits || a.at - b.at);
  const out: { axis: AxisId; sentence: string }[] = [];
  for (const p of pairs) if (!out.some((o) => o.axis === p.axis || o.sentence === p.sentence)) out.push(p);
  return out;
}

/** A sentence worth a finding on a topical axis: one that states a finding or what happened (adverse events, a comparison of doses), not an aim. */
function statesTopical(sentence: string, axis: AxisId): boolean {
  if (!TOPICAL[axis]!.test(sentence) || AIM.test(sentence) || METHODS.test(sentence)) return false;
  return isFindingSentence(sentence) || REPORTED.test(sentence) || (axis === "dose_timing" && /\d\s?(mg|µg|mcg|g|iu|ppm)\b/i.test(sentence));
}

/**
 * The findings of one reference, found by the iteration that searched `searched`. A reference the
 * question's own searches found states its main finding on its design's axis, and a sentence on
 * each topical axis it has one for. One found by an intervention's search (its safety, mechanism,
 * doses) states only what it says on that axis: it is not evidence on the question itself.
 * Statements the conversation already holds (`known`) are left aside, so a reference's next
 * sentence on an axis can still be heard.
 */
export function findingsOf({
  ref,
  searched,
  anchoredToQuestion,
  terms,
  reading,
  ordinal,
  known = () => false,
}: {
  ref: StoredReference;
  searched: AxisId;
  anchoredToQuestion: boolean;
  terms: QueryTerm[];
  /** The question's reading: a finding on the question carries its study's stance toward it, as the verdict reads it. */
  reading?: QuestionReading;
  ordinal: number;
  known?: (sentence: string) => boolean;
}): Finding[] {
  const reference: FindingReference = { ordinal, title: ref.title, url: ref.url, pmid: ref.pmid ?? null, doi: ref.doi ?? null };
  const design = ref.evidenceType ?? "unknown";
  const species = ref.snapshot?.species ?? null;
  const findings: Finding[] = [];
  const statementOf = (sentence: string) =>
    quotable(namesItsSubjects(sentence, ref) ? sentence : withSubject(sentence, { snapshot: ref.snapshot ?? null, evidenceType: design, abstract: ref.abstract ?? null, title: ref.title }));
  const taken = (sentence: string) => known(quotable(sentence)) || known(statementOf(sentence));
  const stance = anchoredToQuestion && reading ? referenceStance({ abstract: ref.abstract ?? null, snapshot: ref.snapshot ?? null }, reading).stance : undefined;
  const add = (axis: AxisId, sentence: string | null, direction: OutcomeDirection) => {
    if (!sentence) return;
    sentence = unlabelled(sentence);
    const statement = statementOf(sentence);
    const quote = quotable(sentence);
    if (findings.some((f) => f.statement === statement || f.quote === quote)) return;
    findings.push({ statement, quote, references: [reference], axis, species, direction, ...(stance && ANSWERING_AXES.includes(axis) ? { stance } : {}), design });
  };
  if (anchoredToQuestion) {
    // The sentence that bears on the question (sharing most of its terms, a stated finding first),
    // else the study's own main finding: what the reply quotes is what its direction is read from.
    const main = unlabelled(questionPassage(ref.abstract ?? null, terms) ?? ref.snapshot?.finding ?? (ref.abstract ? bestPassage(ref.abstract, terms) : null) ?? ref.title);
    add(designAxis(ref, searched), main, directionOfSentence(main));
    for (const { axis, sentence } of topicalSentences(ref, (s) => s === main || taken(s))) add(axis, sentence, directionOfSentence(sentence));
  } else {
    const sentence = topicalSentence(ref, searched, taken) ?? (isCellMechanism(ref, searched) ? (ref.snapshot?.finding ?? null) : null);
    add(searched, sentence, sentence ? directionOfSentence(sentence) : "unclear");
  }
  return findings;
}

/** Whether a sentence already says whom it is about: it opens with them ("Among 5,200 …"), or names the study's population or sample size. */
function namesItsSubjects(sentence: string, ref: StoredReference): boolean {
  if (/^(among|in|of)\s+(the\s+)?[\d,]+\s/i.test(sentence)) return true;
  const snapshot = ref.snapshot;
  if (!snapshot) return false;
  const n = snapshot.sampleSize;
  const population = snapshot.population?.toLowerCase();
  return (n !== null && (sentence.includes(String(n)) || sentence.includes(n.toLocaleString("en-US")))) || (population !== undefined && population.length > 3 && sentence.toLowerCase().includes(population));
}

/** Whether a reference an intervention's search found says anything on that axis. */
export function bearsOn(ref: StoredReference, axis: AxisId): boolean {
  return topicalSentence(ref, axis) !== null || (isCellMechanism(ref, axis) && Boolean(ref.snapshot?.finding));
}

/** A study in cells found by the mechanism search: its main finding is on mechanism. */
function isCellMechanism(ref: StoredReference, axis: AxisId): boolean {
  return axis === "mechanism" && ref.snapshot?.species === "cells";
}

function directionOfSentence(sentence: string): OutcomeDirection {
  return directionOf(readFinding(sentence));
}

/**
 * The stated finding of an abstract that shares most of the question's terms, from the authors'
 * conclusion when it states one (the section the study's stance is read from, so the sentence
 * quoted is the one the verdict counts), else from its results; never its aim or methods.
 */
function questionPassage(abstract: string | null, terms: QueryTerm[]): string | null {
  if (!abstract) return null;
  const stated = (s: string) => isFindingSentence(s) && !METHODS.test(s);
  const concluded = placedSentences(abstract).filter((s) => s.section === "conclusions" && stated(s.text)).map((s) => s.text);
  const findings = concluded.length > 0 ? concluded : findingSentences(abstract).filter(stated);
  return findings.length > 0 ? bestPassage(findings.join(" "), terms) : null;
}
