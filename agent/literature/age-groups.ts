import type { LiteratureRecord } from "./record";
import type { QuestionReading } from "./reading";

/**
 * Whom a study was done in, by age, by sex, by where they live and by how far their disease had
 * gone, and whom a question asks about: a trial in schoolchildren does not test a question about
 * older adults, a trial in older women one about men, a trial in care-home residents one about
 * people living at home, nor a trial in advanced dementia one about early Alzheimer's (roles.ts,
 * like another species). Each is read the same way: a record's MeSH check tags when
 * it has any of the kind, else its own title's words; a question's words. Only a clear-cut
 * difference is read: a title or a question naming both, or neither, restricts nothing.
 */

/** Two groups of one kind, each with the MeSH check tags and the words that name it. */
type Groups<G extends string> = [first: { group: G; headings: Set<string>; words: RegExp }, second: { group: G; headings: Set<string>; words: RegExp }];

function recordGroups<G extends string>(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">, [a, b]: Groups<G>): G[] {
  const mesh = new Set(record.mesh.map((m) => m.toLowerCase()));
  const tagged = (g: Groups<G>[number]) => [...g.headings].some((h) => mesh.has(h));
  if (tagged(a) || tagged(b)) return [a, b].filter(tagged).map((g) => g.group);
  if (record.titleDerived) return [];
  const named = questionGroup(record.title, [a, b]);
  return named ? [named] : [];
}

function questionGroup<G extends string>(text: string, [a, b]: Groups<G>): G | null {
  const first = a.words.test(text);
  const second = b.words.test(text);
  return first === second ? null : first ? a.group : b.group;
}

/** Words for older people, not adults of any age (roles.ts says which a question asked about). */
const OLDER = String.raw`older|elderly|seniors?|geriatric|old age|old people|octogenarians?|nonagenarians?|centenarians?|later life|late life|aged (?:6[5-9]|[7-9]\d)|over (?:6[5-9]|[7-9]\d)`;
export const OLDER_WORDS = new RegExp(`\\b(?:${OLDER})\\b`, "i");

/**
 * By age, children against older people: "adults" and "middle aged" lie between and test both. A
 * study of pregnancy or of new mothers is of women of childbearing age (`childbearing`): its
 * "Adult" tag does not speak to older people. No question is read as asking about that group.
 */
export type AgeGroup = "children" | "older" | "childbearing";
const AGES: Groups<AgeGroup> = [
  {
    group: "children",
    headings: new Set(["child", "child, preschool", "infant", "infant, newborn", "adolescent", "minors"]),
    // Not "childhood": "passive smokers during childhood" are adults asked about their past.
    words: /\b(child|children|kids?|infants?|bab(?:y|ies)|toddlers?|newborns?|neonates?|adolescents?|teenagers?|schoolchildren|pupils|paediatric|pediatric|boys|girls)\b/i,
  },
  {
    group: "older",
    // Adults of any age may speak to older people; only children's tags speak to children.
    headings: new Set(["aged", "aged, 80 and over", "frail elderly", "adult", "young adult", "middle aged"]),
    // "adults" too: not children, which is all this group tells apart ("Does dexamethasone work as
    // well as prednisone in adults?" is not tested by a trial in children).
    words: new RegExp(`\\b(?:${OLDER}|adults?|grown-ups?)\\b`, "i"),
  },
];

/** The age groups a record's MeSH tags give, else its own title's words; empty when nothing says. */
export function recordAgeGroups(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">): AgeGroup[] {
  const groups: AgeGroup[] = recordGroups(record, AGES);
  const mesh = record.mesh.map((m) => m.toLowerCase());
  const pregnancy = mesh.some((m) => PREGNANCY_HEADINGS.test(m)) || (!record.titleDerived && PREGNANCY_WORDS.test(record.title));
  if (!pregnancy || mesh.some((m) => OLDER_HEADINGS.has(m))) return groups;
  return [...groups.filter((g) => g !== "older"), "childbearing"];
}
const PREGNANCY_HEADINGS = /^(pregnancy|pregnant women|postpartum period|depression, postpartum|prenatal care|pregnancy complications\b.*|pregnancy outcome|pregnancy, high-risk)$/;
const PREGNANCY_WORDS = /\b(pregnan\w*|postnatal|postpartum|antenatal|prenatal|gestational)\b/i;
const OLDER_HEADINGS = new Set(["aged", "aged, 80 and over", "frail elderly"]);

/** The one age group a question names, or null (none, or both). */
export function questionAgeGroup(question: string): AgeGroup | null {
  return questionGroup(question, AGES);
}

