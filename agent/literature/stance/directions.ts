import { stem, tokenize } from "../terms";

/** Two-letter initials that are English words, never taken for an abbreviation. */
const ENGLISH_PAIRS = new Set("am an as at be by do go he if in is it me my no of on or so to up us we".split(" "));

/**
 * Which way a statement moves what ("reduced mortality", "tau phosphorylation was higher",
 * "inversely associated with risk"), so a claim and a finding can be compared on the same
 * quantity: a claim that X decreases Y is contradicted by a finding that X increased Y, whatever
 * Y is, where benefit and harm (findings.ts) only know the outcomes they list.
 */

type Sign = 1 | -1;
/**
 * A change: its sign; what it is said of (`target`: the object of "X reduces Y", the subject of
 * "Y was reduced" or "Y is scarce"); and the other side (`agent`: X).
 */
export type Direction = { sign: Sign; target: Set<string>; agent: Set<string> };

const UP =
  /\b(increas\w*|higher|greater|more|elevat\w*|rais(?:e|es|ed|ing)|enhanc\w*|augment\w*|promot\w*|encourag\w*|exacerbat\w*|aggravat\w*|accelerat\w*|induc(?:e|es|ed|ing|tion)|activat\w*|stimulat\w*|up-?regulat\w*|boost\w*|gain(?:s|ed)?|exceed\w*|rise|rises|rose|risen|longer|prolong\w*|extend\w*|potentiat\w*|amplif\w*|facilitat\w*|strengthen\w*|expand\w*|abundant|positively (?:associated|correlated|related))\b/gi;
const DOWN =
  /\b(decreas\w*|lower(?:ed|s|ing)?(?!\s+(?:limbs?|extremit\w*|legs?|back|abdom\w*|urinary|gastrointestinal|GI|lips?|eyelids?|jaw|lobes?|pole|body|respiratory|airways?|tract|oesophag\w*|esophag\w*|motor neurons?|quadrant)\b)|reduc\w*|fewer|less|diminish\w*|attenuat\w*|declin\w*|shorter|shorten\w*|suppress\w*|repress\w*|inhibit\w*|counteract\w*|slow(?:s|ed|ing)|delay\w*|prevent\w*|loss|lost|drop(?:s|ped)?|fell|falls?|impair\w*|down-?regulat\w*|block\w*|abolish\w*|abrogat\w*|deplet\w*|weaken\w*|dampen\w*|imped\w*|hinder\w*|scarce|rare|absent|blunt\w*|mitigat\w*|protect\w* (?:against|from)|negatively (?:associated|correlated|related)|inversely (?:associated|correlated|related))\b/gi;

/** Words that end what a change is said of. */
const BOUNDARY = /^(than|compared|versus|vs|whereas|but|while|although|which|that|who|when|because|whether|and|or)$/;
/** Words that open the means of a change, not what it changes. */
const MEANS = /^(by|via|through)$/;
/** A word of change on its own (UP or DOWN, matched whole). */
const CHANGE_WORD = new RegExp(`^(?:${UP.source.replace(/^\\b\(|\)\\b$/g, "")}|${DOWN.source.replace(/^\\b\(|\)\\b$/g, "")})$`, "i");
/** Words that name no quantity of their own ("levels of", "the rate of"), so never match alone. */
const GENERIC = new Set(
  [
    "level", "rate", "risk", "concentr", "express", "activ", "number", "frequenc", "incid", "preval", "amount", "product", "use", "effect",
    "patient", "group", "signific", "statist", "p", "mean", "median", "total", "overal", "proport", "percentag", "score", "valu", "significantli",
    "likely", "like", "associ", "correl", "relat", "independ", "function", "time", "respons", "outcom", "chang", "increas", "decreas", "reduc",
    "higher", "lower", "treatment", "therapi", "subject", "particip", "studi", "result", "data", "model", "cell", "factor", "human", "mice", "rat",
  ].map((w) => w),
);
const STOP = new Set(
  "a an the of in on at to for with by from into as is are was were be been being this these those its their his her our we it after during among per within about over under its".split(" "),
);

/** A hyphenated word as itself and its parts ("TG2-specific" also names "specific"; "double-strand breaks" is "DSB"). */
function split(tokens: string[]): string[] {
  return tokens.flatMap((t) => (t.includes("-") ? [t, ...t.split("-").filter((p) => p.length > 1)] : [t]));
}

function contentStems(tokens: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of split(tokens)) {
    if (STOP.has(t) || /^\d+([.,]\d+)?%?$/.test(t)) continue;
    const s = stem(t);
    if (!GENERIC.has(s) && !GENERIC.has(t)) out.add(s);
  }
  return out;
}

/** A copula or auxiliary just before the change: "Y was reduced", "Y is higher", "Y were significantly lower". */
const COPULA_BEFORE = /\b(is|are|was|were|be|been|being|became|become|becomes|remained|remains|appears?|seems?)\s+((\w+ly|also|still|even|further|again)\s+)?((\w+ly|also|still|even|further|again)\s+)?$/i;

