import type { EvidenceRole, EvidenceType, StudySpecies } from "@/lib/shared/contracts";
import { comparatorTerms, excludedCondition, phrasesOf, populationCondition, requiredParts, type QuestionReading, type RequiredPart } from "./reading";
import { ROUTE_WORDS, stem, stemSet, tokenize, type QueryTerm } from "./terms";
import { ASKS_SAFETY } from "./question";
import type { RejectionReason, RequiredQuestionPart } from "./relevance";
import { asksToPromoteUse } from "./attitudes";
import { OLDER_WORDS, questionAgeGroup, type GroupKind, questionSetting, questionSex, questionStage, type AgeGroup, type Setting, type Sex, type Stage } from "./age-groups";
import { questionDoses, questionRoutes, ROUTE_INCLUDES, titleDirection, type Dose, type Route } from "./studied";
import { listed } from "./words";
import { SPECIES_PLURAL } from "@/lib/shared/contracts/designs";

/**
 * The one place that decides a reference's evidence role, for chat, literature search and deep
 * research alike (and the page shows it, never re-derives it).
 *
 * A reference is `supporting` only when it tests the question: it addresses the question's
 * intervention or exposure AND its outcome (or, for a question that relates nothing, every concept
 * of its subject), by name, synonym, lay term, class member or MeSH heading (relevance.ts decides
 * what a record names). Addressing one part only makes it `context`, its reason saying which part
 * it lacks: a rapamycin study is never evidence on metformin, and a metformin trial that says
 * nothing of aging is not evidence on whether metformin slows aging. A question that names its
 * species ("in humans", "in mice", "people") is tested only in that species: a mouse study of
 * metformin and lifespan is context for "does metformin slow aging in humans?", said so. Nothing
 * is promoted for being the closest match found.
 */

export type RoleInput = {
  /** Relevance's judgement of the record against the question. */
  accepted: boolean;
  reason: RejectionReason | null;
  /** The question's required concepts the record does not name (relevance.missingConcepts). */
  missingConcepts: readonly string[];
  /** The required parts it addresses (relevance.partsAddressed); absent on references stored before it existed. */
  partsAddressed?: readonly RequiredQuestionPart[] | undefined;
  evidenceType: EvidenceType;
  isRetracted: boolean;
  /** A protocol or design paper with no results yet (evidence.ts isStudyProtocol). */
  isProtocol?: boolean | undefined;
  /** It measures what people think of something (attitudes.ts), not what it does. Absent: not known here. */
  studiesAttitudes?: boolean | undefined;
  /** A survey of how many use something (attitudes.ts, studiesUse). */
  studiesUse?: boolean | undefined;
  /** A trial of a way to get people to use it (attitudes.ts, promotesUse). */
  promotesUse?: boolean | undefined;
  /** A case report or case series (evidence.ts isCaseReport). */
  isCaseReport?: boolean | undefined;
  /** A cross-sectional study (evidence.ts isCrossSectional). */
  isCrossSectional?: boolean | undefined;
  /** Its longest stated treatment or follow-up, in weeks (evidence.ts studyWeeks); null or absent: not stated. */
  weeks?: number | null | undefined;
  /** It gave the question's exposure only with another treatment, where the question asks about it alone (studied.ts). */
  onlyInCombination?: boolean | undefined;
  /** The species it states its finding on the question's outcome in (studied.ts outcomeSpecies); absent or empty: not known. */
  outcomeSpecies?: StudySpecies[] | undefined;
  /** For a question of what age, sex or race does: the kind of group it does not compare (age-groups.ts, recordComparesGroups); absent when it does, or when nothing such is asked. */
  groupsNotCompared?: GroupKind | undefined;
  /** Whom it was done in by age (age-groups.ts, recordAgeGroups); absent or empty: not known. */
  ageGroups?: AgeGroup[] | undefined;
  /** The question's terms the record names anywhere, by any name (relevance.ts Judged.namedTerms); absent: not known. */
  namedTerms?: string[] | undefined;
  /** Its title, where a population is named (an excluded condition, roles.ts inCondition); absent: not read. */
  title?: string | undefined;
  /** It says it tested nothing: a model on assumed effects (studied.ts testsNothing). */
  testsNothing?: boolean | undefined;
  /** A decision-analytic model (studied.ts isDecisionModel): it values effects it assumed. */
  decisionModel?: boolean | undefined;
  /** The question's terms it names only where it says whom it excluded (relevance.ts Judged.excludedTerms). */
  excludedTerms?: string[] | undefined;
  /** It says no group went without what it gave: no untreated or placebo group (studied.ts withoutUntreatedGroup). */
  noUntreatedGroup?: boolean | undefined;
  /** It names the outcome a question asks to prevent only as what its people already had (studied.ts namesOnlyAsWhoWasStudied). */
  outcomeOnlyAsWho?: boolean | undefined;
  /** A pilot or phase 1 study with no control group (studied.ts uncontrolledPilot). */
  uncontrolledPilot?: boolean | undefined;
  /** The doses it names (studied.ts howGiven); absent or empty: not said. */
  doses?: Dose[] | undefined;
  /** How it gave what it tested (studied.ts howGiven); absent or empty: not said. */
  routes?: Route[] | undefined;
  /** A record of animals and people none of whose people was given the question's exposure (studied.ts peopleNotGiven). */
  peopleNotGiven?: boolean | undefined;
  /** Whom it was done in by sex (age-groups.ts, recordSexes); absent or empty: not known. */
  sexes?: Sex[] | undefined;
  /** Where its people lived (age-groups.ts, recordSettings); absent or empty: not known. */
  settings?: Setting[] | undefined;
  /** How far its people's disease had gone (age-groups.ts, recordStages); absent or empty: not known. */
  stages?: Stage[] | undefined;
  /** Who it was done in (its snapshot's species; null when nothing says). Absent: not known here. */
  species?: StudySpecies | null | undefined;
};

