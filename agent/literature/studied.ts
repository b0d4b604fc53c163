import type { StudySpecies } from "@/lib/shared/contracts";
import { speciesNamed } from "./reading";
import type { LiteratureRecord } from "./record";
import { splitSentences } from "./sentences";
import { MOUTH_AS_PLACE, stem, stemSet } from "./terms";
import { NOT_FINDINGS, sectionsOf } from "./stance/sections";
import { opensAsAim } from "./topic";
import { abbreviationsOf } from "./abbreviations";
import { escapeRegExp } from "./words";

/**
 * Where a record states what it studied, for whether it addresses a part of the question
 * (relevance.ts, partsAddressed; roles.ts): its title, unless the library derived it from the
 * abstract's first sentence, and its abstract without the background, which says what others
 * found or proposed ("Metformin has been proposed as a drug to slow aging", "Fisetin extends
 * lifespan in mice"), not what this study tested. A background sentence that states the study's
 * aim or speaks of it ("We investigated …", "Using immunohistochemistry, we demonstrated …", "The
 * present study was aimed …") counts, and so does the long form of an abbreviation the background
 * defines ("health information exchange (HIE)") wherever the rest uses its short form.
 */
export function studiedText(record: Pick<LiteratureRecord, "title" | "titleDerived" | "abstract">): string {
  const abstract = record.abstract ?? "";
  const parts = sectionsOf(abstract).flatMap((s) => (s.role === "background" ? splitSentences(s.text).filter((t) => opensAsAim(t) || THIS_STUDY.test(t)) : [s.text])).map(withoutContrasts);
  if (!record.titleDerived) parts.unshift(record.title);
  const studied = parts.join(" \n ");
  // A defined abbreviation read as its long form, in place: "abnormal Pap smear" then names
  // "abnormal Papanicolaou smear", and "Papanicolaou (Pap) smears" names "Papanicolaou smears".
  // The text as written is kept beside it (the short form may be how the question puts it too).
  const definitions = abbreviationsOf(abstract);
  if (definitions.length === 0) return studied;
  let expanded = studied;
  for (const { short } of definitions) expanded = expanded.replace(new RegExp(`\\s*\\(${escapeRegExp(short)}s?\\)`, "g"), "");
  // Twice: a long form may use another short form ("high-sensitivity CRP (hsCRP)").
  for (let round = 0; round < 2; round++) {
    for (const { short, long } of definitions) expanded = expanded.replace(new RegExp(`(?<![A-Za-z0-9-])${escapeRegExp(short)}(s?)(?![A-Za-z0-9])`, "g"), (_, plural: string) => `${long}${plural}`);
  }
  return expanded === studied ? studied : `${studied} \n ${expanded}`;
}

/**
 * What a record sets its subject against is not what it studied: "Unlike rapamycin, which
 * lengthens the life of both sexes in this model, canagliflozin gave females no benefit" names
 * rapamycin to say this study is not about it. The contrast is left out up to its comma, with a
 * relative clause that describes the thing contrasted ("…, which lengthens …,").
 */
const CONTRAST = /\b(?:unlike|in contrast (?:to|with)|as opposed to)\s+[^,;.:]*(?:,\s*(?:which|who|whose)\b[^,;.:]*)?/gi;
/**
 * What the analysis was adjusted for is held constant, not studied: "hazard ratios were adjusted for
 * age, smoking and use of benzodiazepines and other hypnotics" does not make a cohort of sleep
 * duration a study of sleeping pills. So is what groups were matched or weighted on
 * ("with propensity score weighting for age, diabetes duration, HbA1c": the cohort of frailty did
 * not study HbA1c), and what a finding held "independently of". Left out to the end of the clause.
 */
const ADJUSTED =
  /\b(?:adjusted for|adjusting for|adjustment for|controlling for|controlled for|independent(?:ly)? of|(?:propensity[- ]score\s+)?(?:weighting|weighted|matching|matched)\s+(?:for|on))\b[^;.]*/gi;
/** "Antidepressant use was adjusted for": said in the passive, what was held constant is the clause's subject. */
const ADJUSTED_SUBJECT = /[^.;,]*\b(?:was|were|is|are)\s+(?:also\s+)?(?:adjusted|controlled|accounted)\s+for\b[^;.]*/gi;
/**
 * Who was kept out of a study is not what it studied: "People with dementia or a Mini-Mental State
 * Examination score below 24 … were excluded" names dementia to say no one in the study had it;
 * so does a sensitivity analysis "excluding antidepressant users". The clause is left out, to its end.
 */