/** Names of agents, matched by the change patterns but stating no change. */
const AGENT_NOUN = /^(inhibitors?|activators?|promoters?|suppressors?|enhancers?|inducers?|blockers?|stimulators?|accelerators?|boosters?)$/i;
/** Changes that are also nouns, the head of a quantity's name ("weight gain", "bone loss"). */
const NOUN_CHANGE = /^(gain|gains|loss|losses|rise|decline|drop|fall|delay)$/i;
/** Whether the words before end on a change and at most three words of its object ("reduces body weight"). */
function headOfObject(before: string): boolean {
  const tokens = tokenize(before.split(/[,;:()]/).pop() ?? "").slice(-4);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (BOUNDARY.test(t) || MEANS.test(t) || COPULA.test(t)) return false;
    if (CHANGE_WORD.test(t)) return i < tokens.length - 1;
  }
  return false;
}
const COPULA = /^(is|are|was|were|be|been|being|became|become|becomes|remained|remains)$/;
/** What after a change word makes it none: a formulation ("-release") or an idiom ("fall asleep"). */
const NO_CHANGE_AFTER = /^(?:-release\b|-acting\b|\s+asleep\b|\s+ill\b|\s+pregnant\b)/i;
/** A verb of change right before, with at most an article between. */
const AFTER_CHANGE = /\b(?:prevent\w*|reduc\w*|increas\w*|decreas\w*|lower\w*|rais\w*|induc\w*|attenuat\w*|blunt\w*|abolish\w*|slow\w*|halt\w*|revers\w*|limit\w*)\s+(?:the\s+|a\s+|an\s+)?$/i;

/** The changes a clause states, each with what it is said of. */
export function directionsOf(clause: string): Direction[] {
  const found: Direction[] = [];
  for (const [re, sign] of [
    [UP, 1],
    [DOWN, -1],
  ] as const) {
    for (const m of clause.matchAll(re)) {
      // "diet-induced obesity", "age-related decline": a compound modifier, not a change stated.
      // "an HDAC6 inhibitor": the agent's name, not a change.
      if (clause[m.index! - 1] === "-" || AGENT_NOUN.test(m[0])) continue;
      // "prolonged-release melatonin", "extended-release": a formulation, not a change; "fall asleep": no fall.
      if (NO_CHANGE_AFTER.test(clause.slice(m.index! + m[0].length, m.index! + m[0].length + 12))) continue;
      // "prevented more strokes", "reduced the loss of bone": what the first change moves, not a change of its own.
      if (AFTER_CHANGE.test(clause.slice(Math.max(0, m.index! - 30), m.index!))) continue;
      // "reduces body weight gain": the gain is what is reduced, not a second change.
      if (NOUN_CHANGE.test(m[0]) && headOfObject(clause.slice(0, m.index!))) continue;
      const afterTokens: string[] = [];
      for (const t of tokenize(clause.slice(m.index! + m[0].length).split(/[,;:()]/)[0] ?? "")) {
        // "reduces proliferation by inducing DSB accumulation": what the next change moves is its own.
        if (BOUNDARY.test(t) || MEANS.test(t) || (CHANGE_WORD.test(t) && !(NOUN_CHANGE.test(t) && afterTokens.length > 0))) break;
        afterTokens.push(t);
        if (afterTokens.length >= 8) break;
      }
      const beforeText = clause.slice(0, m.index!);
      const beforeTokens = tokenize(beforeText.split(/[,;:()]|\b(?:than|compared|versus|whereas|but|while|although|which|that|when)\b/i).pop() ?? "").slice(-6);
      const object = withAcronyms(contentStems(afterTokens), afterTokens);
      const subject = withAcronyms(contentStems(beforeTokens), beforeTokens);
      const passive = COPULA_BEFORE.test(beforeText) || object.size === 0;
      found.push({ sign, target: passive ? subject : object, agent: passive ? object : subject });
    }
  }
  return found;
}

const MIN_ACRONYM = 3;
/** The initials of each run of two to four words ("brown adipose tissue" → "bat"), so a claim's words meet a study's abbreviation. */
function withAcronyms(stems: Set<string>, tokens: string[]): Set<string> {
  const words = tokens.flatMap((t) => (t.includes("-") ? t.split("-").filter((p) => p.length > 0) : [t])).filter((t) => /^[a-z]/.test(t) && !STOP.has(t));
  for (let len = MIN_ACRONYM; len <= 4; len++) {
    for (let i = 0; i + len <= words.length; i++) {
      const acronym = words.slice(i, i + len).map((w) => w[0]).join("");
      if (!ENGLISH_PAIRS.has(acronym)) stems.add(acronym);
    }
  }
  return stems;
}

/** Stems that name the same thing: equal, or one a prefix (of five letters or more) of the other ("tumor", "tumorigen"). */
function same(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short);
}

function shared(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) for (const y of b) if (same(x, y)) {
    n++;
    break;
  }
  return n;
}

/**
 * Quantities that are each other's opposite: more resistance is less susceptibility, more survival
 * less mortality. A finding that moves one moves the claim's other the opposite way.
 */
const OPPOSITES: [string, string][] = [
  ["resist", "suscept"],
  ["resist", "sensit"],
  ["surviv", "mortal"],
  ["surviv", "death"],
];
function opposed(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const [x, y] of OPPOSITES) if ((a.has(x) && b.has(y) && !b.has(x)) || (a.has(y) && b.has(x) && !b.has(y))) n++;
  return n;
}

/**
 * +1 when a finding moves what the claim says it moves the same way, -1 the other way, 0 when they
 * share no moved quantity.
 */
export function agreement(claim: Direction[], finding: Direction[]): number {
  let score = 0;
  // "Blocking protein K increases weight gain": the blocking is the claim's manipulation (what
  // another of its changes is said of), which the study did too; only the outcome's change tells.
  const outcomes = claim.filter((c) => !claim.some((o) => o !== c && shared(c.target, o.agent) > 0));
  for (const c of outcomes) {
    for (const f of finding) {
      // "susceptibility to drug Z" against "resistance to drug Z": the words they share name what
      // the quantity is of, the opposed ones which way it is counted.
      const o = opposed(c.target, f.target);
      if (o > 0) {
        score += c.sign === f.sign ? -o : o;
        continue;
      }
      const n = shared(c.target, f.target) || 0.5 * shared(c.target, f.agent);
      if (n > 0) score += c.sign === f.sign ? n : -n;
    }
  }
  return Math.sign(score);
}
