import { CURATED_CONCEPTS, type CuratedConcept, type VocabularySource } from "./concepts";
import { openWordNet, type WordNet } from "./wordnet";
import { createWordNetSynonyms, type WordNetSynonyms } from "./wordnet-synonyms";
import { normalizeHeading, otherSpelling, stem, stemPhrase, tokenize } from "./words";

/**
 * The vocabulary: what else a phrase of a question may be called in the literature. Two sources,
 * the curated biomedical table (concepts.ts: lay ↔ technical ↔ MeSH heading, class members) and
 * WordNet 3.1 (wordnet-synonyms.ts: medical synonyms and body-part pertainyms), plus British and
 * American spellings (words.ts). Used by the question's terms (agent/literature/terms.ts), the
 * queries sent to the sources, and the local library's ranking.
 */

export type ConceptExpansion = {
  /** The technical name (the curated concept's), or the phrase itself when only WordNet knows it. */
  canonical: string;
  /** MeSH descriptor: names the concept in a record's MeSH terms only. */
  heading: string | null;
  /** Equivalent technical names, the canonical one among them when the phrase was another form. */
  synonyms: string[];
  /** Lay names. */
  lay: string[];
  /** A class's members (directional: the class is answered by a member, never the reverse). */
  members: string[];
  /**
   * Narrower names WordNet's hyponyms give (wordnet-synonyms.ts, membersOf): searched for, in the
   * queries and the library's ranking, but not read as the question's term in relevance. WordNet's
   * classes are wider than a question means by its word: counted in relevance, they made one more
   * off-topic study supporting in PubMedQA's 500 answers (docs/literature.md, "Search by meaning").
   */
  narrower: string[];
  sources: (VocabularySource | "wordnet" | "spelling")[];
};

type CompiledForm = { stems: string[]; concept: CuratedConcept; text: string };

const FORMS_BY_FIRST_STEM = compileForms(CURATED_CONCEPTS);
const SPLIT_FORMS_BY_TAIL_STEM = compileSplitForms(FORMS_BY_FIRST_STEM);

let lexicon: WordNet | null = null;
let wordnet: WordNetSynonyms | null = null;
/** WordNet opened on first use (its index files are read once, about 6 MB). */
function wordnetLexicon(): WordNet {
  lexicon ??= openWordNet();
  return lexicon;
}
function wordnetSynonyms(): WordNetSynonyms {
  wordnet ??= createWordNetSynonyms(wordnetLexicon());
  return wordnet;
}

const verbOnly = new Map<string, boolean>();
/**
 * A word WordNet knows only as a verb, in its base or third-person form ("counteract", "relieves"):
 * it relates a question's parts and never names one. Participles and gerunds ("inhaled", "prescribing")
 * modify or name things, so they are not asked about.
 */
export function isVerbOnly(word: string): boolean {
  const known = verbOnly.get(word);
  if (known !== undefined) return known;
  const wn = wordnetLexicon();
  const forms = [...new Set([word, word.replace(/ies$/, "y"), word.replace(/es$/, ""), word.replace(/s$/, "")])].filter((f) => f.length > 2);
  const result =
    /^[a-z]+$/.test(word) &&
    !/(ed|ing)$/.test(word) &&
    forms.some((f) => wn.synsets(f, "verb").length > 0) &&
    !forms.some((f) => wn.synsets(f, "noun").length > 0 || wn.synsets(f, "adj").length > 0);
  verbOnly.set(word, result);
  return result;
}

/** Whether a word is everyday English by its most frequent sense (wordnet-synonyms.ts, isEveryday). */
export function isEverydayWord(word: string): boolean {
  return wordnetSynonyms().isEveryday(word);
}

const opposites = new Map<string, string[]>();
/** A word whose form says it is the opposite of another: a negative prefix, or "-less" ("undependable", "impracticable", "needless"). */
const NEGATIVE_FORM = /^(un|in|im|ir|il|dis|non|mis)-?[a-z]{3,}|[a-z]{3,}less$/;
/** Words of an opposite cluster the stance reader reads as an open question, not as the opposite ("uncertain" of "reliable"). */
const OPEN_WORDS = new Set(["uncertain", "unclear", "unknown", "undetermined", "unsettled", "unresolved", "undecided", "unsure"]);
/**
 * Adjectives whose sense in a claim about patients and diseases is not WordNet's most frequent one:
 * "Is X a common cause of Y?" means frequent (WordNet's first sense, "shared by a community", has
 * "individual" for its opposite).
 */