const EXCLUDED =
  /[^.;]*\b(?:(?:were|was|being) excluded|exclusion criteria|(?:excluding|excluded) (?:[a-z-]+ ){0,2}(?:patients|people|participants|those|women|men|subjects|anyone|children|adults|users))\b[^.;]*/gi;
/**
 * The clauses of an abstract that say who was kept out ("… or with serious kidney disease, were
 * excluded"): a population condition named only there is one the study did not include (roles.ts).
 */
export function exclusionText(record: Pick<LiteratureRecord, "abstract">): string {
  return [...(record.abstract ?? "").matchAll(EXCLUDED)].map((m) => m[0]).join(" \n ");
}

/**
 * The clauses that say what an analysis held constant ("adjusted for … antidepressant use",
 * "further adjustment for blood pressure"): a subject named only there, in the record's words, was
 * not studied, whatever its MeSH terms say (indexers tag covariates too; relevance.ts).
 */
export function covariateText(record: Pick<LiteratureRecord, "abstract">): string {
  const abstract = record.abstract ?? "";
  return [...abstract.matchAll(ADJUSTED_SUBJECT), ...abstract.matchAll(ADJUSTED)].map((m) => m[0]).join(" \n ");
}

function withoutContrasts(text: string): string {
  return text.replace(CONTRAST, " ").replace(ADJUSTED_SUBJECT, " ").replace(ADJUSTED, " ").replace(EXCLUDED, " ");
}

/**
 * What a record says it did not study: the subject of a clause that says so ("Protection against
 * zoster was not assessed", "rapamycin itself was not part of this study", "Whether any of these
 * candidates slows human aging has not been tested", "cases of zoster were not an outcome"). A part
 * of the question named there is not addressed by the record, whatever else names it (its title,
 * its MeSH terms, a passing mention in the results): the authors said so (relevance.ts).
 *
 * A subject scoped to some of the study's groups ("their survival was not studied", of the monkeys
 * of a study whose mice were followed to death; "in the control group") disclaims nothing for the
 * whole record, so it is left out. Clauses are read within their sentence, from the last clause
 * boundary before the subject.
 */
export function disclaimedSubjects(record: Pick<LiteratureRecord, "abstract" | "mesh">): string[] {
  const subjects: string[] = [];
  const humansOnly = !record.mesh.some((m) => /^animals$/i.test(m));
  // The background says what was not known before the study, which the study may then test.
  const read = sectionsOf(record.abstract ?? "").filter((s) => s.role !== "background");
  for (const sentence of read.flatMap((s) => splitSentences(s.text))) {
    for (const m of sentence.matchAll(DISCLAIMER)) {
      const before = sentence.slice(0, m.index);
      const subject = before.split(/[;:]|,\s*(?:and|but|while|whereas)\b|\b(?:and|but)\s+(?=(?:the|no|cases?|its|their)\b)/).pop()?.trim() ?? "";
      const after = sentence.slice(m.index! + m[0].length);
      if (!subject || (SCOPED_SUBJECT.test(subject) && !OPEN_SUBJECT.test(subject)) || SCOPED_AFTER.test(after)) continue;
      // "… is unknown" disclaims only an open question: "Whether this affects lifespan in people is
      // unknown", "Its effect on memory remains to be tested".
      if (m[1] && !OPEN_SUBJECT.test(subject)) continue;
      subjects.push(subject);
    }
    // "No participant took a statin during the trial": in a study of people only, what no one took
    // was not studied (people who could not tolerate statins, given another drug). With animals
    // in it, the people may be only one of its parts ("no participant was given taurine", of the
    // human cohort of a mouse lifespan study).
    if (humansOnly) for (const m of sentence.matchAll(NO_ONE_TOOK)) subjects.push(m[1]!);
    // "The trial was not designed to assess myocardial infarction, stroke or death."
    for (const m of sentence.matchAll(NOT_DESIGNED_FOR)) subjects.push(m[1]!);
  }
  return subjects.map((subject) => subject.trim()).filter(Boolean);
}

