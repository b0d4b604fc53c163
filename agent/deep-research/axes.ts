import { phrasesOf, readQuestion, type QuestionReading, type RequiredPart } from "../literature/reading";
import { isVerbOnly } from "../literature/vocabulary";
import { extractTerms, stemSet, tokenize } from "../literature/terms";
import { listed } from "../literature/words";

/**
 * The evidence axes a deep-research run plans by, and how a question is read into them: its
 * concepts (the content words that name what it is about, without the words that name a design,
 * a species or a direction), the intervention or exposure, the outcome, and which axes it asks
 * about. Each iteration searches one axis with a well-formed query: the concepts plus the axis'
 * vocabulary ("rapamycin lifespan randomized controlled trial", "rapamycin lifespan mice",
 * "rapamycin mTOR mechanism aging", "rapamycin adverse effects").
 */

export const AXIS_IDS = ["human_trials", "observational", "animal", "mechanism", "safety", "dose_timing"] as const;
export type AxisId = (typeof AXIS_IDS)[number];

/**
 * `question`: the axis' references must address the question itself (relevance is judged against
 * it; the axis' words only steer what the sources are asked). `intervention`: they must address
 * the intervention, not necessarily the outcome (its safety in any population, its mechanism, its
 * doses), so relevance is judged against the axis query, which names the intervention.
 */
export type Anchor = "question" | "intervention";

export const AXES: Record<AxisId, { label: string; anchor: Anchor }> = {
  human_trials: { label: "Human trials", anchor: "question" },
  observational: { label: "Observational cohorts", anchor: "question" },
  animal: { label: "Animal models", anchor: "question" },
  mechanism: { label: "Mechanism", anchor: "intervention" },
  safety: { label: "Safety and adverse effects", anchor: "intervention" },
  dose_timing: { label: "Dose and timing", anchor: "intervention" },
};

export function isAxisId(value: unknown): value is AxisId {
  return AXIS_IDS.some((id) => id === value);
}

/** What a question is about, as far as planning by axes goes. */
export type ResearchQuestion = {
  question: string;
  /** Content words naming the subject, in the question's order (at most six). */
  concepts: string[];
  /** The intervention or exposure, a noun phrase ("rapamycin", "telomere length"); null when none stands out. */
  intervention: string | null;
  /** The outcome, a noun phrase or a list of them ("lifespan", "aging and muscle"); null when none stands out. */
  outcome: string | null;
  /** What the question asks about, as a noun phrase for the reply's sentences: "rapamycin and lifespan". */
  topic: string;
  /** The question's one reading (reading.ts): its parts, and what each study's stance is read against. */
  reading: QuestionReading;
  /** The animal the question names, as a search word ("mice"); null when it names none. */
  species: string | null;
  /** The people the question names ("older adults", "women"), for the searches in humans; null when none. */
  population: string | null;
  /** It asks about an association with a trait or exposure, not an intervention's effect. */
  association: boolean;
  /** Axes the question itself asks about ("is it safe?" asks about safety), most specific first. */
  asked: AxisId[];
};

