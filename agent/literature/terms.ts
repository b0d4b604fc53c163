/**
 * Query terms from a question: tokenised, stop words dropped, lightly stemmed for matching, and
 * expanded with the domain's synonyms (ageing/aging, rapamycin/sirolimus, mice/mouse, ...), so a
 * reference that says "sirolimus" counts for a question about "rapamycin".
 */

const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by can
  could did do does doing down during each few for from further had has have having he her here hers how i if in into is it
  its itself just me more most my no nor not now of off on once only or other our out over own same she should so some such
  than that the their them then there these they this those through to too under until up very was we were what when where
  which while who whom why will with would you your yours
  effect effects role evidence study studies research impact influence associated association relationship link linked
  affect affects affecting compared versus vs whether there any known current literature show shown shows
  human humans people person persons patient patients use using used`
    .split(/\s+/)
    .filter(Boolean),
);

/** Each group is one concept: any member found counts as the term. */
const SYNONYM_GROUPS: string[][] = [
  ["aging", "ageing", "aged", "senescence"],
  ["lifespan", "longevity", "life span", "life-span", "survival"],
  ["healthspan", "health span"],
  ["rapamycin", "sirolimus", "mtor inhibitor"],
  ["mice", "mouse", "murine"],
  ["rats", "rat"],
  ["senolytic", "senolytics", "dasatinib", "quercetin", "fisetin"],
  ["caloric restriction", "calorie restriction", "dietary restriction"],
  ["nad", "nad+", "nicotinamide riboside", "nicotinamide mononucleotide", "nmn"],
  ["telomere", "telomeres", "telomere length"],
  ["exercise", "physical activity", "training"],
  ["mortality", "death", "survival"],
  ["dementia", "alzheimer", "alzheimer's", "cognitive decline"],
  ["frailty", "frail"],
  ["trial", "trials", "randomized", "randomised"],
];

/** A light English stemmer: enough to match plural and verb forms, not a linguistic model. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (w.length > 4 && (w.endsWith("sses") || w.endsWith("ches") || w.endsWith("shes"))) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  return w;
}

/** Lower-case word tokens (keeping inner hyphens, + and apostrophes: "nad+", "alzheimer's", "t-cell"). */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9][a-z0-9+'’-]*[a-z0-9+]|[a-z0-9]/g) ?? []).map((t) => t.replace(/’/g, "'"));
}

export type QueryTerm = {
  /** The term as it appeared in the question. */
  term: string;
  /** Stems that count as a match: the term's and its synonyms'. */
  stems: string[];
  /** Synonyms for query expansion (other members of its group). */
  synonyms: string[];
};

/** The content terms of a question, in order, without duplicates. */
export function extractTerms(question: string): QueryTerm[] {
  const tokens = tokenize(question).filter((t) => !STOP_WORDS.has(t) && (t.length > 1 || /\d/.test(t)));
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  for (const token of tokens) {
    const s = stem(token);
    if (seen.has(s)) continue;
    seen.add(s);
    const group = SYNONYM_GROUPS.find((g) => g.some((member) => member === token || stem(member) === s));
    const synonyms = group ? group.filter((m) => m !== token) : [];
    terms.push({ term: token, stems: [...new Set([s, ...synonyms.flatMap((m) => tokenize(m).map(stem))])], synonyms });
  }
  return terms;
}

/** The stems of a text, for matching against QueryTerm.stems. */
export function stemSet(text: string): Set<string> {
  return new Set(tokenize(text).map(stem));
}