const CLAIM_SENSE_OPPOSITES: Record<string, string[]> = {
  common: ["rare", "uncommon", "unusual", "infrequent"],
  frequent: ["rare", "uncommon", "infrequent"],
};
/**
 * What the opposite of an adjective is called, by WordNet's antonymy, for its most frequent sense
 * (its cluster's head when it is a satellite: "feasible" → possible): the words of the antonym's
 * head synset ("reliable" → unreliable, undependable; "simple" → complex), and of that head's
 * satellites the ones whose form says they are opposites ("impracticable", "infeasible",
 * "needless"). WordNet's other satellites, and its rarer senses, mean other things too often to be
 * read as the opposite ("sufficient" → low, short, light; "safe" → long, out). Empty when WordNet
 * knows no antonym of it.
 */
export function oppositesOf(adjective: string): string[] {
  const word = adjective.toLowerCase();
  const known = opposites.get(word) ?? CLAIM_SENSE_OPPOSITES[word];
  if (known) return known;
  if (opposites.size >= CACHE_LIMIT) opposites.clear();
  const wn = wordnetLexicon();
  const sense = [word, otherSpelling(word)].filter((w): w is string => w !== null).map((w) => wn.synsets(w, "adj")[0]).find((s) => s !== undefined);
  const heads = !sense ? [] : sense.satellite ? sense.similar.map((o) => wn.synset("adj", o)) : [sense];
  const found = new Set<string>();
  for (const head of heads) {
    for (const antonym of head.antonyms.map((o) => wn.synset("adj", o))) {
      for (const w of antonym.words) found.add(w);
      for (const satellite of antonym.similar.map((o) => wn.synset("adj", o))) for (const w of satellite.words) if (NEGATIVE_FORM.test(w)) found.add(w);
    }
  }
  const result = [...found].filter((w) => w !== word && !OPEN_WORDS.has(w)).flatMap((w) => [w, otherSpelling(w)].filter((f): f is string => f !== null));
  opposites.set(word, [...new Set(result)]);
  return opposites.get(word)!;
}

/** Whether WordNet knows a word as an adjective at least as often as a noun ("safe", "valid"; not "use"). */
export function isMainlyAdjective(word: string): boolean {
  const wn = wordnetLexicon();
  const adj = wn.synsets(word, "adj").length;
  return adj > 0 && adj >= wn.synsets(word, "noun").length;
}

const nounPhrases = new Map<string, boolean>();
/** Whether WordNet knows a phrase of several words as one noun ("green tea", "fish oil"): a kind with a name of its own. */
export function isNamedKind(phrase: string): boolean {
  const key = phrase.toLowerCase().trim();
  const known = nounPhrases.get(key);
  if (known !== undefined) return known;
  if (nounPhrases.size >= CACHE_LIMIT) nounPhrases.clear();
  const words = key.split(/\s+/);
  const forms = [key, [...words.slice(0, -1), words.at(-1)!.replace(/s$/, "")].join(" ")];
  const result = words.length > 1 && forms.some((f) => wordnetLexicon().synsets(f.replace(/ /g, "_"), "noun").length > 0);
  nounPhrases.set(key, result);
  return result;
}

/** Opens WordNet now rather than on the first question (the agent calls this at start). */
export function warmVocabulary(): void {
  wordnetSynonyms().synonymsOf("kidney");
}

/**
 * What else a phrase is called: the curated concepts it is a form of (canonical, synonym or lay
 * form; several concepts merge), else WordNet's medical synonyms of it, with the other spelling of
 * each. Null when neither knows it.
 */
export function expandConcept(phrase: string): ConceptExpansion | null {
  const key = phrase.toLowerCase().trim();
  if (expansionCache.has(key)) return expansionCache.get(key)!;
  // Bounded: questions bring new words without end.
  if (expansionCache.size >= CACHE_LIMIT) expansionCache.clear();
  const expansion = expandUncached(key);
  expansionCache.set(key, expansion);
  return expansion;
}

const CACHE_LIMIT = 10_000;
const expansionCache = new Map<string, ConceptExpansion | null>();

function expandUncached(phrase: string): ConceptExpansion | null {
  const stems = stemPhrase(phrase);
  if (stems.length === 0) return null;
  const concepts = (FORMS_BY_FIRST_STEM.get(stems[0]!) ?? []).filter((f) => sameStems(f.stems, stems)).map((f) => f.concept);
  const text = tokenize(phrase).join(" ");
  if (concepts.length === 0) {
    const synonyms = [...wordnetSynonyms().synonymsOf(text)];
    const members = wordnetSynonyms().membersOf(text);
    const spelled = withSpellings([text]).filter((s) => s !== text);
    if (synonyms.length === 0 && members.length === 0 && spelled.length === 0) return null;
    return {
      canonical: text,
      heading: null,
      synonyms: withSpellings(synonyms).concat(spelled),
      lay: [],
      members: [],
      narrower: withSpellings(members),
      sources: [...(synonyms.length || members.length ? (["wordnet"] as const) : []), ...(spelled.length ? (["spelling"] as const) : [])],
    };
  }
  const unique = [...new Set(concepts)];
  const notPhrase = (s: string) => !sameStems(stemPhrase(s), stems);
  const primary = unique[0]!;
  return {
    canonical: primary.canonical,
    heading: primary.heading ?? null,
    synonyms: dedupe(withSpellings(unique.flatMap((c) => [c.canonical, ...(c.synonyms ?? [])]))).filter(notPhrase),
    lay: dedupe(unique.flatMap((c) => c.lay ?? [])).filter(notPhrase),
    members: dedupe(unique.flatMap((c) => c.members ?? [])),
    narrower: [],
    sources: [...new Set<ConceptExpansion["sources"][number]>(unique.flatMap((c) => c.sources))],
  };
}