const SPECIES_WORDS: [RegExp, string][] = [
  [/^(mice|mouse|murine|rodents?)$/, "mice"],
  [/^rats?$/, "rats"],
  [/^(monkeys?|macaques?|primates?|marmosets?|rhesus)$/, "monkeys"],
  [/^(dogs?|canine)$/, "dogs"],
  [/^(zebrafish|killifish|fish)$/, "fish"],
  [/^(drosophila|flies|fly)$/, "Drosophila"],
  [/^(elegans|nematodes?|worms?)$/, "Caenorhabditis elegans"],
  [/^yeast$/, "yeast"],
];
const POPULATION_WORDS = /^(women|men|children|adolescents|infants|elderly|older|postmenopausal|adults|veterans|twins|centenarians|smokers)$/;
const ANIMAL_GENERIC = /^(animals?|species|models?|vertebrates?|invertebrates?|organisms?)$/;
const HUMAN_WORDS = /^(humans?|people|persons?|adults?|older|elderly|patients?|participants?|men|women|individuals?|subjects|volunteers|population|clinical)$/;
const DESIGN_WORDS = /^(trials?|randomi[sz]ed|controlled|rcts?|placebo|cohorts?|observational|prospective|retrospective|meta-analys[ie]s|reviews?|systematic|studies|study|experiments?|evidence|data)$/;
/** Verbs and words that say which way or whether, not what: they belong to the reading, not the search. */
const DIRECTION_WORDS =
  /^(extend|extends|extended|extending|increase[sd]?|increasing|reduce[sd]?|reducing|lower[s]?|lowered|raise[sd]?|improve[sd]?|improving|delay[s]?|delayed|slow[s]?|slowed|prevent[s]?|protect[s]?|affect[s]?|boost[s]?|promote[s]?|prolong[s]?|prolonged|shorten[s]?|decrease[sd]?|cause[sd]?|help[s]?|work[s]?|benefit[s]?|beneficial|effective|efficacy|change[sd]?|modif(y|ies)|influence[sd]?|alter[s]?|long-term|really|actually|best|good|bad|which|what|how|why|when|much|many|often|long|far|better|worse|true|does|do)$/;
