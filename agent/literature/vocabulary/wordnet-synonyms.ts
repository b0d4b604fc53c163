import { openWordNet, type Synset, type WordNet } from "./wordnet";

/**
 * Which WordNet synonyms the vocabulary uses. WordNet's senses are ambiguous ("stroke" is also a
 * golf shot, "aged" also cheese, "minor" also a child), and a synonym matches by its stem whatever
 * sense the record uses, so only four relations count, all restricted to medicine:
 *
 * 1. Synonyms inside a medical synset: a noun synset of the word that is a body part or tissue
 *    (noun.body), or whose hypernyms reach a medical root (a disease, disorder, injury or symptom;
 *    a medical procedure, surgery or therapy; a drug or medicine; a physiological process; a
 *    patient, infant or old person). "stroke" → apoplexy, cerebrovascular accident, CVA.
 * 2. Pertainyms of a body part (WordNet's "pertains to" pointer, noun.body only, and only an
 *    adjective defined as "of or relating to" it): "kidney" ↔ "renal", "heart" ↔ "cardiac",
 *    "liver" ↔ "hepatic"; not "subcutaneous" or "transdermal" (skin), which name another place.
 *
 * 3. Derivations of a condition's adjective (WordNet's "derivationally related" pointer from the
 *    word's most frequent adjective sense to a medical noun built on the same word): "deaf" →
 *    deafness, hearing loss; "asthmatic" → asthma; "pregnant" → pregnancy.
 * 4. Narrower names (`membersOf`): the hyponyms of a medical sense that is not a body part, two
 *    levels down ("psychosis" → schizophrenia, paranoia; "heart disease" → cardiomyopathy). A
 *    class's members, one way; the vocabulary searches for them but relevance does not read them as
 *    the question's term (index.ts, ConceptExpansion.narrower).
 *
 * Only the question word's most frequent medical sense is read ("hip", not the pelvis it also names).
 *
 * And a word given as a synonym must itself be unambiguous there: every sense it has, noun or
 * adjective, is such a medical synset or a pertainym of one, and it has no verb sense. So
 * "aged" (six senses, one of them "aged 18 to 65"), "pump" (heart) and "break" (fracture) are never
 * added; "apoplexy" is. The question's own word may be ambiguous: its medical sense is the one a
 * biomedical search means.
 */

/** Hypernyms (WordNet lemmas) whose descendants in these lexicographer files are medical. */
const MEDICAL_ROOTS: Record<string, string[]> = {
  // "mental illness": WordNet files psychosis, schizophrenia and neurosis under psychological
  // states, not under disorder.
  "noun.state": ["disease", "attack", "illness", "disorder", "mental illness", "pathological state", "physiological state", "injury", "symptom", "ill health", "physical condition"],
  "noun.act": ["medical care", "medical procedure", "surgery", "therapy", "diagnostic procedure", "medical diagnosis", "birth", "obstetrical delivery"],
  "noun.artifact": ["drug", "medicine", "medical instrument", "medical device"],
  "noun.substance": ["drug", "medicine", "hormone", "vitamin"],
  "noun.process": ["physiological process", "bodily process", "organic process"],
  "noun.person": ["patient", "sick person", "baby", "old person", "health professional"],
};

/** How WordNet defines a plain pertainym; what follows must name the body part itself ("relating to or located beneath the skin" does not). */
const RELATING = /^(of or )?(relating|pertaining) to( or (affecting|involving|resembling))* (the |an? )?/;

/** Hypernym depth walked: WordNet's noun hierarchy is at most about 20 deep. */
const MAX_DEPTH = 20;

export type WordNetSynonyms = {
  /** Medical synonyms and pertainyms of a word (or several words: "high blood pressure"), per the rules above. */
  synonymsOf(term: string): string[];
  /**
   * The narrower medical names of a word's most frequent medical sense (not a body part): its
   * WordNet hyponyms, two levels down, each by a name that is unambiguous and names that sense
   * first. "psychosis" → schizophrenia, paranoia; "apnea" → sleep apnea. A class's members: one way.
   */
  membersOf(term: string): string[];
  /**
   * Whether a word is everyday English by its most frequent sense: WordNet knows it, and that sense
   * (the noun's first, else the adjective's or the verb's) is not medical. "mole", "sporty",
   * "tiring" are; "cancer", "stroke", "aspirin" are not, and neither is a word WordNet lacks
   * ("metformin", "fisetin"). Hyphenated: every part is.
   */
  isEveryday(word: string): boolean;
};