export type RoleDecision = {
  role: EvidenceRole;
  /** Why, in plain words: "studies metformin and aging", "does not study aging". */
  reason: string;
  /** It addresses every required part of the question. */
  testsQuestion: boolean;
  /** The required parts it does not address. */
  missingParts: RequiredPart[];
  /** It addresses every part, but in another species than the one the question names. */
  otherSpecies: boolean;
};

/** A question of cause ("Does loneliness cause frailty?"), which an association at one time cannot answer. */
const CAUSAL = /\b(causes?|caused|causing|make(?:s)? (?:\w+ ){1,3}(?:become|get|grow))\b/i;
/**
 * A question about years of use ("for years", "lifelong", "long-term use"). "Long-term" of an outcome
 * ("long-term work disability", "long-term survival") says what was measured, not how long the
 * thing was taken, so only long-term use, treatment or intake asks for years.
 */
const LONG_TERM = /\b(for years|for decades|over (?:the )?years|lifelong|for life|in the long run|for the rest of|long[- ]term (?:use|users?|treatment|therapy|supplementation|intake|administration|exposure))\b/i;
/** A question about months of use ("kept up for several months"). */
const MONTHS = /\b(?:for|over|after)\s+(?:several|many|a few|some)\s+months\b|\bkept up for (?:several|many|a few) months\b/i;
const describeWeeks = (weeks: number) => (weeks < 2 ? `${Math.max(1, Math.round(weeks * 7))} days` : weeks < 13 ? `${Math.round(weeks)} weeks` : `${Math.round(weeks / 4.35)} months`);

