import { abbreviationsOf } from "./abbreviations";

/**
 * How a question is put together, as far as relevance needs it: which of its words name what it
 * asks about (the exposure: "telomere length"), which name what that is supposed to do or be tied
 * to (the outcome: "mortality"), which set a topic before a colon ("Appendectomy timing: …"), and
 * which only narrow it (the context: "in older adults", "after surgery", a second sentence).
 * Adjacent content words form one concept ("blood glucose level", "fluid responsiveness").
 *
 * It is read from the words alone, with a short list of relation cues ("associated with",
 * "affect", "effect of … on", "relationship between … and …"); a question without one has a single
 * `main` part. Deterministic and cheap: it runs on every search.
 */

/**
 * `predicate`: what a question after a topic asks of it, naming nothing of its own ("is it
 * mandatory?"); like the context, never required, and it names no population.
 */
export type QuestionPart = "topic" | "exposure" | "outcome" | "main" | "context" | "predicate";

/** One content word of the question, where it stands. */
export type PlacedWord = { word: string; part: QuestionPart; concept: string };

/**
 * A question that asks whether two things are alike: "comparable", "equally effective", "as good
 * as", "work as well as", "as quickly as", "non-inferior", "Do A and B agree?", "the same as". Not
 * "the same nurse" (one person seen again) nor "as well as" joining two things ("X as well as Y").
 */
export const ASKS_EQUIVALENCE =
  /\b(comparable|similar|equivalent|equal(ly)?|as (good|effective|safe|accurate|reliable|efficient|useful) as|(work|works|perform|performs|do|does|function|functions) (just )?as well as|non-?inferior|not inferior|interchangeable|agree|agreement|concordan\w*|as (quickly|often|likely|fast|frequently|much|many|long|early|soon|safely|accurately|effectively|well-?controlled) as|the same(?=\s*([?.,;:]|$|as\b))|(is|are|was|were|be) (\w+ ){0,2}the same\b|\b\w+ and \w+\b.*\bthe same\b|reflects?)\b/i;

/** A question whether something is safe ("Is it safe to …?", "Is X harmless?", "well tolerated"); the stance reader leaves out "safer than", a comparison. */
export const ASKS_SAFETY = /\b(safe|safely|safety|harmless|risk-free|tolerated|tolerable)\b/i;

/** Verbs that relate an exposure to an outcome ("Does X reduce Y?"), in any of their forms. */
const RELATION_VERBS = new Set(
  `affect influence impact predict reduce increase decrease improve prevent cause lower raise extend shorten prolong promote
  protect worsen enhance alter modify determine correlate accelerate slow attenuate mitigate reverse restore induce trigger
  exacerbate benefit lessen diminish elevate boost help hinder impair delay counteract combat offset ameliorate alleviate treat cure change
  strengthen preserve lengthen postpone retard halt hasten eliminate abolish suppress inhibit stimulate aggravate relieve
  normalize normalise compromise predispose contribute mediate hamper facilitate jeopardize make clear build add stop ease soothe
  detect catch spot diagnose`
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((v) => inflections(v))
    .concat(["made"]),
);

/**
 * Words of a population that say who, not with what: age, sex, the word for people itself, a
 * relative ("my mum"). Not a condition a study must name (reading.ts), and a subject of only these
 * names nothing a study must address (withContext).
 */
export const WHO_WORDS =
  /^(older|old|elderly|aged|adults?|adulthood|childhood|adolescence|infancy|youth|midlife|people|persons?|patients?|men|women|man|woman|children|child|kids|boys|girls|infants?|subjects?|individuals?|participants?|healthy|young|younger|middle|middle-aged|years?|humans?|seniors?|mums?|moms?|mothers?|dads?|fathers?|parents?|husbands?|wives|wife|partners?|grand(?:mother|father|ma|pa|parent)s?|grann(?:y|ies)|nan|sons?|daughters?|friends?|neighbou?rs?)$/i;

/** "Is it safe to stop …?": the adjective before "to" makes the verb after it the act the question asks about. */
const ACT_ASKED_ABOUT = new Set(["safe", "okay", "ok", "wise", "necessary", "possible", "advisable", "better", "worth", "best", "appropriate", "reasonable", "dangerous", "risky", "time", "sensible", "harmful"]);