/**
 * What every arm of a study kept taking beside what it compared, in its title or what it says it
 * studied: "Dapagliflozin added to metformin", "inadequately controlled on metformin", "all
 * continued their metformin unchanged", "Everyone continued a statin", "already taking
 * metformin", "on stable statin therapy". A background therapy is given to every arm, so the study
 * compares nothing of it: an add-on trial to metformin does not test metformin (issue 25's own
 * failure), unless the question also names what was added to it (relevance.ts). Each is the few
 * words that name the therapy, never the rest of the clause, so the outcome the clause goes on to
 * name stays addressed.
 */
export function backgroundTherapies(record: Pick<LiteratureRecord, "abstract"> & Partial<Pick<LiteratureRecord, "title">>): string[] {
  const read = [record.title ?? "", ...sectionsOf(record.abstract ?? "").filter((s) => s.role !== "background").map((s) => s.text)];
  const found: string[] = [];
  for (const text of read) {
    for (const m of text.matchAll(ON_BACKGROUND)) {
      const therapy = therapyWords(m[1]!);
      if (therapy) found.push(therapy);
    }
  }
  return found;
}

/** Where a background therapy is named: what follows is the therapy (then cut by therapyWords). */
const ON_BACKGROUND = new RegExp(
  "(?:" +
  [
    String.raw`\b(?:added|add-on|adding\s+[^.;,]{1,40}?)\s+to`,
    String.raw`\bas\s+(?:an?\s+)?add-on(?:\s+(?:therapy|treatment))?\s+to`,
    String.raw`\bon\s+top\s+of`,
    // "randomized to metformin or placebo during resistance training", "creatine supplementation
    // during 24 weeks of resistance training": what every arm did while the trial compared
    // something else. Not "during the study" or a stretch of time, which therapyWords leaves out.
    String.raw`\b(?:placebo|supplementation|supplements?|treatment)\s+(?:during|throughout|alongside|while\s+(?:doing|undergoing|on))(?:\s+\d+\s+(?:weeks?|months?|years?)\s+of)?`,
    String.raw`\b(?:in\s+response\s+to|in\s+addition\s+to)`,
    // "Adults … all completed a supervised resistance training programme … and were randomized to
    // creatine": what everyone did before the randomization split them.
    String.raw`\b(?:all|everyone|both\s+groups)\s+(?:also\s+)?(?:completed|took\s+part\s+in|did|performed|underwent|followed|attended)(?=[^.;]{0,160}?\b(?:and|then)\s+(?:were\s+)?randomi[sz]ed)`,
    String.raw`\b(?:inadequately|insufficiently|poorly|not)\s+controlled\s+(?:on|with|by)`,
    // Not "still taking": how many kept to the trial's own treatment ("80% were still taking metformin").
    String.raw`\balready\s+(?:taking|on|receiving|using|treated\s+with)`,
    String.raw`\b(?:on|despite)\s+(?:an?\s+)?stable(?:\s+doses?\s+of)?`,
    String.raw`\b(?:all|everyone|every\s+(?:participant|patient)|both\s+(?:groups|arms)|all\s+(?:participants|patients|subjects|groups|arms|women|men|adults))\s+(?:also\s+)?(?:continued(?:\s+to\s+take)?|remained\s+on|stayed\s+on|kept\s+taking)`,
  ].join("|") + ")" + String.raw`\s+((?:[a-z0-9][\w-]*\s*){1,9})`,
  "gi",
);
/** Words before the therapy's name that are not it ("their", "a stable dose of"). */
const THERAPY_LEAD = /^(?:(?:a|an|the|their|his|her|its|existing|ongoing|current|usual|standard|background|stable|maximal|maximum|tolerated|baseline|dose|doses|of|treatment|therapy|with|supervised|structured|progressive|formal|home-based|\d+-(?:week|month)|programmes?|programs?|course|sessions?)\s+)+/i;
/** Where the therapy's name ends: a preposition, a conjunction, a verb form, a number. */
const THERAPY_END = /^(?:in|among|for|with|without|at|of|on|and|or|but|versus|vs|than|who|which|that|was|were|is|are|had|has|unchanged|alone|daily|once|twice|plus|lowered|reduced|improved|increased|decreased|\d[\w.%-]*)$/i;
/** The name of the therapy at the start of `words`, up to three words: "metformin", "statin therapy". */
/** Nouns in -ing that name a therapy ("resistance training", "exercise counselling"), not a verb form that ends it. */
const NOUN_ING = /^(?:training|counsell?ing|screening|walking|running|cycling|swimming|conditioning|stretching|coaching|monitoring|testing|feeding|fasting|dosing|pacing|imaging)$/i;
function therapyWords(words: string): string | null {
  const kept: string[] = [];
  for (const word of words.trim().replace(THERAPY_LEAD, "").split(/\s+/)) {
    if (!word || THERAPY_END.test(word) || (kept.length > 0 && /(?:ed|ing)$/i.test(word) && !NOUN_ING.test(word)) || kept.length === 3) break;
    kept.push(word);
  }
  return kept.length > 0 ? kept.join(" ") : null;
}