/**
 * Every name of an expansion a record may use: its synonyms and members. Not its lay names, which
 * only let a question be read ("glands" finds lymph nodes, but a record on the adrenal glands is
 * not about them), and not its heading, which names it in MeSH only.
 */
export function alternativesOf(expansion: ConceptExpansion): string[] {
  return dedupe([...expansion.synonyms, ...expansion.members]);
}

/** A phrase of a question the vocabulary knows, by token positions [start, end). */
export type ConceptMention = { start: number; end: number; phrase: string; expansion: ConceptExpansion };

/**
 * The phrases of a tokenised question the vocabulary knows, longest first from the left ("broken
 * hip" before "broken"): a curated form, in its own order or split by a preposition ("cancer in
 * the chest" for "chest cancer", "pain in the lower back" for "lower back pain"); else a collocation
 * WordNet has medical synonyms for ("heart attack", "blood vessel"); and then each remaining content
 * token WordNet or spelling knows. `isWord` says which tokens name anything (not stop words): a
 * phrase must hold one ("the change" yes, a lone "the" never); `isContent` which single tokens may
 * be looked up on their own.
 */
export function findConcepts(tokens: string[], { isWord, isContent }: { isWord: (token: string) => boolean; isContent: (token: string) => boolean }): ConceptMention[] {
  // Phrases are matched over the parts of hyphenated words too ("low-sugar spells" holds "low
  // sugar"), starting and ending where a word does.
  const parts: string[] = [];
  const owner: number[] = [];
  const firstPart: number[] = [];
  tokens.forEach((token, index) => {
    firstPart.push(parts.length);
    for (const part of token.split("-").filter(Boolean)) {
      parts.push(part);
      owner.push(index);
    }
  });
  const stems = tokens.map(stem);
  const partStems = parts.map(stem);
  const wordEnd = (partEnd: number) => (partEnd === parts.length || owner[partEnd] !== owner[partEnd - 1] ? owner[partEnd - 1]! + 1 : null);
  const out: ConceptMention[] = [];
  for (let i = 0; i < tokens.length; ) {
    const at = firstPart[i]!;
    const found = [curatedAt(tokens, stems, i), curatedAt(parts, partStems, at), collocationAt(parts, at, isWord)]
      .map((f, k) => (f && k > 0 ? { ...f, end: wordEnd(f.end) } : f))
      .filter((f): f is { end: number; phrase: string } => !!f && f.end !== null)
      .reduce<{ end: number; phrase: string } | null>((longest, f) => (!longest || f.end > longest.end ? f : longest), null);
    if (found && tokens.slice(i, found.end).some(isWord) && (found.end - i > 1 || isContent(tokens[i]!))) {
      const expansion = expandConcept(found.phrase);
      if (expansion) out.push({ start: i, end: found.end, phrase: found.phrase, expansion });
      i = found.end;
      continue;
    }
    if (isContent(tokens[i]!)) {
      const expansion = expandConcept(tokens[i]!);
      if (expansion) out.push({ start: i, end: i + 1, phrase: tokens[i]!, expansion });
    }
    i++;
  }
  return out;
}

/** Words that join a phrase's split parts: "cancer in the chest", "pain in my lower back". */
const SPLITTING_PREPOSITIONS = new Set(["of", "in", "on", "at", "around", "inside"]);
const SPLITTING_DETERMINERS = new Set(["the", "a", "an", "my", "his", "her", "their", "its", "your", "our"]);