/** "add" relates ("Does exercise add years to life?") unless another relation verb follows it. */
const ADDING = new Set(inflections("add"));

/** Two-word cues: the relation sits between the words before and after them. */
const RELATION_PAIRS = new Set([
  "associated with",
  "association with",
  "associations with",
  "related to",
  "relation to",
  "linked to",
  "linked with",
  "correlated with",
  "correlates with",
  "correlation with",
  "lead to",
  "leads to",
  "result in",
  "results in",
  "contribute to",
  "contributes to",
  "effect on",
  "effects on",
  "impact on",
  "influence on",
  "role in",
  "predictor of",
  "predictors of",
  "predictive of",
  "marker of",
  "markers of",
  "risk factor for",
  // "Does vitamin C speed up healing?": the phrasal verb relates, as "accelerate" does.
  "speed up",
  "speeds up",
  "sped up",
  "speeding up",
]);

/** "relationship between X and Y": X is the exposure, Y the outcome. */
const BETWEEN_NOUNS = new Set(["association", "associations", "relationship", "relationships", "relation", "link", "links", "correlation", "correlations"]);

/** "effect of X on Y": X is the exposure. */
const EFFECT_NOUNS = new Set(["effect", "effects", "impact", "influence", "role"]);

/** A trailing "Are X and Y associated?": the relation is named after both. */
const TRAILING_RELATIONS = new Set(["associated", "related", "linked", "correlated", "connected"]);

/** Prepositions that, once a part has named its subject, start its context ("in older adults"). */
const CONTEXT_PREPOSITIONS = new Set(["in", "among", "amongst", "after", "during", "following", "undergoing", "within"]);

/**
 * "for" followed by people ("Is rapamycin safe for older adults?", "for women over 60"): whom the
 * question is about. Not "for" an aim or an outcome ("effective for weight loss"), which is what it asks.
 */
const FOR_PEOPLE = /^(older|old|elderly|the|young|younger|adults?|people|persons?|patients?|women|men|children|kids|teenagers|adolescents|seniors|infants|babies|pregnant|healthy|those|anyone|everyone|someone|me|us)$/;
function forPeople(tokens: Token[], i: number): boolean {
  return tokens[i]!.text === "for" && FOR_PEOPLE.test(tokens[i + 1]?.text ?? "");
}

/** Words that start a comparator ("versus placebo", "than surgery"): context, never required. */
const COMPARATOR_WORDS = new Set(["versus", "vs", "than", "compared"]);

/** `name`: a word of an abbreviation's long form ("international normalised ratio (INR)"), never a relation cue. */
type Token = { text: string; punct: boolean; name?: boolean };

/** A stretch of the question's tokens and the part it stands in. */
type Segment = { part: QuestionPart; tokens: Token[] };

/**
 * The question's content words with their part and concept. `isContent` says which words count
 * (not stop words); `isSpecific` which content words can name a subject (not "length", "level"):
 * a part's context begins only after it has named one.
 */
export function placeQuestionWords(
  question: string,
  isContent: (word: string) => boolean,
  isSpecific: (word: string) => boolean,
  isFiller: (word: string) => boolean = () => false,
): PlacedWord[] {
  return segmentQuestion(question, isContent, isSpecific).flatMap((s) => concepts(s.tokens, s.part, isContent, isFiller));
}

/**
 * What the question's context says, in its own words: whom it asks about ("older adults with
 * diabetes", "mice") and what it compares with ("placebo", "open surgery"), from the stretches
 * placed as context (after "in", "among", "versus", …, or a later sentence).
 */