/**
 * Whether a record of animals and people says none of its people was given the question's exposure
 * ("In a human cohort … blood taurine was related to obesity; no participant was given taurine"):
 * it tests the exposure in its animals only. Read only for a record indexed as both.
 */
export function peopleNotGiven(record: Pick<LiteratureRecord, "abstract" | "mesh">, exposureStems: string[]): boolean {
  const mesh = new Set(record.mesh.map((m) => m.toLowerCase()));
  if (exposureStems.length === 0 || !mesh.has("animals") || !mesh.has("humans")) return false;
  const wanted = new Set(exposureStems);
  return [...(record.abstract ?? "").matchAll(NO_ONE_TOOK)].some((m) => [...stemSet(m[1]!)].some((st) => wanted.has(st)));
}

/**
 * "… was not assessed", "… were not an outcome", "… has not been tested", "… was not part of this
 * study"; and (group 1) "… is unknown", "… remains to be tested", of an open question only.
 */
const DISCLAIMER =
  /\s+(?:(?:was|were|is|are|has|have|had)\s+(?:not|never)\s+(?:been\s+)?(?:assessed|measured|studied|tested|examined|evaluated|investigated|recorded|collected|analy[sz]ed|compared|an?\s+(?:outcome|endpoint|end point)|(?:a\s+)?part\s+of\s+(?:this|the|our)\s+(?:study|trial|analysis|work))|(?:were|was)\s+too\s+few\s+to\s+(?:analy[sz]e|assess|compare|evaluate)|(?:is|are|was|remains?)\s+(unknown|untested|not known|(?:yet\s+)?to be (?:tested|studied|investigated|examined)))\b/gi;
/** "No participant took a statin", "none of the patients received aspirin": what no one was given. */
const NO_ONE_TOOK =
  /\b(?:no|none of the)\s+(?:participants?|patients?|subjects?|women|men|adults|children|one)\s+(?:took|received|used|was given|were given|was treated with|were treated with|was exposed to|were exposed to)\s+([^,;.]+)/gi;
/** An open question's subject: "whether …", or the effect of what was studied ("its effect on memory"). */
const OPEN_SUBJECT = /^(?:whether\b|(?:its|their|the)\s+(?:\w+\s+)?(?:effects?|impact|influence|benefits?)\s+(?:on|of)\b)/i;
/** What a study says it was not designed or powered to assess: the object. */
const NOT_DESIGNED_FOR = /\b(?:was|were|is|are)\s+not\s+(?:designed|powered|intended|large enough)\s+(?:to|for)\s+(?:assess|test|measure|detect|evaluate|examine|study|show|compare)(?:ing)?\s+([^.;]+)/gi;
/** A subject that belongs to some groups only. */
const SCOPED_SUBJECT = /^(?:their|its|his|her)\b|\b(?:in|for|among)\s+(?:the\s+)?(?:control|placebo|treated|other|first|second|remaining|some|male|female|older|younger)\b/i;
/** A disclaimer limited after the verb ("was not measured in the placebo group", "… at baseline"). */
const SCOPED_AFTER = /^\s*(?:in|for|among|at|during|before|after)\b/i;

/** A sentence that speaks of the study itself, in the first person or by name. */
const THIS_STUDY = /\b(we|our|here|this (study|trial|paper|work|report|analysis|investigation|survey)|the (present|current) (study|trial|work|investigation|analysis))\b/i;


/**
 * "Does quercetin on its own clear senescent cells?": a question that asks about something alone
 * is not tested by a study that gave it only with another treatment ("Dasatinib plus quercetin
 * decreases senescent cells"). True when the question asks so and every mention of the thing in
 * the record's title and studied text stands in a combination.
 */
