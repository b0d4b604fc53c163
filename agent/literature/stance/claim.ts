import { valenceOf, type Valence } from "../findings";
import { ASKS_EQUIVALENCE, ASKS_SAFETY, askedSentence } from "../question";
import { stem, tokenize, type QueryTerm } from "../terms";
import { isMainlyAdjective, oppositesOf } from "../vocabulary";
import { directionsOf, type Direction } from "./directions";

/**
 * What the stance reader needs of a question's claim. reading.ts's QuestionReading has these fields;
 * `text` (the question as asked) lets the reader see what the other fields do not say: a negated
 * claim ("Metformin does not extend lifespan", "X is ineffective"), an equivalence put in other
 * words ("Is ultrasound equal to X-ray?"), and which way it says a quantity moves.
 */
export type StanceClaim = {
  valence: Valence;
  equivalence: boolean;
  terms: QueryTerm[];
  text?: string;
  /** The same as `text`, under the name the question reading (reading.ts's QuestionReading) gives it. */
  question?: string;
};

export type ClaimReading = {
  /** The claim asserts an absence or a shortfall: read the finding as for the plain claim, then turn it round. */
  negated: boolean;
  equivalence: boolean;
  /**
   * The claim compares ("X is superior to Y", "more effective than", "Are older patients more
   * likely to …"): a finding that the two were alike answers it no.
   */
  comparative: boolean;
  /**
   * The claim asks whether something can be done at all, naming no change ("Can examiners take
   * part from a distance?", "Can they be cost-effective?"): a finding that it did as well as the
   * accepted way answers yes.
   */
  ability: boolean;
  /** The plain claim says something is needed ("Is X necessary?", "Can X be omitted?" turned round). */
  needed: boolean;
  /** The claim says X can stand in for Y ("Can X replace Y?"): X found as good as Y answers yes. */
  alternative: boolean;
  /** The claim is that something is safe ("Is it safe to breastfeed on X?"): harms found alike answer yes. */
  safety: boolean;
  /**
   * What share of people the claim says do something: too few ("Is X underused?"), too many ("Are
   * antibiotics overprescribed?"), or many ("Do many decline?", "Do nurses complete the
   * assessment?"), or that a test yields something ("useful", "changes management":
   * a small yield is a no; a large share of anything else says nothing of it); null when it says
   * nothing of a share.
   */
  share: "under" | "over" | "large" | "few" | "yield" | null;
  /**
   * What a claim of a superlative names ("Obesity is the leading cause of …", "The most common
   * adverse events are gastrointestinal"): the stems of the side that is not the superlative
   * phrase. A finding of the same superlative that does not name them names something else.
   */
  superlative: string[] | null;
  /** The claim says the effect is large ("highly effective", "markedly reduces"): a modest one answers it no. */
  intense: boolean;
  /**
   * The two groups a comparative claim sets against each other ("Men are more susceptible … than
   * women"): the first stem of each; null when it names no such pair.
   */
  groups: { first: string; second: string } | null;
  /** The claim is about a practice for everyone ("routine", "all patients", "annual"): keeping it for some answers it no. */
  routine: boolean;
  /** The claim says something is the best there is ("the ideal method", "the treatment of choice"): another named the one to use answers it no. */
  ideal: boolean;
  /** The claim asks whether something predicts or is tied to an outcome ("a predictor of", "a prognostic factor"). */
  predictive: boolean;
  /** The direction the plain claim asks about (its negation removed). */
  valence: Valence;
  directions: Direction[];
  /**
   * The claim's words, each as the stems that count for it, with its weight (1 content, less for
   * evaluative or generic words), and whether it names the claim's outcome.
   */
  parts: { stems: string[]; weight: number; outcome?: boolean; subject?: boolean; phrases?: string[][] }[];
  /** The sum of the parts' weights. */
  total: number;
  /**
   * What the plain claim's predicate adjective is not ("Is the score reliable?" → unreliable,
   * undependable): a finding that says one of these of the claim's subject answers it no. Empty for
   * a claim without such an adjective, and for comparisons and equivalences, which have their own.
   */
  opposites: string[];
  /**
   * The stems of what the claim says its subject goes with ("alcohol with meals", "people with
   * diabetes"): a finding said of the subject outside or without it ("drinking outside meals",
   * "in people without diabetes") is of another subgroup.
   */
  subgroups: string[];
};