export function questionContexts(question: string, isContent: (word: string) => boolean, isSpecific: (word: string) => boolean): { population: string[]; comparator: string[] } {
  const population: string[] = [];
  const comparator: string[] = [];
  for (const { part, tokens } of segmentQuestion(question, isContent, isSpecific)) {
    if (part !== "context") continue;
    // A context stretch may hold both: "in older adults versus placebo".
    let into = population;
    let words: string[] = [];
    const flush = () => {
      while (words.length > 0 && !isContent(words[0]!)) words.shift();
      while (words.length > 0 && !isContent(words.at(-1)!)) words.pop();
      if (words.length > 0) into.push(words.join(" "));
      words = [];
    };
    for (const t of tokens) {
      if (t.punct) {
        flush();
        continue;
      }
      if (COMPARATOR_WORDS.has(t.text)) {
        flush();
        into = comparator;
        continue;
      }
      if (CONTEXT_PREPOSITIONS.has(t.text) && into === comparator) {
        flush();
        into = population;
        continue;
      }
      // "better than a dummy gel for knee pain": what follows "for" is what they were compared on.
      if (t.text === "for" && into === comparator && !forPeople(tokens, tokens.indexOf(t))) {
        flush();
        into = [];
        continue;
      }
      words.push(t.text);
    }
    flush();
  }
  return { population, comparator };
}

function segmentQuestion(question: string, isContent: (word: string) => boolean, isSpecific: (word: string) => boolean): Segment[] {
  const reordered = askedSentence(question);
  const ordered = reordered ? `${reordered.asked} ${reordered.rest}` : question;
  const sentences = splitSentences(markNames(lex(ordered), ordered));
  const segments: Segment[] = [];
  let asked = false;
  for (const sentence of sentences) {
    if (!sentence.some((t) => !t.punct && isContent(t.text))) continue;
    if (asked) {
      // A later sentence ("And in older women?", a search's added words) narrows the first.
      segments.push({ part: "context", tokens: sentence });
      continue;
    }
    asked = true;
    const colon = sentence.findIndex((t) => t.punct && t.text === ":");
    const body = colon > 0 && sentence.slice(colon + 1).some((t) => !t.punct && isContent(t.text)) ? sentence.slice(colon + 1) : sentence;
    if (body === sentence) {
      segments.push(...readClause(body, isContent, isSpecific));
      continue;
    }
    segments.push(...withContext(sentence.slice(0, colon), "topic", isContent, isSpecific));
    segments.push(...readBody(body, isContent, isSpecific));
  }
  return segments;
}

/**
 * The question after a topic. When it speaks of the topic by a pronoun ("do they reduce cochlear
 * toxicity?", "is it mandatory?", "are they different diseases?"), the topic is its subject: what
 * it relates the topic to is the outcome, and a body that relates nothing only says what is asked
 * of the topic, naming no concept of its own (context, never required).
 */
function readBody(tokens: Token[], isContent: (w: string) => boolean, isSpecific: (w: string) => boolean): Segment[] {
  const first = tokens.findIndex((t) => !t.punct && (isContent(t.text) || PRONOUNS.has(t.text)));
  if (first < 0 || !PRONOUNS.has(tokens[first]!.text)) return readClause(tokens, isContent, isSpecific);
  const words = cueWords(tokens);
  const split = findRelation(words, (from, to) => (from === 0 && to > first) || contentBetween(words, isContent)(from, to));
  if (!split) return [{ part: "predicate", tokens }];
  return withContext(tokens.slice(split.outcome[0], split.outcome[1]), "outcome", isContent, isSpecific);
}

/** Whether the cue words from `from` to `to` hold a content word. */
const contentBetween = (words: string[], isContent: (w: string) => boolean) => (from: number, to: number) => words.slice(from, to).some((w) => w !== "" && isContent(w));

/** Pronouns a question's body uses for the topic it named before the colon. */
const PRONOUNS = new Set(["it", "they", "this", "these", "that", "those", "its", "their", "them"]);

function readClause(tokens: Token[], isContent: (w: string) => boolean, isSpecific: (w: string) => boolean): Segment[] {
  const words = cueWords(tokens);
  // A comparison "for" something is read as one before any relation verb after "for" ("better than
  // aspirin for preventing stroke": aspirin is what it is compared with, not a second exposure).
  const compared = comparedFor(tokens, words, isContent, isSpecific);
  if (compared) return compared;
  const split = findRelation(words, contentBetween(words, isContent));
  if (!split) return goodFor(tokens, words, isContent, isSpecific) ?? withContext(tokens, "main", isContent, isSpecific);
  return [
    ...withContext(tokens.slice(split.exposure[0], split.exposure[1]), "exposure", isContent, isSpecific),
    ...withContext(tokens.slice(split.outcome[0], split.outcome[1]), "outcome", isContent, isSpecific),
  ];
}