export function createWordNetSynonyms(wordnet: WordNet = openWordNet()): WordNetSynonyms {
  const medical = new Map<string, boolean>();
  const ambiguous = new Map<string, boolean>();

  const isMedical = (s: Synset): boolean => {
    const key = `${s.pos}:${s.offset}`;
    const known = medical.get(key);
    if (known !== undefined) return known;
    let result = false;
    if (s.pos === "noun" && s.lexFile === "noun.body") result = true;
    else if (s.pos === "noun" && MEDICAL_ROOTS[s.lexFile]) result = reachesRoot(s, new Set(MEDICAL_ROOTS[s.lexFile]));
    else if (s.pos === "adj" && s.lexFile === "adj.pert") result = isBodyPertainym(s);
    medical.set(key, result);
    return result;
  };

  /** An adjective defined as "of or relating to" one body part: renal, cardiac, hepatic. */
  const isBodyPertainym = (s: Synset): boolean => {
    if (s.pertainsTo.length !== 1) return false;
    const noun = wordnet.synset("noun", s.pertainsTo[0]!);
    const rest = s.gloss.match(RELATING)?.[0] === undefined ? null : s.gloss.replace(RELATING, "");
    return noun.lexFile === "noun.body" && rest !== null && noun.words.some((w) => rest.startsWith(w));
  };

  const reachesRoot = (s: Synset, roots: Set<string>): boolean => {
    let frontier = [s];
    for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
      if (frontier.some((x) => x.words.some((w) => roots.has(w)))) return true;
      frontier = frontier.flatMap((x) => x.hypernyms.map((o) => wordnet.synset("noun", o)));
    }
    return false;
  };

  /** A word with any sense outside medicine, or any verb sense, is not offered as a synonym. */
  const isAmbiguous = (word: string): boolean => {
    const known = ambiguous.get(word);
    if (known !== undefined) return known;
    const senses = [...wordnet.synsets(word, "noun"), ...wordnet.synsets(word, "adj")];
    const result = senses.length === 0 || wordnet.synsets(word, "verb").length > 0 || !senses.every(isMedical);
    ambiguous.set(word, result);
    return result;
  };

  const pertainymSynset = (adjective: string, noun: number): Synset =>
    wordnet.synsets(adjective, "adj").find((s) => s.pertainsTo.includes(noun)) ?? {
      pos: "adj",
      offset: -1,
      lexFile: "other",
      words: [],
      hypernyms: [],
      pertainsTo: [],
      hyponyms: [],
      derivedNouns: [],
      antonyms: [],
      similar: [],
      satellite: false,
      gloss: "",
    };

  // Each question's words and collocations are looked up again by every sentence chat's audit reads.
  const isEverydayWord = remembered((word: string): boolean => {
    const parts = word.split("-").filter(Boolean);
    return /^[a-z-]+$/.test(word) && parts.length > 0 && (isEverydayPart(word) || (parts.length > 1 && parts.every(isEverydayPart)));
  });
  const firstSense = (form: string): Synset | undefined =>
    wordnet.synsets(form, "noun")[0] ?? wordnet.synsets(form, "adj")[0] ?? wordnet.synsets(form, "verb")[0];
  const isEverydayPart = (part: string): boolean => {
    const form = [...new Set([...baseForms(part), ...inflectionBases(part)])].find((f) => firstSense(f) !== undefined);
    const sense = form === undefined ? undefined : firstSense(form);
    // A substance no one met in WordNet's tagged running text ("ketone", "taurine") is a chemist's
    // word, not how a person puts it: "ketone supplements" is which supplement.
    if (sense?.lexFile === "noun.substance" && wordnet.taggedSenses(form!, "noun") === 0) return false;
    return sense !== undefined && !isMedical(sense);
  };
  const synonyms = remembered((word: string) => lookUp(word));
  const members = remembered((word: string) => lookUpMembers(word));
  return {
    isEveryday: (term) => isEverydayWord(term.toLowerCase().trim()),
    synonymsOf: (term) => synonyms(term.toLowerCase().trim()),
    membersOf: (term) => members(term.toLowerCase().trim()),
  };

  function lookUpMembers(word: string): string[] {
    const out = new Set<string>();
    for (const form of baseForms(word)) {
      const noun = wordnet.synsets(form, "noun").find(isMedical);
      // A body part's parts are not the part ("stomach" → rumen, "bowel" → colon, rectum).
      if (!noun || noun.lexFile === "noun.body") continue;
      let level = [noun];
      for (let depth = 0; depth < MEMBER_DEPTH && level.length > 0; depth++) {
        level = level.flatMap((s) => s.hyponyms.map((o) => wordnet.synset("noun", o)));
        for (const sense of level) {
          // Not a short abbreviation ("dts", delirium tremens): it would match other things' initials.
          for (const w of sense.words) if (w !== form && w.length > 3 && !isAmbiguous(w) && wordnet.synsets(w, "noun")[0]?.offset === sense.offset) out.add(w);
        }
      }
    }
    return [...out].slice(0, MAX_MEMBERS);
  }

  function lookUp(word: string): string[] {
    const out = new Set<string>();
    // A name is offered for the sense it names first: "neck" is also a sense of "cervix", whose
    // first sense (the one a record means by it) is the uterine cervix.
    const offer = (w: string, sense: Synset) => {
      if (w !== word && !isAmbiguous(w) && wordnet.synsets(w, sense.pos)[0]?.offset === sense.offset) out.add(w);
    };
    // A body part by its standard name, WordNet's first lemma ("womb" → uterus, "belly" → abdomen,
    // "renal" → kidney), never its Latin or informal ones ("neck" → cervix, "chest" → pectus).
    const offerHead = (body: Synset, form: string) => {
      const head = body.words[0]!;
      if (head !== form && wordnet.synsets(head, "noun")[0]?.offset === body.offset) out.add(head);
    };
    for (const form of baseForms(word)) {
      const noun = wordnet.synsets(form, "noun").find(isMedical);
      if (noun?.lexFile === "noun.body") {
        offerHead(noun, form);
        for (const adjective of wordnet.pertainyms(noun.offset)) {
          const sense = pertainymSynset(adjective, noun.offset);
          if (isBodyPertainym(sense)) offer(adjective, sense);
        }
      } else if (noun) {
        for (const w of noun.words) if (w !== form) offer(w, noun);
      }
      const adjective = wordnet.synsets(form, "adj").find(isBodyPertainym);
      if (adjective) offerHead(wordnet.synset("noun", adjective.pertainsTo[0]!), form);
      // A condition named by its adjective: WordNet's derivation pointer from the word's first
      // adjective sense to a medical noun built on the same word ("deaf" → deafness, hearing loss;
      // "asthmatic" → asthma; "pregnant" → pregnancy). The shared beginning keeps the link
      // morphological: "infected" also points at sepsis, which it does not mean.
      const first = wordnet.synsets(form, "adj")[0];
      for (const offset of first?.derivedNouns ?? []) {
        const noun = wordnet.synset("noun", offset);
        if (noun.lexFile === "noun.body" || !isMedical(noun) || !noun.words.some((w) => sharesRoot(w, form))) continue;
        for (const w of noun.words) offer(w, noun);
      }
    }
    return [...out];
  }
}

