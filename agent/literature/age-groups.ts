import type { LiteratureRecord } from "./record";

/**
 * Whom a study was done in, by age and by sex, and whom a question asks about: a trial in
 * schoolchildren does not test a question about older adults, nor a trial in older women one about
 * men (roles.ts, like another species). Each is read the same way: a record's MeSH check tags when
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

/** By age, children against older people: "adults" and "middle aged" lie between and test both. */
export type AgeGroup = "children" | "older";
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
    words: /\b(older|elderly|seniors?|geriatric|old age|old people|octogenarians?|nonagenarians?|centenarians?|later life|late life|aged (?:6[5-9]|[7-9]\d)|over (?:6[5-9]|[7-9]\d))\b/i,
  },
];

/** The age groups a record's MeSH tags give, else its own title's words; empty when nothing says. */
export function recordAgeGroups(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">): AgeGroup[] {
  return recordGroups(record, AGES);
}

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