/**
 * "Is ultrasound accurate for staging bowel cancer?", "Is a PET scan good at showing low oxygen in
 * tumours?": a quality of a test or treatment for a purpose, with no relation verb. The thing is the
 * exposure and the purpose the outcome: a record of PET staging does not test ultrasound because it
 * stages bowel cancer too (read as one subject, its three words of staging outweighed the one of
 * ultrasound). Not "for" people ("useful for older adults" says whom). Null when not so built.
 */
function goodFor(tokens: Token[], words: string[], isContent: (w: string) => boolean, isSpecific: (w: string) => boolean): Segment[] | null {
  const at = words.findIndex((w, i) => i > 0 && QUALITY_FOR.has(w));
  if (at < 0) return null;
  const prep = ROLE_FOR.has(words[at + 1] ?? "") ? at + 2 : at + 1;
  const p = words[prep];
  const purpose = p === "for" || p === "at" || (p === "in" && /ing$/.test(words[prep + 1] ?? ""));
  if (!purpose || (p === "for" && forPeople(tokens, prep))) return null;
  const has = contentBetween(words, isContent);
  if (!has(0, at) || !has(prep + 1, words.length)) return null;
  return [...withContext(tokens.slice(0, at), "exposure", isContent, isSpecific), ...withContext(tokens.slice(prep + 1), "outcome", isContent, isSpecific)];
}
const QUALITY_FOR = new Set(["accurate", "useful", "reliable", "sensitive", "specific", "good", "helpful", "valuable", "suitable", "appropriate", "worthwhile", "adequate", "sufficient", "effective"]);
const ROLE_FOR = new Set(["tool", "test", "method", "way", "technique", "modality", "option", "marker", "measure", "instrument", "means"]);

/**
 * "Is ultrasound as accurate as X-ray for diagnosing fractures?", "Is X better than Y for Z?": a
 * comparison with no relation verb. What is compared is the exposure, what it is compared with the
 * comparator (context), and what follows "for" (not people: "for older adults" says whom) what they
 * are compared on: the outcome. Null when the question is not so built.
 */
function comparedFor(tokens: Token[], words: string[], isContent: (w: string) => boolean, isSpecific: (w: string) => boolean): Segment[] | null {
  const than = words.indexOf("than");
  const as = words.findIndex((w, i) => w === "as" && words.slice(i + 2, i + 4).includes("as"));
  const at = than > 0 ? than : as;
  if (at <= 0) return null;
  // The comparison starts at its adjective ("better", "more effective") or at the first "as".
  const start = than > 0 ? Math.max(0, than - (/^(more|less)$/.test(words[than - 2] ?? "") ? 2 : 1)) : as;
  const against = than > 0 ? than + 1 : words.indexOf("as", as + 2) + 1;
  const forAt = words.findIndex((w, i) => i > against && w === "for" && !forPeople(tokens, i));
  const has = contentBetween(words, isContent);
  if (forAt < 0 || !has(0, start) || !has(against, forAt) || !has(forAt + 1, words.length)) return null;
  // "for preventing stroke": the verb relates; what it acts on is the outcome.
  const outcomeAt = RELATION_VERBS.has(words[forAt + 1] ?? "") && has(forAt + 2, words.length) ? forAt + 2 : forAt + 1;
  return [
    ...withContext(tokens.slice(0, start), "exposure", isContent, isSpecific),
    // Said as "versus …" so the comparator is read as one (questionContexts).
    { part: "context", tokens: [{ text: "versus", punct: false }, ...tokens.slice(against, forAt)] },
    ...withContext(tokens.slice(outcomeAt), "outcome", isContent, isSpecific),
  ];
}

/**
 * Where the exposure and the outcome lie, as [from, to) token ranges, or null without a cue. A cue
 * counts only with content words on both sides ("Does it impact survival?" names no exposure).
 */
