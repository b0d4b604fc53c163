import type { QuestionPart } from "./question";
import type { LiteratureRecord } from "./record";
import { GENERIC_TERM_WEIGHT, stem, tokenize, type QueryTerm } from "./terms";
import { abbreviationsOf, longFormOf } from "./abbreviations";
import { isEverydayWord, isNamedKind } from "./vocabulary";
import { normalizeHeading, stemPhrase } from "./vocabulary/words";
import { backgroundTherapies, covariateText, disclaimedSubjects, exclusionText, studiedText } from "./studied";
import { escapeRegExp } from "./words";

/**
 * Relevance of each record to the question: does it name what the question asks about, and how
 * much of the question does it hold.
 *
 * What a question asks about are its concepts (runs of adjacent content words: "telomere length",
 * "blood glucose level") in its required parts (agent/literature/question.ts): the topic before a
 * colon, the exposure and the outcome around a relation cue, or the whole question without one;
 * the context ("in older adults", "after surgery") is never required. A word's weight is its rarity
 * among the candidates (inverse document frequency over the candidate pool) times its kind: a
 * content word 1, an evaluative word 0.3, a generic word ("length", "level", "risk", "patients")
 * 0.05. Only content words make a concept required: "Is telomere length associated with
 * mortality?" requires telomeres and mortality, so a paper on nerve length, hospital length of stay
 * or eye axial length is off topic, and so is one on telomeres in cultured cells (no mortality).
 * A record names a concept when it holds at least half of the concept's weight. Words no candidate
 * holds cannot tell candidates apart and are left out; but when no candidate holds any content word
 * of the question's subject (its topic, its exposure, or the whole question without a relation),
 * the sources have nothing on it, and nothing is on topic.
 *
 * The score is the share of the question's weight a record holds (title 1, MeSH 0.9, abstract 0.75
 * of a term's weight; synonyms count as the term, several-word synonyms where their words stand
 * together). The best-scoring candidate sets the bar: a record is on topic when it names every
 * required concept the best one names (the best may miss at most MAX_MISSED, a word its authors put
 * otherwise), its share of the question less the everyday words no candidate holds (a person's
 * wording, QueryTerm.everyday) reaches ACCEPT_THRESHOLD (0.4; the best one only LOWEST_BEST), and
 * its score RELATIVE_TO_BEST (0.7) of the best's. Accepted when on topic and nothing disqualifies it: a
 * retracted paper, a record outside the requested dates, or a preprint when preprints are excluded.
 *
 * Measured on the 500 PubMedQA development questions over the library (`npm run bench -- answers`,
 * docs/literature.md): off-topic supporting references per answer 0.112 → 0.046, the item's own
 * abstract supporting 96.4% → 98.2% (the engine alone, before the chat's roles).
 */
const ACCEPT_THRESHOLD = 0.4;
/** The lowest score at which the best candidate, naming every required concept, is still on topic. */
const LOWEST_BEST = 0.25;
/** Share of the best candidate's score a record needs. */
const RELATIVE_TO_BEST = 0.7;
/** Required concepts the best candidate may miss and still set the bar (more: nothing is on topic). */
const MAX_MISSED = 2;
/**
 * Heads that name a disorder of the site before them ("stomach cancer", "hip fractures", "leg
 * ulcers"), or a drug class by what it does to its target ("ACE inhibitor": the enzyme's gene is
 * not the drug; "beta blockers", "dopamine agonists").
 */
const HEAD_REQUIRED =
  /^(?:cancers?|carcinomas?|tumou?rs?|neoplasms?|fractures?|infections?|ulcers?|ulceration|failure|bleeding|bleeds|ha?emorrhages?|pain|deaths?|mortality|injur(?:y|ies)|inflammation|stones?|cysts?|lesions?|inhibitors?|blockers?|agonists?|antagonists?|modulators?)$/;

/** The longest start two words share, at least three letters of the first: "densit" of "density" and "densiti". */
function sharedStart(word: string, stemmed: string): string {
  let n = 0;
  while (n < word.length && n < stemmed.length && word[n]!.toLowerCase() === stemmed[n]) n++;
  return word.slice(0, Math.max(n, Math.min(3, word.length)));
}

/** Heads that say what is done about the words before them: "coeliac disease screening", "gluten tolerance". */
const ACT_HEAD = /^(?:screening|vaccinations?|immuni[sz]ations?|transplant(?:ation)?s?|prophylaxis|supplementation|tolerance|withdrawal|cessation|adherence)$/;

/** Heads that name any disorder: only the word before says which. */
const ANY_DISORDER = /^(?:diseases?|disorders?|syndromes?|conditions?|illness(?:es)?|problems?|dysfunction)$/;

/**
 * Share of a required part's weight a record must hold to address it: the rare, specific words of
 * "should patients undergo a portoenterostomy" count for more than "undergo", and a study of
 * metformin holds nothing of "reduced cancer risk".
 */
const PART_COVERAGE = 0.5;
/** Share of a concept's weight a record must hold to name it. */
const COVERAGE = 0.5;

type Flag = "retracted" | "preprint" | "no_abstract" | "animal_only" | "trial" | "off_topic" | "derived_title";
export type RejectionReason = "off_topic" | "retracted" | "out_of_date_range" | "preprint_excluded" | "not_a_trial";