/** Words asking about one axis: they pick the axis, and are not concepts of the search. */
const AXIS_CUES: [RegExp, AxisId][] = [
  [/^(safe|safer|safest|safety|side|adverse|toxicity|toxic|harm|harms|harmful|risks|dangerous|tolerated|tolerability)$/, "safety"],
  [/^(dose|doses|dosage|dosing|timing|schedule|intermittent|regimen|start|started|starting|age|ages)$/, "dose_timing"],
  [/^(mechanism|mechanisms|pathway|pathways|mechanistic|mediated|mediate|mediates)$/, "mechanism"],
];
/** Words that qualify an outcome without naming one ("the risk of dementia" is about dementia). */
const GENERIC_WORDS = /^(risk|risks|odds|onset|incidence|rate|rates|progression|development|such)$/;
const ASSOCIATION_CUES = /\b(associat\w*|correlat\w*|predict\w*|linked|link between|relationship|biomarkers?|markers?)\b/i;
/** A trait, a measure or a level is an exposure one has, not an intervention one takes. */
const TRAIT_WORDS = /^(length|levels?|concentrations?|counts?|scores?|status|variants?|polymorphisms?|genotypes?|genes?|pressure|glucose|cholesterol|bmi|index|clock|methylation|acceleration|mass|weight|height|size|speed|strength|markers?|biomarkers?)$/;
const OUTCOME_WORDS =
  /^(lifespan|life|span|longevity|healthspan|aging|ageing|aged|senescence|mortality|survival|death|deaths|frailty|dementia|alzheimer|alzheimer's|cognitive|cognition|decline|disease|diseases|cancer|cancers|cardiovascular|function|fractures?|falls|sarcopenia|disability|morbidity|outcomes?|health|risk)$/;
/** What a question's intervention acts on, for the mechanism axis; a known target says it better than "mechanism" alone. */
const MECHANISM_TARGETS: [RegExp, string][] = [
  [/\b(rapamycin|sirolimus|everolimus|rapalogs?|temsirolimus)\b/i, "mTOR"],
  [/\b(metformin|aicar)\b/i, "AMPK"],
  [/\b(nad\+?|nicotinamide|riboside|mononucleotide|nmn)\b/i, "NAD+ sirtuin"],
  [/\b(resveratrol|sirtuins?)\b/i, "sirtuin"],
  [/\b(senolytics?|dasatinib|quercetin|fisetin|navitoclax)\b/i, "senescent cells"],
  [/\b(caloric|calorie|dietary|fasting|restriction)\b/i, "nutrient sensing"],
  [/\b(spermidine|autophagy)\b/i, "autophagy"],
  [/\b(exercise|training|physical activity)\b/i, "mitochondrial"],
  [/\b(telomeres?|telomerase)\b/i, "telomerase"],
  [/\b(acarbose|glucose)\b/i, "glucose metabolism"],
];
const AGING_OUTCOMES = /^(lifespan|life|span|longevity|healthspan|aging|ageing|senescence|survival|mortality)$/;

/** Reads a question into concepts, intervention, outcome, species and the axes it asks about. */
export function readResearchQuestion(question: string): ResearchQuestion {
  const tokens = tokenize(question);
  const asked: AxisId[] = [];
  let species: string | null = null;
  let humans = false;
  for (const token of tokens) {
    const cue = AXIS_CUES.find(([re]) => re.test(token))?.[1];
    if (cue && !asked.includes(cue)) asked.push(cue);
    const animal = SPECIES_WORDS.find(([re]) => re.test(token))?.[1];
    if (animal && !species) species = animal;
    if (HUMAN_WORDS.test(token) || /^(trials?|randomi[sz]ed|rcts?|placebo)$/.test(token)) humans = true;
  }
  if (/\bside[- ]effects?\b/i.test(question) && !asked.includes("safety")) asked.push("safety");
  if (/\b(how|why)\b.*\b(work|works|act|acts)\b/i.test(question) && !asked.includes("mechanism")) asked.push("mechanism");
  if (/\b(how much|how often|when to|what age)\b/i.test(question) && !asked.includes("dose_timing")) asked.push("dose_timing");
  if (species || tokens.some((t) => ANIMAL_GENERIC.test(t) && t !== "models" && t !== "model")) asked.unshift("animal");
  if (humans) asked.unshift("human_trials");

  const concepts = conceptWords(question);
  const reading = readQuestion(question);
  const { intervention, outcomes } = partsOf(reading, concepts);
  const outcome = outcomes.length > 0 ? listed(outcomes) : null;
  const association = ASSOCIATION_CUES.test(question) || (intervention !== null && tokenize(intervention).some((w) => TRAIT_WORDS.test(w)));
  if (association && !asked.includes("observational")) asked.push("observational");
  const population = tokens.filter((t) => POPULATION_WORDS.test(t)).join(" ") || null;
  const topic = intervention ? listed([intervention, ...outcomes]) : concepts.join(" ") || question.replace(/[?!.]+$/, "");
  return { question, concepts, intervention, outcome, topic, reading, species, population, association, asked: [...new Set(asked)] };
}

/**
 * The intervention and the outcome as noun phrases, from the question's one reading (reading.ts):
 * its parts lie on either side of the relation ("Can physical training counteract the effects of
 * aging?" relates physical training to aging), so no verb of the question is ever inside them, and
 * every sentence built from them is grammatical. A question that relates nothing asks about its
 * subject's first concept, bearing on the others; one the reading finds no concept in keeps this
 * module's own guess.
 */
function partsOf(reading: QuestionReading, concepts: string[]): { intervention: string | null; outcomes: string[] } {
  const labels = (part: RequiredPart) => reading.concepts.filter((c) => c.part === part).flatMap((c) => phrasesOf(c.label));
  const own = interventionAndOutcome(reading.question, concepts);
  // This module's longer name of the same intervention ("vitamin d supplementation" for "vitamin"), when it holds no verb.
  const named = (label: string) => (own.intervention && !hasVerb(own.intervention) && tokenize(label).every((w) => tokenize(own.intervention!).includes(w)) ? own.intervention : label);
  const exposure = labels("exposure")[0] ?? null;
  if (exposure) return { intervention: named(exposure), outcomes: labels("outcome") };
  // "leucocyte telomere length and mortality": the first concept is what is asked about, the others what it bears on.
  const subjects = [...labels("topic"), ...labels("subject")].filter((label) => !AXIS_CUES.some(([re]) => tokenize(label).every((w) => re.test(w))));
  if (subjects.length > 0) return { intervention: named(subjects[0]!), outcomes: subjects.slice(1) };
  return { intervention: own.intervention && !hasVerb(own.intervention) ? own.intervention : null, outcomes: own.outcome && !hasVerb(own.outcome) ? [own.outcome] : [] };
}

function hasVerb(phrase: string): boolean {
  return tokenize(phrase).some(isVerbOnly);
}

/**
 * The question's content words that name its subject, in order, at most six; "vitamin D" and the
 * like stay one concept. A question with none of them (a bare follow-up) keeps whatever words it has.
 */
function conceptWords(question: string): string[] {
  const terms = extractTerms(question).filter((t) => t.weight === 1).map((t) => t.term);
  const concepts = terms.filter(
    (w) =>
      !SPECIES_WORDS.some(([re]) => re.test(w)) &&
      !ANIMAL_GENERIC.test(w) &&
      !HUMAN_WORDS.test(w) &&
      !DESIGN_WORDS.test(w) &&
      !DIRECTION_WORDS.test(w) &&
      !AXIS_CUES.some(([re]) => re.test(w)) &&
      !GENERIC_WORDS.test(w) &&
      !isVerbOnly(w) &&
      !/^\d+$/.test(w),
  );
  const lettered = /\b(vitamin|omega)[\s-]([a-k]\d{0,2}|\d{1,2})\b/i.exec(question);
  const named = lettered ? concepts.map((c) => (c === lettered[1]!.toLowerCase() ? lettered[0].toLowerCase().replace("-", " ") : c)) : concepts;
  return (named.length > 0 ? named : terms).slice(0, 6);
}

/**
 * The intervention: the first concept that is not an outcome, with the concepts that follow it in
 * the question while they are not outcomes either ("caloric restriction", "leucocyte telomere
 * length"), three at most. The outcome: the run of concepts around the first outcome concept
 * ("cognitive decline", "age-related disease"), else the last concept left.
 */
function interventionAndOutcome(question: string, concepts: string[]): { intervention: string | null; outcome: string | null } {
  const words = tokenize(question);
  const startOf = (concept: string) => {
    const parts = tokenize(concept);
    return words.findIndex((_, i) => parts.every((p, j) => words[i + j] === p));
  };
  const adjacent = (a: string, b: string) => startOf(a) >= 0 && startOf(b) === startOf(a) + tokenize(a).length;
  const start = concepts.findIndex((c) => !OUTCOME_WORDS.test(c));
  const phrase: string[] = [];
  if (start >= 0) {
    phrase.push(concepts[start]!);
    for (let i = start + 1; i < concepts.length && phrase.length < 3; i++) {
      if (OUTCOME_WORDS.test(concepts[i]!) || !adjacent(phrase.at(-1)!, concepts[i]!)) break;
      phrase.push(concepts[i]!);
    }
  }
  const rest = concepts.filter((c) => !phrase.includes(c));
  const first = rest.findIndex((c) => OUTCOME_WORDS.test(c));
  let outcome: string | null = rest.at(-1) ?? null;
  if (first >= 0) {
    let from = first;
    let to = first;
    while (from > 0 && to - from < 2 && adjacent(rest[from - 1]!, rest[from]!)) from--;
    while (to + 1 < rest.length && to - from < 2 && adjacent(rest[to]!, rest[to + 1]!)) to++;
    outcome = rest.slice(from, to + 1).join(" ");
  }
  return { intervention: phrase.length > 0 ? phrase.join(" ") : null, outcome };
}

/** One planned iteration: the axis and the query its sources are asked. */
export type PlannedAxis = { axis: AxisId; query: string };

export type AxisPlan = {
  planned: PlannedAxis[];
  /** Axes left out, and why: beyond the iteration budget, cut by the time budget, or not applicable to the question. */
  notCovered: { axis: AxisId; reason: "iteration_budget" | "time_budget" | "not_applicable" }[];
};

/** The axes in the order they are searched when the question asks about none in particular. */
const INTERVENTION_ORDER: AxisId[] = ["human_trials", "animal", "observational", "safety", "mechanism", "dose_timing"];
/** An association (a trait, a level, an exposure) has no dose to take or adverse effect to suffer. */
const ASSOCIATION_ORDER: AxisId[] = ["observational", "animal", "mechanism", "human_trials"];

/**
 * The run's plan: the axes most relevant to the question first (those it asks about, then the
 * order above), as many as the iteration budget allows, each with its query. Says which axes are
 * left out and why.
 */
export function planAxes(question: string | ResearchQuestion, iterations: number): AxisPlan {
  const read = typeof question === "string" ? readResearchQuestion(question) : question;
  const base = read.association ? ASSOCIATION_ORDER : INTERVENTION_ORDER;
  const applicable = [...read.asked.filter((a) => base.includes(a) || !read.association), ...base];
  const order = [...new Set(applicable)];
  const planned = order.slice(0, Math.max(0, iterations)).map((axis) => ({ axis, query: axisQuery(read, axis) }));
  const notCovered = [
    ...order.slice(planned.length).map((axis) => ({ axis, reason: "iteration_budget" as const })),
    ...AXIS_IDS.filter((a) => !order.includes(a)).map((axis) => ({ axis, reason: "not_applicable" as const })),
  ];
  return { planned, notCovered };
}

/** The query of one axis: the question's concepts (or its intervention) and the axis' vocabulary. */
export function axisQuery(read: ResearchQuestion, axis: AxisId): string {
  const concepts = read.concepts.length > 0 ? read.concepts.join(" ") : read.question.replace(/[?!.]+$/, "");
  const subject = read.intervention ?? concepts;
  const population = read.population && !tokenize(concepts).some((w) => tokenize(read.population!).includes(w)) ? read.population : null;
  switch (axis) {
    case "human_trials":
      return [concepts, population, "randomized controlled trial"].filter(Boolean).join(" ");
    case "observational":
      return [concepts, population, "cohort"].filter(Boolean).join(" ");
    case "animal":
      return `${concepts} ${read.species ?? "mice"}`;
    case "mechanism": {
      const target = MECHANISM_TARGETS.find(([re]) => re.test(subject))?.[1];
      const context = read.outcome ? (AGING_OUTCOMES.test(read.outcome) ? "aging" : read.outcome) : "";
      return [subject, target ?? null, "mechanism", context && !subject.includes(context) ? context : null].filter(Boolean).join(" ");
    }
    case "safety":
      return `${subject} adverse effects`;
    case "dose_timing":
      return `${subject} dose timing`;
  }
}

/**
 * The terms a source is asked for one axis: the concepts of the variant the engine built, then the
 * axis' own words (each run of them in the query as one phrase: "randomized controlled trial"), so
 * the sources look where the axis points while the engine still judges the references against the
 * question.
 */
export function steerTerms(variant: string[], query: string, read: ResearchQuestion): string[] {
  const concepts = new Set(read.concepts.flatMap((c) => [...stemSet(c)]));
  const isConcept = (word: string) => [...stemSet(word)].some((s) => concepts.has(s));
  const phrases: string[] = [];
  let run: string[] = [];
  for (const word of tokenize(query)) {
    const stop = extractTerms(word).length === 0;
    if (isConcept(word) || stop) {
      if (run.length) phrases.push(run.join(" "));
      run = [];
    } else run.push(word);
  }
  if (run.length) phrases.push(run.join(" "));
  const fromVariant = variant.filter(isConcept);
  const queryConcepts = tokenize(query).filter(isConcept);
  return [...new Set([...(fromVariant.length > 0 ? fromVariant : queryConcepts), ...phrases])];
}