function findRelation(words: string[], hasContent: (from: number, to: number) => boolean): { exposure: [number, number]; outcome: [number, number] } | null {
  const n = words.length;
  const found = (exposure: [number, number], outcome: [number, number]) => (hasContent(...exposure) && hasContent(...outcome) ? { exposure, outcome } : null);
  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    if (BETWEEN_NOUNS.has(w) && words[i + 1] === "between") {
      const and = words.indexOf("and", i + 2);
      const split = and > i + 2 ? found([i + 2, and], [and + 1, n]) : null;
      if (split) return split;
    }
    if (EFFECT_NOUNS.has(w) && words[i + 1] === "of") {
      const on = words.findIndex((x, j) => j > i + 2 && (x === "on" || x === "in" || x === "upon"));
      const split = on > 0 ? found([i + 2, on], [on + 1, n]) : null;
      if (split) return split;
    }
    // "Does testosterone added to exercise training increase leg strength?": "added to" says what
    // the exposure is given with; the relation is the verb after it.
    if (ADDING.has(w) && words.slice(i + 1).some((x) => RELATION_VERBS.has(x) && !ADDING.has(x))) continue;
    // "help stop her falling", "help reduce pain": the second verb is the relation, its object the outcome.
    if (RELATION_VERBS.has(w) && (RELATION_VERBS.has(words[i + 1] ?? "") || (words[i + 1] === "to" && RELATION_VERBS.has(words[i + 2] ?? "")))) continue;
    // "Is it safe to stop bisphosphonates …?", "Is it wise to add …?": the verb is the act asked
    // about, what it acts on the subject; it relates nothing to an outcome.
    if (RELATION_VERBS.has(w) && words[i - 1] === "to" && ACT_ASKED_ABOUT.has(words[i - 2] ?? "")) continue;
    const pair = `${w} ${words[i + 1] ?? ""}`;
    const split =
      (RELATION_PAIRS.has(pair) ? found([0, i], [i + 2, n]) : null) ??
      (i + 2 < n && RELATION_PAIRS.has(`${pair} ${words[i + 2]}`) ? found([0, i], [i + 3, n]) : null) ??
      (RELATION_VERBS.has(w) ? found([0, i], [i + 1, n]) : null);
    if (split) return split;
    if (TRAILING_RELATIONS.has(w) && !words.slice(i + 1).some(Boolean)) {
      const and = words.lastIndexOf("and", i);
      const trailing = and > 0 ? found([0, and], [and + 1, i]) : null;
      if (trailing) return trailing;
    }
  }
  return null;
}

/** A part's stretch, its context split off at the first context preposition after its subject. */
function withContext(stretch: Token[], part: QuestionPart, isContent: (w: string) => boolean, isSpecific: (w: string) => boolean): Segment[] {
  const backgrounds: Token[] = [];
  const { tokens: unaged, ages } = withoutAges(withoutBackground(stretch, isSpecific, (background) => backgrounds.push(...background)));
  // "Does metformin help older adults live longer?": whom the verb helps is the population, and
  // what they are helped to do the outcome.
  const whom = part === "outcome" ? leadingPopulation(unaged, isContent) : 0;
  const tokens = unaged.slice(whom);
  ages.unshift(...unaged.slice(0, whom));
  let named = false;
  let cut = tokens.length;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.punct) continue;
    if (named && (CONTEXT_PREPOSITIONS.has(t.text) || COMPARATOR_WORDS.has(t.text) || forPeople(tokens, i)) && !opensProcess(tokens, i)) {
      cut = i;
      break;
    }
    // "Do older people do worse after gallbladder surgery?": in a subject, who names no subject of
    // its own; what follows "after" is what is asked of them.
    if (isContent(t.text) && isSpecific(t.text) && !(part === "main" && WHO_WORDS.test(t.text))) named = true;
  }
  return [
    { part, tokens: tokens.slice(0, cut) },
    { part: "context", tokens: [...tokens.slice(cut), ...ages, ...backgrounds] },
  ];
}

/**
 * An age says whom the question is about, wherever it stands: "help people over 65 live longer",
 * "adults aged 70 or older", "women older than 75", "those 80 and over". It is taken out of the
 * part into the context, a break left in its place so the words on each side stay apart ("65
 * live longer" is no concept).
 */