export type Judged = {
  record: LiteratureRecord;
  score: number;
  matchedTerms: string[];
  /**
   * The question's terms the record names by any of their names, wherever (matchedTerms counts
   * only the question's own word where some candidate uses it): whether a study names the
   * question's population at all ("postmenopausal" for "after menopause"), roles.ts.
   */
  namedTerms: string[];
  /**
   * The question's terms the record names only where it says whom it excluded ("people with serious
   * kidney disease were excluded") and nowhere in what it studied: a study of other people (roles.ts).
   */
  excludedTerms: string[];
  /** The question's required concepts the record does not name. */
  missingConcepts: string[];
  /**
   * How much of each required part of the question the record holds: the share of the part's
   * content weight (rarer words among the candidates weigh more), 0 when no candidate names the
   * part at all. The evidence roles (roles.ts) read whether it addresses each part from it.
   */
  partCoverage: Partial<Record<RequiredQuestionPart, number>>;
  /**
   * The required parts the record addresses: it holds at least PART_COVERAGE of the part's weight
   * by name or synonym where it states what it studied (studied.ts: not its background), a phrase
   * the vocabulary knows only as a phrase. (Requiring the part's rarest word too cost the PubMedQA items' own
   * abstracts: that word is often an odd word of the question, "underrecognised", "sicker".)
   */
  partsAddressed: RequiredQuestionPart[];
  flags: Flag[];
  accepted: boolean;
  reason: RejectionReason | null;
};

export type RelevanceFilters = {
  dateFrom?: string;
  dateTo?: string;
  scope?: "preprints" | "no-preprints" | "trials";
};

const FIELD_WEIGHT = { title: 1, mesh: 0.9, abstract: 0.75 };

/** The parts of a question whose concepts a record must name. */
const REQUIRED_PARTS = ["topic", "exposure", "outcome", "main"] as const satisfies readonly QuestionPart[];
export type RequiredQuestionPart = (typeof REQUIRED_PARTS)[number];

type Field = { stems: Set<string>; pairs: Set<string> };
/** `held`: some candidate holds the word (a word none holds is kept only where the rest is too broad, requiredConcepts). */
type RequiredConcept = { label: string; part: RequiredQuestionPart; words: { term: number; weight: number; held: boolean }[] };