/** By sex: "Does zoledronate increase bone density in men?" against a trial in older women. */
export type Sex = "women" | "men";
const SEXES: Groups<Sex> = [
  { group: "women", headings: new Set(["female"]), words: /\b(women|woman|females?|girls|mothers|wives|postmenopausal|premenopausal|perimenopausal|pregnan\w*|maternal)\b/i },
  { group: "men", headings: new Set(["male"]), words: /\b(men|man|males?|boys|fathers|husbands)\b/i },
];

/** The sexes a record's MeSH tags give ("Female", "Male"), else its title's words; empty when nothing says. */
export function recordSexes(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">): Sex[] {
  return recordGroups(record, SEXES);
}

/** The one sex a question names, or null (none, or both: "Are men more susceptible than women?"). */
export function questionSex(question: string): Sex | null {
  return questionGroup(question, SEXES);
}

/** Where people live: at home (in the community) against in a care home or other institution. */
export type Setting = "at home" | "in care homes";
const SETTINGS: Groups<Setting> = [
  {
    group: "at home",
    headings: new Set(["independent living"]),
    words: /\b(community[- ]dwelling|home[- ]dwelling|liv(?:e|es|ing) (?:at|in their own) homes?|(?:who|people|adults) (?:still )?liv(?:e|ing) independently|in the community)\b/i,
  },
  {
    group: "in care homes",
    headings: new Set(["nursing homes", "homes for the aged", "institutionalization", "residential facilities"]),
    words: /\b(care[- ]homes?|nursing[- ]homes?|residential (?:care|aged care|homes?)|long-term care (?:facilit\w+|residents?)|institutionali[sz]ed|aged care facilit\w+)\b/i,
  },
];

/** Where a record's people lived, by its MeSH tags, else its title; empty when nothing says. */
export function recordSettings(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">): Setting[] {
  return recordGroups(record, SETTINGS);
}

/** The one setting a question names, or null. */
export function questionSetting(question: string): Setting | null {
  return questionGroup(question, SETTINGS);
}

/**
 * How far a disease had gone: early or mild against advanced or severe, said of a disease ("early
 * Alzheimer's", "advanced dementia", "end-stage kidney disease"), never of a treatment ("early
 * discharge", "an early start"). No MeSH tag says it: the title's words only.
 */
export type Stage = "early" | "advanced";
const DISEASE = String.raw`(?:\w+[ '’-]+){0,2}?(?:alzheimer\w*|dementias?|parkinson\w*|cancers?|carcinomas?|tumou?rs?|diseases?|disorders?|failure|heart failure|kidney disease|liver disease|copd|osteoarthritis|arthritis|stages?|illness)\b`;
const STAGES: Groups<Stage> = [
  { group: "early", headings: new Set(), words: new RegExp(String.raw`\b(?:early|early-stage|early stage|mild|prodromal)\s+${DISEASE}`, "i") },
  { group: "advanced", headings: new Set(), words: new RegExp(String.raw`\b(?:advanced|severe|late-stage|late stage|end-stage|end stage|terminal|moderate(?:-| to )severe)\s+${DISEASE}`, "i") },
];

/** How far its people's disease had gone, by its title; empty when it does not say. */
export function recordStages(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">): Stage[] {
  return recordGroups(record, STAGES);
}

/** The one stage a question names, or null. */
export function questionStage(question: string): Stage | null {
  return questionGroup(question, STAGES);
}

/**
 * A question of what being in a group does, its exposure an age, a sex or a race ("Do older patients
 * do worse after reflux surgery?", "Is old age a risk factor for death after heart surgery?", "Do
 * women do worse than men after heart surgery?", "Are black patients less likely to get pain
 * medicine?"): the group is what is tested, so only a study that compares groups of that kind
 * tests it. A trial in older people of one implant against another names "older" and carries the
 * Aged tag, and says nothing of what age does; a trial whose MeSH say Female and Male says nothing
 * of what sex does. Not a question of a treatment in a group ("Does metformin help older people
 * live longer?", "Do older men benefit from therapy?"), where the group says whom. Null when the
 * question asks no such thing.
 */
export type GroupKind = "ages" | "sexes" | "races";
export function askedGroupEffect(reading: Pick<QuestionReading, "question" | "concepts">): GroupKind | null {
  // "Are patients over 80 too old for heart surgery?": the age is read as whom, and asked about.
  if (/\btoo old\b/i.test(reading.question)) return "ages";
  for (const kind of ["ages", "sexes", "races"] as const) {
    const group = reading.concepts.find((c) => (c.part === "exposure" || c.part === "subject") && GROUP_CONCEPT[kind].test(c.label));
    if (group && saidOfGroup(reading.question, group.label)) return kind;
  }
  return null;
}
/**
 * What the group is said to do follows it closely ("older patients do worse", "old age a risk
 * factor", "women … than men"); in "Do older people with insomnia feel they sleep better after a
 * light box?" the "better" is of the sleep the light box is asked to bring.
 */
