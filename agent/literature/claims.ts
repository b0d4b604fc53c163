import type { EvidenceType } from "@/lib/shared/contracts";
import type { AnswerReference } from "./answer-reference";
import { lowerFirst } from "./snapshot";
import { stemSet, tokenize } from "./terms";

/**
 * A claim with its subject: the sentence quoted from a study, with the study's intervention and
 * population (from its snapshot) put before it when the sentence does not name them.
 */


const PEOPLE_OR_ANIMALS =
  /\b(adults?|patients?|participants?|subjects|individuals|women|men|children|adolescents|infants|volunteers|persons|people|residents|veterans|twins|centenarians|users|survivors|smokers|cohorts?|populations?|mice|mouse|rats?|animals|monkeys|macaques|dogs|flies|worms|yeast|cells|humans?|elderly|group|groups|arms?|cases|controls)\b/i;
const GENERIC_INTERVENTION_WORDS = new Set(
  "therapy treatment treatments supplementation supplement supplements use users intake dose doses low high oral daily intermittent plus and with the of a an in on for combined combination".split(" "),
);

/**
 * Whether a sentence already says whom it is about: people or animals in general words, the
 * snapshot's own population noun ("recipients"), or the study's sample size ("Among 5,200 …").
 */
function namesPopulation(sentence: string, population: string, sampleSize: number | null | undefined): boolean {
  if (PEOPLE_OR_ANIMALS.test(sentence)) return true;
  // The head noun comes before any qualifier: "patients with idiopathic pulmonary fibrosis" → patients.
  const core = population.split(/\s+(?:with|of|in|aged|who|from|at|on|undergoing|receiving|treated|after|before)\s+/i)[0]!;
  const head = tokenize(core).filter((w) => w.length > 3).at(-1);
  if (head && [...stemSet(head)].some((s) => stemSet(sentence).has(s))) return true;
  if (sampleSize && new RegExp(`\\b(${sampleSize}|${sampleSize.toLocaleString("en-US").replace(/,/g, ",?")})\\b`).test(sentence)) return true;
  return false;
}

/** Whether a sentence already names the intervention: any of its distinctive words. */
function namesIntervention(sentence: string, intervention: string): boolean {
  const stems = stemSet(sentence);
  const words = tokenize(intervention).filter((w) => w.length > 2 && !GENERIC_INTERVENTION_WORDS.has(w));
  return words.length === 0 || words.some((w) => [...stemSet(w)].some((s) => stems.has(s)));
}

const DESIGN_NOUN: Record<EvidenceType, string> = {
  systematic_review: "a systematic review",
  randomized_controlled_trial: "a randomized trial",
  controlled_trial: "a controlled trial",
  single_arm_trial: "a trial",
  observational: "a study",
  preclinical: "a study",
  narrative_review: "a review",
  commentary: "a commentary",
  unknown: "a study",
};
const SPECIES_WORDS: Record<string, string> = { mouse: "mice", rat: "rats", nonhuman_primate: "monkeys", dog: "dogs", fish: "fish", fly: "flies", worm: "worms", yeast: "yeast", cells: "cells" };

/**
 * A claim with its subject: when the quoted sentence names neither the study's intervention nor
 * whom it was done in ("Physical function improved after three weeks of treatment."), they are
 * put before it ("In a trial of dasatinib plus quercetin in 14 patients with idiopathic pulmonary
 * fibrosis, physical function improved …"). Only what the snapshot knows is added.
 */
export function withSubject(sentence: string, reference: Pick<AnswerReference, "snapshot" | "evidenceType" | "abstract" | "title">): string {
  const snapshot = reference.snapshot;
  if (!snapshot) return sentence;
  const intervention = snapshot.intervention && !namesIntervention(sentence, snapshot.intervention) ? snapshot.intervention : null;
  const population = snapshot.population ?? (snapshot.species ? (SPECIES_WORDS[snapshot.species] ?? null) : null);
  const who = population && !namesPopulation(sentence, population, snapshot.sampleSize) ? (snapshot.sampleSize ? `${snapshot.sampleSize.toLocaleString("en-US")} ${population}` : population) : null;
  if (!intervention && !who) return sentence;
  let design = DESIGN_NOUN[reference.evidenceType];
  if (reference.evidenceType === "systematic_review" && /meta-analy/i.test(`${reference.title} ${reference.abstract ?? ""}`)) design = "a meta-analysis";
  const prefix = intervention ? `In ${design} of ${intervention}${who ? ` in ${who}` : ""}` : `In ${who}`;
  // The abstract decides whether the first word keeps its capital: a Title Case title would make
  // every word look like a name ("…, Inhibition of the mTOR pathway").
  const context = reference.abstract ?? reference.title;
  return `${prefix}, ${lowerFirst(sentence, context)}`;
}