/** Whether a title names the condition as its population's, not its absence ("in type 2 diabetes", not "non-diabetic"). */
function inCondition(title: string, stems: string[]): boolean {
  const words = title.toLowerCase().split(/[^a-z0-9-]+/);
  // Every word of the condition, the first one not denied ("non-diabetic", "without diabetes").
  return stems.every((s) => words.some((w) => stem(w) === s)) && words.some((w, i) => stem(w) === stems[0] && !/^(without|no|free)$/.test(words[i - 1] ?? "") && !/^(without|no)$/.test(words[i - 2] ?? ""));
}
/** A route word before what is given ("oral rapamycin"), left out where the reason names the route itself. */
const ROUTE_WORD = new RegExp(`\\b(?:${ROUTE_WORDS.join("|")})\\s+`, "gi");
/** How a route is said. */
const ROUTE_SAID: Record<Route, string> = {
  oral: "by mouth",
  topical: "on the skin",
  intravenous: "intravenously",
  inhaled: "inhaled",
  intranasal: "in the nose",
  injected: "by injection",
  "intra-articular": "into a joint",
  transdermal: "through the skin",
  systemic: "systemically (by mouth or injection)",
};
const GROUP_SAID: Record<GroupKind, string> = { ages: "age", sexes: "sex", races: "race" };

/** Whether the named terms hold every word of one of the terms' concepts. */
function namesAConcept(terms: QueryTerm[], named: string[]): boolean {
  const concepts = new Map<string, QueryTerm[]>();
  for (const t of terms) concepts.set(t.concept ?? t.term, [...(concepts.get(t.concept ?? t.term) ?? []), t]);
  return [...concepts.values()].some((words) => words.every((t) => named.includes(t.term)));
}

/** Whom a study of an age group was done in, and whom a question of one asks about. */
const STUDIED_AGE: Record<AgeGroup, string> = { children: "children", older: "adults", childbearing: "pregnant women or new mothers" };
const ASKED_AGE: Record<AgeGroup, string> = { children: "children", older: "older adults", childbearing: "pregnant women or new mothers" };