function saidOfGroup(question: string, label: string): boolean {
  const words = question.toLowerCase().match(/[a-z0-9][\w-]*/g) ?? [];
  const first = label.toLowerCase().split(/\s+/)[0]!;
  return words.some((w, i) => w === first && words.slice(i + 1, i + 7).some((x) => GROUP_EFFECT.test(x)));
}
const GROUP_CONCEPT: Record<GroupKind, RegExp> = {
  ages: new RegExp(`^(?:${OLDER}|age|aging|ageing|advanced age|older age|young age|younger age|young|younger|old)\\b`, "i"),
  sexes: /^(?:women|woman|men|man|females?|males?|sex|gender|girls|boys|being a (?:woman|man|female|male)|female sex|male sex)\b/i,
  races: /^(?:black|white|african|african[- ]americans?|hispanics?|latinos?|latinas?|asians?|race|racial|ethnic\w*|minority|minorities|non-?white)\b/i,
};
/** What a group is asked to do: fare worse or better, raise a risk, predict, rule a treatment out. */
const GROUP_EFFECT = /\b(worse|better|poorer|higher|lower|more|less|greater|fewer|risks?|predict\w*|contraindicat\w*|influenc\w*|affects?|impact|differ\w*|fare|matters?|too old)\b/i;

/**
 * Whether a record compares groups of the kind, or reads the kind as a factor: for ages MeSH's "Age
 * Factors" or "Age Distribution", or its text setting ages side by side ("compared with younger
 * patients", "octogenarians versus", "with increasing age", "the influence of age"); for sexes
 * "Sex Factors" or "sex differences", "women … than men"; for races the population groups' MeSH
 * or its text naming race or ethnicity. Adjusting for age does not compare ages.
 */
export function recordComparesGroups(record: Pick<LiteratureRecord, "mesh" | "title" | "abstract">, kind: GroupKind): boolean {
  if (record.mesh.some((m) => GROUP_HEADINGS[kind].has(m.toLowerCase()))) return true;
  return GROUP_COMPARED[kind].test(`${record.title} ${record.abstract ?? ""}`);
}
const GROUP_HEADINGS: Record<GroupKind, Set<string>> = {
  ages: new Set(["age factors", "age distribution"]),
  sexes: new Set(["sex factors", "sex distribution", "sex characteristics"]),
  races: new Set(["ethnic groups", "ethnicity", "racial groups", "continental population groups", "african americans", "european continental ancestry group", "hispanic americans", "asian americans", "healthcare disparities", "racism"]),
};
const GROUP_COMPARED: Record<GroupKind, RegExp> = {
  ages: /\b(?:age (?:groups?|categor\w+|strata|bands|brackets)|younger (?:than|patients|adults|people|persons|individuals|subjects|women|men|group|groups|cohorts?|counterparts|controls|age groups?)|older than(?!\s+(?:\d|the age))|younger and older|older and younger|(?:with|by|according to|across) (?:increasing |advancing |advanced )?age\b|(?:influence|effect|effects|impact|role|relationship) of (?:patient |advanced |older |increasing )?age|age[- ](?:related|dependent|specific) (?:differences?|comparisons?)|(?:octogenarians?|nonagenarians?|elderly|older)\b[^.;]{0,60}\b(?:vs\.?|versus|compared (?:with|to))|(?:vs\.?|versus|compared (?:with|to))\s+(?:\w+\s+){0,3}?(?:younger|older|elderly)|age (?:was|were|is) (?:not )?(?:an? )?(?:independent |significant )?(?:predictor|risk factor|associated))/i,
  sexes: /\b(?:(?:sex|gender)[- ](?:differences?|specific|related|based|stratified|disparit\w+)|(?:differences?|disparit\w+) (?:between|by) (?:the )?(?:sexes|genders|men and women|women and men)|by (?:sex|gender)\b|(?:women|females|girls)\b[^.;]{0,60}\b(?:than|compared (?:with|to)|versus|vs\.?)\s+(?:\w+\s+){0,2}?(?:men|males|boys)\b|(?:men|males|boys)\b[^.;]{0,60}\b(?:than|compared (?:with|to)|versus|vs\.?)\s+(?:\w+\s+){0,2}?(?:women|females|girls)\b|(?:female|male) (?:sex|gender) (?:was|is|were)\b|(?:sex|gender) (?:was|is|were) (?:not )?(?:an? )?(?:independent |significant )?(?:predictor|risk factor|associated))/i,
  races: /\b(?:racial|ethnic|ethnicity|race\b|african[- ]americans?|caucasians?|hispanics?|latin[oa]s?|black (?:and|or|vs\.?|versus) white|white (?:and|or|vs\.?|versus) black|non-?white)/i,
};