/** The longest curated form starting at token i: as written, or its tail first and its head after a preposition. */
function curatedAt(tokens: string[], stems: string[], i: number): { end: number; phrase: string } | null {
  let best: { end: number; phrase: string } | null = null;
  for (const f of FORMS_BY_FIRST_STEM.get(stems[i]!) ?? []) {
    if (f.stems.length > (best ? best.end - i : 0) && sameStems(f.stems, stems.slice(i, i + f.stems.length))) best = { end: i + f.stems.length, phrase: tokens.slice(i, i + f.stems.length).join(" ") };
  }
  for (const { form, head } of SPLIT_FORMS_BY_TAIL_STEM.get(stems[i]!) ?? []) {
    const tail = form.stems.slice(head);
    if (!sameStems(tail, stems.slice(i, i + tail.length))) continue;
    let j = i + tail.length;
    if (!SPLITTING_PREPOSITIONS.has(tokens[j] ?? "")) continue;
    j++;
    if (SPLITTING_DETERMINERS.has(tokens[j] ?? "")) j++;
    const headStems = form.stems.slice(0, head);
    if (sameStems(headStems, stems.slice(j, j + headStems.length)) && (!best || j + headStems.length > best.end)) best = { end: j + headStems.length, phrase: form.text };
  }
  return best;
}

/** Collocations looked up in WordNet: three words, then two. */
const COLLOCATION_LENGTHS = [3, 2];

/** A WordNet collocation of two or three words starting at token i with medical synonyms, when no curated form is there. */
function collocationAt(tokens: string[], i: number, isWord: (token: string) => boolean): { end: number; phrase: string } | null {
  if (!isWord(tokens[i]!)) return null;
  for (const n of COLLOCATION_LENGTHS) {
    const words = tokens.slice(i, i + n);
    if (words.length < n || !isWord(words[n - 1]!)) continue;
    const phrase = words.join(" ");
    if (wordnetSynonyms().synonymsOf(phrase).length > 0 || wordnetSynonyms().membersOf(phrase).length > 0) return { end: i + n, phrase };
  }
  return null;
}

/** A record's fields as a concept matcher reads them. */
export type RecordText = { title: string; abstract?: string | null; mesh?: readonly string[] };

/**
 * Whether a record names a concept: its phrase or any synonym, lay name or member in the title or
 * abstract (a phrase where its words stand together, in either of the two usual orders: "hip
 * fracture", "fracture of the hip"), or its MeSH heading among the record's MeSH terms.
 */
export function namesConcept(record: RecordText, phrase: string, expansion: ConceptExpansion | null = expandConcept(phrase)): boolean {
  const text = readStems(`${record.title} \n ${record.abstract ?? ""}`);
  const names = [phrase, ...(expansion ? alternativesOf(expansion) : [])];
  if (names.some((n) => holdsPhrase(text, stemPhrase(n)))) return true;
  const heading = expansion?.heading;
  return !!heading && (record.mesh ?? []).some((m) => normalizeHeading(m) === normalizeHeading(heading));
}

/** The word orders a two-word name also takes in an abstract: "hip fracture" → "fracture of the hip", "fracture of hip". */
export function phraseOrders(stems: string[]): string[][] {
  const [a, b] = stems;
  if (stems.length !== 2 || a === undefined || b === undefined) return [stems];
  return [stems, [b, "of", "the", a], [b, "of", a]];
}

function readStems(text: string): string[] {
  return tokenize(text).map(stem);
}

function holdsPhrase(text: string[], phrase: string[]): boolean {
  if (phrase.length === 0) return false;
  return phraseOrders(phrase).some((p) => text.some((_, i) => sameStems(p, text.slice(i, i + p.length))));
}

function compileForms(concepts: readonly CuratedConcept[]): Map<string, CompiledForm[]> {
  const byFirst = new Map<string, CompiledForm[]>();
  for (const concept of concepts) {
    for (const form of withSpellings([concept.canonical, ...(concept.synonyms ?? []), ...(concept.lay ?? [])])) {
      const stems = stemPhrase(form);
      if (stems.length === 0) continue;
      const list = byFirst.get(stems[0]!) ?? [];
      list.push({ stems, concept, text: tokenize(form).join(" ") });
      byFirst.set(stems[0]!, list);
    }
  }
  return byFirst;
}

/** Each curated form of several words under the first stem of each of its tails (after `head` stems), for split phrases. */
function compileSplitForms(byFirst: Map<string, CompiledForm[]>): Map<string, { form: CompiledForm; head: number }[]> {
  const byTail = new Map<string, { form: CompiledForm; head: number }[]>();
  for (const form of [...byFirst.values()].flat()) {
    for (let head = 1; head < form.stems.length; head++) {
      const list = byTail.get(form.stems[head]!) ?? [];
      list.push({ form, head });
      byTail.set(form.stems[head]!, list);
    }
  }
  return byTail;
}

/** Each name with its other spelling, word by word ("haemorrhagic stroke" → "hemorrhagic stroke"). */
function withSpellings(names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    out.push(name);
    const words = name.split(" ");
    const respelled = words.map((w) => otherSpelling(w) ?? w);
    if (respelled.some((w, i) => w !== words[i])) out.push(respelled.join(" "));
  }
  return dedupe(out);
}

function sameStems(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

;
export { CURATED_CONCEPTS } from "./concepts";