export function decideRole({ reading, reference }: { reading: QuestionReading; reference: RoleInput }): RoleDecision {
  const missingParts = partsMissing(reading, reference);
  // A record of several species is in the question's when it states the outcome there.
  const outcomeIn = reference.outcomeSpecies ?? [];
  const otherSpecies = missingParts.length === 0 && !inQuestionSpecies(reading, reference) && !outcomeIn.some((s) => reading.species.includes(s));
  const decision = (role: EvidenceRole, reason: string): RoleDecision => ({ role, reason, testsQuestion: role === "supporting", missingParts, otherSpecies });
  if (reference.isRetracted) return decision("lead_only", "retracted: never evidence");
  if (!reference.accepted) {
    if (reference.reason !== null && reference.reason !== "off_topic") return decision("context", `outside the request (${REJECTION_WORDS[reference.reason]})`);
    // Said as a person would ("does not study aging"): the role already says it is not evidence.
    return decision("lead_only", doesNotStudy(reading, reference.missingConcepts, missingParts));
  }
  // A topic claims nothing a study could be evidence for: what is on it is background (reading.ts, `asks`).
  if (!reading.asks) return decision("context", `about ${studied(reading)}; the search names no claim to test`);
  if (reference.evidenceType === "commentary") return decision("context", "a comment, editorial, letter or notice about another article, not evidence");
  // A narrative review retells others' studies and tests nothing itself; a systematic review or a
  // meta-analysis, which pools the studies that test a question, stays evidence.
  if (reference.evidenceType === "narrative_review") return decision("context", "a narrative review: it retells other studies and tests nothing itself; shown for context, not counted in the verdict");
  if (reference.isProtocol) return decision("context", "a study's protocol or design, with no results yet: not evidence");
  if (reference.testsNothing) return decision("context", "a model or projection on assumed effects: it says it tested no intervention; shown for context, not counted in the verdict");
  if (reference.decisionModel && !ASKS_VALUE.test(reading.question)) {
    return decision("context", "a decision model: it projects what would follow from effects taken from other studies, so it does not test whether they hold; shown for context, not counted in the verdict");
  }
  if (missingParts.length > 0) return decision("context", `${doesNotStudy(reading, reference.missingConcepts, missingParts)}; shown for context, not counted in the verdict`);
  // Whether it works needs a comparison: a pilot with no control group tests whether it can be given and is tolerated.
  if (reference.uncontrolledPilot && !asksTolerability(reading.question)) {
    return decision("context", "a pilot with no control group: it shows whether the treatment can be given and is tolerated, not whether it works; shown for context, not counted in the verdict");
  }
  if (reference.studiesAttitudes && !reading.asksAttitudes) {
    return decision("context", `surveys what people think of ${studiedPart(reading)}; it does not test ${studied(reading)}; shown for context, not counted in the verdict`);
  }
  if (reference.promotesUse && !reading.asksUse && !reading.asksAttitudes && !asksToPromoteUse(reading.question)) {
    return decision("context", `tests a way to get people to use ${studiedPart(reading)}, not what it does; shown for context, not counted in the verdict`);
  }
  if (reference.studiesUse && !reading.asksUse && !reading.asksAttitudes) {
    return decision("context", "surveys how many people use it and what they say of it, not what it does; shown for context, not counted in the verdict");
  }
  // "Does spontaneous remission occur in polyarteritis nodosa?": one case shows that it can.
  if (reference.isCaseReport && !ASKS_EXISTENCE.test(reading.question)) {
    return decision("context", "a case report or case series: it describes patients without a comparison and tests nothing; shown for context, not counted in the verdict");
  }
  if (reference.isCrossSectional && (CAUSAL.test(reading.question) || asksToPrevent(reading))) {
    return decision("context", `a cross-sectional study: it measured ${studied(reading)} at one time, so it cannot show that one causes the other; shown for context, not counted in the verdict`);
  }
  const asksWeeks = LONG_TERM.test(reading.question) ? 52 : MONTHS.test(reading.question) ? 12 : null;
  if (asksWeeks !== null && reference.weeks !== undefined && reference.weeks !== null && reference.weeks < asksWeeks) {
    return decision("context", `lasted ${describeWeeks(reference.weeks)}, where the question asks about ${asksWeeks >= 52 ? "years" : "months"}; shown for context, not counted in the verdict`);
  }
  if (reference.onlyInCombination) {
    return decision("context", `tests ${studiedPart(reading)} only together with another treatment, not on its own; shown for context, not counted in the verdict`);
  }
  const asked = questionAgeGroup(reading.question);
  if (!otherSpecies && asked && reference.ageGroups?.length && !reference.ageGroups.includes(asked)) {
    const askedSaid = asked === "older" && !OLDER_WORDS.test(reading.question) ? "adults" : ASKED_AGE[asked];
    return decision("context", `studies ${studied(reading)} in ${STUDIED_AGE[reference.ageGroups[0]!]}, not in ${askedSaid}; shown for context, not counted in the verdict`);
  }
  // "Do older patients do worse after reflux surgery?": age is what is tested, so a study of older
  // people alone (a trial of two implants in them) does not test it.
  // So for sex and race: "Do women do worse than men after heart surgery?".
  if (!otherSpecies && reference.groupsNotCompared) {
    const kind = reference.groupsNotCompared;
    return decision("context", `does not compare people of different ${kind}, so it cannot show what ${GROUP_SAID[kind]} does; shown for context, not counted in the verdict`);
  }
  // "in people with dementia": a study whose text names nothing of the population's condition was
  // done in other people (subjective cognitive decline is not dementia).
  // "after breast surgery": the site says which surgery; a record of any surgery (an abdominoplasty)
  // names "surgery" too. A procedure word counts only where nothing more specific is named.
  const named = populationCondition(reading);
  const specific = named.filter((t) => !PROCEDURE_WORD.test(t.term));
  const condition = specific.length > 0 ? specific : named;
  // A concept of two words is named by both: "in breast cancer" is not named by a study of urinary
  // tract carcinoma, which names "cancer" only.
  if (!otherSpecies && condition.length > 0 && reference.namedTerms && !namesAConcept(condition, reference.namedTerms)) {
    return decision("context", `studies ${studied(reading)} in other people: it names nothing of “${reading.population}”, whom the question asks about; shown for context, not counted in the verdict`);
  }
  // "Is warfarin better than aspirin?": a trial of warfarin against placebo does not answer it.
  const against = comparatorTerms(reading);
  if (!otherSpecies && against.length > 0 && reference.namedTerms && !against.some((t) => reference.namedTerms!.includes(t.term))) {
    return decision("context", `does not compare ${studiedPart(reading)} with ${reading.comparator}; shown for context, not counted in the verdict`);
  }
  // "for people with chronic kidney disease": a study that excluded them ("… or with serious kidney
  // disease, were excluded") was done in other people, whatever its MeSH terms say.
  if (!otherSpecies && condition.length > 0 && reference.excludedTerms && condition.some((t) => reference.excludedTerms!.includes(t.term))) {
    return decision("context", `studies ${studied(reading)} in other people: it excluded “${reading.population}”, whom the question asks about; shown for context, not counted in the verdict`);
  }
  // "Do iron tablets relieve tiredness?", "Is X better than a placebo?": a trial in which no group
  // went without it compared ways of giving it, not it against nothing.
  if (reference.noUntreatedGroup && (asksAgainstNothing(against) || (!reading.comparator && !reading.equivalence && !COMPARES.test(reading.question)))) {
    return decision("context", `no group in it went without ${studiedPart(reading)} (no untreated or placebo group), so it does not test whether it works; shown for context, not counted in the verdict`);
  }
  // "in people without diabetes": a study titled "… in type 2 diabetes" was done in the people the question leaves out.
  const excluded = excludedCondition(reading.question);
  if (!otherSpecies && excluded.length > 0 && reference.title !== undefined && inCondition(reference.title, excluded)) {
    return decision("context", `studies ${studied(reading)} in people with what the question's people are without; shown for context, not counted in the verdict`);
  }
  const askedRoutes = questionRoutes(reading.question);
  const sameRoute = (r: Route) => askedRoutes.includes(r) || (ROUTE_INCLUDES[r] ?? []).some((q) => askedRoutes.includes(q)) || askedRoutes.some((q) => (ROUTE_INCLUDES[q] ?? []).includes(r));
  if (askedRoutes.length > 0 && reference.routes?.length && !reference.routes.some(sameRoute)) {
    const thing = studiedPart(reading).replace(ROUTE_WORD, "");
    return decision("context", `tests ${thing} given ${listed(reference.routes.map((r) => ROUTE_SAID[r]), "or")}, not ${listed(askedRoutes.map((r) => ROUTE_SAID[r]), "or")}; shown for context, not counted in the verdict`);
  }
  const askedDoses = questionDoses(reading.question);
  if (askedDoses.length === 1 && reference.doses?.length === 1 && reference.doses[0] !== askedDoses[0]) {
    return decision("context", `tests ${studiedPart(reading).replace(/\b(?:low|high)[- ]dose\s+/gi, "")} at a ${reference.doses[0]} dose, not a ${askedDoses[0]} one; shown for context, not counted in the verdict`);
  }
  const askedSex = questionSex(reading.question);
  if (!otherSpecies && askedSex && reference.sexes?.length && !reference.sexes.includes(askedSex)) {
    return decision("context", `studies ${studied(reading)} in ${reference.sexes[0]}, not in ${askedSex}; shown for context, not counted in the verdict`);
  }
  // "Does fragmented sleep lead to Alzheimer's disease?": an observational study of sleep after a
  // diagnosis of Alzheimer's, or of new hip fractures in people with depression for "depressed after
  // breaking a hip", studies the link the other way round. Not a trial "after myocardial infarction",
  // whose people had the event and whose outcome may be the next one.
  if (!otherSpecies && reference.evidenceType === "observational" && reference.title !== undefined && ASKS_LINK.test(reading.question) && otherWayRound(reading, reference.title)) {
    return decision("context", `studies the link between ${studied(reading)} the other way round: what follows one, not what leads to it; shown for context, not counted in the verdict`);
  }
  // "Does vitamin C prevent wrist fractures?": a trial in patients with wrist fractures (of what
  // follows them) had only people who already had them; it cannot show what prevents them.
  if (!otherSpecies && reference.outcomeOnlyAsWho) {
    return decision("context", `studies people who already had ${reading.outcome ?? "the outcome"}, so it cannot show what prevents it; shown for context, not counted in the verdict`);
  }
  const askedSetting = questionSetting(reading.question);
  if (!otherSpecies && askedSetting && reference.settings?.length && !reference.settings.includes(askedSetting)) {
    return decision("context", `studies ${studied(reading)} in people living ${reference.settings[0]}, not ${askedSetting}; shown for context, not counted in the verdict`);
  }
  const askedStage = questionStage(reading.question);
  if (!otherSpecies && askedStage && reference.stages?.length && !reference.stages.includes(askedStage)) {
    return decision("context", `studies ${studied(reading)} in ${reference.stages[0]} disease, not ${askedStage}; shown for context, not counted in the verdict`);
  }
  // A record of several species ("lifespan in mice, markers in monkeys, a cohort of people") tests
  // a question on one of them only where it states the outcome in it.
  if (!otherSpecies && reading.species.length > 0 && outcomeIn.length > 0 && !outcomeIn.some((s) => reading.species.includes(s))) {
    return decision("context", `studies ${studied(reading)} in ${speciesWords(outcomeIn)}, not in ${speciesWords(reading.species)}; shown for context, not counted in the verdict`);
  }
  if (!otherSpecies && reading.species.includes("human") && reference.peopleNotGiven) {
    return decision("context", `tests ${studiedPart(reading)} in animals only: none of its people was given it; shown for context, not counted in the verdict`);
  }
  if (otherSpecies) {
    return decision("context", `studies ${studied(reading)} in ${speciesWords([studySpeciesOf(reference)])}, not in ${speciesWords(reading.species)}; shown for context, not counted in the verdict`);
  }
  return decision("supporting", `studies ${studied(reading)}`);
}

