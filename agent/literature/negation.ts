import { stem, tokenize } from "./terms";

/**
 * Negation and its scope, by one general mechanism rather than phrase by phrase: NegEx (Chapman et
 * al., "A simple algorithm for identifying negated findings and diseases in discharge summaries",
 * J Biomed Inform 2001;34:301-310): a trigger negates what follows it within five words, unless a
 * termination term or the end of the clause comes first; pseudo-triggers negate nothing. The
 * triggers are NegEx's with the negation keywords of the BioScope annotation guidelines (Vincze et
 * al., BMC Bioinformatics 2008;9(Suppl 11):S9: "absence", "lack", "fail", "unable").
 */

const TRIGGERS = new Set(["no", "not", "never", "none", "nothing", "neither", "nor", "without", "cannot", "absence", "lack", "lacks", "lacked", "lacking", "unable", "fail", "fails", "failed", "failing"]);
/**
 * NegEx pseudo-triggers: a negation word that negates nothing here ("not only", "no doubt",
 * "whether or not"), and a negation that describes who was studied ("patients with no history
 * of", "with or without"), not what was found.
 */
const PSEUDO = /\b(not only|not just|not merely|no doubt|whether or not|not to mention|nothing but|if not|(with|or|and) (no|without)|without (a |any )?(history|prior|previous|known)|with or without)\b/gi;
/** NegEx termination terms: a negation's scope ends at them (and at the clause's punctuation). */
const TERMINATION = new Set(["but", "however", "although", "though", "whereas", "while", "yet", "except", "which", "who", "nevertheless", "nonetheless", "still", "apart", "aside", "unlike", "because", "since", "despite"]);
/** NegEx's window: a trigger negates at most this many words after it. */
const SCOPE_WORDS = 5;

/**
 * Words that name a finding itself (an effect, a difference, an association, a benefit, what a
 * study shows): a negation whose scope covers one denies the finding.
 */
export const FINDING_WORDS: ReadonlySet<string> = new Set(
  [
    "effect", "difference", "differ", "change", "association", "associate", "relationship", "relate", "correlation", "correlate", "significant", "significantly", "benefit", "beneficial",
    "advantage", "role", "impact", "influence", "affect", "improve", "improvement", "reduce", "reduction", "increase", "decrease", "predict", "predictive", "predictor", "superior",
    "better", "effective", "efficacy", "useful", "value", "evidence", "support", "confirm", "show", "demonstrate", "suggest", "reach", "alter", "modify", "link", "protect", "protection",
  ].map((w) => stem(w)),
);

/** The words of a clause, a contracted negation ("didn't") written out, pseudo-triggers removed. */
export function negationWords(clause: string): string[] {
  return tokenize(clause.replace(/n't\b/gi, " not").replace(PSEUDO, " "));
}

export function isTrigger(word: string): boolean {
  return TRIGGERS.has(word);
}

/** For each word, whether it lies in a negation's scope. */
function inNegationScope(words: string[]): boolean[] {
  const out = words.map(() => false);
  for (let i = 0; i < words.length; i++) {
    if (!TRIGGERS.has(words[i]!)) continue;
    for (let j = i + 1; j <= Math.min(words.length - 1, i + SCOPE_WORDS); j++) {
      if (TERMINATION.has(words[j]!)) break;
      out[j] = true;
    }
  }
  return out;
}

/** Whether a negation's scope in the words covers a word whose stem the test accepts. */
export function negationCovers(words: string[], covers: (stemmed: string) => boolean): boolean {
  const scope = inNegationScope(words);
  return words.some((w, i) => scope[i] && covers(stem(w)));
}