export function onlyInCombination(record: Pick<LiteratureRecord, "title" | "titleDerived" | "abstract">, question: string, thing: string | null): boolean {
  if (!thing) return false;
  const name = escapeRegExp(thing.toLowerCase());
  const named = new RegExp(`\\b${name}\\b`, "g");
  // "No drug was given alone", "the contribution of each drug could not be separated": the record
  // says itself that it tests none of its components on its own, whatever the question asks.
  const abstract = (record.abstract ?? "").toLowerCase();
  if (INSEPARABLE.test(abstract) && named.test(`${record.title.toLowerCase()} ${abstract}`)) return true;
  if (!ALONE.test(question)) return false;
  const text = studiedText(record).toLowerCase();
  const mentions = [...text.matchAll(named)];
  if (mentions.length === 0) return false;
  // "All completed a resistance training programme … There was no group without training": every
  // arm had another treatment too, so none had the thing alone.
  if (EVERY_ARM_ALSO.test(text)) return true;
  // Its partners: what it is said to be given with ("dasatinib plus quercetin", "quercetin combined with …").
  const partners = new Set<string>();
  for (const m of text.matchAll(new RegExp(`\\b([a-z][\\w-]+)\\s+(?:plus|\\+|combined with|in combination with|together with)\\s+${name}\\b`, "g"))) partners.add(m[1]!);
  for (const m of text.matchAll(new RegExp(`\\b${name}\\s+(?:plus|\\+|combined with|in combination with|together with)\\s+([a-z][\\w-]+)`, "g"))) partners.add(m[1]!);
  if (partners.size === 0) return false;
  // Every mention stands beside a partner ("dasatinib 100 mg and quercetin 1,000 mg" too).
  const near = [...partners].map(escape).join("|");
  const beside = new RegExp(`\\b(?:${near})\\b[^.;]{0,30}$|^[^.;]{0,30}\\b(?:${near})\\b`);
  return mentions.every((m) => beside.test(text.slice(Math.max(0, m.index! - 30), m.index!)) || beside.test(text.slice(m.index! + m[0].length, m.index! + m[0].length + 30)));
}

/** A record that says its treatments cannot be told apart. */
const INSEPARABLE =
  /\b(?:no (?:drug|agent|component|treatment|supplement|one of them) was (?:given|taken|tested|used) (?:alone|on its own|separately)|(?:the |its |their )?(?:components?|elements?|parts|domains) (?:were|was) not (?:tested|evaluated|assessed|examined|studied|compared) (?:separately|individually|on (?:their|its) own|alone)|(?:contribution|effect|role)s? of (?:each|the individual|the separate) (?:drug|agent|component|treatment|supplement)s?[^.;]{0,40}(?:could not|cannot|can ?not) be (?:separated|distinguished|isolated|disentangled|determined))\b/i;
/** A record that gave every arm another treatment as well. */
const EVERY_ARM_ALSO =
  /\bthere was no (?:group|arm) without\b|\b(?:all participants|all patients|all subjects|every participant|both groups|both arms|all groups|all arms)\b[^.;]{0,30}\b(?:also )?(?:completed|received|underwent|did|performed|followed|took part in)\b[^.;]{0,40}\b(?:training|exercise|programme|program|diet|counselling|counseling|therapy)\b/i;
/** A question that asks about something alone. */
const ALONE = /\b(?:alone|on (?:its|their) own|by (?:itself|themselves)|as (?:a )?monotherapy|as (?:the )?sole (?:treatment|therapy))\b/i;

/**
 * The species a record states its finding on the question's outcome in: those named in the clauses
 * of its results and conclusions that name the outcome ("Taurine increased median lifespan by 11%
 * in female and 9% in male mice"; "… extended lifespan in mice and improved bone markers in
 * monkeys; low taurine was associated with disease in people"). Empty when no such clause names a
 * species. A record of several species tests a question on people only if it states the outcome
 * in people (roles.ts). Read only for a record indexed as both animals and humans.
 */
