import { askedSentence } from "@/agent/literature/question";
import type { FollowUpReading } from "@/lib/shared/contracts";
import {
  ASPECT_WORDS,
  AUXILIARIES,
  CLAUSE_THAT_BEFORE,
  CLOSING_CUES,
  DUMMY_IT_FOLLOWERS,
  FUNCTION_WORDS,
  HOLDS_WORDS,
  OPENING_CUES,
  OUTCOME_WORDS,
  POINTING_HEADS,
  POPULATION_NOUNS,
  POPULATION_QUALIFIERS,
  PRONOUNS,
  RELATION_WORDS,
} from "./follow-up-words";

/**
 * Whether a message sent within a conversation continues the question before it, and what to
 * search and judge. A message with no subject of its own ("And in women?", "Is it safe?", "How much
 * should I take?"), whose pronoun stands for the earlier subject ("Does it reduce dementia?"), or
 * that names one part in place of the earlier one's ("What about metformin?") is a follow-up: it is
 * read with the earlier question's subject, its own population, species or outcome in place of the
 * earlier one's. A message that names its own subject is searched and judged on its own words only,
 * never against the earlier question: a new topic, or a follow-up in words of its own when it asks
 * again about the earlier intervention. Pure and deterministic: tests/unit/follow-up.test.ts.
 */

/**
 * `kind`; `question`, what to search and judge (the message itself when it names its subject, the
 * message read with what it follows otherwise); `reason`; `follows`, the earlier question (itself
 * read in its own context) a follow-up continues, null for a new topic.
 */
export type FollowUpDecision = FollowUpReading;

/**
 * Decides for `message`, given the conversation's `earlier` questions (oldest first, as asked).
 * Each earlier question is read in the light of those before it, so a chain of follow-ups ("And in
 * women?" then "Is it safe?") keeps the subject the conversation started with.
 */
export function decideFollowUp({ earlier, message }: { earlier: string[]; message: string }): FollowUpDecision {
  let previous: string | null = null;
  for (const question of earlier) previous = previous === null ? clean(question) : decideAgainst(previous, question).question;
  return decideAgainst(previous, message);
}

type Token = { text: string; word: string; start: number; end: number };
type Role = "function" | "pronoun" | "population" | "aspect" | "relation" | "subject";
type Span = { start: number; end: number };
type Read = { text: string; tokens: Token[]; roles: Role[]; runs: Token[][]; population: Span | null };

function decideAgainst(previous: string | null, raw: string): FollowUpDecision {
  const message = clean(raw);
  if (!previous) return { kind: "new_topic", question: message, reason: "the conversation has no earlier question", follows: null };
  const whole = decideMessage(previous, message);
  // "I'm 72 and fell twice last year. Should I take it?": when the person's circumstances come
  // before the one sentence that asks, that sentence may continue the earlier question on its own
  // ("it" is the earlier subject), the circumstances kept before it. When the circumstances name
  // the subject themselves ("I take creatine every day. Is it safe …?"), the whole message decides.
  const said = whole.kind === "new_topic" ? askedSentence(message) : null;
  if (!said || namesThing(said.rest)) return whole;
  const asked = decideMessage(previous, said.asked);
  return asked.kind === "follow_up" ? { ...asked, question: `${said.rest} ${asked.question}` } : whole;
}

/**
 * Whether a person's circumstances name a thing they take or use, which a later "it" may stand for
 * ("I take lisinopril every day", "I'm on statins"). "I'm 72 and fell twice last year" names none.
 */