function withoutAges(tokens: Token[]): { tokens: Token[]; ages: Token[] } {
  const ages: Token[] = [];
  const kept: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const length = ageAt(tokens, i);
    if (length === 0) {
      kept.push(tokens[i]!);
      continue;
    }
    ages.push({ text: ",", punct: true }, ...tokens.slice(i, i + length));
    kept.push({ text: ",", punct: true });
    i += length - 1;
  }
  return { tokens: kept, ages };
}

/**
 * "Adding testosterone to exercise training gives …", "metformin added to insulin", "on top of a
 * statin": what the exposure is added to is what everyone already has, the question's background
 * like its population, so it is taken into the context and never required (a trial gives it to
 * every arm: studied.ts backgroundTherapies). It runs from "to" (or "on top of") over its name, to
 * the first word after it that names nothing ("gives") or a break; a break is left in its place.
 */
function withoutBackground(tokens: Token[], isSpecific: (w: string) => boolean, take: (background: Token[]) => void): Token[] {
  const kept: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const onTop = t.text === "on" && tokens[i + 1]?.text === "top" && tokens[i + 2]?.text === "of";
    const addedTo = t.text === "to" && kept.some((x) => !x.punct && ADDING.has(x.text));
    if (t.punct || !(onTop || addedTo)) {
      kept.push(t);
      continue;
    }
    let end = i + (onTop ? 3 : 1);
    let named = false;
    while (end < tokens.length && !tokens[end]!.punct && !RELATION_VERBS.has(tokens[end]!.text) && !(named && !isSpecific(tokens[end]!.text))) {
      if (isSpecific(tokens[end]!.text)) named = true;
      end++;
    }
    take([{ text: ",", punct: true }, ...tokens.slice(i, end)]);
    kept.push({ text: ",", punct: true });
    i = end - 1;
  }
  return kept;
}

/** People a relation may be said of ("help adults live longer", "make older people sleep better"). */
// Animals too: "Do senolytics make old mice live longer?" asks about mice living longer.
const PEOPLE = new Set(["people", "persons", "adults", "women", "men", "children", "kids", "patients", "seniors", "elderly", "me", "us", "you", "them", "someone", "anyone", "everyone", "those", "mice", "rats", "animals", "dogs", "monkeys", "worms", "flies"]);
const PEOPLE_MODIFIERS = new Set(["older", "old", "elderly", "young", "younger", "middle-aged", "aging", "ageing", "healthy", "frail", "the", "most", "many", "some"]);

/** What people are helped to do, after whom they are ("help people with arthritis walk further"). */
const HELPED_TO = new Set(
  "live walk sleep lose gain feel think remember breathe move eat recover heal quit cope stay keep get become return run stand climb see hear speak work manage control avoid survive function".split(" "),
);
/** How many leading tokens of an outcome name whom it is about, when more content follows them (0: none). */
function leadingPopulation(tokens: Token[], isContent: (w: string) => boolean): number {
  let i = 0;
  while (i < tokens.length && !tokens[i]!.punct && PEOPLE_MODIFIERS.has(tokens[i]!.text)) i++;
  if (i >= tokens.length || tokens[i]!.punct || !PEOPLE.has(tokens[i]!.text)) return 0;
  // "help people with knee arthritis walk further": whom it helps runs to the verb of what they are
  // helped to do.
  if (tokens[i + 1]?.text === "with") {
    const verb = tokens.findIndex((t, j) => j > i + 2 && !t.punct && (HELPED_TO.has(t.text) || RELATION_VERBS.has(t.text)));
    if (verb > 0 && tokens.slice(verb + 1).some((t) => !t.punct && isContent(t.text))) return verb;
    if (verb > 0 && HELPED_TO.has(tokens[verb]!.text)) return verb;
  }
  const rest = tokens.slice(i + 1);
  return rest.some((t) => !t.punct && isContent(t.text)) ? i + 1 : 0;
}