export function outcomeSpecies(record: Pick<LiteratureRecord, "abstract" | "mesh">, outcomeStems: string[]): StudySpecies[] {
  // Only a record indexed as both (MeSH Animals and Humans): a study of one species, or of cells
  // from "older donors", is read by its own species as before.
  const mesh = new Set(record.mesh.map((m) => m.toLowerCase()));
  if (outcomeStems.length === 0 || !mesh.has("animals") || !mesh.has("humans")) return [];
  const wanted = new Set(outcomeStems);
  const found = new Set<StudySpecies>();
  const sections = sectionsOf(record.abstract ?? "").filter((s) => !NOT_FINDINGS.has(s.role));
  for (const sentence of sections.flatMap((s) => splitSentences(s.text))) {
    for (const clause of sentence.split(/;\s+|,?\s+\b(?:whereas|while|but)\b\s+/)) {
      if (![...stemSet(clause)].some((st) => wanted.has(st))) continue;
      for (const species of speciesNamed(clause)) found.add(species);
    }
  }
  return [...found];
}

/**
 * How a drug or supplement was given, where a question names it ("Does oral rapamycin …?", "topical
 * retinoids"): a trial of topical rapamycin does not test oral rapamycin (roles.ts). Read from a
 * record's title and what it says it studied; a record that names no route, or names the
 * question's among others, restricts nothing.
 */
export type Route = "oral" | "topical" | "intravenous" | "inhaled" | "intranasal" | "injected" | "intra-articular" | "transdermal" | "systemic";
const ROUTES: [Route, RegExp][] = [
  // Not the mouth as a place ("oral cancer", "oral health").
  ["oral", new RegExp(`\\b(orally|oral(?!\\s+(?:${MOUTH_AS_PLACE})\\b)|by mouth|tablets?|capsules?|pills?)\\b`, "i")],
  ["topical", /\b(topical(ly)?|creams?|ointments?|gels?|applied to the skin)\b/i],
  ["intravenous", /\b(intravenous(ly)?|i\.v\.|infusions?|infused|drips?)\b/i],
  ["inhaled", /\b(inhaled|inhalation|inhalers?|nebuli[sz]ed)\b/i],
  ["intranasal", /\b(intranasal(ly)?|nasal sprays?)\b/i],
  ["injected", /\b(subcutaneous(ly)?|intramuscular(ly)?|injections?|injected)\b/i],
  ["intra-articular", /\b(intra-?articular)\b/i],
  ["transdermal", /\b(transdermal|skin patch(es)?)\b/i],
  // "a short course of systemic corticosteroids": by mouth or by injection, to the whole body (not
  // "systemic lupus", "systemic inflammation", which name a disease).
  ["systemic", /\bsystemic(?:ally)?\s+(?:administ\w*|given|(?:cortico)?steroids?|glucocorticoids?|antibiotics?|antifungals?|retinoids?|treatment with|therapy with)\b/i],
];
/** Routes that are one of the others: a systemic drug is given by mouth, by drip or by injection. */
export const ROUTE_INCLUDES: Partial<Record<Route, Route[]>> = { systemic: ["oral", "intravenous", "injected"] };

/** The routes a question names for what it asks about. */
export function questionRoutes(question: string): Route[] {
  return ROUTES.filter(([, re]) => re.test(question)).map(([route]) => route);
}


/**
 * The dose a question names ("low-dose rapamycin", "high-dose vitamin D") and a record's: a trial of
 * monthly high-dose vitamin D does not test low-dose vitamin D (roles.ts). Only "low" against
 * "high"; a record naming both, or neither, restricts nothing.
 */
export type Dose = "low" | "high";
const DOSES: [Dose, RegExp][] = [
  ["low", /\b(?:low|lower|reduced|small|minimal)[- ]dos(?:e|es|ed|ing|age)\b|\bmicro-?dos\w*/i],
  ["high", /\b(?:high|higher|large|very high)[- ]dos(?:e|es|ed|ing|age)\b|\bmega-?dos\w*/i],
];

/** The doses a question names. */
export function questionDoses(question: string): Dose[] {
  return DOSES.filter(([, re]) => re.test(question)).map(([dose]) => dose);
}

/** The routes and the doses a record names where it says what it studied (its title among it). */
export function howGiven(record: Pick<LiteratureRecord, "title" | "abstract" | "titleDerived">): { routes: Route[]; doses: Dose[] } {
  const text = studiedText(record);
  return { routes: ROUTES.filter(([, re]) => re.test(text)).map(([route]) => route), doses: DOSES.filter(([, re]) => re.test(text)).map(([dose]) => dose) };
}