function namesThing(text: string): boolean {
  return THING_TAKEN.test(text);
}
const THING_TAKEN =
  /\b(?:take|takes|taking|took|use|uses|using|used|prescribed|started|starting|tried|trying|(?:i'm|i am|been|was|is) on)\s+(?:a |an |the |some |my |daily |regular )?(?!it\b|them\b|this\b|that\b)[a-z][\w-]{2,}/i;

function decideMessage(previous: string, message: string): FollowUpDecision {
  const read = readWords(message);
  const subjects = read.runs.map((run) => spanText(read.text, run));
  const pointer = pointingBack(read);
  const follow = (question: string, why: string): FollowUpDecision => ({ kind: "follow_up", question: question || previous, reason: `read as a follow-up: ${why}`, follows: previous });

  if (subjects.length === 0) return follow(resolveBare(previous, read), pointer ? `“${pointer.text}” stands for the earlier subject` : "it names no subject of its own");
  if (pointer) return follow(resolvePointer(previous, read, pointer), `“${pointer.text}” stands for the earlier subject, with ${listed(subjects)} of its own`);
  const cued = hasCue(read) || COMPARES_WITH_EARLIER.test(message);
  // "What about metformin?", "And dementia?", "Which cancers?": one concept in place of the earlier one's.
  if (subjects.length === 1 && (cued || isFragment(read))) return follow(replacePart(previous, read, read.runs[0]!), `it names only ${subjects[0]}, in place of a part of the earlier question`);
  // "What about vitamin D taken with calcium?": one phrase, no verb of its own.
  if (cued && !read.roles.includes("relation")) return follow(replacePart(previous, read, [read.runs[0]![0]!, read.runs.at(-1)!.at(-1)!]), `it names only ${spanText(read.text, [read.runs[0]![0]!, read.runs.at(-1)!.at(-1)!])}, in place of a part of the earlier question`);
  const shared = sharedIntervention(previous, read);
  if (shared) return { kind: "follow_up", question: message, reason: `a follow-up in words of its own: it asks again about ${shared}, so it is read on its own words`, follows: previous };
  return { kind: "new_topic", question: message, reason: `a new topic: it names its own subject (${listed(subjects)}), so it is read on its own words, not against the earlier question`, follows: null };
}

/** Collapses whitespace; the decision never changes what was asked otherwise. */
function clean(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9][A-Za-z0-9+'’-]*[A-Za-z0-9+]|[A-Za-z0-9]/g)) {
    out.push({ text: m[0], word: m[0].toLowerCase().replace(/’/g, "'"), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

function roleOf(tokens: Token[], i: number): Role {
  const word = tokens[i]!.word;
  const before = tokens[i - 1]?.word;
  if (PRONOUNS.has(word)) return "pronoun";
  if (POPULATION_NOUNS.has(word)) return "population";
  // "vitamin D", "omega 3", "type 2": the letter or number is part of the name.
  if (before && /^(vitamin|omega|type)$/.test(before) && /^[a-z0-9]{1,3}$/.test(word)) return "subject";
  if (FUNCTION_WORDS.has(word) || /^\d+$/.test(word) || word.length < 2) return "function";
  if (ASPECT_WORDS.has(word)) return "aspect";
  if (RELATION_WORDS.has(word) || /^(more|less|longer|shorter|higher|lower|faster|slower|greater|fewer|bigger|smaller)$/.test(word)) return "relation";
  return "subject";
}

/** The words by role, the subject words in runs of adjacent ones, and the population phrase. */
function readWords(text: string): Read {
  const tokens = tokenize(text);
  const roles = tokens.map((_, i) => roleOf(tokens, i));
  const word = (i: number) => tokens[i]?.word ?? "";
  for (let i = 0; i < tokens.length; i++) {
    // A qualifier of people is part of the population ("older women").
    if (roles[i] === "subject" && POPULATION_QUALIFIERS.has(word(i)) && roles[i + 1] === "population") roles[i] = "population";
    // "this drug", "the same study" point back; a bare "treatment" names no subject of its own.
    if (POINTING_HEADS.has(word(i)) && /^(this|that|these|those|the|same|such)$/.test(word(i - 1))) roles[i] = "pronoun";
    else if (roles[i] === "subject" && POINTING_HEADS.has(word(i))) roles[i] = "aspect";
    // "blood level", "serum levels": how much of the earlier subject, not a subject of its own.
    if (/^(levels?|concentrations?|tests?|readings?)$/.test(word(i)) && /^(blood|serum|plasma|urine|urinary)$/.test(word(i - 1))) roles[i - 1] = roles[i] = "aspect";
    // "late in life": when, not what.
    if (word(i) === "life" && word(i - 1) === "in" && /^(late|later|early|earlier)$/.test(word(i - 2))) roles[i] = "aspect";
  }
  const population = populationPhrase(tokens, roles);
  // Words inside the population phrase ("people with diabetes") narrow it; they are not its subject.
  if (population) tokens.forEach((t, i) => t.start >= population.start && t.end <= population.end && roles[i] === "subject" && (roles[i] = "population"));
  const runs: Token[][] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (roles[i] !== "subject") continue;
    const last = runs.at(-1);
    if (last && last.at(-1) === tokens[i - 1] && !/[.,;:!?]/.test(text.slice(tokens[i - 1]!.end, tokens[i]!.start))) last.push(tokens[i]!);
    else runs.push([tokens[i]!]);
  }
  return { text, tokens, roles, runs, population };
}

/** The text from a run's first token to its last, as written. */
function spanText(text: string, run: Token[]): string {
  return text.slice(run[0]!.start, run.at(-1)!.end);
}

/**
 * The phrase that names who or what was studied, from its preposition ("in older adults", "in
 * mice", "for people who have already had one", "in people over 80", "in women with prediabetes").
 */
function populationPhrase(tokens: Token[], roles: Role[]): Span | null {
  const first = roles.findIndex((r, i) => r === "population" && POPULATION_NOUNS.has(tokens[i]!.word));
  if (first < 0) return null;
  let last = first;
  while (roles[last + 1] === "population") last++;
  const word = (i: number) => tokens[i]?.word ?? "";
  if (/^(who|that|with|over|under|above|below|aged|older|younger)$/.test(word(last + 1))) {
    last++;
    while (last + 1 < tokens.length && !PRONOUNS.has(word(last + 1)) && roles[last + 1] !== "relation") last++;
  }
  let from = first;
  while (from > 0 && roles[from - 1] === "population") from--;
  while (from > 0 && /^(the|older|old|younger|young|healthy|adult)$/.test(word(from - 1))) from--;
  const start = /^(in|among|amongst|for|to|of|on)$/.test(word(from - 1)) ? from - 1 : from;
  return { start: tokens[start]!.start, end: tokens[last]!.end };
}

/**
 * The pronoun or pointing phrase that stands for the earlier subject, if any: not one whose noun
 * came before it in the message ("Metformin: does it…"), not "it" in "is it true that…", not "that"
 * opening a clause ("evidence that coffee…").
 */
function pointingBack(read: Read): Token | null {
  const { tokens, roles, text } = read;
  for (let i = 0; i < tokens.length; i++) {
    if (roles[i] !== "pronoun") continue;
    const word = tokens[i]!.word;
    const next = tokens[i + 1]?.word ?? "";
    const lastSubject = roles.slice(0, i).lastIndexOf("subject");
    if (lastSubject >= 0 && /[.,;:!?]/.test(text.slice(tokens[lastSubject]!.end, tokens[i]!.start))) return null;
    if ((word === "it" || word === "it's") && DUMMY_IT_FOLLOWERS.has(next) && /^(to|that|if|whether)$/.test(tokens[i + 2]?.word ?? "")) continue;
    if (word === "that" && CLAUSE_THAT_BEFORE.has(tokens[i - 1]?.word ?? "")) continue;
    // "this year", "that diet of yours": a demonstrative before a noun of its own points at that noun.
    if (/^(this|that|these|those)$/.test(word) && (roles[i + 1] === "subject" || roles[i + 1] === "population" || TIME_WORDS.test(next))) continue;
    return tokens[i]!;
  }
  return null;
}

const TIME_WORDS = /^(day|days|week|weeks|month|months|year|years|morning|evening|night|time|winter|summer|season)$/;

/**
 * A message that sets its one subject against the earlier one ("How does rapamycin compare?",
 * "Is there an alternative?") or asks for more of the earlier answer ("Tell me more about the
 * largest trial", "Can you explain?").
 */
const COMPARES_WITH_EARLIER = /\b(compare|compares|compared|comparison|versus|vs\.?|instead|alternatives?)\b|^\W*(tell me more|more about|explain|elaborate|go on|say more)\b/i;

function hasCue(read: Read): boolean {
  const words = read.tokens.map((t) => t.word);
  const opens = OPENING_CUES.some((cue) => cue.every((w, i) => words[i] === w));
  return opens || CLOSING_CUES.has(words.at(-1) ?? "") || (words.at(-2) === "as" && words.at(-1) === "well");
}

/** A bare phrase ("Which cancers?", "Dementia?"): a few words, no auxiliary, no verb that relates. */
function isFragment(read: Read): boolean {
  return read.tokens.length <= 4 && !read.tokens.some((t) => AUXILIARIES.has(t.word)) && !read.roles.includes("relation");
}

/** The earlier question's parts: its first subject run (the intervention), its last (the outcome), its population. */
function partsOf(previous: string): { read: Read; intervention: Token[] | null; outcome: Token[] | null } {
  const read = readWords(previous);
  const first = read.runs[0];
  // "hormone replacement therapy", "omega-3 supplements": the head that follows belongs to the intervention.
  const head = first ? read.tokens[read.tokens.indexOf(first.at(-1)!) + 1] : undefined;
  const intervention = first && head && POINTING_HEADS.has(head.word) && read.roles[read.tokens.indexOf(head)] === "aspect" ? [...first, head] : (first ?? null);
  return { read, intervention, outcome: read.runs.length > 1 ? read.runs.at(-1)! : null };
}

/** The earlier intervention, when a message that names its own subject asks again about it ("Does vitamin D also help bone density?"). */
function sharedIntervention(previous: string, read: Read): string | null {
  const { intervention } = partsOf(previous);
  if (!intervention) return null;
  const own = new Set(read.runs.flat().map((t) => t.word));
  return intervention.some((t) => own.has(t.word)) ? spanText(previous, intervention) : null;
}

/** `question` with its population phrase replaced by `population` (or added before its end when it has none). */
function withPopulation(question: string, population: string | null): string {
  if (!population) return question;
  const before = readWords(question).population;
  const phrase = /^(in|among|amongst|for|to|of|on)\s/i.test(population) ? population : `in ${population}`;
  if (before) return `${question.slice(0, before.start)}${phrase}${question.slice(before.end)}`;
  return beforeEnd(question, phrase);
}

/** `phrase` added before the question's closing mark. */
function beforeEnd(question: string, phrase: string): string {
  const end = /[?.!]\s*$/.exec(question);
  return end ? `${question.slice(0, end.index).trimEnd()} ${phrase}${question.slice(end.index)}` : `${question} ${phrase}`;
}

const ownPopulation = (read: Read) => (read.population ? read.text.slice(read.population.start, read.population.end) : null);

/** The earlier population carried to a question that names none: people only (a question about mice rarely means "is it safe for mice?"). */
function carriedPopulation(before: Read): string | null {
  if (!before.population) return null;
  const phrase = before.text.slice(before.population.start, before.population.end);
  return /\b(mice|mouse|rats?|rodents?|monkeys?|primates?|macaques?|dogs?|cats?|pigs?|worms?|nematodes?|flies|fly|drosophila|yeast|fish|zebrafish|killifish|animals?|cells?)\b/i.test(phrase) ? null : phrase;
}

/**
 * A message with no subject of its own. Asking whether the finding holds for a population or
 * species ("And in women?", "Would it work in men too?") puts it in place of the earlier one's; a
 * question about an aspect ("Is it safe?", "How much should I take?") is asked of the earlier
 * intervention; anything else ("Why?", "Are you sure?") asks the earlier question again.
 */
function resolveBare(previous: string, read: Read): string {
  const aspects = read.tokens.filter((_, i) => read.roles[i] === "aspect").map((t) => t.word);
  if (aspects.every((w) => HOLDS_WORDS.has(w))) return withPopulation(previous, ownPopulation(read));
  const { intervention, read: before } = partsOf(previous);
  if (!intervention) return withPopulation(previous, ownPopulation(read));
  const subject = spanText(previous, intervention);
  const population = read.population ? null : carriedPopulation(before);
  const pointer = pointingBack(read);
  if (pointer && isClaim(read, pointer)) return topicForm(previous, read);
  if (pointer) return substitute({ read, pointer, subject, population, them: before });
  const asked = read.text.replace(/^(and|but|so|also|then|or)\b[\s,]*/i, "");
  return `${capitalize(subject)}${population ? ` ${population}` : ""}: ${asked.charAt(0).toLowerCase()}${asked.slice(1)}`;
}

/**
 * A pronoun for the earlier subject beside words of its own. "Does it reduce dementia?" is asked of
 * the earlier intervention; "Can quitting reverse it?" (after a verb) of its outcome; "Is that true
 * for cancer?" (a claim) puts its outcome in place of the earlier one's, and a claim about other
 * things ("Is that worse with simvastatin?") is asked with the earlier subject named before it.
 */
function resolvePointer(previous: string, read: Read, pointer: Token): string {
  const { intervention, outcome, read: before } = partsOf(previous);
  const at = read.tokens.indexOf(pointer);
  if (isClaim(read, pointer) && !read.roles.includes("relation") || !intervention) {
    const last = read.runs.at(-1)!;
    if (last.some((t) => OUTCOME_WORDS.has(t.word)) || !intervention) return withPopulation(replacePart(previous, read, last, "outcome"), ownPopulation(read));
    return topicForm(previous, read);
  }
  const afterVerb = read.roles[at - 1] === "relation" && outcome !== null;
  const subject = spanText(previous, afterVerb ? outcome : intervention);
  return substitute({ read, pointer, subject, population: read.population ? null : carriedPopulation(before), them: before });
}

/** A bare "this" or "that" stands for what the earlier answer said, not for a thing ("this supplement"). */
function isClaim(read: Read, pointer: Token): boolean {
  const next = read.tokens.indexOf(pointer) + 1;
  return /^(this|that|these|those|same)$/.test(pointer.word) && !(read.roles[next] === "pronoun" && POINTING_HEADS.has(read.tokens[next]!.word));
}

/** The message asked under the earlier subject ("Statins and muscle pain: is that worse with simvastatin?"). */
function topicForm(previous: string, read: Read): string {
  const { intervention, outcome, read: before } = partsOf(previous);
  const topic = [intervention, outcome].filter((p): p is Token[] => p !== null).map((p) => spanText(previous, p)).join(" and ") || previous.replace(/[?.!]\s*$/, "");
  const population = read.population ? null : carriedPopulation(before);
  return `${capitalize(topic)}${population ? ` ${population}` : ""}: ${read.text.charAt(0).toLowerCase()}${read.text.slice(1)}`;
}

/** The message's concept `run` in place of the earlier outcome or intervention, by what it names. */
function replacePart(previous: string, read: Read, run: Token[], forced?: "outcome"): string {
  const { intervention, outcome } = partsOf(previous);
  const concept = spanText(read.text, run);
  const isOutcome = forced === "outcome" || read.tokens.slice(read.tokens.indexOf(run[0]!), read.tokens.indexOf(run.at(-1)!) + 1).some((t) => OUTCOME_WORDS.has(t.word));
  const target = isOutcome ? outcome : intervention;
  if (target) {
    // "extend lifespan" does not carry over to "dementia": a verb that fits one outcome only becomes "affect".
    const lead = previous.slice(0, target[0]!.start);
    const verb = isOutcome ? /\b(extend|prolong|lengthen|shorten)(s?)\b(?!.*\b(extend|prolong|lengthen|shorten)s?\b)/i.exec(lead) : null;
    const fitted = verb ? `${lead.slice(0, verb.index)}affect${verb[2]}${lead.slice(verb.index + verb[0].length)}` : lead;
    return withPopulation(`${fitted}${concept}${previous.slice(target.at(-1)!.end)}`, ownPopulation(read));
  }
  // The earlier question has no such part: ask of its subject about the new concept.
  const subject = intervention ? spanText(previous, intervention) : previous.replace(/[?.!]\s*$/, "");
  return isOutcome ? `Does ${subject} affect ${concept}?` : `${capitalize(concept)}: ${previous}`;
}

/**
 * The message with its pointing phrase ("it", "this drug", "the same supplement") replaced by
 * `subject`, and "them" by the earlier population (which is otherwise added, when there is one).
 */
function substitute({ read, pointer, subject, population, them }: { read: Read; pointer: Token; subject: string; population: string | null; them: Read }): string {
  const { tokens, roles, text } = read;
  let first = tokens.indexOf(pointer);
  let last = first;
  while (roles[last + 1] === "pronoun" && POINTING_HEADS.has(tokens[last + 1]!.word)) last++;
  while (first > 0 && /^(the|same|this|that|these|those)$/.test(tokens[first - 1]!.word)) first--;
  const start = tokens[first]!.start;
  const replacement = /^(its|their)$/.test(pointer.word) ? `${subject}'s` : subject;
  const out = `${text.slice(0, start)}${start === 0 ? capitalize(replacement) : replacement}${text.slice(tokens[last]!.end)}`;
  // "in them": the people or animals of the earlier question.
  const among = /\b(in|for|among|on) (them|they)\b/i.exec(out);
  if (among && them.population) return `${out.slice(0, among.index)}${them.text.slice(them.population.start, them.population.end)}${out.slice(among.index + among[0].length)}`;
  return population ? beforeEnd(out, population) : out;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function listed(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
