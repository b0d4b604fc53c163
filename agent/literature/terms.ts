import { placeQuestionWords, questionContexts, type QuestionPart } from "./question";
import { alternativesOf, expandConcept, findConcepts, isEverydayWord, phraseOrders, type ConceptExpansion, type ConceptMention } from "./vocabulary";
import type { SourceExpansion } from "./sources/types";
import { otherSpelling, stem, stemPhrase, tokenize } from "./vocabulary/words";
import { abbreviationsOf } from "./abbreviations";

export { stem, tokenize };

/**
 * Query terms from a question: tokenised, stop words dropped, Porter-stemmed for matching (as
 * PostgreSQL's english configuration stems the local library), and expanded with the vocabulary
 * (agent/literature/vocabulary: lay ↔ technical names, MeSH headings, class members, WordNet's
 * medical synonyms, British and American spellings), so a reference that says "fracture of the
 * proximal femur" counts for a question about a "broken hip". Evaluative words of a question ("feasible",
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
  human humans people person persons patient patients use using used
  what's it's that's there's here's who's how's where's why's isn't aren't doesn't don't didn't wasn't weren't can't won't
  someone someone's somebody somebody's anyone anyone's anybody everyone everyone's everybody one's
  him himself his herself themselves yourself yourselves ourselves`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that judge rather than name the subject of a question. */
const WEAK_WORDS = new Set(
  `able accurate adequate advisable appropriate beneficial better best clinically correct dangerous different difference
  effective effectiveness efficacious efficacy essential feasible feasibility good harmful helpful important improve
  improves improved justifiable justified key necessary need needed new novel option optimal possible predict predictor
  predictors really reliable relevant reliability safe safety sensitive still sufficient suitable true truly useful
  valid value worth worthwhile whole provide required mandatory obligatory indicated warranted obsolete preferable ideal
  adequately superior inferior equivalent comparable acceptable cost-effective
  underrecognized underrecognised under-recognized under-recognised underappreciated underestimated overestimated overrated
  overlooked neglected myth hype disaster paradox dilemma phenomenon chance effort`
    .split(/\s+/)
    .filter(Boolean),
);

/** Weight of a weak (evaluative) term relative to a content term, in relevance. */
const WEAK_TERM_WEIGHT = 0.3;

/**
 * Everyday English that a question may use and an abstract need not: verbs, adjectives and adverbs
 * that name nothing a paper is about ("make", "exist", "possible", "really", "answer").
 */
const COMMON_ENGLISH = `
  able accept acceptable account achieve act actually add affected again against agree allow almost alone already also
  alternative always another answer anything apply appropriate approximately around ask available avoid aware away back bad
  become begin believe belong beyond big bring call capable  carry certain change cheap choice choose claim clear clearly
  close come concern consider considered continue contrary correct  could current currently daily deal decide
  decision decisions define definitely depend deserve despite determine develop difference different differently discrepancy
  do done easy either else enough ensure equal especially establish even ever every everyday evidence exactly example exist
  exists expect  explain extent fact fail fair far feel few find fine follow forget free full fully get give go
  going great hand happen hard help hold hope however idea identify ignore important include indeed instead interest
  interesting investigate involve issue issues keep key kind know known lack last  least leave less let like likely
  limit limited little  look lose lost lot made main make makes making many matter may mean means meet might miss
   moment more most move much must myth nature near nearly necessarily necessary need needed needs neither never next
  nothing notion obtain occur offer often ok once one only open order other others otherwise own part particular 
  perform perhaps place plan play point poor possible possibly practical prefer present pretty probably problem problems
  proper prove provide put question questions quite rather reach read ready real really reason reasonable recommend
  regard regarding rely remain report require right routine same say second see seem seems serious set several shall
  should show  similar simple simply since single situation so some something sometimes sort still strong such
  suggest  sure take talk tell tend   thing things think third though three through thus today together
  true truly try turn two ultimately under understand unique unknown unless up usual usually various very view want way
  ways weak well whether while whole wide will wish within without  worse worth would wrong yes yet`;

/**
 * Words that name no subject of their own: measures ("length", "level", "rate"), relations and
 * results ("outcome", "risk", "factor"), modifiers ("high", "low", "early") and people in general
 * ("patients", "subjects"). They are sent to the sources, which rank with them, but in relevance
 * they weigh next to nothing and never make a reference on topic: "telomere length" is about
 * telomeres, and a paper on hospital length of stay is not.
 */