const AGE_BEFORE = new Set(["over", "above", "under", "below", "aged", "age", "ages", "past", "beyond"]);
const AGE_UNITS = new Set(["years", "year", "yrs", "y", "old", "of", "age"]);
const AGE_AFTER = new Set(["or", "and", "older", "over", "above", "younger", "under", "more", "plus", "+"]);
const isAge = (t: Token | undefined) => t !== undefined && !t.punct && /^\d{1,3}(\+|s)?$/.test(t.text) && Number.parseInt(t.text, 10) <= 120;

/** How many tokens an age phrase starting at `i` takes (0: none starts there). */
function ageAt(tokens: Token[], i: number): number {
  const t = tokens[i]!;
  let at = i;
  if (!t.punct && AGE_BEFORE.has(t.text) && isAge(tokens[i + 1])) at = i + 1;
  // "Should I stop statins at 85?": "at" and a number ending the phrase, or followed by years, is an
  // age; "at 20 mg" is a dose.
  else if (!t.punct && t.text === "at" && isAge(tokens[i + 1]) && (tokens[i + 2] === undefined || tokens[i + 2]!.punct || AGE_UNITS.has(tokens[i + 2]!.text))) at = i + 1;
  else if (!t.punct && (t.text === "older" || t.text === "younger") && tokens[i + 1]?.text === "than" && isAge(tokens[i + 2])) at = i + 2;
  else if (!(isAge(t) && (AGE_UNITS.has(tokens[i + 1]?.text ?? "") || AGE_AFTER.has(tokens[i + 1]?.text ?? "")))) return 0;
  let end = at + 1;
  while (end < tokens.length && !tokens[end]!.punct && (AGE_UNITS.has(tokens[end]!.text) || AGE_AFTER.has(tokens[end]!.text))) end++;
  // "65 and older" ends on its qualifier; a trailing "and"/"or" belongs to what follows ("over 65 and women").
  while (end > at + 1 && ["and", "or", "of"].includes(tokens[end - 1]!.text)) end--;
  return end - i;
}

/**
 * "in the diagnosis of Barrett's oesophagus", "in the management of …", "in response to …": a
 * clinical process of the subject, not whom the question is about, so it stays in its part.
 */
function opensProcess(tokens: Token[], at: number): boolean {
  if (tokens[at]!.text !== "in") return false;
  const next = tokens.slice(at + 1).find((t) => !t.punct && !["the", "a", "an"].includes(t.text));
  return next !== undefined && PROCESS_NOUNS.has(next.text);
}

const PROCESS_NOUNS = new Set([
  "diagnosis", "management", "treatment", "treating", "prevention", "preventing", "detection", "detecting", "assessment", "evaluation",
  "prediction", "predicting", "staging", "screening", "surveillance", "monitoring", "response", "therapy", "prognosis", "diagnosing",
]);

/** Runs of adjacent content words: each run is one concept, named by its words. */
function concepts(tokens: Token[], part: QuestionPart, isContent: (w: string) => boolean, isFiller: (w: string) => boolean = () => false): PlacedWord[] {
  const runs: string[][] = [];
  // "vitamin D", "phase I": a letter or numeral right after a run says which one. It names the run's
  // concept ("vitamin D", not "vitamin") without being one of its words (terms.ts reads it as the
  // term's qualifier).
  const which = new Map<string[], string>();
  let run: string[] = [];
  for (const t of tokens) {
    // Everyday words ("really want", "change", "useful") name nothing of a concept: each stands alone.
    const filler = !t.punct && isContent(t.text) && isFiller(t.text);
    if (!t.punct && isContent(t.text) && !filler) run.push(t.text);
    else if (run.length) {
      if (!t.punct && QUALIFIER.test(t.text)) which.set(run, t.text.toUpperCase());
      runs.push(run);
      run = [];
    }
    if (filler) runs.push([t.text]);
  }
  if (run.length) runs.push(run);
  return runs.flatMap((words) => words.map((word) => ({ word, part, concept: [...words, ...(which.has(words) ? [which.get(words)!] : [])].join(" ") })));
}

/** A letter (not the article "a") or a Roman numeral standing alone: which one of what comes before. */
const QUALIFIER = /^(?:[b-hj-z]|i{1,3}|iv|vi{0,3}|ix)$/;