export function judgeRecords(records: LiteratureRecord[], asked: QueryTerm[], filters: RelevanceFilters = {}): Judged[] {
  const studiedTexts = records.map((r) => studiedText(r));
  const fields = records.map((r, i) => ({ title: readField(withoutDates(r.title)), abstract: readField(withoutDates(r.abstract ?? "")), mesh: readField(r.mesh.join(" ; ")), studied: readField(withoutDates(studiedTexts[i]!)), disclaimed: disclaimedSubjects(r).map((text) => ({ text, field: readField(text) })), background: backgroundTherapies(r).map((text) => ({ text, field: readField(text) })), excluded: readField(exclusionText(r)), covariates: readField(covariateText(r)) }));
  const terms = spelledAsHeld(asked, records, fields);
  const n = records.length;
  // The vocabulary's other names stand in for words the candidates do not use ("broken hip" for
  // "fracture of the proximal femur"). Where a candidate uses the question's own words, the
  // literature names it so, and other names would only let related studies in.
  const phraseUsed = ownWordsUsed(terms, fields);
  const byAnyName = (f: Field, term: QueryTerm) =>
    (term.compound !== undefined && holdsPhrase(f, term.compound)) || term.stems.some((s) => holdsStem(f, term, s)) || (term.phrases ?? []).some((p) => holdsPhrase(f, p));
  // A class's member names the class for every record (an atorvastatin trial tests a question on
  // statins), even where another candidate says "statins": a member is not another name of it.
  const byMember = (f: Field, term: QueryTerm) => (term.members ?? []).some((p) => (p.length === 1 ? holdsStem(f, term, p[0]!) : holdsPhrase(f, p)));
  const inField = (f: Field, term: QueryTerm) =>
    phraseUsed(term) && term.own
      ? (term.compound !== undefined && holdsPhrase(f, term.compound)) || term.own.some((s) => holdsStem(f, term, s)) || byMember(f, term)
      : byAnyName(f, term);
  // A term's MeSH heading (the vocabulary's: "Aged" for "elderly") counts among MeSH terms only.
  const headings = records.map((r) => new Set(r.mesh.map(normalizeHeading)));
  const inMesh = (i: number, term: QueryTerm) => inField(fields[i]!.mesh, term) || (term.headings ?? []).some((h) => headings[i]!.has(normalizeHeading(h)));
  const holds = terms.map((term) => fields.map((f, i) => inField(f.title, term) || inField(f.abstract, term) || inMesh(i, term)));
  // Whether a record addresses a part is read where it states what it studied (studiedText), and a
  // phrase the vocabulary knows ("high blood pressure") only where its words stand together, or by
  // another of its names: "high rates", "blood" and "pressure ulcers" apart do not name it.
  const ownPhrase = terms.map((term) => (term.vocabularyPhrase ? stemPhrase(term.vocabularyPhrase) : []));
  // Every name counts here (byAnyName), whatever the other candidates call it: whether a record
  // addresses a part is a fact about that record alone, never relative to what else was found.
  const inStudied = (f: Field, term: QueryTerm, t: number) => {
    if (ownPhrase[t]!.length < 2) return byAnyName(f, term);
    const own = new Set(term.own ?? []);
    return holdsPhrase(f, ownPhrase[t]!) || term.stems.some((s) => !own.has(s) && f.stems.has(s)) || (term.phrases ?? []).some((p) => holdsPhrase(f, p));
  };
  // A part the record says it did not study ("protection against zoster was not assessed") is not
  // addressed, whatever else names it (studied.ts, disclaimedSubjects).
  // A disclaimer of a kind the question does not name ("The recombinant zoster vaccine … was not
  // studied", of a study of the live vaccine) leaves the question's own concept studied: the word
  // right before the name qualifies it, and the question does not use that word.
  const questionStems = new Set(terms.flatMap((t) => t.own ?? t.stems));
  const disclaims = (subject: { text: string; field: Field }, term: QueryTerm, t: number) => {
    if (!inStudied(subject.field, term, t)) return false;
    const words = subject.text.toLowerCase().split(/[^a-z0-9'-]+/).filter(Boolean);
    // A member named in a disclaimer is a kind of it ("The recombinant zoster vaccine … was not studied"), not the concept.
    const members = new Set((term.members ?? []).map((m) => m.join(" ")));
    const names = new Set([...term.stems, ...(term.phrases ?? []).filter((p) => !members.has(p.join(" "))).map((p) => p[0]!)]);
    const at = words.findIndex((w) => names.has(stem(w)));
    // Only a modifier opening the subject ("recombinant …", "the recombinant …") says which kind.
    const opens = at === 1 || (at === 2 && ["the", "a", "an"].includes(words[0]!));
    const before = opens ? words[at - 1]! : null;
    return !(before !== null && /^[a-z][a-z-]+$/.test(before) && !QUALIFIER_STOP.has(before) && !questionStems.has(stem(before)));
  };
  const said = terms.map((term, t) => fields.map((f) => f.disclaimed.some((d) => disclaims(d, term, t))));
  // A therapy every arm kept taking ("Dapagliflozin added to metformin", "Everyone remained on a
  // statin") is not what the study compared, so it does not address the question's part that names
  // it alone ("Does metformin lower HbA1c?"). When the question names, in the same part, something
  // else the record studies ("Is curcumin safe with warfarin?", of a trial of curcumin in people on
  // warfarin), the background is part of what it asks, and the record addresses it; so does a
  // topic whose question names what was added ("Chemoradiotherapy …: is surgical resection required?").
  const onBackground = terms.map((term, t) => fields.map((f) => f.background.some((d) => disclaims(d, term, t))));
  const conceptOf = (term: QueryTerm) => term.concept ?? term.term;
  // A topic and the question after it ("Chemoradiotherapy …: is surgical resection required?") ask
  // about one subject together.
  const sideOf = (term: QueryTerm) => (term.part === "topic" || term.part === "main" ? "subject" : term.part);
  const alsoStudied = (t: number, i: number) =>
    terms.some(
      (other, o) =>
        o !== t &&
        sideOf(other) === sideOf(terms[t]!) &&
        conceptOf(other) !== conceptOf(terms[t]!) &&
        !other.generic &&
        other.weight === 1 &&
        !onBackground[o]![i]! &&
        (inStudied(fields[i]!.studied, other, o) || inStudied(fields[i]!.mesh, other, o)),
    );
  const disclaimed = terms.map((_, t) => fields.map((_, i) => said[t]![i]! || (onBackground[t]![i]! && !alsoStudied(t, i))));
  // "Does the shingles vaccine prevent shingles?": the outcome is also a word of the exposure's
  // name. A record names that outcome only where the word is not naming the exposure: "zoster
  // vaccination" and "vaccine against zoster" are the exposure; "cases of zoster" the outcome. A
  // natural experiment of the zoster vaccine and dementia does not study shingles.
  const exposureHeads = new Set(terms.filter((e) => e.part === "exposure").flatMap((e) => e.stems));
  // Shared by name or by another of its names: "flu vaccination" (an "influenza vaccine") and "influenza deaths".
  const exposureNames = terms.filter((e) => e.part === "exposure").map((e) => new Set([...e.stems, ...(e.synonyms ?? []).flatMap((p) => tokenize(p).map(stem))]));
  const sharedOutcome = terms.map((term) => term.part === "outcome" && exposureNames.some((names) => term.stems.some((s) => names.has(s))));
  const noMesh = readField("");
  const apart = terms.map((term, t) => {
    if (!sharedOutcome[t]) return null;
    const heads = new Set([...exposureHeads].filter((h) => !term.stems.includes(h)));
    // Not its MeSH terms: indexers tag a vaccine's studies with its disease whatever they measured.
    return studiedTexts.map((text) => ({ studied: readField(withoutNamingUses(text, term.stems, heads)), mesh: noMesh }));
  });
  const studies = terms.map((term, t) =>
    fields.map((f, i) => {
      const own = apart[t]?.[i] ?? f;
      // MeSH indexes a vaccine's studies under its disease too ("Influenza, Human" on a trial of
      // cardiovascular events): for such an outcome only the record's own words count (`apart`).
      const heading = !sharedOutcome[t] && (term.headings ?? []).some((h) => headings[i]!.has(normalizeHeading(h)));
      if (inStudied(own.studied, term, t)) return !disclaimed[t]![i]!;
      // Named in its words only as what the analysis held constant, its MeSH heading is a covariate's.
      if (byAnyName(f.covariates, term)) return false;
      return (inStudied(own.mesh, term, t) || heading) && !disclaimed[t]![i]!;
    }),
  );
  // A concept a record names only by an abbreviation it never spells out ("ARM" for "anorectal
  // malformations", its title gone): the record names it, where it studies it.
  const longConcepts = [...new Set(terms.filter((t) => !t.generic && t.weight === 1 && (t.concept ?? t.term).includes(" ")).map((t) => t.concept ?? t.term))];
  const abbreviated = records.map(() => new Set<string>());
  if (longConcepts.length > 0) records.forEach((record, i) => {
    for (const concept of abbreviatedIn(record, longConcepts)) {
      abbreviated[i]!.add(concept);
      terms.forEach((term, t) => {
        if ((term.concept ?? term.term) !== concept) return;
        holds[t]![i] = true;
        if (!disclaimed[t]![i]!) studies[t]![i] = true;
      });
    }
  });
  const weights = terms.map((term, t) => Math.log(1 + (n + 1) / (holds[t]!.filter(Boolean).length + 0.5)) * term.weight * (term.generic ? GENERIC_TERM_WEIGHT : 1));
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  // What acceptance measures a record against: the question's weight less its everyday words no
  // candidate holds ("sporty", "tiring"): those say how a person put it, and no record could hold
  // them. A technical word none holds ("metformin") stays: the candidates lack that subject.
  const reachable = weights.reduce((a, w, t) => (terms[t]!.everyday && !holds[t]!.some(Boolean) ? a : a + w), 0) || 1;
  const { concepts, unknown } = requiredConcepts(terms, weights, holds.map((h) => h.some(Boolean)));

  // Only a site and what is wrong there ("stomach cancer", "wrist fractures", "influenza deaths")
  // or a target and what a drug does to it ("ACE inhibitor"), two weighed words: the head names the
  // disorder or the drug, which a record of the site or the target alone does not study. Not other
  // heads: a lay one ("brain shrinkage" of a record's "atrophy") may have no other name here.
  // A concept's head: the last of its weighed words in its label ("inhibitor" of "ACE inhibitor
  // treatment", whose "treatment" is generic and not weighed); none for a concept of one word.
  const headOf = (c: RequiredConcept) => {
    const at = (w: RequiredConcept["words"][number]) => c.label.split(" ").indexOf(terms[w.term]!.term);
    const last = c.words.length >= 2 ? [...c.words].sort((a, b) => at(a) - at(b)).at(-1)! : undefined;
    return last && at(last) > 0 ? last : undefined;
  };
  const headMissing = (c: RequiredConcept, i: number) => {
    const head = headOf(c);
    if (head === undefined || studies[head.term]![i]!) return false;
    // "coeliac disease screening": what is done to it names the concept at any length; a record of
    // coeliac disease that screened no one does not study its screening.
    return (c.words.length === 2 && HEAD_REQUIRED.test(terms[head.term]!.term)) || ACT_HEAD.test(terms[head.term]!.term);
  };
  // The other way round: a head that names any disorder ("heart disease", "kidney disorder") is
  // which one only by its first word; a record of renal disease names "disease" and not the heart.
  const modifierMissing = (c: RequiredConcept, i: number) => {
    const head = c.words.length === 2 ? headOf(c) : undefined;
    return head !== undefined && ANY_DISORDER.test(terms[head.term]!.term) && c.words.some((w) => w !== head && !studies[w.term]![i]!);
  };
  // A phrase the vocabulary knows ("prostate cancer" inside "localized prostate cancer treatment")
  // names what the concept is about: a record must name it whole. "cancer" of a record of buccal
  // mucosa cancer is not half of it, and "localized … aggressive" around it are not the rest.
  // Each concept's phrases (its words that share a heading or other names), with what names them,
  // are built once; whether a record names them is read once per record.
  const phrases = new Map(concepts.map((c) => [c, phrasesIn(c)]));
  function phrasesIn(c: RequiredConcept) {
    const groups = new Map<string, RequiredConcept["words"]>();
    for (const w of c.words) {
      const t = terms[w.term]!;
      const key = (t.headings ?? []).join("|") || t.synonyms.join("|");
      if (key) groups.set(key, [...(groups.get(key) ?? []), w]);
    }
    return [...groups.values()]
      .filter((words) => words.length >= 2)
      .map((words) => {
        const ts = words.map((w) => terms[w.term]!);
        const t = ts[0]!;
        // Each word by what it shares with its stem ("densit" of density and "densiti"), up to two
        // words apart ("bone mineral density", "estrogen replacement therapy"), in the text or in
        // one MeSH descriptor; or "injury of the head".
        const parts = ts.map((w) => `${escapeRegExp(sharedStart(w.term, w.stems[0] ?? w.term))}\\w*`);
        return {
          words,
          headings: (t.headings ?? []).map(normalizeHeading),
          concept: t.concept ?? t.term,
          synonyms: t.synonyms.map((syn) => new RegExp(`\\b${escapeRegExp(syn).replace(/\\? /g, "[\\s/-]+")}`, "i")),
          together: new RegExp(`\\b${parts.join("(?:[\\s/-]+[\\w-]+){0,2}?[\\s/-]+")}\\b`, "i"),
          reversed: parts.length === 2 ? new RegExp(`\\b${parts[1]}\\s+of\\s+(?:the\\s+)?${parts[0]}\\b`, "i") : null,
          inDescriptor: parts.map((part) => new RegExp(`\\b${part}`, "i")),
        };
      });
  }
  // With its defined abbreviations read as their long forms ("an ARM" as "an anorectal malformation").
  const anyPhrase = [...phrases.values()].some((p) => p.length > 0);
  const raw = anyPhrase ? records.map((r, i) => `${r.title} ${r.abstract ?? ""} ${studiedTexts[i]!}`) : [];
  // Named as the phrase: its MeSH heading, an abbreviation the record uses for it, one of its other
  // names, or its words together; or each word studied and one of them among its MeSH terms or in
  // its own title, what the record is about ("Cardiovascular Diseases" and its "mortality for
  // ischaemic heart disease"), not words it passes by ("the head was scanned", "other injuries").
  const phraseNamed = (p: ReturnType<typeof phrasesIn>[number], i: number) =>
    p.headings.some((h) => headings[i]!.has(h)) ||
    abbreviated[i]!.has(p.concept) ||
    p.synonyms.some((re) => re.test(raw[i]!)) ||
    records[i]!.mesh.some((m) => p.inDescriptor.every((re) => re.test(m))) ||
    p.together.test(raw[i]!) ||
    (p.reversed?.test(raw[i]!) ?? false) ||
    p.words.some((w) => inMesh(i, terms[w.term]!) || (!records[i]!.titleDerived && inField(fields[i]!.title, terms[w.term]!)));
  // "head" and "injuries" apart in a record of pelvic fractures are not a head injury.
  const partOfPhrase = (c: RequiredConcept, i: number) => phrases.get(c)!.some((p) => p.words.some((w) => !studies[w.term]![i]!) || !phraseNamed(p, i));
  const sharedWithoutHead = (c: RequiredConcept, i: number) => {
    const head = headOf(c);
    return head !== undefined && c.words.some((w) => w !== head && sharedOutcome[w.term]!) && !studies[head.term]![i]!;
  };
  const scored = records.map((_, i) => {
    const f = fields[i]!;
    let earned = 0;
    const matchedTerms: string[] = [];
    terms.forEach((term, t) => {
      const best = Math.max(inField(f.title, term) ? FIELD_WEIGHT.title : 0, inMesh(i, term) ? FIELD_WEIGHT.mesh : 0, inField(f.abstract, term) ? FIELD_WEIGHT.abstract : 0);
      if (best > 0) {
        matchedTerms.push(term.term);
        earned += weights[t]! * best;
      }
    });
    const score = terms.length === 0 ? 0 : Math.round((earned / total) * 1000) / 1000;
    const reach = terms.length === 0 ? 0 : earned / reachable;
    const missing = concepts.filter((c) => !names(c, (t) => holds[t]![i]!)).map((c) => c.label);
    const partCoverage: Partial<Record<RequiredQuestionPart, number>> = {};
    const partsAddressed: RequiredQuestionPart[] = [];
    for (const part of REQUIRED_PARTS) {
      const inPart = concepts.filter((c) => c.part === part);
      if (inPart.length === 0) continue;
      const words = inPart.flatMap((c) => c.words);
      const total = words.reduce((a, w) => a + w.weight, 0);
      // A concept's words count only with its head ("stomach" of "stomach cancer" in a study of
      // gastric acid is not stomach cancer): its last word names what it is, the others which one.
      const broken = new Set(inPart.filter((c) => partOfPhrase(c, i)));
      const counted = inPart.flatMap((c) => (headMissing(c, i) || modifierMissing(c, i) || broken.has(c) ? [] : c.words.filter((w) => studies[w.term]![i]!)));
      const coverage = total > 0 ? Math.round((counted.reduce((a, w) => a + w.weight, 0) / total) * 1000) / 1000 : 0;
      partCoverage[part] = coverage;
      // "flu vaccination … influenza deaths": a word of the outcome that also names the exposure
      // says which deaths; a record of the vaccine names it whatever it measured. Such an outcome
      // is addressed only where its head ("deaths") is studied.
      if (part === "outcome" && inPart.some((c) => sharedWithoutHead(c, i))) continue;
      // A phrase not named whole (a record of buccal mucosa cancer for "prostate cancer") is another thing, whatever else it holds.
      if (broken.size > 0) continue;
      if (coverage >= PART_COVERAGE || inPart.every((c) => holdsHead(c, terms, (t) => studies[t]![i]!))) partsAddressed.push(part);
      // A body after a topic that relates nothing ("Autoerotic asphyxiation: secret pleasure, lethal
      // outcome?") says what is asked of the topic, often in words of its own ("sicker", "a
      // depression-specific deficit"): a record that studies the topic addresses it when it names
      // any of those words anywhere; what it found on them is the stance's to read.
      else if (part === "main" && partsAddressed.includes("topic") && words.some((w) => studies[w.term]![i]!)) partsAddressed.push(part);
    }
    const namedTerms = terms.filter((term) => byAnyName(f.title, term) || byAnyName(f.abstract, term) || byAnyName(f.mesh, term) || (term.headings ?? []).some((h) => headings[i]!.has(normalizeHeading(h)))).map((t) => t.term);
    const excludedTerms = terms.filter((term) => byAnyName(f.excluded, term) && !byAnyName(f.studied, term) && !byAnyName(f.title, term)).map((t) => t.term);
    return { score, reach, matchedTerms, namedTerms, excludedTerms, missing, partCoverage, partsAddressed };
  });
  // A record that says it did not study a part of the question (a trial of people who "could not
  // tolerate statins", in which "no participant took a statin") sets no bar for the others: it
  // shares the question's words, not its subject.
  const disowns = (i: number) => concepts.some((c) => c.words.some((w) => disclaimed[w.term]![i]!));
  const barSetters = scored.filter((_, i) => !disowns(i));
  const lead = (barSetters.length > 0 ? barSetters : scored).reduce<(typeof scored)[number] | null>((a, b) => (!a || b.score > a.score ? b : a), null);
  const excused = new Set(lead && lead.missing.length <= MAX_MISSED ? lead.missing : concepts.map((c) => c.label));

  return records.map((record, i) => {
    const { score, reach, matchedTerms, namedTerms, excludedTerms, missing, partCoverage, partsAddressed } = scored[i]!;
    const isLead = scored[i] === lead;
    const onTopic =
      !unknown &&
      terms.length > 0 &&
      missing.every((c) => excused.has(c)) &&
      (reach >= ACCEPT_THRESHOLD || (isLead && reach >= LOWEST_BEST)) &&
      score >= RELATIVE_TO_BEST * lead!.score;

    const flags: Flag[] = [];
    if (record.isRetracted) flags.push("retracted");
    if (record.isPreprint) flags.push("preprint");
    if (!record.abstract) flags.push("no_abstract");
    if (isAnimalOnly(record)) flags.push("animal_only");
    if (record.trial || record.ids.nct) flags.push("trial");
    if (record.titleDerived) flags.push("derived_title");
    if (!onTopic) flags.push("off_topic");

    let reason: RejectionReason | null = null;
    if (record.isRetracted) reason = "retracted";
    else if (!withinDates(record, filters)) reason = "out_of_date_range";
    else if (filters.scope === "no-preprints" && record.isPreprint) reason = "preprint_excluded";
    else if (filters.scope === "trials" && !(record.trial || record.ids.nct)) reason = "not_a_trial";
    else if (!onTopic) reason = "off_topic";
    return { record, score, matchedTerms, namedTerms, excludedTerms, missingConcepts: unknown ? [unknown] : missing, partCoverage, partsAddressed: unknown ? [] : partsAddressed, flags, accepted: reason === null, reason };
  });
}

/**
 * A judgement decided again on whether the record is on topic, when something else than the
 * question's words decides it (a tag's topic, topic.ts); every other reason to reject it stands.
 */
export function judgedOnTopic(j: Judged, onTopic: boolean): Judged {
  const flags: Flag[] = [...j.flags.filter((f) => f !== "off_topic"), ...(onTopic ? [] : (["off_topic"] as const))];
  const reason: RejectionReason | null = j.reason !== null && j.reason !== "off_topic" ? j.reason : onTopic ? null : "off_topic";
  return { ...j, flags, reason, accepted: reason === null };
}

/**
 * The concepts a record must name: every content concept of the question's required parts, each
 * with its words some candidate holds (words none holds are left out, and so is a concept left with
 * none). `unknown` names a subject (topic, exposure, or the whole question) no candidate holds any
 * content word of: then nothing found is about it. An outcome no candidate names is not unknown in
 * that sense: what was found on the exposure is the closest evidence there is, and each reference
 * says what it lacks (`missingConcepts`). After a topic, the body's parts are never unknown.
 */
/** An everyday word, a possessive read as its noun ("public's"). */
const everyday = (t: QueryTerm) => t.everyday === true || (/'s$/.test(t.term) && isEverydayWord(t.term.slice(0, -2)));

function requiredConcepts(terms: QueryTerm[], weights: number[], held: boolean[]): { concepts: RequiredConcept[]; unknown: string | null } {
  const concepts = new Map<string, RequiredConcept>();
  let unknown: string | null = null;
  const hasTopic = terms.some((t) => t.part === "topic");
  for (const part of REQUIRED_PARTS) {
    const content = terms.map((t, i) => ({ t, i })).filter(({ t }) => t.part === part && !t.generic && t.weight === 1);
    if (content.length === 0) continue;
    // A word no candidate holds drops out of its concept ("sporty": how a person put it; a code or a
    // spelling no record uses), unless what is left of the concept is only everyday words: then a
    // technical modifier ("bempedoic" of "bempedoic acid") or a word of a named kind ("green" of
    // "green tea") stays, for without it the concept would be any acid, any tea.
    const broadRest = (concept: string) => content.every(({ i, t }) => (t.concept ?? t.term) !== concept || !held[i] || everyday(t));
    const kept = content.filter(({ i, t }) => held[i] || (broadRest(t.concept ?? t.term) && (!everyday(t) || isNamedKind(t.concept ?? t.term))));
    const known = content.filter(({ i }) => held[i]);
    if (known.length === 0 && part !== "outcome" && (part === "topic" || !hasTopic)) unknown ??= content[0]!.t.concept ?? content[0]!.t.term;
    // An outcome no candidate names: every record misses it, the best one too, so none is refused for it.
    if (known.length === 0 && part === "outcome") concepts.set(content[0]!.t.concept ?? content[0]!.t.term, { label: content[0]!.t.concept ?? content[0]!.t.term, part, words: [] });
    for (const { t, i } of known.length > 0 ? kept : []) {
      const label = t.concept ?? t.term;
      const concept = concepts.get(label) ?? { label, part, words: [] };
      concept.words.push({ term: i, weight: weights[i]!, held: held[i]! });
      concepts.set(label, concept);
    }
  }
  return { concepts: [...concepts.values()], unknown };
}

/**
 * Whether a record holds a concept's head: the last word of its name ("smokers" of "passive
 * smokers", "monitoring" of "intensive monitoring"), which names what the concept is, the words
 * before it only saying which one. Only a head that is among the concept's weighed words (some
 * candidate holds it; not generic) counts.
 */
function holdsHead(concept: RequiredConcept, terms: QueryTerm[], holds: (term: number) => boolean): boolean {
  if (concept.words.length < 2) return false;
  const head = concept.label.split(" ").at(-1);
  // Only everyday modifiers only say which one ("passive", "intensive"). A name of its own ("green
  // tea", "fish oil": one noun in WordNet), a technical modifier ("bempedoic" of "bempedoic acid",
  // "ketogenic" of "ketogenic diet") or one no candidate uses is the concept: any tea, acid or diet is not it.
  const modifiers = concept.words.filter((w) => terms[w.term]!.term !== head);
  if (isNamedKind(concept.label) || modifiers.some((w) => !w.held || !everyday(terms[w.term]!))) return false;
  const word = concept.words.find((w) => terms[w.term]!.term === head);
  return word !== undefined && holds(word.term);
}

/** Whether a field holds one of a term's stems: its own word only right before its qualifier ("vitamin D"). */
function holdsStem(field: Field, term: QueryTerm, stem: string): boolean {
  if (term.qualifier === undefined || !(term.own ?? [stem]).includes(stem)) return field.stems.has(stem);
  // "vitamin D3" names vitamin D.
  const pair = `${stem} ${term.qualifier}`;
  return field.pairs.has(pair) || [...field.pairs].some((p) => p.startsWith(pair) && /^\d+$/.test(p.slice(pair.length)));
}

/** Words before a name that do not say which kind it is ("protection against zoster", "the vaccine"). */
const QUALIFIER_STOP = new Set("the a an of against for to in on with by and or that this these those any its their all no whether each either both".split(" "));

/** A record names a concept when it holds at least COVERAGE of the concept's weight. */
function names(concept: RequiredConcept, holds: (term: number) => boolean): boolean {
  const total = concept.words.reduce((a, w) => a + w.weight, 0);
  const held = concept.words.filter((w) => holds(w.term)).reduce((a, w) => a + w.weight, 0);
  return held > 0 && held >= COVERAGE * total;
}

/**
 * Whether the candidates use a term's own words: for a word of a phrase the vocabulary knows, some
 * candidate's title, abstract or MeSH holds the phrase's words together, in the question's order
 * (both words somewhere apart, "breast" here and "x-ray" there, is not the phrase; the library's
 * ranking reads it the same way); otherwise some candidate holds the word.
 */
function ownWordsUsed(terms: QueryTerm[], fields: { title: Field; abstract: Field; mesh: Field }[]): (term: QueryTerm) => boolean {
  const holdsOwn = (f: { title: Field; abstract: Field; mesh: Field }, t: QueryTerm) => (t.own ?? t.stems).some((s) => f.title.stems.has(s) || f.abstract.stems.has(s) || f.mesh.stems.has(s));
  const used = new Map<QueryTerm, boolean>();
  for (const term of terms) {
    const words = term.vocabularyPhrase ? terms.filter((t) => t.vocabularyPhrase === term.vocabularyPhrase) : [term];
    // A phrase of everyday words the vocabulary knows ("live longer", "eating less") is how a person
    // puts it, not how the literature names it: one candidate that happens to use those words does
    // not make its technical names ("mortality", "caloric restriction") stop counting for the others.
    if (term.vocabularyPhrase && words.length > 1 && words.every((w) => w.everyday)) {
      used.set(term, false);
      continue;
    }
    const phrase = words.map((w) => stem(w.term));
    used.set(term, words.length === 1 ? fields.some((f) => holdsOwn(f, term)) : fields.some((f) => [f.title, f.abstract, f.mesh].some((field) => holdsPhrase(field, phrase))));
  }
  return (term) => used.get(term) ?? false;
}

/**
 * `text` with the outcome's names blanked where they name the exposure: right before one of its
 * head words ("zoster vaccination", "zoster vaccine") or right after one and "against" or "for"
 * ("vaccine against zoster").
 */
function withoutNamingUses(text: string, names: string[], heads: Set<string>): string {
  const tokens = [...text.matchAll(/[A-Za-z0-9][A-Za-z0-9'-]*/g)];
  const blank = new Set<number>();
  tokens.forEach((m, k) => {
    if (!names.includes(stem(m[0].toLowerCase()))) return;
    const next = tokens[k + 1]?.[0].toLowerCase();
    const before = tokens[k - 1]?.[0].toLowerCase();
    const head = tokens[k - 2]?.[0].toLowerCase();
    if ((next && heads.has(stem(next))) || (before && /^(against|for)$/.test(before) && head && heads.has(stem(head)))) blank.add(m.index!);
  });
  return text.replace(/[A-Za-z0-9][A-Za-z0-9'-]*/g, (w, at: number) => (blank.has(at) ? " ".repeat(w.length) : w));
}

/**
 * A date names no subject: "between January and July 2005" does not make a study of the July
 * effect, nor "in May 2010" one of anything. A month with a year or a day, or after "from",
 * "between", "since", "until", "to" or "and" in a range, is left out.
 */
const MONTH = "(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)";
const DATE = new RegExp(
  `\\b(?:\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\b|${MONTH}\\.?\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?\\d{4}\\b|(?:from|between|since|until|through|to|and)\\s+${MONTH}\\b(?=[^.;]*\\b\\d{4}\\b))`,
  "g",
);
function withoutDates(text: string): string {
  return text.replace(DATE, (date) => " ".repeat(date.length));
}

/** A text's stems, and its adjacent stem pairs (either order) for several-word synonyms. */
function readField(text: string): Field {
  const stems = new Set<string>();
  const pairs = new Set<string>();
  let previous: string | null = null;
  for (const token of tokenize(text)) {
    const s = stem(token);
    stems.add(s);
    if (token.includes("-")) for (const part of token.split("-")) if (part) stems.add(stem(part));
    if (previous) pairs.add(`${previous} ${s}`);
    previous = s;
  }
  return { stems, pairs };
}

function holdsPhrase(field: Field, phrase: string[]): boolean {
  for (let i = 0; i + 1 < phrase.length; i++) if (!field.pairs.has(`${phrase[i]} ${phrase[i + 1]}`)) return false;
  return true;
}

function isAnimalOnly(record: LiteratureRecord): boolean {
  const mesh = record.mesh.map((m) => m.toLowerCase());
  if (mesh.length > 0) return mesh.includes("animals") && !mesh.includes("humans");
  const text = `${record.title} ${record.abstract ?? ""}`.toLowerCase();
  return /\b(mice|mouse|rats?|murine|drosophila|c\. elegans|zebrafish|yeast)\b/.test(text) && !/\b(patients?|participants?|humans?|adults?|men|women|volunteers?)\b/.test(text);
}

function withinDates(record: LiteratureRecord, { dateFrom, dateTo }: RelevanceFilters): boolean {
  if (!dateFrom && !dateTo) return true;
  const date = record.date ?? (record.year ? `${record.year}-07-01` : null);
  if (!date) return false; // an undated record cannot be shown to fall inside the range
  if (dateFrom && date < dateFrom && !(record.year && !record.date && String(record.year) >= dateFrom.slice(0, 4))) return false;
  if (dateTo && date > dateTo && !(record.year && !record.date && String(record.year) <= dateTo.slice(0, 4))) return false;
  return true;
}

/**
 * A question word no candidate holds, spelled a letter or two off a word some candidate does
 * ("hydroxycloroquine", "osteoarthritus", "parkinsons"): people misspell drug and disease names, and
 * the record that answers them spells them right. Read as that word, where exactly one word of the
 * candidates is that near; only a long, technical word (an everyday one, "tiring", is how a person
 * put it), one letter off under ten letters and two from ten.
 */
function spelledAsHeld(terms: QueryTerm[], records: Pick<LiteratureRecord, "title" | "abstract">[], fields: { title: Field; abstract: Field }[]): QueryTerm[] {
  const held = (st: string) => fields.some((f) => f.title.stems.has(st) || f.abstract.stems.has(st));
  const unheld = (term: QueryTerm) => !term.everyday && !term.generic && term.term.length >= 7 && !/\d/.test(term.term) && !term.stems.some(held);
  if (!terms.some(unheld)) return terms;
  const words = new Map<string, string>();
  for (const r of records) for (const w of tokenize(`${r.title} ${r.abstract ?? ""}`)) if (w.length >= 6 && !words.has(w)) words.set(w, stem(w));
  return terms.map((term) => {
    const word = term.term.toLowerCase();
    if (!unheld(term)) return term;
    // Compared as written: stems cut misspelt endings differently ("osteoarthritus" → "osteoarthritu").
    const most = word.length >= 10 ? 2 : 1;
    const near = new Set([...words].filter(([w]) => w[0] === word[0] && Math.abs(w.length - word.length) <= most && editDistance(word, w) <= most).map(([, st]) => st));
    return near.size === 1 ? { ...term, stems: [...term.stems, ...near] } : term;
  });
}

/** Letters to insert, delete, change or swap with the next to turn one word into the other (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The question's concepts of two words or more a record names only by a short form it uses without
 * defining it ("diagnosis of ARM" for "anorectal malformations": the title that spelled it out is
 * not part of the record), by Schwartz and Hearst's rule (abbreviations.ts): the short form's
 * letters in order through the concept's words, its first letter opening the first word. Short
 * forms of three letters or more, in capitals; one the record defines is read as its own long form
 * already (studied.ts).
 */
function abbreviatedIn(record: Pick<LiteratureRecord, "title" | "abstract">, concepts: string[]): string[] {
  const shorts = new Set([...`${record.title} ${record.abstract ?? ""}`.matchAll(/\b([A-Z][A-Z0-9]{2,5})s?\b/g)].map((m) => m[1]!));
  if (shorts.size === 0) return [];
  const defined = new Set(abbreviationsOf(record.abstract ?? "").map((a) => a.short));
  // Not a short form the label itself holds as a word ("ACE" of "ACE inhibitor treatment"): the
  // question then uses the abbreviation, which is matched as a word, and "ACE" alone is the enzyme.
  const words = (label: string) => new Set(label.toLowerCase().split(/[\s-]+/));
  return concepts.filter((label) => [...shorts].some((sf) => !defined.has(sf) && !words(label).has(sf.toLowerCase()) && longFormOf(sf, label)?.toLowerCase() === label.toLowerCase()));
}