/**
 * A record that says no group went without what it gave ("There was no untreated group", "No group
 * received placebo alone"): it compared ways of giving it (a schedule, a dose, a formulation, another
 * drug), so it does not test whether it works against nothing or a placebo (roles.ts). Not "no group
 * without exercise", which says what every arm had beside it (backgroundTherapies, onlyInCombination).
 */
const NO_UNTREATED_GROUP =
  /\b(?:there (?:was|were) no (?:untreated|placebo|sham|no-treatment|unexposed) (?:group|arm|control)s?|no (?:group|arm) (?:received|was given|got) (?:a )?(?:placebo|sham|no treatment|nothing)(?: alone)?)\b/i;
export function withoutUntreatedGroup(record: Pick<LiteratureRecord, "abstract">): boolean {
  return sectionsOf(record.abstract ?? "").some((s) => s.role !== "background" && NO_UNTREATED_GROUP.test(s.text));
}

/**
 * A pilot, feasibility or phase 1 study that says it had no control group: what changed in its
 * participants cannot be told from what would have happened anyway, so it tests whether the thing
 * can be given and is tolerated, not whether it works (roles.ts).
 */
const NO_CONTROL_GROUP = /\b(?:there (?:was|were) no|without an?|had no|lacked an?) (?:control|comparison|comparator|placebo) (?:group|arm)s?\b|\buncontrolled\b/i;
const PILOT = /\b(?:pilot|feasibility|phase (?:1|i)|first-in-human)\b/i;
export function uncontrolledPilot(record: Pick<LiteratureRecord, "title" | "abstract">): boolean {
  const text = `${record.title}\n${record.abstract ?? ""}`;
  return PILOT.test(text) && NO_CONTROL_GROUP.test(text);
}

/**
 * Which way round a record's title puts what it studied: what it followed people after ("Sleep …
 * after a diagnosis of Alzheimer's disease", "New depression in the year after a hip fracture": the
 * event comes first) and what it counted as new ("… and incident hip fracture", "risk of stroke":
 * the outcome). A question that asks whether one thing leads to another is not tested by a study of
 * what follows the second (roles.ts).
 */
export function titleDirection(title: string): { prior: string[]; incident: string[] } {
  const phrases = (re: RegExp) => [...title.matchAll(re)].map((m) => m[1]!.trim());
  return { prior: phrases(PRIOR_EVENT), incident: phrases(INCIDENT) };
}
const PHRASE = String.raw`([\w'’-]+(?:\s+[\w'’-]+){0,4}?)(?=\s*[:;,.(]|\s+(?:in|among|and|with|for|over|during|at|on|from|versus|vs)\b|\s*$)`;
const PRIOR_EVENT = new RegExp(String.raw`\b(?:after|following)\s+(?:(?:an?|the|their)\s+)?(?:(?:new\s+)?diagnos[ie]s\s+of\s+|episodes?\s+of\s+|onset\s+of\s+)?(?:(?:an?|the)\s+)?${PHRASE}`, "gi");
const INCIDENT = new RegExp(String.raw`\b(?:incident|new-onset|new|(?:the\s+)?risk\s+of|onset\s+of|development\s+of|subsequent)\s+${PHRASE}`, "gi");

/**
 * A record that says it tested nothing ("no intervention was tested", "no drug was modelled by
 * name", "no participants were treated"): a model or a projection on assumed effects, which no
 * question about what an intervention does is answered by (roles.ts). Not what no one was given
 * in a study that gave something else ("no patient was treated with antibiotics").
 */
const TESTED_NOTHING =
  /\bno (?:intervention|drug|treatment|therapy|supplement) was (?:tested|given|administered|modell?ed|evaluated|studied)\b(?!\s+(?:alone|on its own|separately|individually|singly))|\bno (?:participants?|patients?|people|one) (?:was|were) (?:treated|given anything|randomi[sz]ed)(?=\s*(?:[.;,]|and\b|$))/i;
export function testsNothing(record: Pick<LiteratureRecord, "abstract">): boolean {
  const read = sectionsOf(record.abstract ?? "").filter((s) => s.role !== "background");
  return read.some((s) => TESTED_NOTHING.test(s.text));
}

/**
 * A decision-analytic model ("a Markov model", "a decision tree", "a microsimulation", MeSH's
 * "Markov Chains", "Decision Trees" or "Models, Economic"): it projects what would follow from effects it
 * takes from other studies, so it shows what those effects are worth, not whether they hold
 * (roles.ts: it tests a question of cost or value only).
 */