/** Everyday English and evaluative words: they never stand inside a concept's name (question.ts). */
const COMMON_WORDS = new Set(COMMON_ENGLISH.split(/\s+/).filter(Boolean));

const GENERIC_WORDS = new Set(
  `length lengths level levels rate rates ratio value values amount amounts degree number numbers size sizes score scores measure
  measures measurement measurements index indices count counts concentration concentrations proportion percentage frequency
  duration time times period periods day days week weeks month months year years
  outcome outcomes result results effect effects factor factors risk risks role association associations change changes
  increase increased increases decrease decreased decreases reduction reduced response responses status type types form forms
  high higher highest low lower lowest early earlier late later long longer short shorter large larger small smaller
  good poor normal abnormal total overall major minor first second new old
  patient patients subject subjects individual individuals case cases group groups population populations sample samples
  participant participants people person persons
  method methods approach approaches analysis analyses evaluation assessment assessments management use usage practice
  clinical medical significant potential specific common general related based following
  therapy therapies treatment treatments intervention interventions procedure procedures strategy strategies option options
  ${COMMON_ENGLISH}`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * A word that says how or how often a thing is given ("oral rapamycin", "topical", "weekly"): it
 * names no subject, so it weighs as a generic word in relevance, and a study of oral nicotinamide
 * does not name "oral rapamycin" by its route. Not the mouth as a place ("oral cancer", "oral
 * health"), which is what such a question is about.
 */
export const ROUTE_WORDS = "oral orally topical topically intravenous intravenously inhaled intranasal subcutaneous intramuscular transdermal sublingual".split(" ");
/**
 * The form a thing is taken in ("iron tablets", "fish oil pills", "diclofenac gel"): like a route, it
 * names no subject (a trial of oral iron tests "iron tablets"), and the route it implies is read
 * from it (studied.ts ROUTES).
 */
const FORM_WORDS = "tablet tablets pill pills capsule capsules gel gels".split(" ");
const ROUTE_WORD_SET = new Set([...ROUTE_WORDS, ...FORM_WORDS]);
/** What "oral" names as the mouth, a place: "oral cancer", "oral health", "oral glucose", "oral contraceptives". */
export const MOUTH_AS_PLACE =
  "cancers?|cavity|health|hygiene|mucosa|mucositis|lesions?|squamous|surgery|surgeons?|care|microbiome|microbiota|bacteria|disease|pain|ulcers?|candidiasis|tissues?|exam\\w*|glucose|contraceptives?|contraception|anticoagulants?";
const PLACE_AFTER = new RegExp(`^(?:${MOUTH_AS_PLACE})$`);
function givenBy(token: string, next: string | undefined): boolean {
  return ROUTE_WORD_SET.has(token) && !(next !== undefined && PLACE_AFTER.test(next));
}

/** Weight of a generic word (GENERIC_WORDS) relative to a content term, in relevance. */
export const GENERIC_TERM_WEIGHT = 0.05;

export type QueryTerm = {
  /** The term as it appeared in the question. */
  term: string;
  /** Stems that count as a match: the term's and its one-word synonyms'. */
  stems: string[];
  /** Its synonyms of several words, as stem sequences that count as a match where they stand together ("life span"). */
  phrases?: string[][];
  /**
   * What else the literature calls it, for query expansion: the vocabulary's synonyms, lay names
   * and, for a class, its members; shared by every word of a several-word phrase ("broken hip").
   */
  synonyms: string[];
  /**
   * The stems of the word itself (and of the word before a relating suffix: "histology" of
   * "histology-related") and its other spelling, without the vocabulary's other names.
   */
  own?: string[];
  /**
   * A hyphenated word's parts as a stem sequence, which a record may write apart ("high dose" for
   * "high-dose"); counts where the parts stand together, like the word itself.
   */
  compound?: string[];
  /**
   * Narrower names searched for but not matched as the term (ConceptExpansion.narrower: WordNet's
   * hyponyms, "psychosis" → schizophrenia): they reach the queries and the library's ranking only.
   */
  narrower?: string[];
  /** MeSH headings that name it: they count in a record's MeSH terms only. */
  headings?: string[];
  /**
   * A class's members, as stem sequences (one stem for a one-word member): a study of a member
   * tests a question about the class, whatever the other candidates call it (relevance.ts).
   */
  members?: string[][];
  /** The question's phrase the vocabulary knew it by ("broken hip"), when it stands in one. */
  vocabularyPhrase?: string;
  /**
   * The letter or numeral after it that says which one it is ("d" of "vitamin D", "i" of "phase
   * I"), as a stem: the term is named only where it stands right before it (a vitamin E trial does
   * not name vitamin D), or by one of its other names.
   */
  qualifier?: string;
  /** 1 for a content term, WEAK_TERM_WEIGHT for an evaluative word. */
  weight: number;
  /** A word that names no subject of its own ("length", "level", "patients"): see GENERIC_WORDS. */
  generic?: boolean;
  /**
   * Everyday English by its most frequent sense (vocabulary isEverydayWord: "sporty", "tiring",
   * "mole"), not a technical name: when no record holds it, it says how the person put the
   * question, not that the records lack its subject (relevance.ts).
   */
  everyday?: boolean;
  /** Where it stands in the question (agent/literature/question.ts); `context` when it only narrows it. */
  part?: QuestionPart;
  /** The concept it belongs to: the run of adjacent content words it stands in ("telomere length"). */
  concept?: string;
};

/**
 * The base forms a word may be an inflection of ("getting" → get, "appears" → appear, "studies" →
 * study): the word lists hold base forms. Only inflections: a Porter stem would also fold
 * "medication" into "medical" and make it generic.
 */
function baseForms(word: string): string[] {
  const forms = [word];
  const strip = (suffix: string, ...endings: string[]) => {
    if (!word.endsWith(suffix) || word.length <= suffix.length + 2) return;
    const base = word.slice(0, -suffix.length);
    forms.push(...endings.map((e) => base + e));
    if (/([b-df-hj-np-tv-z])\1$/.test(base)) forms.push(base.slice(0, -1)); // getting → get
  };
  strip("ies", "y");
  strip("es", "", "e");
  strip("s", "");
  strip("ed", "", "e");
  strip("ing", "", "e");
  return forms;
}
const isWeak = (t: string) => baseForms(t).some((f) => WEAK_WORDS.has(f));
const isGeneric = (t: string) => !isWeak(t) && baseForms(t).some((f) => GENERIC_WORDS.has(f));
const isContent = (t: string) => !STOP_WORDS.has(t) && (t.length > 1 || /\d/.test(t));
const isFiller = (t: string) => isWeak(t) || baseForms(t).some((f) => COMMON_WORDS.has(f));
const isSpecific = (t: string) => !isGeneric(t) && !isWeak(t);

/** Whom a question asks about and what it compares with, in its own words (question.ts, questionContexts). */
export function contextsOf(question: string): { population: string[]; comparator: string[] } {
  return questionContexts(question, isContent, isSpecific);
}

/** The content terms of a question, in order, without duplicates, each placed in the question's structure. */
export function extractTerms(question: string): QueryTerm[] {
  const placed = new Map<string, { part: QuestionPart; concept: string }>();
  const placements = placeQuestionWords(question, isContent, isSpecific, isFiller);
  for (const p of placements) if (!placed.has(p.word)) placed.set(p.word, p);
  const tokens = tokenize(question);
  const known = findConcepts(tokens, { isWord: isContent, isContent: (t) => isContent(t) && isSpecific(t) });
  const mentionAt = new Map(known.flatMap((m) => Array.from({ length: m.end - m.start }, (_, k) => [m.start + k, m] as const)));
  const seen = new Map<string, number>();
  const terms: QueryTerm[] = [];
  tokens.forEach((token, index) => {
    if (!isContent(token)) return;
    const s = stem(token);
    const first = seen.get(s);
    if (first !== undefined) {
      // "My mum has had two falls … Would a home visit help stop her falling?": a word said first in
      // the person's circumstances (context) and again in what they ask stands where it is asked.
      const kept = terms[first]!;
      const asked = placed.get(token);
      if (kept.part === "context" && asked && asked.part !== "context" && asked.part !== "predicate") terms[first] = { ...kept, part: asked.part, concept: asked.concept };
      return;
    }
    seen.set(s, terms.length);
    const mention = mentionAt.get(index);
    const { synonyms: names, split: allSplit } = mention ? namesOf(mention.expansion) : { synonyms: [], split: [] };
    const synonyms = names.filter((m) => m !== token);
    const split = allSplit.filter((_, k) => names[k] !== token && allSplit[k]!.length > 0);
    const where = placed.get(token);
    const { head, compound } = compoundOf(token);
    terms.push({
      term: token,
      stems: [...new Set([s, ...head, ...split.filter((p) => p.length === 1).map((p) => p[0]!)])],
      own: [...new Set([s, ...head, ...[otherSpelling(token)].filter((w): w is string => w !== null).map(stem)])],
      ...(compound ? { compound } : {}),
      phrases: split.filter((p) => p.length > 1).flatMap(phraseOrders),
      synonyms,
      ...(mention?.expansion.narrower.length ? { narrower: mention.expansion.narrower } : {}),
      ...(mention?.expansion.heading ? { headings: [mention.expansion.heading] } : {}),
      ...(mention?.expansion.members.length ? { members: membersOf(mention.expansion) } : {}),
      ...(mention ? { vocabularyPhrase: mention.phrase } : {}),
      weight: isWeak(token) ? WEAK_TERM_WEIGHT : 1,
      generic: (isGeneric(token) || givenBy(token, tokens[index + 1])) && !(mention && namedOnlyWith(mention, tokens)),
      ...(isEverydayWord(token) ? { everyday: true } : {}),
      // A relation cue ("reduce", "extend") stands in no part: it only relates them.
      part: where?.part ?? "context",
      concept: where?.concept ?? token,
    });
  });
  // "Does the shingles vaccine prevent shingles?": a word of the exposure that is also the whole
  // outcome stands in both parts, so the outcome is not lost to the exposure that named it first.
  for (const p of placements) {
    const term = terms.find((t) => t.term === p.word);
    if (!term || !RELATED_PARTS.has(p.part) || term.part === undefined || !RELATED_PARTS.has(term.part) || term.part === p.part) continue;
    if (terms.some((t) => t.term === p.word && t.part === p.part)) continue;
    // Named as itself there, not as the exposure's phrase ("shingles", not "shingles vaccine").
    const alone = expandConcept(p.word);
    const names = alone ? namesOf(alone) : { synonyms: [], split: [] };
    const { vocabularyPhrase: _phrase, headings: _headings, members: _members, narrower: _narrower, ...plain } = term;
    terms.push({
      ...plain,
      stems: [...new Set([...(term.own ?? []), ...names.split.filter((q) => q.length === 1).map((q) => q[0]!)])],
      phrases: names.split.filter((q) => q.length > 1).flatMap(phraseOrders),
      synonyms: names.synonyms,
      ...(alone?.heading ? { headings: [alone.heading] } : {}),
      part: p.part,
      concept: p.concept,
    });
  }
  // "eat less", "cutting calories": everyday words stand alone as concepts (question.ts), unless
  // together they are one phrase the vocabulary knows; then they name its one concept.
  for (const m of known) {
    if (m.end - m.start < 2) continue;
    const words = tokens.slice(m.start, m.end).filter(isContent);
    const named = terms.filter((t) => words.includes(t.term));
    if (named.length < 2 || new Set(named.map((t) => t.part)).size > 1 || new Set(named.map((t) => t.concept)).size === 1) continue;
    for (const t of named) t.concept = words.join(" ");
  }
  joinAbbreviations(question, terms);
  for (const [word, letter] of letterQualifiers(question)) {
    const term = terms.find((t) => t.term === word);
    if (term) term.qualifier = stem(letter);
  }
  return terms;
}

const RELATED_PARTS = new Set<QuestionPart>(["exposure", "outcome"]);

/**
 * Words qualified by a capital letter or a Roman numeral after them ("vitamin D", "phase I",
 * "stage II", "hepatitis C"), which the tokeniser drops as a stop word or a letter alone. "A" is
 * left out: it is also the article.
 */
function letterQualifiers(question: string): [string, string][] {
  const found: [string, string][] = [];
  for (const m of question.matchAll(/(?<![\w'-])([A-Za-z][a-z0-9-]+)\s+([B-HJ-Z]|I{1,3}|IV|VI{0,3}|IX)(?![\w'’-])/g)) {
    const word = m[1]!.toLowerCase();
    if (!STOP_WORDS.has(word)) found.push([word, m[2]!.toLowerCase()]);
  }
  return found;
}

/**
 * An abbreviation the question defines ("histidine triad nucleotide-binding protein 1 (HINT1)")
 * names the same concept as its long form: a record naming either names it. The short form joins
 * the long form's concept, matched by the long form as a phrase, and each word of the long form is
 * matched by the short form.
 */
function joinAbbreviations(question: string, terms: QueryTerm[]): void {
  for (const { short, long } of abbreviationsOf(question)) {
    const [shortWord] = tokenize(short);
    const longWords = new Set(tokenize(long));
    const abbreviation = terms.find((t) => t.term === shortWord);
    const words = terms.filter((t) => longWords.has(t.term) && t !== abbreviation);
    const head = words.at(-1);
    if (!abbreviation || !head) continue;
    const shortStem = stem(shortWord!);
    for (const t of words) {
      t.stems = [...new Set([...t.stems, shortStem])];
      t.own = [...new Set([...(t.own ?? t.stems), shortStem])];
    }
    abbreviation.phrases = [...(abbreviation.phrases ?? []), stemPhrase(long)];
    abbreviation.concept = head.concept ?? head.term;
    abbreviation.part = head.part;
  }
}

/**
 * Words that, after a hyphen, only relate the word before them to something ("histology-related",
 * "depression-specific", "aminoglycoside-containing", "exercise-induced"): the compound is about
 * the word before the hyphen, and a record naming that word names it.
 */
const RELATING_SUFFIXES = new Set(
  "related associated induced specific based dependent mediated containing derived driven linked free like positive negative treated exposed targeted guided".split(" "),
);

/**
 * What a hyphenated question word is also matched by: the stem of the word(s) before a relating
 * suffix (`head`), or, for any other compound ("high-dose", "long-term"), its parts written apart.
 */
function compoundOf(token: string): { head: string[]; compound: string[] | null } {
  const parts = token.split("-").filter(Boolean);
  if (parts.length < 2) return { head: [], compound: null };
  const last = parts.at(-1)!;
  if (RELATING_SUFFIXES.has(last) && parts.slice(0, -1).every((p) => /[a-z]/.test(p))) return { head: [stem(parts.slice(0, -1).join("-"))], compound: null };
  return { head: [], compound: parts.map(stem) };
}

const namesCache = new WeakMap<ConceptExpansion, { synonyms: string[]; split: string[][] }>();
/** An expansion's names and their stem sequences, computed once per expansion (the vocabulary caches expansions). */
const membersCache = new WeakMap<ConceptExpansion, string[][]>();
function membersOf(expansion: ConceptExpansion): string[][] {
  let members = membersCache.get(expansion);
  if (!members) {
    members = expansion.members.map(stemPhrase).filter((p) => p.length > 0);
    membersCache.set(expansion, members);
  }
  return members;
}

function namesOf(expansion: ConceptExpansion): { synonyms: string[]; split: string[][] } {
  let names = namesCache.get(expansion);
  if (!names) {
    const synonyms = alternativesOf(expansion);
    names = { synonyms, split: synonyms.map(stemPhrase) };
    namesCache.set(expansion, names);
  }
  return names;
}

/**
 * Whether a phrase the vocabulary knows needs its generic words to be that concept: "the change"
 * (menopause) and "high blood pressure" (hypertension, not blood pressure) do, so their generic
 * words name the subject there; "telomere length" does not ("telomere" alone is the same concept),
 * so "length" stays generic and a hospital length of stay is not about telomeres.
 */
function namedOnlyWith(mention: ConceptMention, tokens: string[]): boolean {
  if (mention.end - mention.start < 2) return false;
  const specific = tokens.slice(mention.start, mention.end).filter((t) => !STOP_WORDS.has(t) && !GENERIC_WORDS.has(t) && !WEAK_WORDS.has(t));
  return specific.length === 0 || expandConcept(specific.join(" "))?.canonical !== mention.expansion.canonical;
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

/**
 * The vocabulary's other names for the phrases among `sent` (the terms a query sends), one per
 * phrase, for SourceQuery.expansions: "broken" and "hip" go as one phrase with "hip fracture",
 * "femoral neck fracture", … and the heading "Hip Fractures".
 */
export function sourceExpansions(terms: QueryTerm[], sent: readonly string[]): SourceExpansion[] {
  const byPhrase = new Map<string, SourceExpansion>();
  for (const t of terms) {
    const narrower = t.narrower ?? [];
    if (!t.vocabularyPhrase || !sent.includes(t.term) || (t.synonyms.length === 0 && narrower.length === 0 && !t.headings?.length)) continue;
    const group = byPhrase.get(t.vocabularyPhrase) ?? { terms: [], alternatives: t.synonyms, narrower, headings: t.headings ?? [] };
    group.terms.push(t.term);
    byPhrase.set(t.vocabularyPhrase, group);
  }
  return [...byPhrase.values()];
}

/** The terms worth sending to a source: content terms first; weak ones only if nothing else is left. */
export function searchTerms(terms: QueryTerm[]): string[] {
  const content = terms.filter((t) => t.weight === 1).map((t) => t.term);
  return content.length > 0 ? content : terms.map((t) => t.term);
}
