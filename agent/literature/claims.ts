import type { EvidenceType } from "@/lib/contracts";
import type { AnswerReference } from "./answer";
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
  const who = population && !PEOPLE_OR_ANIMALS.test(sentence) ? (snapshot.sampleSize ? `${snapshot.sampleSize.toLocaleString("en-US")} ${population}` : population) : null;
  if (!intervention && !who) return sentence;
  let design = DESIGN_NOUN[reference.evidenceType];
  if (reference.evidenceType === "systematic_review" && /meta-analy/i.test(`${reference.title} ${reference.abstract ?? ""}`)) design = "a meta-analysis";
  const prefix = intervention ? `In ${design} of ${intervention}${who ? ` in ${who}` : ""}` : `In ${who}`;
  const context = `${reference.title} ${reference.abstract ?? ""}`;
  return `${prefix}, ${lowerFirst(sentence, context)}`;
}
