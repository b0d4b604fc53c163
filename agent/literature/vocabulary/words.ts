import { stemmer } from "stemmer";

/**
 * Words whose Porter stem would merge them with words of another meaning, kept apart: "aging" (the
 * process a longevity question asks about) stems to "age" like "aged" and "age" (how old the
 * subjects were, and MeSH's check tags "Aged" and "Middle Aged", on nearly every clinical record), so
 * a diabetes trial "in adults aged 60" would name "aging". "aging" and "ageing" keep a stem of
 * their own; "aged", "ages" and "age" keep Porter's.
 */
const OWN_STEM: Record<string, string> = { aging: "aging", ageing: "aging" };

/** The Porter stem of a word (each part of a hyphenated word is stemmed), but for OWN_STEM. */
export function stem(word: string): string {
  return word
    .toLowerCase()
    .split("-")
    .map((part) => OWN_STEM[part] ?? (/^[a-z]+$/.test(part) ? stemmer(part) : part))
    .join("-");
}

/**
 * Lower-case word tokens (keeping inner hyphens, + and apostrophes: "nad+", "alzheimer's", "t-cell").
 * A double hyphen is a dash between words ("a disaster--waiting"), never a compound's hyphen.
 */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().replace(/-{2,}/g, " ").match(/[a-z0-9][a-z0-9+'’-]*[a-z0-9+]|[a-z0-9]/g) ?? []).map((t) => t.replace(/’/g, "'"));
}

/** A phrase as the stem sequence it is matched by. */
export function stemPhrase(phrase: string): string[] {
  return tokenize(phrase).map(stem);
}

/**
 * The other spelling of a word between British and American medical English (the spelling
 * differences Oxford and Merriam-Webster list): "haemorrhage" ↔ "hemorrhage", "oesophageal" ↔
 * "esophageal", "tumour" ↔ "tumor", "randomised" ↔ "randomized", "ageing" ↔ "aging". Null when
 * no rule applies.
 */
export function otherSpelling(word: string): string | null {
  const w = word.toLowerCase();
  for (const [american, british] of SPELLINGS) {
    if (w.startsWith(british)) return american + w.slice(british.length);
    if (w.startsWith(american)) return british + w.slice(american.length);
  }
  if (/(tum|behavi|col|lab|odo|fav)our(s|al)?$/.test(w)) return w.replace(/our(s|al)?$/, "or$1");
  if (/(tum|behavi|col|lab|odo|fav)or(s|al)?$/.test(w)) return w.replace(/or(s|al)?$/, "our$1");
  if (/[a-z]{3}is(e|ed|es|ing|ation|ations)$/.test(w) && !/(wise|rise|cise|vise|mise|tise|prise)/.test(w)) return w.replace(/is(e|ed|es|ing|ation|ations)$/, "iz$1");
  if (/[a-z]{3}iz(e|ed|es|ing|ation|ations)$/.test(w)) return w.replace(/iz(e|ed|es|ing|ation|ations)$/, "is$1");
  return null;
}

/** Word beginnings spelt differently, American then British. */
const SPELLINGS: [string, string][] = [
  ["hema", "haema"], ["hemo", "haemo"], ["hemorrh", "haemorrh"], ["pediatr", "paediatr"], ["anemi", "anaemi"], ["anesth", "anaesth"],
  ["esophag", "oesophag"], ["edema", "oedema"], ["estrog", "oestrog"], ["estradiol", "oestradiol"], ["fetus", "foetus"], ["fetal", "foetal"],
  ["leukem", "leukaem"], ["ischem", "ischaem"], ["gynec", "gynaec"], ["orthoped", "orthopaed"], ["diarrhe", "diarrhoe"], ["dyspne", "dyspnoe"],
  ["apnea", "apnoea"], ["cesarean", "caesarean"], ["aging", "ageing"], ["septicem", "septicaem"], ["glycem", "glycaem"], ["hyperglycem", "hyperglycaem"],
  ["hypoglycem", "hypoglycaem"], ["bacterem", "bacteraem"], ["celiac", "coeliac"], ["center", "centre"], ["fiber", "fibre"], ["liter", "litre"],
];

/** A MeSH term as a heading: lower case, without the major-topic star and the qualifier ("Hip Fractures/surgery*"). */
export function normalizeHeading(mesh: string): string {
  return mesh.split("/")[0]!.replace(/\*/g, "").trim().toLowerCase();
}
