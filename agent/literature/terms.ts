import { stemmer } from "stemmer";

/**
 * Query terms from a question: tokenised, stop words dropped, Porter-stemmed for matching (as
 * PostgreSQL's english configuration stems the local library), and expanded with the domain's
 * synonyms (ageing/aging, rapamycin/sirolimus, mice/mouse, ...), so a reference that says
 * "sirolimus" counts for a question about "rapamycin". Evaluative words of a question ("feasible",
 * "reliable", "useful") are kept as weak terms: they count little for relevance and are not sent
 * to the sources, whose queries they would only narrow.
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

/** Words that judge rather than name the subject of a question. */
const WEAK_WORDS = new Set(
  `able accurate adequate advisable appropriate beneficial better best clinically correct dangerous different difference
  effective effectiveness efficacious efficacy essential feasible feasibility good harmful helpful important improve
  improves improved justifiable justified key necessary need needed new novel option optimal possible predict predictor
  predictors really reliable relevant reliability safe safety sensitive still sufficient suitable true truly useful
  valid value worth worthwhile whole provide`
    .split(/\s+/)
    .filter(Boolean),
);

/** Weight of a weak (evaluative) term relative to a content term, in relevance. */
export const WEAK_TERM_WEIGHT = 0.3;

/** The Porter stem of a word (each part of a hyphenated word is stemmed). */
export function stem(word: string): string {
  return word
    .toLowerCase()
    .split("-")
    .map((part) => (/^[a-z]+$/.test(part) ? stemmer(part) : part))
    .join("-");
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
  /** 1 for a content term, WEAK_TERM_WEIGHT for an evaluative word. */
  weight: number;
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
    terms.push({
      term: token,
      stems: [...new Set([s, ...synonyms.flatMap((m) => tokenize(m).map(stem))])],
      synonyms,
      weight: WEAK_WORDS.has(token) ? WEAK_TERM_WEIGHT : 1,
    });
  }
  return terms;
}

/** The stems of a text (and of each part of its hyphenated words), for matching against QueryTerm.stems. */
export function stemSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const token of tokenize(text)) {
    out.add(stem(token));
    if (token.includes("-")) for (const part of token.split("-")) if (part) out.add(stem(part));
  }
  return out;
}

/** The terms worth sending to a source: content terms first; weak ones only if nothing else is left. */
export function searchTerms(terms: QueryTerm[]): string[] {
  const content = terms.filter((t) => t.weight === 1).map((t) => t.term);
  return content.length > 0 ? content : terms.map((t) => t.term);
}