/** Hyponym levels read for a class's members, and members kept at most (the nearest first). */
const MEMBER_DEPTH = 2;
const MAX_MEMBERS = 24;

/** Whether two words begin alike for at least four letters and most of the shorter one ("asthma", "asthmatic"; "deaf", "deafness"). */
function sharesRoot(a: string, b: string): boolean {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n >= 4 && n >= Math.min(a.length, b.length) - 2;
}

/** Words remembered at most (questions bring new words without end). */
const CACHE_LIMIT = 20_000;

/** `look` with its answers remembered, CACHE_LIMIT words at most (then forgotten all at once). */
function remembered<T>(look: (word: string) => T): (word: string) => T {
  const known = new Map<string, T>();
  return (word) => {
    if (known.has(word)) return known.get(word)!;
    if (known.size >= CACHE_LIMIT) known.clear();
    const result = look(word);
    known.set(word, result);
    return result;
  };
}

/** The base a verb or adjective form may have ("tiring" → tire, "moved" → move, "getting" → get, "heavier" → heavy). */
function inflectionBases(word: string): string[] {
  const out: string[] = [];
  for (const suffix of ["ing", "ed", "er", "est"]) {
    if (!word.endsWith(suffix) || word.length <= suffix.length + 2) continue;
    const base = word.slice(0, -suffix.length);
    out.push(base, `${base}e`);
    if (/([b-df-hj-np-tv-z])\1$/.test(base)) out.push(base.slice(0, -1));
    if (base.endsWith("i")) out.push(`${base.slice(0, -1)}y`);
  }
  return out;
}

/** The word and its singular forms by WordNet's noun suffix rules ("fractures" → "fracture", "ovaries" → "ovary"). */
function baseForms(word: string): string[] {
  const forms = [word];
  const rules: [RegExp, string][] = [[/ies$/, "y"], [/(ch|sh|s|x|z)es$/, "$1"], [/([^s])s$/, "$1"], [/men$/, "man"]];
  for (const [pattern, replacement] of rules) if (pattern.test(word)) forms.push(word.replace(pattern, replacement));
  return [...new Set(forms)];
}