/**
 * A negation of the claim itself: not "not only … but", "non-inferior", "whether or not", "in
 * patients with no history of …", nor a genotype ("mice lacking Sirt1", "lack of FGF21").
 */
const NEGATION =
  /(?<!\b(with|or|without)\s)\b(not|no|never|cannot|neither|nor|none)\b(?!\s+(only|longer|inferior|just|merely)\b)|n't\b|\b(fails?|failed) to\b|\b(unable to|unrelated to|incapable of|immune to|devoid of)\b|\b(trivial|negligible|minor|little|no) (role|effect|impact|influence|contribution)\b|\black(s|ed)? (\w+ )?(validity|evidence|effect|efficacy|benefit|association|impact|value|accuracy)\b/i;
/** "who do not have diabetes", "that are not treated", "without diabetes": a description of whom the claim is about. */
const WHO_NOT = /\b(?:who|that|which|whose(?:\s+[a-z][\w-]*){1,2})\s+(?:do|does|did|are|is|were|was|have|has|had)(?:\s+not|n't)\s+(?:\w[\w-]*\s*){1,4}(?=[?.,;]|$)/gi;
/** A claim that something falls short, said of its subject ("X is ineffective", "is an unsafe option"): its plain form is the positive word. */
const SHORTFALL =
  /\b(is|are|was|were|be|been|being|remains?|seems?|appears?|proved?)\s+(a\s+|an\s+)?(\w+ly\s+)?(ineffective|inefficient|inaccurate|unsafe|unreliable|unnecessary|insufficient|inadequate|invalid|unhelpful|useless|unsuccessful|irrelevant|dispensable)\b/i;
/** A comparison asked: one thing better, worse, more or less than another. */
const COMPARES =
  /\b(than|superior|inferior|better|worse|outperform\w*|(more|less) (\w+ )?(effective|efficacious|accurate|efficient|sensitive|specific|useful|reliable|beneficial|likely|frequent|common|severe|successful|susceptible|vulnerable|prone)|advantage(s|ous)? (over|of)|benefit over)\b/i;
/** A question of whether something can be done or serve ("can X be …", "is X feasible", "an acceptable alternative"). */
// "Is a single dose sufficient?": as good as the fuller course is a yes.
const ABILITY = /^(\W*\w+[^?:]*:\s*)?(can|could|may)\b|\b(feasib\w*|possible|acceptable|practicable|viable|sufficient|suffices?|enough)\b/i;
/** A claim that something tells cases apart, which only a difference found supports. */
const TELLS_APART = /\b(diagnos\w*|predict\w*|prognos\w*|markers?|parameters?|indicators?|detect\w*|discriminat\w*|distinguish\w*|differentiat\w*|screen\w*|identif\w*|associat\w*|correlat\w*|relat\w*)\b/i;
/** A claim that something is needed. */
const NEEDED = /\b(needed|(?<!\bthe\s)need\b(?!\s+for\s+(?:\w+\s+){0,3}(?:was|were|is|are)\b)|necessary|required|requires?|indispensable|essential|mandatory)\b/i;
/** A claim that X can stand in for Y: supported by X found as good or better, so read as a benefit, not an equivalence. */
const ALTERNATIVE = /\b(alternative to|substitute for|replace|instead of)\b/i;
const PREDICTION = /\b(predict\w*|prognos\w*|markers?|indicators?|associat\w*|related|relationship|correlat\w*|linked|determinants?|risk factors?)\b/i;
const CHANGE = /\b(increas\w*|decreas\w*|reduc\w*|lower\w*|rais\w*|improv\w*|prevent\w*|worsen\w*|protect\w*)\b/i;
/**
 * A claim that something can be done without: "Can STIR imaging be omitted?" is "STIR imaging is
 * not needed"; so are the questioner's own proposals to stop ("Should we stop screening …?", "Is it
 * time to abandon …?"), though not a thing said to stop something ("Does X stop progression?").
 */
const OMISSION =
  /\b(be |been )?(omitted|avoided|stopped|discontinued|withheld|abandoned|skipped|dispensed with|forgone|foregone|eliminated|abolished|withdrawn)\b|\b(?:(?:should|can|could|may|must|shall|do|need)\s+(?:we|you|clinicians|physicians|surgeons|doctors|one|they)|(?:is it|it is)\s+(?:\w+\s+)?time to)\s+(?:stop|abandon|discontinue|omit|avoid|forgo|forego|drop|eliminate|abolish|withdraw|skip|give up|do away with|dispense with)\b/i;

/** Two-letter initials that are English words, never taken for an abbreviation. */
const ENGLISH_PAIRS = new Set("am an as at be by do go he if in is it me my no of on or so to up us we".split(" "));

/** Reads a claim for the stance reader. */
export function readClaim(input: StanceClaim): ClaimReading {
  const asked = input.text ?? input.question;
  const claim = { ...input, text: asked };
  // A relative clause says whom the claim is about, not what it claims: "in people over 75 who do
  // not have diabetes" negates nothing of "Do statins prevent cardiovascular events?".
  const said = asked ?? claim.terms.map((t) => t.term).join(" ");
  // A person's circumstances before their question say whom the claim is about, not what it claims.
  const text = (askedSentence(said)?.asked ?? said).replace(WHO_NOT, " ");
  const omission = claim.text !== undefined && OMISSION.test(text);
  // Two negations cancel: "Can X not be omitted?" asks whether X is needed.
  const negated = claim.text !== undefined && (NEGATION.test(text) || SHORTFALL.test(text)) !== omission;
  const plain = text.replace(NEGATION, " ").replace(SHORTFALL, (w) => w.replace(/\b(in|un|ir)(?=\w+$)/i, "")).replace(OMISSION, "needed");
  const alternative = claim.text !== undefined && ALTERNATIVE.test(text);
  const equivalence = (claim.equivalence || ASKS_EQUIVALENCE.test(text)) && !alternative;
  const comparative = !equivalence && claim.text !== undefined && COMPARES.test(plain);
  const directions = directionsOf(plain);
  const needed = claim.text !== undefined && NEEDED.test(plain);
  // Not a test that must find a difference ("Can D-dimer serve as a diagnostic marker?"), nor a
  // need ("Can X be omitted?" asks whether X is needed).
  const ability =
    claim.text !== undefined && !equivalence && !comparative && !negated && !needed && ABILITY.test(text) && directions.length === 0 && !ANY_CHANGE.test(plain) && !TELLS_APART.test(plain);
  const subject = subjectOf(claim.terms);
  const parts =
    claim.terms.length > 0
      ? claim.terms.map((t) => ({
          stems: t.stems,
          weight: t.generic ? 0.1 : t.weight,
          outcome: t.part === "outcome" && !t.generic,
          subject: subject !== undefined && (t.concept ?? t.term) === subject,
          ...(t.phrases?.length ? { phrases: t.phrases } : {}),
        }))
      : [...new Set(tokenize(text).filter((t) => t.length > 2).map(stem))].map((s) => ({ stems: [s], weight: 1 }));
  const total = parts.reduce((n, p) => n + p.weight, 0);
  // "neighbourhood social capital" is "NSC" in the study that measured it: the initials of a run of
  // the claim's words stand for those words.
  const words = tokenize(text);
  for (let len = 2; len <= 4; len++) {
    for (let i = 0; i + len <= words.length; i++) {
      const run = words.slice(i, i + len);
      const covered = run.map((w) => parts.findIndex((p) => p.stems.includes(stem(w))));
      if (covered.some((c) => c < 0)) continue;
      const acronym = run.map((w) => w[0]).join("");
      if (ENGLISH_PAIRS.has(acronym)) continue;
      for (const c of covered) if (!parts[c]!.stems.includes(acronym)) parts[c] = { ...parts[c]!, stems: [...parts[c]!.stems, acronym] };
    }
  }
  // A question of prediction or association asks about no direction ("Can X help predict the risk of Y?").
  const predictive = PREDICTION.test(plain) && !CHANGE.test(plain);
  const valence = alternative ? "benefit" : predictive ? "neutral" : claim.text !== undefined ? plainValence(plain, claim.valence) : claim.valence;
  const safety = claim.text !== undefined && ASKS_SAFETY.test(plain) && !comparative;
  const superlative = claim.text === undefined ? null : superlativeNames(plain);
  // "The most common adverse events are …" names which one is most common, not how many have it.
  const share =
    claim.text === undefined || equivalence || comparative || superlative
      ? null
      : UNDER.test(plain)
        ? "under"
        : OVER.test(plain)
          ? "over"
          : MANY.test(plain) || (PEOPLE_DO.test(plain) && directions.length === 0 && !needed)
            ? "large"
            : FEW.test(plain)
              ? "few"
              : YIELDS.test(plain)
                ? "yield"
                : null;
  const intense = claim.text !== undefined && INTENSE.test(plain);
  // "For people over 75 with an irregular heartbeat, is warfarin better than aspirin …?": whom the
  // claim is about, put first, is not one of the two things compared.
  const paired = comparative ? GROUPS.exec(plain.replace(/^\W*(?:for|in|among|amongst)\s[^,?]{1,100},\s*/i, "")) : null;
  const groups = paired ? { first: stem(paired[1]!.toLowerCase()), second: stem(paired[2]!.toLowerCase()) } : null;
  const routine = claim.text !== undefined && ROUTINE.test(plain);
  const opposites = claim.text === undefined || comparative || equivalence ? [] : predicateOpposites(plain);
  const ideal = claim.text !== undefined && IDEAL.test(plain);
  const subgroups = claim.text === undefined ? [] : [...text.matchAll(/\bwith\s+(?:(?:the|a|an|their|his|her|its)\s+)?([a-z][\w-]{2,})/gi)].map((m) => stem(m[1]!.toLowerCase()));
  return { negated, equivalence, comparative, ability, needed, alternative, safety, share, superlative, intense, groups, routine, ideal, predictive, valence, directions, parts, total, opposites, subgroups };
}

const COPULA = /^(is|are|was|were|be|been|being|remains?|remained|seems?|seemed|appears?|appeared|proves?|proved|becomes?|became|stays?)$/;
/** What may follow a predicate adjective: the end, a preposition or a conjunction ("safe after surgery", "useful in", "reliable?"). */
const AFTER_PREDICATE = new Set(
  "in for to after as than when with among at during on of compared without and or but before if by because under over within across between from versus vs whether enough".split(" "),
);
/** What a thing serves as: "Is CRP a useful marker?", "Is tumour size an important predictor?". */
const ROLE_NOUN =
  /^(predictors?|markers?|indicators?|tools?|tests?|methods?|measures?|options?|alternatives?|factors?|approach(es)?|strateg(y|ies)|instruments?|parameters?|signs?|index|indices|modalit(y|ies)|adjuncts?|substitutes?|screens?|guides?|determinants?|causes?|sources?|complications?|features?|reasons?|problems?)$/;
/** Adjectives of direction and degree, which directions.ts and the comparisons read. */
const DEGREE = /^(more|less|higher|lower|better|worse|greater|smaller|larger|fewer|longer|shorter|high|low|early|late|same|different|similar|equal|likely|unlikely)$/;

/**
 * The opposites (vocabulary, `oppositesOf`) of the adjectives a claim predicates of its subject: an
 * adjective after a copula ("Is the INR reliable?", "Current guidelines are sufficient") that ends
 * the claim or is followed by a preposition or a conjunction ("safe after hip replacement"). An
 * adjective before its noun says which one ("early discharge", "high-dose radiotherapy"), not
 * what is claimed of it.
 */
function predicateOpposites(plain: string): string[] {
  const tokens = plain.toLowerCase().match(/[a-z][a-z-]*|[?.,;:()]/g) ?? [];
  const found = new Set<string>();
  let afterCopula = false;
  tokens.forEach((word, i) => {
    if (COPULA.test(word)) afterCopula = true;
    const next = tokens[i + 1];
    if (!afterCopula || !/^[a-z]/.test(word) || DEGREE.test(word) || COPULA.test(word)) return;
    // A comma most often runs on a list of the subject's kinds ("normally sighted, visually impaired,
    // and blind pedestrians"). Before a noun of what a thing serves as ("an important predictor",
    // "a useful marker"), the adjective is still what is claimed of the subject.
    if (next !== undefined && !/^[?.;:]$/.test(next) && !AFTER_PREDICATE.has(next) && !ROLE_NOUN.test(next)) return;
    if (!isMainlyAdjective(word)) return;
    for (const o of oppositesOf(word)) found.add(o);
  });
  return [...found];
}

/** A claim that few do or have something: "is rare", "uncommon", "seldom", "a minority". */
const FEW = /\b(rare|rarely|uncommon|infrequent(ly)?|seldom|unusual|a minority)\b/i;
/** A superlative of frequency or cause: "the most common", "the leading cause", "the main". */
export const SUPERLATIVE = /\bthe (most (common|frequent|prevalent|important)|commonest|leading|main|major|principal|primary|predominant|chief|single (largest|biggest|most important))\b/i;
const COPULA_WORD = /\b(is|are|was|were|remains?|remained)\b/i;
/**
 * The stems a superlative claim names on the side that is not the superlative: after the copula
 * when the claim opens on it ("The most common adverse events … are [gastrointestinal]"), else
 * before it ("[Obesity] is the leading cause …", "Is [smoking] the leading cause …?").
 */
function superlativeNames(plain: string): string[] | null {
  const at = SUPERLATIVE.exec(plain);
  if (!at) return null;
  const copula = COPULA_WORD.exec(plain);
  if (!copula) return null;
  const opensOnCopula = copula.index < 3;
  const side = at.index < copula.index ? plain.slice(copula.index + copula[0].length) : opensOnCopula ? plain.slice(copula.index + copula[0].length, at.index) : plain.slice(0, copula.index);
  const stems = tokenize(side.replace(/[?.]/g, " "))
    .filter((t) => t.length > 2)
    .map(stem);
  return stems.length > 0 ? [...new Set(stems)] : null;
}
/** The best there is: "the ideal method", "the best", "optimal", "the treatment of choice", "the gold standard". */
const IDEAL = /\b(ideal|best|optimal|of choice|gold standard|preferred)\b/i;
/** A practice for everyone: "routine", "all patients", "every child", "annual", "universal". */
const ROUTINE = /\b(routine(ly)?|universal(ly)?|annual|scheduled|always|(all|every) (\w+ )?(patients?|women|men|children|adults|infants|people|cases))\b/i;
/** A claim that a test or practice yields something: it is useful, worthwhile, or changes what is done. */
const YIELDS = /\b(useful|usefulness|worthwhile|worth it|valuable|helpful|yield|(change|changes|alter|alters|influence|influences|affect|affects) (the )?(treatment|management|decisions?))\b/i;
/** A claim of a large effect, or of enough of one: "highly effective", "markedly reduces", "adequately protected". */
const INTENSE =
  /\b(highly|very|extremely|strongly|markedly|dramatically|substantially|greatly|hugely|massively)\s+(effective|efficacious|beneficial|protective|reduc\w*|improv\w*|increas\w*|lower\w*|rais\w*|prevent\w*)\b|\b(adequately|sufficiently|fully|properly|well)\s+(protected|controlled|treated|managed|vaccinated|immuni[sz]ed|prepared|informed|educated|trained|covered)\b/i;
/** Two groups set against each other: "Men are more susceptible to X than (or compared to) women". The auxiliary is a whole word ("Does", not "Do" + "es"). */
const GROUPS = /^\W*(?:(?:are|does|do|is)\s+)?(\w+)\b[^?.]{0,80}?\b(?:than|compared (?:to|with)|versus|vs\.?)\s+(?:the\s+)?(\w+)/i;
/** Too little of a practice: "underused", "underprescribed", "inadequately treated". */
const UNDER = /\b(under-?(used?|using|uses|utili[sz]\w*|prescrib\w*|diagnos\w*|treat\w*|recogni[sz]\w*|report\w*|estimat\w*|represent\w*|vaccinat\w*)|inadequately|insufficiently|too (few|little|rarely|seldom))\b/i;
/** Too much of a practice: "overused", "overprescribed", "too often". */
const OVER = /\b(over-?(used?|using|uses|utili[sz]\w*|prescrib\w*|diagnos\w*|treat\w*|investigat\w*|request\w*|order\w*|estimat\w*)|too (many|much|often|frequently))\b/i;
/** A claim that many do something: "Do many women decline …?", "Is it commonly …?". */
const MANY = /\b(many|most|majority|often|commonly|usually|frequently|widely)\b/i;
/** "Do nurses complete …?", "Do patients understand …?": whether the people named do it at all. */
const PEOPLE_DO =
  /^\W*(do|does|did|are|is)\s+(\w+\s+){0,3}(nurses|doctors|physicians|clinicians|surgeons|patients|parents|mothers|fathers|families|carers|caregivers|women|men|people|staff|students|residents|trainees|pharmacists|practitioners|gps|dentists|midwives|therapists|physiotherapists|prescribers|hospitals|practices|teachers)\b/i;

/** The claim's first concept: its exposure, or what a question that relates nothing is about ("uric acid" of "Is uric acid a prognostic factor in heart failure?"). */
function subjectOf(terms: QueryTerm[]): string | undefined {
  const first = terms.find((t) => !t.generic && t.weight === 1 && (t.part === "exposure" || t.part === "main" || t.part === "topic"));
  return first ? (first.concept ?? first.term) : undefined;
}

/** Verbs of change that name no direction: "X alters Y" holds whichever way Y moves. */
const ANY_CHANGE = /\b(alter|alters|altered|altering|affect|affects|affected|affecting|influenc\w*|modif(y|ies|ied|ying)|modulat\w*|chang(e|es|ed|ing)|impacts?|impacted|regulat\w*|determin\w*)\b/i;

/** "Does early feeding cause complications?": what the claim says is caused, as a change up. */
const CAUSES = /\b(?:cause|causes|lead to|leads to|result in|results in|trigger|triggers|provoke|provokes|give rise to|gives rise to)\s+([^?.;]{1,80})/i;
/** "Should older women continue screening?": a claim that something be done, not stopped. */
const SHOULD_DO = /^\W*should\b(?![^?]*\b(?:stop\w*|avoid\w*|abandon\w*|discontinu\w*|withh[oe]ld\w*|withdraw\w*|omit\w*|delay\w*|defer\w*|restrict\w*|limit\w*|forgo\w*|skip\w*|not|no longer)\b)/i;
function plainValence(plain: string, given: Valence): Valence {
  const said = valenceOf(plain);
  const caused = said === "neutral" ? CAUSES.exec(plain) : null;
  const read = caused ? valenceOf(`increased ${caused[1]}`) : said;
  if (read === "neutral" && SHOULD_DO.test(plain)) return "benefit";
  // The question reading's valence comes from the outcome's words ("adverse drug events"); a claim
  // that X alters them, with no way named, asks about any change.
  if (read === "neutral" && ANY_CHANGE.test(plain) && directionsOf(plain).length === 0) return "neutral";
  return read === "neutral" ? given : read;
}
