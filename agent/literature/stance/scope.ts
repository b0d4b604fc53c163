import { splitSentences } from "../sentences";
import { FINDING_WORDS, isTrigger, negationCovers, negationWords } from "../negation";
import { stem } from "../terms";

/**
 * General cue mechanisms over a study's deciding text, for the fitted stance model (features.ts):
 * negation scoped onto the claim (NegEx, negation.ts), speculation, comparisons found alike, and
 * shortfall words. Unlike the rules' phrase lists (findings.ts), which were written while reading
 * evaluation items, these are cue lexicons applied by one mechanism, none read off an item: the
 * speculation cues are those of the BioScope annotation guidelines (Vincze et al., "The BioScope
 * corpus: biomedical texts annotated for uncertainty, negation and their scopes", BMC
 * Bioinformatics 2008;9(Suppl 11):S9); the comparisons and shortfall words are plain English
 * evaluation words (equal, similar; poor, low, insufficient …), whatever they are said of.
 */

/** BioScope speculation cues (hedges), as single words. */
const SPECULATION = new Set([
  "may", "might", "could", "can", "would", "possible", "possibly", "probable", "probably", "likely", "unlikely", "perhaps", "putative", "putatively", "potential", "potentially",
  "suggest", "suggests", "suggested", "suggesting", "suggestive", "indicate", "indicates", "indicated", "indicating", "appear", "appears", "appeared", "seem", "seems", "seemed",
  "presumably", "apparently", "hypothesis", "hypothesize", "hypothesise", "propose", "proposed", "speculate", "speculative", "assume", "believe", "expect", "whether", "unclear", "unknown", "uncertain",
]);
/** BioScope's multiword speculation cues: open questions. */
const OPEN_QUESTION = /\b(remains? to be|remains? (unclear|unknown|uncertain|controversial)|not (clear|known|certain)|raises? the (possibility|question)|further (studies|research|investigation|trials|work)|(is|are) (needed|required|warranted)|cannot be (excluded|ruled out))\b/gi;

/** Comparisons found alike: "no difference", "did not differ", "similar", "comparable", "not superior", "as effective as". */
const ALIKE =
  /\b(no (\w+ ){0,2}differences?|(did|does|do|was|were|is|are) not (significantly )?differ\w*|not (significantly )?different|similar|comparable|equivalent|equally|identical|the same|not (superior|inferior|better|worse)|as (effective|good|safe|accurate|efficacious) as|non-?inferior)\b/gi;

/** Evaluative shortfall words: what is said to fall short, whatever it is. */
const SHORTFALL =
  /\b(poor|poorly|low|limited|weak|little|modest|minimal|marginal|negligible|insufficient|inadequate|ineffective|inefficient|unnecessary|unreliable|inaccurate|unsuitable|unsatisfactory|questionable|doubtful|disappointing|unproven|rarely|seldom)\b/gi;

export type ScopeCues = {
  /** Share of the clauses naming the claim in which a negation's scope covers the claim's words or a finding word. */
  negatedOnClaim: number;
  /** The first clause naming the claim is negated so. */
  firstNegated: number;
  /** Share of all clauses holding a negation trigger (any scope). */
  negatedAny: number;
  /** Speculation cues per clause, and open questions (log-scaled counts). */
  speculation: number;
  open: number;
  /** Comparisons found alike, shortfall words (log-scaled counts). */
  alike: number;
  shortfall: number;
};

/** The clauses of a text at NegEx's termination punctuation (";", ":") and its sentences. */
function clausesOf(text: string): string[] {
  return splitSentences(text).flatMap((s) => s.split(/[;:]\s+/)).filter((c) => c.trim().length > 0);
}

/** The cues of a deciding text toward a claim, given as the stems of its parts. */
export function scopeCues({ text, claimStems }: { text: string; claimStems: Set<string> }): ScopeCues {
  const clauses = clausesOf(text);
  const naming: boolean[] = [];
  let negatedOnClaim = 0;
  let firstNegated = -1;
  let negatedAny = 0;
  let speculation = 0;
  for (const clause of clauses) {
    const words = negationWords(clause);
    const names = words.some((w) => claimStems.has(stem(w)));
    const negated = negationCovers(words, (s) => claimStems.has(s) || FINDING_WORDS.has(s));
    if (words.some(isTrigger)) negatedAny++;
    speculation += words.filter((w) => SPECULATION.has(w)).length;
    naming.push(names);
    if (names && negated) negatedOnClaim++;
    if (names && firstNegated < 0) firstNegated = negated ? 1 : 0;
  }
  const n = Math.max(1, clauses.length);
  const named = naming.filter(Boolean).length;
  const count = (re: RegExp) => Math.log1p((text.match(re) ?? []).length);
  return {
    negatedOnClaim: named > 0 ? negatedOnClaim / named : 0,
    firstNegated: Math.max(0, firstNegated),
    negatedAny: negatedAny / n,
    speculation: Math.log1p(speculation / n),
    open: count(OPEN_QUESTION),
    alike: count(ALIKE),
    shortfall: count(SHORTFALL),
  };
}
