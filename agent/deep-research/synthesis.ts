import type { OutcomeDirection, StudySpecies } from "@/lib/shared/contracts";
import { AXES, AXIS_IDS, type AxisId, type AxisPlan, type ResearchQuestion } from "./axes";
import { isDesignEvidence } from "./axis-findings";
import type { Contradiction, Finding, FindingReference } from "./world";

/**
 * What the evidence by axis adds up to, deterministically: contradictions (findings on one axis,
 * and for animals in one species, that go opposite ways), hypotheses drawn from what the axes
 * found (an effect in mice not yet tried in a human trial, an association a trial did not confirm,
 * a mechanism named, a dose that matters), and open questions from what they did not find ("no
 * human randomized trial found", "safety: no adverse-effect data in the references found").
 * `cite` writes a reference's marker; the texts carry it wherever they rest on a reference.
 */

export type Cite = (refs: FindingReference[]) => string;

const SPECIES_GROUP: Partial<Record<StudySpecies, string>> = {
  mouse: "Mouse studies",
  rat: "Rat studies",
  nonhuman_primate: "Monkey studies",
  dog: "Dog studies",
  fish: "Fish studies",
  fly: "Fly studies",
  worm: "Worm studies",
  yeast: "Yeast studies",
};
export const SPECIES_PLURAL: Partial<Record<StudySpecies, string>> = {
  mouse: "mice",
  rat: "rats",
  nonhuman_primate: "monkeys",
  dog: "dogs",
  fish: "fish",
  fly: "flies",
  worm: "worms",
  yeast: "yeast",
  other_mammal: "other mammals",
  cells: "cells",
  human: "people",
};
const AXIS_GROUP: Record<AxisId, string> = {
  human_trials: "Human trials",
  observational: "Cohort studies",
  animal: "Animal studies",
  mechanism: "Mechanistic studies",
  safety: "Reports on safety",
  dose_timing: "Studies of dose and timing",
};
const STATED: OutcomeDirection[] = ["positive", "negative", "null"];

/** The question's subject in a few words: "rapamycin and lifespan". */
function topicOf(read: ResearchQuestion): string {
  return read.topic;
}

/** The axes whose findings answer the question itself: their studies can disagree on it. */
const ANSWERING: AxisId[] = ["human_trials", "observational", "animal"];

/**
 * Findings on one axis that answers the question (animals: in one species) of which some state an
 * effect and others none. (Which way an effect goes is read less reliably than whether there is
 * one, so only that is taken for a disagreement.)
 */
export function findContradictions(findings: Finding[], read: ResearchQuestion, cite: Cite): Contradiction[] {
  const groups = new Map<string, { axis: AxisId; species: StudySpecies | null; group: Finding[] }>();
  for (const f of findings) {
    if (!f.axis || !ANSWERING.includes(f.axis) || !sideOf(f)) continue;
    const species = f.axis === "animal" ? (f.species ?? null) : null;
    const key = `${f.axis}|${species ?? ""}`;
    const known = groups.get(key);
    if (known) known.group.push(f);
    else groups.set(key, { axis: f.axis, species, group: [f] });
  }
  const out: Contradiction[] = [];
  for (const { axis, species, group } of groups.values()) {
    const effect = group.filter((f) => sideOf(f) === "for").flatMap((f) => f.references);
    const none = group.filter((f) => sideOf(f) === "against").flatMap((f) => f.references);
    if (effect.length === 0 || none.length === 0) continue;
    const label = (species && SPECIES_GROUP[species]) ?? AXIS_GROUP[axis];
    out.push({
      axis,
      species,
      statement: `${label} disagree on ${topicOf(read)}: ${some(effect, cite)} ${effect.length === 1 ? "finds" : "find"} for it, ${some(none, cite)} against it.`,
      references: [...effect, ...none],
    });
  }
  return out;
}

/**
 * Which side of the question a finding is on: its study's stance as the verdict reads it (one
 * reading, so the reply never says the evidence contradicts what its quoted findings support); a
 * finding stored before findings carried a stance, by its sentence's direction.
 */
function sideOf(f: Finding): "for" | "against" | null {
  if (f.stance) return f.stance === "supports" ? "for" : f.stance === "contradicts" ? "against" : null;
  if (!f.direction || !STATED.includes(f.direction)) return null;
  return f.direction === "null" ? "against" : "for";
}

/** At most three references cited, and how many more there are: "[1][2][3] and 4 more". */
function some(refs: FindingReference[], cite: Cite): string {
  return refs.length > 3 ? `${cite(refs.slice(0, 3))} and ${refs.length - 3} more` : cite(refs);
}