/** Words that name a kind of procedure, not which one ("surgery" of "knee surgery"). */
const PROCEDURE_WORD = /^(?:surgery|surgeries|operations?|procedures?|treatment|therapy|repair|replacement|transplant(?:ation)?|resection|removal|extraction|biopsy|implant(?:ation)?|injur(?:y|ies)|disease|disorders?)$/;
/** A question whether something happens at all, which one described case can answer. */
const ASKS_EXISTENCE = /\b(?:occurs?|occurring|exists?|happens?|ever|possible)\b/i;
/** A question of cost or value, which a decision model does answer ("Is X cost-effective?", "worth the cost?"). */
const ASKS_VALUE = /\b(?:cost\w*|economic\w*|value|worth|afford\w*|price\w*|spend\w*|money|budget\w*|qalys?|quality-adjusted)\b/i;
/** A question whether one thing leads to or goes with another (not whether a treatment works). */
const ASKS_LINK = /\b(lead|leads|led|leading) to\b|\b(cause[sd]?|causing|risk|risks|linked|associated|related|likely|predict\w*|trigger\w*|develop\w*|become|becoming|after|following)\b/i;
/** What names a concept: its technical words' stems, or all its words' when it has none ("stroke" is everyday English). */
const namingStems = (terms: QueryTerm[]): string[][] => (terms.some((t) => !t.everyday) ? terms.filter((t) => !t.everyday) : terms).map((t) => t.stems);
/**
 * A question whether something keeps an outcome from happening ("prevent", "protect against",
 * "lower the risk of", "stop … getting"), and not from happening again: the outcome it names after
 * that verb is what studied people must not have had already (roles' outcomeOnlyAsWho).
 */