export function isDecisionModel(record: Pick<LiteratureRecord, "title" | "abstract" | "mesh">): boolean {
  return record.mesh.some((m) => DECISION_HEADINGS.has(m.toLowerCase())) || DECISION_MODEL.test(`${record.title} ${record.abstract ?? ""}`);
}
// Not "Decision Support Techniques": indexers give it to decision aids and clinical decision rules too, which are tested.
const DECISION_HEADINGS = new Set(["markov chains", "decision trees", "models, economic"]);
const DECISION_MODEL = /\b(?:markov(?:\s+decision)?\s+(?:model|analysis|process)|decision[- ]analytic(?:al)?\s+model|decision\s+(?:analysis|tree)|micro-?simulation|(?:cost-effectiveness|simulation|state-transition)\s+model)\w*/i;

/**
 * Whether a record names the question's outcome only as who was studied: "patients with wrist
 * fractures", "after wrist fractures", "stroke survivors". Its people all had it before the study
 * began, so it cannot show that anything prevents it (roles.ts). An occurrence counted as new
 * ("subsequent fractures", "a second stroke") is an outcome. A case-control study compares people
 * with it against controls, which does test what leads to it, so it never counts here.
 *
 * `concepts`: each concept of the question's outcome as the stems that name it, one list per word.
 */
export function namesOnlyAsWhoWasStudied(record: Pick<LiteratureRecord, "title" | "titleDerived" | "abstract">, concepts: string[][][]): boolean {
  const text = studiedText(record);
  if (concepts.length === 0 || CASE_CONTROL.test(record.abstract ?? "")) return false;
  const words = [...text.matchAll(/[A-Za-z][A-Za-z'’-]*/g)].map((m) => ({ stem: stem(m[0].toLowerCase()), start: m.index!, end: m.index! + m[0].length }));
  let named = 0;
  for (const concept of concepts) {
    if (concept.length === 0) continue;
    for (let i = 0; i < words.length; i++) {
      // An occurrence: the concept's words all within a window as long as it, from this word on.
      const window = words.slice(i, i + concept.length + 1);
      if (!concept.some((alts) => alts.includes(words[i]!.stem)) || !concept.every((alts) => window.some((w) => alts.includes(w.stem)))) continue;
      const last = window.filter((w) => concept.some((alts) => alts.includes(w.stem))).at(-1)!;
      named++;
      const before = text.slice(Math.max(0, words[i]!.start - 60), words[i]!.start);
      const after = text.slice(last.end, last.end + 20);
      if (NEW_EVENT.test(before) || !(WHO_HAD.test(before) || AFTER_IT.test(before) || WHO_AFTER.test(after))) return false;
      i = words.indexOf(last);
    }
  }
  return named > 0;
}
/** "patients with 427 wrist fractures", "women who had a stroke", "people admitted with heart failure". */
const WHO_HAD =
  /\b(?:patients|people|persons|subjects|women|men|adults|children|participants|individuals|residents|survivors|those|cases|veterans)\s+(?:who\s+(?:had|have|has|sustained|suffered|underwent|developed)|(?:admitted|presenting|hospitali[sz]ed|diagnosed|treated|operated(?: on)?|seen)\s+(?:with|for)|with|having|sustaining|suffering(?: from)?|recovering from)\s+(?:(?:a|an|the|their|recent|acute|\d+)\s+){0,2}$/i;
/** "after wrist fractures", "following a stroke": what happened before. */
const AFTER_IT = /\b(?:after|following|recovering from|since)\s+(?:(?:a|an|the|their|his|her|recent|acute)\s+)?$/i;
/** "stroke survivors", "fracture patients". */
const WHO_AFTER = /^(?:\s+(?:patients|survivors|victims|sufferers|cohort|population)\b)/i;
/** "subsequent fractures", "a second stroke", "new falls": the event counted again, an outcome. */
const NEW_EVENT = /\b(?:new|subsequent|recurrent|recurrence of|further|second|repeat|incident|another|future|later)\s+(?:\w+\s+)?$/i;
const CASE_CONTROL = /\bcase[- ]control\b|\b(?:healthy|matched|population|community)\s+controls\b|\bcases and controls\b/i;