/** Hypotheses drawn from what the axes found, each resting on the references it cites; at most four. */
export function deriveHypotheses({
  findings: all,
  read,
  cite,
  supporting,
}: {
  findings: Finding[];
  read: ResearchQuestion;
  cite: Cite;
  /** Whether a finding's study tests the question (evidence role `supporting`): hypotheses rest on no other. */
  supporting: (f: Finding) => boolean;
}): string[] {
  const findings = all.filter(supporting);
  const subject = read.intervention ?? topicOf(read);
  const outcome = read.outcome ?? "the outcome asked about";
  const on = (axis: AxisId, pred: (f: Finding) => boolean = () => true) => findings.filter((f) => f.axis === axis && pred(f));
  const refs = (list: Finding[]) => list.slice(0, 3).flatMap((f) => f.references);
  const positive = (f: Finding) => sideOf(f) === "for";
  const trials = on("human_trials", (f) => isDesignEvidence("human_trials", f));
  const positiveTrials = trials.filter(positive);
  const nullTrials = trials.filter((f) => sideOf(f) === "against");
  const animals = on("animal", (f) => positive(f) && isDesignEvidence("animal", f));
  const cohorts = on("observational", positive);
  const mechanisms = on("mechanism");
  const doses = on("dose_timing");
  const harms = on("safety", (f) => f.direction === "negative" || /\b(adverse|side[- ]effects?|toxicit|hyperglyc|stomatitis|ulcers?|infections?)\b/i.test(f.statement));
  const out: string[] = [];

  if (animals.length > 0 && positiveTrials.length === 0) {
    const species = [...new Set(animals.map((f) => (f.species ? SPECIES_PLURAL[f.species] : null)).filter(Boolean))].join(" and ") || "animals";
    out.push(
      nullTrials.length > 0
        ? `The effect of ${subject} seen in ${species} ${cite(refs(animals))} did not carry over in the human trials found ${cite(refs(nullTrials))}: dose, duration or the outcomes measured may explain the difference.`
        : `If the effect of ${subject} on ${outcome} seen in ${species} ${cite(refs(animals))} carries over to people, a randomized trial in humans would show it; none among the references found has tested it.`,
    );
  }
  if (cohorts.length > 0 && nullTrials.length > 0 && positiveTrials.length === 0) {
    out.push(`The association seen in cohorts ${cite(refs(cohorts))} may be confounded rather than causal: the randomized trials ${cite(refs(nullTrials))} found no such effect.`);
  } else if (cohorts.length > 0 && trials.length === 0) {
    out.push(
      read.association
        ? `The association of ${subject} with ${outcome} in cohorts ${cite(refs(cohorts))} may be causal or may mark something else; studies that change ${subject} would tell which.`
        : `The association of ${subject} with ${outcome} in cohorts ${cite(refs(cohorts))} would be causal if a randomized trial showed the same; no such trial was found.`,
    );
  }
  if (positiveTrials.length > 0) {
    out.push(`The effect reported in human trials ${cite(refs(positiveTrials))} should hold in a larger and longer randomized trial with ${outcome} itself as the outcome.`);
  }
  if (mechanisms.length > 0) {
    const named = mechanismNamed(mechanisms.map((f) => f.statement).join(" "));
    out.push(`${capitalise(subject)} would act on ${outcome} through ${named} ${cite(refs(mechanisms))}: a marker of ${named} measured in the human studies would test it.`);
  }
  if (doses.length > 0) out.push(`The effect may depend on dose or on when treatment starts ${cite(refs(doses))}: a direct comparison of regimens would test it.`);
  if (harms.length > 0) out.push(`Any benefit would have to outweigh the adverse effects reported ${cite(refs(harms))} at the doses studied.`);
  return out.slice(0, 4);
}

/**
 * Open questions from what each axis did not find (or was not searched for), and from the
 * contradictions. `findings` are everything the conversation knows, so a gap an earlier turn
 * filled is not reported again.
 */
export function deriveOpenQuestions({
  findings,
  read,
  plan,
  contradictions,
}: {
  findings: Finding[];
  read: ResearchQuestion;
  plan: AxisPlan;
  contradictions: Contradiction[];
}): string[] {
  const topic = topicOf(read);
  const subject = read.intervention ?? topic;
  const searched = new Set(plan.planned.map((p) => p.axis));
  const on = (axis: AxisId) => findings.filter((f) => f.axis === axis);
  const out: string[] = [];
  for (const axis of AXIS_IDS) {
    if (plan.notCovered.some((n) => n.axis === axis && n.reason === "not_applicable")) continue;
    const found = on(axis);
    const evidence = found.filter((f) => isDesignEvidence(axis, f));
    const notSearched = searched.has(axis) ? "" : ` (${AXES[axis].label.toLowerCase()} ${axis === "human_trials" || axis === "animal" ? "were" : "was"} not searched in this turn, for the iteration budget)`;
    switch (axis) {
      case "human_trials": {
        const randomized = evidence.filter((f) => f.design === "randomized_controlled_trial" || f.design === "systematic_review");
        if (randomized.length === 0) {
          const other = evidence.length > 0 ? `; the human trial evidence is ${evidence.length} uncontrolled or non-randomized trial${evidence.length === 1 ? "" : "s"}` : "";
          out.push(`No human randomized trial of ${topic} was found${other}${notSearched}.`);
        }
        break;
      }
      case "observational":
        if (evidence.length === 0) out.push(`No observational cohort on ${topic} was found${notSearched}.`);
        break;
      case "animal": {
        if (evidence.length === 0) out.push(`No animal study of ${topic} was found${notSearched}.`);
        else {
          const species = [...new Set(evidence.map((f) => f.species).filter((s): s is StudySpecies => Boolean(s)))];
          if (species.length === 1 && SPECIES_PLURAL[species[0]!]) out.push(`Only studies in ${SPECIES_PLURAL[species[0]!]} were found among animal models: whether it holds in other species is open.`);
        }
        break;
      }
      case "mechanism":
        if (found.length === 0) out.push(`Mechanism: how ${subject} would act on ${read.outcome ?? "the outcome"} is not described in the references found${notSearched}.`);
        break;
      case "safety":
        if (found.length === 0) out.push(`Safety: no adverse-effect data in the references found${notSearched}.`);
        break;
      case "dose_timing":
        if (found.length === 0) out.push(`Dose and timing: no reference found compares doses, schedules or when to start${notSearched}.`);
        break;
    }
  }
  for (const c of contradictions) out.push(`${c.statement.replace(/\.$/, "")}: which differences in design, dose or population explain it is open.`);
  return out;
}

function mechanismNamed(text: string): string {
  const match = /\b(mTORC?[12]?|AMPK|sirtuins?|autophagy|mitochondrial \w+|senescent cells|NAD\+|insulin signal(l)?ing|IGF-1)\b/i.exec(text);
  return match ? match[0] : "the pathway these studies describe";
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