const PREVENTS =
  /\b(?:prevent\w*|avoid\w*|protect\w*\s+(?:\w+\s+)?(?:against|from)|ward\w*\s+off|(?:reduc\w*|lower\w*|cut\w*|decreas\w*)\s+(?:the\s+|their\s+|your\s+|my\s+|his\s+|her\s+)?(?:risk|chances?|odds|incidence|likelihood)\s+of|stop\w*\s+(?:\w+\s+)?(?:getting|developing|having))\b/i;
const AGAIN = /\b(?:again|another|second|recurren\w*|relapse\w*|repeat\w*|further|new)\b/i;
export function asksToPrevent(reading: QuestionReading): boolean {
  const verb = PREVENTS.exec(reading.question);
  return verb !== null && reading.outcome !== null && !AGAIN.test(reading.question) && reading.question.slice(verb.index).toLowerCase().includes(reading.outcome.toLowerCase().split(/\s+/)[0]!);
}

/** The concepts of the question's parts, each as the stems that name it. */
export function conceptStems(reading: QuestionReading, parts: string[]): string[][][] {
  const concepts = new Map<string, QueryTerm[]>();
  for (const t of reading.terms) if (parts.includes(t.part ?? "context") && !t.generic && t.weight === 1) concepts.set(t.concept ?? t.term, [...(concepts.get(t.concept ?? t.term) ?? []), t]);
  return [...concepts.values()].map(namingStems);
}
/** Whether the record's title follows people after the question's outcome, or counts its exposure (or what it asks after) as new. */
function otherWayRound(reading: QuestionReading, title: string): boolean {
  const { prior, incident } = titleDirection(title);
  if (prior.length === 0 && incident.length === 0) return false;
  // A phrase names a concept when it holds one of the stems of each of its naming words.
  const names = (phrases: string[], concepts: string[][][]) =>
    phrases.some((p) => {
      const stems = stemSet(p);
      return concepts.some((c) => c.length > 0 && c.every((alts) => alts.some((s) => stems.has(s))));
    });
  const exposure = conceptStems(reading, ["exposure"]);
  const outcome = conceptStems(reading, ["outcome", "main"]);
  // "depressed after breaking a hip": what the question puts first, named after "after".
  const askedFirst = [...reading.question.matchAll(/\b(?:after|following)\s+((?:[\w'’-]+\s*){1,4})/gi)].map((m) => {
    const words = new Set(tokenize(m[1]!));
    return namingStems(reading.terms.filter((t) => words.has(t.term) && !t.generic));
  });
  return (
    (names(prior, outcome) && !names(prior, exposure)) ||
    (exposure.length > 0 && names(incident, exposure) && !names(incident, outcome)) ||
    names(incident, askedFirst)
  );
}

/** A question that compares two ways or things ("daily or every other day", "more than", "versus"). */
const COMPARES = /\b(?:than|versus|vs\.?|compared|or|instead of|rather than)\b/i;
/** A comparator that is nothing or a placebo ("a dummy gel", "placebo", "no treatment"). */
const asksAgainstNothing = (against: QueryTerm[]) => against.some((t) => t.stems.some((st) => st === "placebo" || st === "sham"));
/** A question about whether it can be given and is tolerated, which a pilot does answer. */
const asksTolerability = (question: string) => ASKS_SAFETY.test(question) || /\b(?:feasib\w*|tolerab\w*|side[- ]effects?|adverse)\b/i.test(question);

const RELEVANCE_PART: Record<RequiredPart, RequiredQuestionPart> = { topic: "topic", exposure: "exposure", outcome: "outcome", subject: "main" };

/** Whether a judged record addresses every required part of the question, where it states what it studied. */
export function addressesEveryPart(reading: QuestionReading, reference: Pick<RoleInput, "missingConcepts" | "partsAddressed">): boolean {
  return partsMissing(reading, reference).length === 0;
}

/** The required parts a record does not address (relevance's partsAddressed, else the concepts it misses). */
function partsMissing(reading: QuestionReading, reference: Pick<RoleInput, "missingConcepts" | "partsAddressed">): RequiredPart[] {
  const missing = new Set(reference.missingConcepts);
  const addressed = reference.partsAddressed;
  return requiredParts(reading).filter((part) => (addressed ? !addressed.includes(RELEVANCE_PART[part]) : reading.concepts.some((c) => c.part === part && missing.has(c.label))));
}

/**
 * Who a study was done in: its snapshot's species, else humans unless its design is preclinical
 * (null: an animal or cell study that does not say which).
 */
function studySpeciesOf(reference: Pick<RoleInput, "species" | "evidenceType">): StudySpecies | null {
  return reference.species ?? (reference.evidenceType === "preclinical" ? null : "human");
}

/**
 * Whether a study was done in the species the question names. A question naming none asks about
 * none in particular; a reference whose species is not known here (stored before it was carried)
 * is taken as the question's.
 */
export function inQuestionSpecies(reading: Pick<QuestionReading, "species">, reference: Pick<RoleInput, "species" | "evidenceType">): boolean {
  if (reading.species.length === 0 || reference.species === undefined) return true;
  const species = studySpeciesOf(reference);
  if (species === null) return reading.species.some((s) => s !== "human");
  return reading.species.includes(species);
}


/** "mice", "humans", "animals or cells" (an unstated preclinical species). */
export function speciesWords(species: readonly (StudySpecies | null)[]): string {
  const words = [...new Set(species.map((s) => (s === null ? "animals or cells" : SPECIES_PLURAL[s])))];
  return listed(words, "or");
}

/** "metformin and aging": what a study that tests the question studies. */
function studied(reading: QuestionReading): string {
  const parts = requiredParts(reading);
  const labels = parts.flatMap((part) => reading.concepts.filter((c) => c.part === part).flatMap((c) => phrasesOf(c.label)));
  return listed(labels.length > 0 ? labels : [reading.question.replace(/[?.!]+$/, "")]);
}

/** The question's intervention or exposure (or its subject), in its words: "calorie restriction". */
function studiedPart(reading: QuestionReading): string {
  const part = requiredParts(reading)[0];
  const labels = reading.concepts.filter((c) => c.part === part).flatMap((c) => phrasesOf(c.label));
  return labels.length > 0 ? listed(labels) : studied(reading);
}

/** "does not study aging": the concepts of the parts a record does not address, in the question's words. */
function doesNotStudy(reading: QuestionReading, missingConcepts: readonly string[], missingParts: RequiredPart[]): string {
  const missing = new Set(missingConcepts);
  const inParts = reading.concepts.filter((c) => missingParts.includes(c.part));
  const named = inParts.filter((c) => missing.has(c.label)).map((c) => c.label);
  if (named.length > 0) return `does not study ${listed(named.flatMap(phrasesOf), "or")}`;
  if (inParts.length > 0) return `does not study ${listed(inParts.flatMap((c) => phrasesOf(c.label)), "or")}`;
  if (missingConcepts.length > 0) return `does not study ${listed([...missingConcepts], "or")}`;
  return "matches too few of the question's words to rely on";
}

const REJECTION_WORDS: Record<RejectionReason, string> = {
  off_topic: "off topic",
  retracted: "retracted",
  out_of_date_range: "outside the dates asked for",
  preprint_excluded: "a preprint, and preprints were excluded",
  not_a_trial: "not a trial, and only trials were asked for",
};
