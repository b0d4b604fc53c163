import type { LiteratureRecord } from "./record";

/**
 * Whom a study was done in by age, and whom a question asks about: a trial in schoolchildren does
 * not test a question about older adults, nor the reverse (roles.ts, like another species). Only
 * the clear-cut difference is read, children against older people: "adults" and "middle aged" lie
 * between and test both.
 */
export type AgeGroup = "children" | "older";

/** MeSH's age check tags (every MEDLINE record of people carries them). */
const CHILD_HEADINGS = new Set(["child", "child, preschool", "infant", "infant, newborn", "adolescent", "minors"]);
const OLDER_HEADINGS = new Set(["aged", "aged, 80 and over", "frail elderly"]);
const BETWEEN_HEADINGS = new Set(["adult", "young adult", "middle aged"]);

// Not "childhood": "passive smokers during childhood" are adults asked about their past.
const CHILD_WORDS = /\b(child|children|kids?|infants?|bab(?:y|ies)|toddlers?|newborns?|neonates?|adolescents?|teenagers?|schoolchildren|pupils|paediatric|pediatric|boys|girls)\b/i;
const OLDER_WORDS = /\b(older|elderly|seniors?|geriatric|old age|old people|octogenarians?|nonagenarians?|centenarians?|later life|late life|aged (?:6[5-9]|[7-9]\d)|over (?:6[5-9]|[7-9]\d))\b/i;

/** The age groups a record's MeSH tags give, else its own title's words; empty when nothing says. */
export function recordAgeGroups(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">): AgeGroup[] {
  const mesh = record.mesh.map((m) => m.toLowerCase());
  const tagged = mesh.some((m) => CHILD_HEADINGS.has(m) || OLDER_HEADINGS.has(m) || BETWEEN_HEADINGS.has(m));
  if (tagged) {
    const groups: AgeGroup[] = [];
    if (mesh.some((m) => CHILD_HEADINGS.has(m))) groups.push("children");
    // Adults of any age may speak to older people; only children's tags speak to children.
    if (mesh.some((m) => OLDER_HEADINGS.has(m) || BETWEEN_HEADINGS.has(m))) groups.push("older");
    return groups;
  }
  if (record.titleDerived) return [];
  const children = CHILD_WORDS.test(record.title);
  const older = OLDER_WORDS.test(record.title);
  return children === older ? [] : [children ? "children" : "older"];
}

/** The one age group a question names, or null (none, or both). */
export function questionAgeGroup(question: string): AgeGroup | null {
  const children = CHILD_WORDS.test(question);
  const older = OLDER_WORDS.test(question);
  return children === older ? null : children ? "children" : "older";
}

/**
 * Whom a study was done in by sex, and whom a question asks about: a trial in older women does not
 * test "Does zoledronate increase bone density in men?" (roles.ts, like an age group). MeSH's sex
 * check tags when the record has any, else its title's words; a question or a title that names
 * both, or neither, restricts nothing.
 */
export type Sex = "women" | "men";
const WOMEN_WORDS = /\b(women|woman|females?|girls|mothers|wives|postmenopausal|premenopausal|perimenopausal|pregnan\w*|maternal)\b/i;
const MEN_WORDS = /\b(men|man|males?|boys|fathers|husbands)\b/i;

/** The sexes a record's MeSH tags give ("Female", "Male"), else its title's words; empty when nothing says. */
export function recordSexes(record: Pick<LiteratureRecord, "mesh" | "title" | "titleDerived">): Sex[] {
  const mesh = new Set(record.mesh.map((m) => m.toLowerCase()));
  if (mesh.has("female") || mesh.has("male")) return [...(mesh.has("female") ? (["women"] as const) : []), ...(mesh.has("male") ? (["men"] as const) : [])];
  if (record.titleDerived) return [];
  const women = WOMEN_WORDS.test(record.title);
  const men = MEN_WORDS.test(record.title);
  return women === men ? [] : [women ? "women" : "men"];
}

/** The one sex a question names, or null (none, or both: "Are men more susceptible than women?"). */
export function questionSex(question: string): Sex | null {
  const women = WOMEN_WORDS.test(question);
  const men = MEN_WORDS.test(question);
  return women === men ? null : women ? "women" : "men";
}