/** The words findRelation reads: punctuation as "", a long form's words as no cue ("=normalised"). */
function cueWords(tokens: Token[]): string[] {
  return tokens.map((t) => (t.punct ? "" : t.name ? `=${t.text}` : t.text));
}

/** Marks the words of each long form the question defines right before its abbreviation. */
function markNames(tokens: Token[], question: string): Token[] {
  for (const { short, long } of abbreviationsOf(question)) {
    const size = lex(long).filter((t) => !t.punct).length;
    const key = short.toLowerCase();
    tokens.forEach((t, i) => {
      if (t.text !== "(" || tokens[i + 1]?.text.replace(/s$/, "") !== key.replace(/s$/, "") || tokens[i + 2]?.text !== ")") return;
      for (let k = i - 1, left = size; k >= 0 && left > 0; k--) {
        if (tokens[k]!.punct) continue;
        tokens[k] = { ...tokens[k]!, name: true };
        left--;
      }
    });
  }
  return tokens;
}

/** Words (as terms.ts tokenises them) and the punctuation that separates clauses. */
function lex(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.toLowerCase().matchAll(/([a-z0-9](?:[a-z0-9+'’]|-(?!-))*[a-z0-9+]|[a-z0-9])|([?!;:,()[\]"]|\.(?=\s|$)|-{2,}|[—–])/g)) {
    if (m[1]) out.push({ text: m[1].replace(/’/g, "'"), punct: false });
    else out.push({ text: m[2]!, punct: true });
  }
  return out;
}

/**
 * "I'm 68 and it takes me ages to fall asleep. Will melatonin help me get to sleep faster?": when a
 * person's own circumstances come before the only sentence that asks, that sentence is the
 * question (`asked`) and the rest (`rest`) say whom it is about. Null when the order stands: no
 * question mark, a question first, or a title before its question ("Multidisciplinary breast
 * cancer clinics. Do they work?"), which is the question's topic. The stance reader reads the
 * claim from the same sentence (stance/claim.ts).
 */
export function askedSentence(question: string): { asked: string; rest: string } | null {
  const sentences = question.match(/[^.?!]+[.?!]*/g) ?? [question];
  const asking = sentences.filter((s) => s.trim().endsWith("?"));
  if (sentences.length < 2 || asking.length !== 1) return null;
  const at = sentences.indexOf(asking[0]!);
  if (at === 0 || !speaksForThemselves(sentences.slice(0, at).join(" "))) return null;
  return { asked: asking[0]!.trim(), rest: sentences.filter((_, i) => i !== at).join(" ").trim() };
}

/**
 * A person speaking of themselves ("I'm 68", "my mother", "Should I take metformin?", "we"). "I"
 * counts only as a pronoun, never as a numeral ("phase I", "type I diabetes").
 */
export function speaksForThemselves(text: string): boolean {
  return FIRST_PERSON.test(text) || FIRST_PERSON_I.test(text.replace(/\b[A-Z][a-z]+\b/g, (w) => w.toLowerCase()));
}
const FIRST_PERSON = /\b(me|my|myself|mine|i'm|i've|i'd|we|we're|our|us)\b/i;
const FIRST_PERSON_I = /(?:^|[.?!]\s+|\b(?:should|can|could|will|would|do|did|am|if|when|and|but|so|that|must|may|might)\s+)I\b(?!\s*(?:\/|-|and II|or II))/;

function splitSentences(tokens: Token[]): Token[][] {
  const sentences: Token[][] = [[]];
  for (const t of tokens) {
    if (t.punct && /^[?!;.]$/.test(t.text)) sentences.push([]);
    else sentences[sentences.length - 1]!.push(t);
  }
  return sentences.filter((s) => s.length > 0);
}

function inflections(verb: string): string[] {
  const stem = verb.endsWith("e") ? verb.slice(0, -1) : verb;
  const s = /(s|sh|ch|x)$/.test(verb) ? `${verb}es` : verb.endsWith("y") && !/[aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
  const ed = verb.endsWith("e") ? `${verb}d` : verb.endsWith("y") && !/[aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ied` : `${verb}ed`;
  return [verb, s, ed, `${stem}ing`];
}
