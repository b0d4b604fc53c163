import type { Stance, Verdict } from "@/lib/shared/contracts";
import { clauses, isAimSentence, isFindingSentence, isMethodSentence, readFinding, type FindingReading } from "../findings";
import { splitSentences } from "../sentences";
import { stem, stemSet, tokenize } from "../terms";
import { SUPERLATIVE, readClaim, type ClaimReading, type StanceClaim } from "./claim";
import { agreement, directionsOf } from "./directions";
import { stanceFeatures } from "./features";
import { decide, MODEL } from "./model";
import { NOT_FINDINGS, sectionsOf, type Section } from "./sections";
import type { PartsReading, ReadClause, SectionReading, StanceReading } from "./types";

/**
 * The stance of one study toward a question's claim, read from its abstract (docs/chat.md, "The
 * verdict", step 2; issue 25, item 4). The verdict (verdict.ts) aggregates these over the
 * references that test the question; `npm run bench -- stance` measures this reading alone.
 *
 * A structured abstract's conclusion decides; the results (or an unlabelled abstract's findings)
 * only when the conclusion states nothing on the claim. Background, aims and methods are never read
 * as findings. A negated or falling-short finding reads as no effect (findings.ts); a negated claim
 * ("X does not extend lifespan") is read as its plain form and the stance turned round.
 */

export type { StanceClaim } from "./claim";
export type { PartsReading, SectionReading, StanceReading } from "./types";

type Side = "supports" | "contradicts";
const opposite = (side: Side): Side => (side === "supports" ? "contradicts" : "supports");

/** A reading's stance on the plain claim, or null when it states nothing on it. */
function stanceOfReading(
  reading: FindingReading,
  claim: Pick<ClaimReading, "equivalence" | "valence" | "ability" | "alternative" | "safety">,
  { moved = 0, clause = "" }: { moved?: number; clause?: string } = {},
): Side | null {
  if (reading.effect === "unclear") return null;
  // "Ratings from a distance were comparable to those in the room": to "Can examiners take part
  // from a distance?", doing as well as the accepted way is a yes.
  // "Oral therapy was non-inferior to intravenous therapy": to "Can oral therapy replace it?", as good is a yes.
  if ((claim.ability || claim.alternative) && reading.effect === "none" && reading.alike) return "supports";
  // "Infections occurred in 26% and 28% of infants (OR 0.93, 95% CI 0.73-1.18)": to "Is it safe?",
  // harms found alike in those exposed and not is a yes.
  if (claim.safety && reading.effect === "none" && reading.alike) return "supports";
  if (claim.equivalence) {
    // Only an absence of difference supports an equivalence: "not all patients need the same target" does not.
    if (reading.effect === "none") return reading.alike ? "supports" : "contradicts";
    // "X is an accurate alternative to Y" supports an equivalence; a difference found does not.
    return reading.valence === "benefit" && !COMPARATIVE.test(clause) ? "supports" : "contradicts";
  }
  if (reading.effect === "none") return "contradicts";
  if (moved !== 0) return moved > 0 ? "supports" : "contradicts";
  if (claim.valence === "neutral" || reading.valence === "neutral") return "supports";
  return reading.valence === claim.valence ? "supports" : "contradicts";
}

const COMPARATIVE = /\b(superior|inferior|better|worse|higher|lower|more|less|greater|fewer|outperform\w*|differ\w*)\b/i;

/** A sentence that opens the authors' conclusion inside an unlabelled abstract. */
const CONCLUDING = /^(in conclusion|conclusions?|to conclude|we conclude|overall|taken together|in summary|thus|therefore|hence|these (results|findings|data|observations)|our (results|findings|data|study)|this (study|trial|analysis|review) (shows|showed|demonstrates|demonstrated|found|suggests|indicates|provides))\b/i;

/**
 * The stance of one reference. `certainty` is how plainly its deciding findings were stated (1
 * plain, less when hedged), 0 when it states nothing on the claim.
 */
export function stanceOfReference({ text, claim }: { text: string; claim: StanceClaim }): { stance: Stance; certainty: number } {
  const { stance, certainty } = readStance({ text, claim });
  return { stance, certainty };
}

/** stanceOfReference with the clauses the rules read: the fitted model (model.ts) weighs the rules' readings. */
export function readStance({ text, claim }: { text: string; claim: StanceClaim }): StanceReading {
  const parts = readParts({ text, claim });
  const rules = rulesOf(parts);
  // A study the rules read nothing from states nothing on the claim: the model weighs readings, it
  // does not guess a stance from the base rate of the sets it was fitted on.
  if (rules.stance === "unclear") return rules;
  const x = stanceFeatures({ parts, claimText: claim.text ?? claim.question ?? "", text });
  // The certainty stays the rules' (how plainly the finding is stated), which the verdict weighs;
  // the model decides the side and says how likely it is.
  const decided = decide(MODEL, x, { readBothWays: rules.forWeight > 0 && rules.againstWeight > 0 });
  return { stance: decided.stance, certainty: rules.certainty, probability: decided.probability, clauses: rules.clauses };
}

/** The rules' reading alone, without the fitted model (the benchmark reports both). */
export function readStanceByRules({ text, claim }: { text: string; claim: StanceClaim }): StanceReading {
  return rulesOf(readParts({ text, claim }));
}

/** The conclusion's reading when it states something on the claim, else the other findings'. */
/** Whether some text holds a stem of the claim's outcome (true when the claim has none to hold). */
function namesOutcome(sections: { text: string }[], claim: ClaimReading): boolean {
  const outcome = claim.parts.filter((p) => p.outcome);
  if (outcome.length === 0) return true;
  const stems = stemSet(sections.map((s) => s.text).join(" "));
  return outcome.some((p) => p.stems.some((s) => stems.has(s)));
}

export function rulesOf(parts: PartsReading): SectionReading {
  return parts.conclusion && parts.conclusion.stance !== "unclear" ? parts.conclusion : parts.findings;
}


export function readParts({ text, claim }: { text: string; claim: StanceClaim }): PartsReading {
  const reading = readClaim(claim);
  const sections = sectionsOf(text);
  const concluded = sections.filter((s) => s.role === "conclusion");
  const others = sections.filter((s) => !NOT_FINDINGS.has(s.role) && s.role !== "conclusion");
  const findings = turned(readSections(others, reading, false), reading.negated);
  // A conclusion that never names the claim's outcome ("rapamycin was safe and well tolerated", for
  // whether it raises blood sugar) concludes on something else; the findings that name the outcome
  // ("fasting glucose did not differ") speak to the claim.
  const offOutcome = concluded.length > 0 && !namesOutcome(concluded, reading) && (findings.clauses ?? []).some((c) => c.counted && namesOutcome([{ text: c.text }], reading));
  const conclusion = concluded.length > 0 && !offOutcome ? turned(readSections(concluded, reading, true), reading.negated) : null;
  const deciding = (conclusion && conclusion.stance !== "unclear" ? concluded : others).map((s) => s.text).join(" ");
  return { claim: reading, conclusion, findings, deciding };
}

/** A negated claim's stance is its plain form's turned round. */
function turned(read: SectionReading, negated: boolean): SectionReading {
  if (!negated) return read;
  const swap = (s: Stance): Stance => (s === "supports" || s === "contradicts" ? opposite(s) : s);
  return {
    ...read,
    stance: swap(read.stance),
    forWeight: read.againstWeight,
    againstWeight: read.forWeight,
    clauses: read.clauses?.map((c) => ({ ...c, stance: opposite(c.stance) })),
  };
}

/** The share of the claim's weight a text holds, the outcome's words counting `outcomeWeighs` times. */
function relevanceOf(stems: Set<string>, claim: ClaimReading, { outcomeWeighs = 1 }: { outcomeWeighs?: number } = {}): number {
  const weight = (p: ClaimReading["parts"][number]) => p.weight * (p.outcome ? outcomeWeighs : 1);
  const total = claim.parts.reduce((n, p) => n + weight(p), 0);
  if (total === 0) return 0;
  const held = claim.parts.reduce((n, p) => n + (p.stems.some((s) => stems.has(s)) ? weight(p) : 0), 0);
  return Math.min(1, held / total);
}

type Read = Omit<ReadClause, "counted"> & { weight: number };

/**
 * The stance of some sections: every clause of their finding sentences read against the claim;
 * the clauses closest to the claim's words decide, later ones and concluding ones counting more.
 */
function readSections(sections: Section[], claim: ClaimReading, conclusion: boolean): SectionReading {
  const sentences = sections.flatMap((s) => splitSentences(s.text).map((text) => ({ text, labelled: s.label !== null })));
  // In an unlabelled abstract, what comes before the stated aim is background.
  const aimAt = sentences.findIndex((s, i) => !s.labelled && i < Math.max(2, sentences.length * 0.6) && statesAim(s.text));
  const read: Read[] = [];
  // The last finding read, across sentences: an adjusted estimate of the next ("After adjustment
  // for age, the odds ratio was 1.05") is that finding's.
  let last: Read | null = null;
  sentences.forEach(({ text: sentence, labelled }, i) => {
    const plainFinding = isFindingSentence(sentence);
    if (!labelled && !conclusion && (i <= aimAt || (i === 0 && sentences.length > 3 && !CONCLUDING.test(sentence)))) return;
    // Aims, open questions and methods are never findings.
    if (statesAim(sentence) || (!conclusion && isMethodSentence(sentence))) return;
    const sentenceStems = stemSet(sentence);
    const position = conclusion ? 1 / (1 + 0.3 * i) : 0.5 + i / Math.max(1, sentences.length);
    const concluding = CONCLUDING.test(sentence) ? 1.5 : 1;
    const { text: forClaim, invert } = ofClaimsGroup(sentence, claim);
    // The last finding read in this sentence: "the difference" of a later clause is that finding's.
    let prior: Read | null = ADJUSTED.test(sentence.trim()) ? last : null;
    let first = true;
    const sentenceClauses = clauses(forClaim);
    const exposureNamed = sentenceClauses.length > 1 && namesExposure(sentenceClauses[0]!, claim);
    for (const clause of sentenceClauses) {
      // "…, whereas alcohol drinking outside meals only was unrelated to risk", to "Does alcohol with
      // meals protect?": said of another subgroup, it speaks to another claim.
      if (ofOtherSubgroup(clause, claim)) continue;
      // "Socially isolated adults had a higher risk of dementia, whereas loneliness was not
      // associated with dementia": a later clause with a subject of its own, none of the claim's,
      // after one that named the claim's exposure, says its finding of another exposure.
      if (!first && exposureNamed && ofOtherSubject(clause, claim)) continue;
      // A sentence's subject (the exposure) is shared by its clauses; what each clause says it of is
      // its own: of "X raised NAD+ but did not improve muscle strength", the clause naming the
      // claim's outcome speaks to the claim. A clause that ends on its negation ("…, but time to
      // debridement was not") says the sentence's predicate of its own subject: it has the
      // sentence's words.
      const clauseStems = stemSet(clause);
      // So does one whose change has a pronoun for its object ("…, whereas 0.1% extended it by 5.8%").
      if (ELLIPTICAL.test(clause) || CHANGED_PRONOUN.test(clause)) for (const p of claim.parts) if (p.outcome) for (const st of p.stems) if (sentenceStems.has(st)) clauseStems.add(st);
      const own = 0.6 * relevanceOf(clauseStems, claim, { outcomeWeighs: 2 }) + 0.4 * relevanceOf(sentenceStems, claim);
      // "Pain was lower with the brace, but the difference did not reach significance": a clause
      // whose subject points back at the finding before it speaks of that finding.
      // Only for what the statistics say of it ("… was not significant", "… after adjustment"): "the
      // benefits did not persist after stopping" says how long it lasted, not that it was not found.
      const pointsBack = prior !== null && ((POINTS_BACK.test(clause.trim()) && OF_SIGNIFICANCE.test(clause)) || (first && ADJUSTED.test(sentence.trim())));
      first = false;
      const relevance = pointsBack ? Math.max(own, prior!.relevance) : own;
      // A side the clause states outright (a share, an opposite), read without its finding words.
      const plainly = (stance: Side, effect: "found" | "none") => {
        read.push({ text: clause, stance, relevance, weight: (0.25 + relevance) * position * concluding, certainty: 1, effect, alike: false, moved: 0, significant: SIGNIFICANT.test(clause) });
        prior = read.at(-1)!;
      };
      // "Only one resident in three was assessed": to a claim about how many do something, a share.
      const byShare = claim.share ? sideOfShare(clause, claim.share) : claim.superlative ? sideOfSuperlative(clause, claim.superlative) : null;
      if (byShare) {
        plainly(invert ? opposite(byShare) : byShare, "found");
        continue;
      }
      // "The score proved unreliable", to "Is the score reliable?": the clause says the opposite of
      // what the claim predicates (claim.ts, `opposites`), unless it denies that ("not unreliable").
      if (statesOpposite(clause, claim)) {
        plainly(invert ? opposite("contradicts") : "contradicts", "none");
        continue;
      }
      let finding: FindingReading = readFinding(clause);
      // A conclusion, a reported finding ("Here we show that …") or a short quoted finding, outside
      // any labelled section, that restates the claim without a finding word still affirms it; a
      // result sentence that only describes (a count, a rate: "Of 1200 participants, 38% were
      // vitamin D deficient") does not, however short its section.
      const affirms = conclusion || REPORTED.test(sentence) || (sentences.length <= 3 && !labelled);
      // A short quoted finding restates with fewer of the claim's words than a sentence of a whole abstract.
      const restates = relevance >= (sentences.length <= 3 ? RESTATES : 0.5);
      if (finding.effect === "unclear" && !plainFinding && !(affirms && restates)) continue;
      // A claim that something is needed is restated only where the clause names that thing, not
      // only its setting: "Most small kidney stones passed spontaneously" restates no claim that
      // surgery is needed for them.
      const namesSubject = !(claim.needed || claim.routine) || !claim.parts.some((p) => p.subject) || claim.parts.some((p) => p.subject && p.stems.some((st) => clauseStems.has(st)));
      const restated = finding.effect === "unclear" && affirms && restates && namesSubject && !HEDGED_OR_OPEN.test(clause);
      if (restated) finding = { ...finding, effect: "found", certainty: Math.min(finding.certainty, 0.8) };
      // "regardless of the type of follow-up", "independent of age": what follows does not matter.
      // When that is the claim's own subject, the clause says it has no effect.
      const irrelevant = IRRELEVANT_OF.exec(clause);
      if (irrelevant && relevanceOf(stemSet(irrelevant[1] ?? irrelevant[2]!), claim) >= 0.3) finding = { ...finding, effect: "none", alike: false };
      if (answersNo(finding, clause, claim)) finding = { ...finding, effect: "none", alike: false };
      // "X and Y were equally effective", "as accurate as", "non-inferior": to a claim that one is
      // better than the other, a comparison found alike answers no, however favourable its words.
      if (claim.comparative && finding.effect === "found" && ALIKE_FOUND.test(clause) && !ALIKE_DENIED.test(clause)) finding = { ...finding, effect: "none", alike: true };
      const moved = finding.effect === "found" ? agreement(claim.directions, directionsOf(clause)) : 0;
      const side = stanceOfReading(finding, claim, { moved, clause });
      if (!side) continue;
      // "Women appear to be at increased risk", to "Men are more susceptible than women": the
      // finding is said of the claim's other group, so it says the opposite of the claim.
      // "Withholding feeding for the first week was associated with faster recovery": said of going
      // without the claim's exposure, the finding is the opposite of one on the exposure.
      const swapped = finding.effect === "found" && (saidOfOtherGroup(clause, claim) || withheldClaimed(clause, claim));
      const stance: Side = invert !== swapped ? opposite(side) : side;
      // Its significance denied, the finding before is withdrawn: what stands is that no effect was shown.
      if (pointsBack && finding.effect === "none" && prior!.effect === "found") read.splice(read.indexOf(prior!), 1);
      read.push({
        text: clause,
        stance,
        relevance,
        weight: (0.25 + relevance) * position * concluding * finding.certainty,
        certainty: finding.certainty,
        effect: restated ? "restated" : finding.effect === "none" ? "none" : "found",
        alike: finding.alike === true,
        moved,
        significant: SIGNIFICANT.test(clause),
      });
      prior = read.at(-1)!;
    }
    last = read.at(-1) ?? last;
  });
  // The findings on the question's own subject decide: clauses less on it than the closest are
  // about something else the study also measured (baseline differences, secondary outcomes).
  const closest = Math.max(0, ...read.map((r) => r.relevance));
  const counted = read.filter((r) => r.relevance >= closest - 0.15);
  const listed: ReadClause[] = read.map((r) => ({
    text: r.text,
    stance: r.stance,
    counted: counted.includes(r),
    relevance: r.relevance,
    certainty: r.certainty,
    effect: r.effect,
    alike: r.alike,
    moved: r.moved,
    significant: r.significant,
  }));
  const forWeight = counted.filter((r) => r.stance === "supports").reduce((n, r) => n + r.weight, 0);
  const againstWeight = counted.filter((r) => r.stance === "contradicts").reduce((n, r) => n + r.weight, 0);
  const total = forWeight + againstWeight;
  const weights = { forWeight, againstWeight, relevance: closest };
  if (total === 0) return { stance: "unclear", certainty: 0, clauses: listed, ...weights };
  const certainty = counted.reduce((n, r) => n + r.certainty, 0) / counted.length;
  const minor = Math.min(forWeight, againstWeight) / total;
  return { stance: minor >= 0.48 ? "mixed" : forWeight > againstWeight ? "supports" : "contradicts", certainty, clauses: listed, ...weights };
}

/**
 * "Canagliflozin extended the lifespan of male, but not female, mice": a finding for one group and
 * not another. When the claim names one of the two groups and not the other, the sentence is read
 * for the claim's group: for "in female mice" as "… extended the lifespan of female mice", turned
 * round (`invert`); for "in male mice" without the exclusion. Not a condition ("…, but not after
 * adjustment"), which says when the finding held, not of whom.
 */
const GROUP_EXCLUDED = /\b([a-z][a-z-]+),?\s+but not(?: in)?\s+(?!(?:after|when|once|following|before|during|with|without|on|at|for|by|if|until|unless|among)\b)([a-z][a-z-]+),?(?=\s)/i;
/**
 * "… reduced stroke, major cardiovascular events and death, but not myocardial infarction": a list
 * of outcomes the finding holds for and one it does not. When the claim's outcome is named only in
 * the exclusion, the sentence is read for it: the exclusion joins the list and the finding is
 * turned round.
 */
const LIST_EXCLUDED = /,\s+but not\s+((?:[a-z][\w-]*\s*){1,4}?)(?=\s*(?:[,;.]|$)|\s+(?:without|with|over|at|in|after|during)\b)/i;
function ofClaimsGroup(sentence: string, claim: ClaimReading): { text: string; invert: boolean } {
  const listed = LIST_EXCLUDED.exec(sentence);
  if (listed) {
    const namesOutcome = (text: string) => {
      const seq = tokenize(text).map(stem);
      const has = (phrase: string[]) => seq.some((_, i) => phrase.every((w, k) => seq[i + k] === w));
      // The whole of the outcome, not one of its words: "heart failure" does not name heart attacks.
      const outcome = claim.parts.filter((p) => p.outcome && p.weight === 1);
      return outcome.length > 0 && (outcome.every((p) => seq.some((st) => p.stems.includes(st))) || outcome.some((p) => (p.phrases ?? []).some(has)));
    };
    if (namesOutcome(listed[1]!) && !namesOutcome(sentence.slice(0, listed.index))) {
      return { text: `${sentence.slice(0, listed.index)} and ${listed[1]}${sentence.slice(listed.index + listed[0].length)}`, invert: true };
    }
  }
  const m = GROUP_EXCLUDED.exec(sentence);
  if (!m) return { text: sentence, invert: false };
  const names = (word: string) => claim.parts.some((p) => p.stems.includes(stem(word.toLowerCase())));
  const [kept, excluded] = [names(m[1]!), names(m[2]!)];
  if (kept === excluded) return { text: sentence, invert: false };
  const text = `${sentence.slice(0, m.index)}${kept ? m[1] : m[2]}${sentence.slice(m.index + m[0].length)}`;
  return { text, invert: excluded };
}

/** A negation right before a word: "not unreliable", "hardly inadequate", "never unsafe". */
const DENIED_BEFORE = /\b(not|no|never|hardly|scarcely|neither|nor|without|n't)\s+(\w+\s+){0,2}$/i;
const oppositePatterns = new Map<string, RegExp>();
/**
 * An opposite said of something, not naming which one: after a copula or a verb of finding, with
 * at most an article and an adverb between ("was unreliable", "proved an unreliable marker",
 * "were found to be inadequate", "remained unchanged"). Before its noun it says which group
 * ("untreated patients", "blind pedestrians").
 */
const PREDICATED = /\b(is|are|was|were|be|been|being|remains?|remained|seems?|seemed|appears?|appeared|proves?|proved|proven|becomes?|became|deemed|considered|found|rendered|making|makes?|made)\s+(an?\s+)?(\w+ly\s+|very\s+|too\s+|rather\s+|quite\s+)?$/i;
/** Whether a clause says, undenied, one of the opposites of the claim's predicate, of its subject. */
function statesOpposite(clause: string, claim: ClaimReading): boolean {
  if (claim.opposites.length === 0) return false;
  const key = claim.opposites.join("|");
  let pattern = oppositePatterns.get(key);
  if (!pattern) {
    if (oppositePatterns.size >= 1000) oppositePatterns.clear();
    pattern = new RegExp(`(?<![\\w-])(?:${claim.opposites.map((o) => o.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\w-])`, "gi");
    oppositePatterns.set(key, pattern);
  }
  for (const m of clause.matchAll(pattern)) {
    const before = clause.slice(0, m.index);
    if (PREDICATED.test(before) && !DENIED_BEFORE.test(before)) return true;
  }
  return false;
}

const REPORTED =
  /\b(we|our (data|results|findings|study|analysis)|this (study|work|analysis)|these (data|results|findings|studies)|it has become evident|here)\b[^.;]{0,40}\b(show|shows|showed|shown|demonstrate|demonstrates|demonstrated|found|find|report|reveal|revealed|reveals|identify|identified|establish|established|indicate|indicates|indicated|provide evidence|uncover|uncovered|discover|discovered)\b/i;
const SIGNIFICANT = /\bp\s*(<|≤|=)\s*0?\.0([0-4]\d*|0\d*)\b|\bsignificant(ly)?\b(?<!\b(no|not|non-?)\s*significant(ly)?)/i;
const IRRELEVANT_OF = /\b(?:regardless of|irrespective of|no matter (?:what|which|how|whether)|independent(?:ly)? of|unrelated to|not related to)\s+([^,;.]{0,80})|\b(?:in|across|for|among) all\s+([^,;.]{1,40}?)\s*(?:groups|strata|subgroups|categories|levels|bands)\b/i;
/** The clause says something went on without (or omitting) the claim's own content words. */
function doneWithout(clause: string, claim: ClaimReading): boolean {
  const m = WITHOUT.exec(clause);
  if (!m) return false;
  const content = new Set(claim.parts.filter((p) => p.weight >= 0.5).flatMap((p) => p.stems));
  return [...stemSet(m[1]!)].some((s) => content.has(s));
}
const DONE_LESS_AS_WELL = /\b(reduc\w*|fewer|less|cut|lower\w*|halv\w*)\b[^.;]{0,80}\bwithout (any |a )?(change|difference|increase|rise|worsening|loss|compromis\w*|harm|adverse|affecting|detriment)\b/i;
const MODEST = /\b(modest(ly)?|slight(ly)?|small|marginal(ly)?|minimal(ly)?|mild(ly)?|limited|weak(ly)?|short-?lived|short-?lasting|transient)\b/i;
/** "could safely forgo radiography", "clinical assessment alone was adequate": done without, or another way sufficed. */
const DONE_WITHOUT = /\b(can|could|may|might)\s+(safely\s+)?(forgo|omit|avoid|skip|do without|dispense with)\b|\b(alone|only) (was|is|were|are|proved|appears?|seems?) (adequate|sufficient|enough)\b|\b(alone|only) (suffices|sufficed|suffice)\b/i;
const OMITTABLE = /\b(can|could|may|might|should)\s+(safely\s+)?be\s+(safely\s+)?(omitted|avoided|abandoned|skipped|dispensed with|forgone|foregone|eliminated|discontinued|withdrawn)\b/i;
const WITHOUT = /\b(?:without|omitting|omission of|avoiding|forgoing|in the absence of)\s+((?:\w[\w-]*\s+){0,3}\w[\w-]*)/i;

/**
 * An aim or open question; never a sentence that reports a statistic ("greater in pregnant women,
 * whether expressed as burst frequency (P=0.049) or …"), which is a result whatever its words.
 */
function statesAim(sentence: string): boolean {
  return isAimSentence(sentence) && !REPORTS_STATISTIC.test(sentence);
}
const REPORTS_STATISTIC = /\bp\s*[<>=≤≥]\s*0?[.·]\d|\b95\s*%\s*(ci|confidence)|\b(OR|HR|RR|aOR|aHR)\b\s*[=:,]?\s*\d/i;

/**
 * Whether a clause that reads as an effect (or as nothing) answers the claim no, by what the claim
 * asks: each rule a kind of claim and the wording that denies it.
 */
function answersNo(finding: FindingReading, clause: string, claim: ClaimReading): boolean {
  const found = finding.effect === "found";
  const some = finding.effect !== "none";
  return (
    // "TAVI can be performed safely without predilatation": done well without what the claim
    // says is needed, it is not needed.
    (claim.needed && found && finding.valence !== "harm" && doneWithout(clause, claim)) ||
    // "Clipping was as effective as shaving": what another does as well is not needed.
    (claim.needed && found && ALIKE_FOUND.test(clause) && !ALIKE_DENIED.test(clause)) ||
    // "Testing only when indicated reduced radiography by a third without any change in outcomes": less of it did as well.
    (claim.needed && found && DONE_LESS_AS_WELL.test(clause)) ||
    // "Drains can be omitted after thyroidectomy", "could safely forgo radiography", "clinical
    // assessment alone was adequate": what can be done without is not needed.
    (claim.needed && some && (OMITTABLE.test(clause) || DONE_WITHOUT.test(clause))) ||
    // "Relapse was determined by stage, bulky disease and age", to "Is ferritin a predictor of
    // relapse?": the determinants named without the claim's own are a no.
    (claim.predictive && some && DETERMINED_BY.test(clause) && !namesExposure(clause, claim)) ||
    // "…can be reserved for patients with symptoms", to "Is routine X necessary?": kept for some is not for all.
    (claim.routine && some && RESTRICTED.test(clause)) ||
    // "modestly reduce weight": to "highly effective", a modest effect is a no.
    (claim.intense && found && MODEST.test(clause)) ||
    // "Detorsion is the procedure of choice", to "Is oophorectomy necessary?": another way named
    // the one to use, not naming the claim's own, says the claim's is not needed; "alternative
    // methods should be considered", to "Is X the ideal method?", that it is not the best.
    ((claim.needed || claim.ideal) && found && otherPreferred(clause, claim)) ||
    // "half-dose gadobenate may be sufficient", to "Do we need a full dose?": less of it is enough.
    (claim.needed && some && LESS_SUFFICES.test(clause))
  );
}

/** Another way named as the one to use: "the procedure of choice", "alternative methods should be considered". */
const OTHER_PREFERRED =
  /\b(procedure|treatment|method|technique|approach|option|test|modality|therapy|operation) of choice\b|\b(alternative|other) (methods?|techniques?|approaches|options|procedures|treatments|tests|modalities|strategies)\b[^.;]{0,60}?\b(should|must|could|can|may) (be )?(considered|used|preferred|offered|given)|\b(consideration|preference) should be given to\b|\bshould be preferred\b/i;
/** What a clause names the one to use ("Detorsion is the procedure of choice"): the words before it. */
const OF_CHOICE = /^(.*?)\b(?:is|was|are|were|remains?|remained|becomes?|became|as)\s+(?:the\s+)?(?:\w+\s+)?(?:procedure|treatment|method|technique|approach|option|test|modality|therapy|operation)\s+of choice\b/i;
/**
 * Whether a clause names another way than the claim's as the one to use: alternatives to be
 * considered, or a thing "of choice" whose name holds none of the claim's words.
 */
function otherPreferred(clause: string, claim: ClaimReading): boolean {
  if (!OTHER_PREFERRED.test(clause)) return false;
  const chosen = OF_CHOICE.exec(clause);
  if (!chosen) return true;
  const named = stemSet(chosen[1]!);
  return !claim.parts.some((p) => p.weight >= 0.5 && p.stems.some((st) => named.has(st)));
}
/** Less of something said to be enough: "half-dose … may be sufficient", "a shorter course was adequate". */
const LESS_SUFFICES =
  /\b(half|lower|reduced|smaller|low|shorter|fewer|single|minimal)[- ](dose|doses|dosage|course|duration|volume|amount|number|regimen|sessions?|visits?)\b[^.;]{0,60}?\b(is|was|are|were|may be|might be|could be|appears?( to be)?|seems?( to be)?|proved) (sufficient|adequate|enough|as effective|equally effective|non-?inferior)\b/i;

/** "was determined by", "was predicted by", "the independent predictors were": a list of what decides an outcome. */
const DETERMINED_BY =
  /\b(determined|predicted|explained|driven|governed) (mainly |largely |only |solely )?by\b|\b(independent |only |main |significant )?(predictors|determinants|risk factors|prognostic factors) (were|was|included)\b|\b(were|emerged as|remained|proved to be) (the )?(only |main |strongest )?(independent |significant )?(predictors|determinants|risk factors|prognostic factors|correlates)\b|\b(was|emerged as|remained) the only (independent |significant )?(predictor|determinant|risk factor|prognostic factor)\b/i;
/** Kept for some: "reserved for", "kept for", "selective", "only when indicated", "not as a routine". */
const RESTRICTED = /\b(reserved for|kept for|limited to|restricted to|confined to|selective(ly)?|targeted|only (in|for|when|if) |rather than routine(ly)?|not (as )?(a )?routine(ly)?|when (clinically )?indicated|(could|can|may) (safely )?be extended)\b/i;
/** A clause whose subject is going without something: "Withholding PN …", "Avoiding …", "Not giving …". */
const WITHHELD_SUBJECT = /^\W*(withholding|withdrawing|avoiding|omitting|stopping|discontinuing|delaying|deferring|forgoing|postponing|not (using|giving|starting|receiving|taking))\b/i;
/** Whether a clause's subject is going without one of the claim's things ("Withholding feeding …", to "… starting feeding early"). */
function withheldClaimed(clause: string, claim: ClaimReading): boolean {
  const m = WITHHELD_SUBJECT.exec(clause);
  if (!m) return false;
  const object = stemSet(clause.slice(m[0].length).split(/\b(was|were|is|are|had|has|led|resulted|reduced|improved|increased)\b/i)[0] ?? "");
  return claim.parts.some((p) => p.weight >= 0.5 && p.stems.some((s) => object.has(s)));
}

/** Whether a clause names the claim's exposure: its first concept, else a content word that is not its outcome. */
function namesExposure(clause: string, claim: ClaimReading): boolean {
  const stems = stemSet(clause);
  const subject = claim.parts.filter((p) => p.subject);
  return (subject.length > 0 ? subject : claim.parts.filter((p) => !p.outcome && p.weight >= 0.5)).some((p) => p.stems.some((s) => stems.has(s)));
}

/** Whether a clause's subject (its first words) is the claim's second group and not its first. */
function saidOfOtherGroup(clause: string, claim: ClaimReading): boolean {
  // Only a claim that one group has more or less of something ("more susceptible"); "different
  // signatures than the surrounding tissue" is a difference whichever side it is said of.
  if (!claim.groups || claim.directions.length === 0) return false;
  const opening = clause.split(/\b(was|were|is|are|had|has|have|appear\w*|seem\w*|showed|received)\b/i)[0] ?? "";
  const stems = [...stemSet(opening)];
  return stems.includes(claim.groups.second) && !stems.includes(claim.groups.first) && !stemSet(clause.slice(opening.length)).has(claim.groups.first);
}

/**
 * A clause whose subject, the words before its verb, holds content words and none of the claim's:
 * "loneliness was not associated with dementia". Not a subject that points back ("the difference",
 * "this effect") or a clause with none ("but not in women").
 */
function ofOtherSubject(clause: string, claim: ClaimReading): boolean {
  const subject = clause.split(/\b(?:was|were|is|are|had|has|have|did|does|do|showed|shows|remained|appeared|seemed)\b/i);
  if (subject.length < 2) return false;
  const words = tokenize(subject[0]!).filter((w) => w.length > 3 && !SUBJECT_FILLER.has(w));
  if (words.length === 0 || POINTS_BACK.test(clause.trim())) return false;
  const claimStems = new Set(claim.parts.flatMap((p) => p.stems));
  return !words.some((w) => claimStems.has(stem(w)));
}
const SUBJECT_FILLER = new Set(["whereas", "while", "however", "although", "though", "also", "there", "this", "that", "these", "those", "their", "which", "with", "without", "only", "both", "neither", "either", "other", "others", "patients", "participants", "subjects", "people", "group", "groups", "rates", "rate", "levels", "level", "risk", "effect", "effects", "association", "difference", "differences"]);

/** A clause said of the claim's subject outside or without what the claim has it with. */
function ofOtherSubgroup(clause: string, claim: ClaimReading): boolean {
  if (claim.subgroups.length === 0) return false;
  const words = tokenize(clause);
  const near = (kinds: Set<string>) => words.some((w, i) => kinds.has(w) && words.slice(i + 1, i + 4).some((x) => claim.subgroups.includes(stem(x))));
  // "students with ADHD … than females without ADHD" compares the two: it is of the claim's own.
  return near(OUTSIDE) && !near(WITH);
}
const WITH = new Set(["with", "during", "at"]);
const OUTSIDE = new Set(["outside", "without", "between", "apart", "away", "non"]);

/** What a clause says of a finding's significance: a test, an interval, an adjustment. */
const OF_SIGNIFICANCE = /\bsignifican\w*|\bp\s*[<>=≤≥]|\b(CI|confidence interval)\b|\badjust\w*|\bcontrolling for\b|\bmultivari\w*|\bchance\b/i;
/**
 * A sentence that gives the adjusted estimate of the finding before it, naming no subject of its
 * own: "After adjustment for age and sex, the odds ratio was 1.05", "In multivariate analysis, …",
 * "The adjusted hazard ratio was …". The adjusted estimate supersedes the crude one.
 */
const ADJUSTED =
  /^(?:(?:after|on|with|following|in|when)\s+(?:\w+\s+)?(?:adjust\w*|multivariat\w*|multivariable|(?:multiple |logistic |linear |cox |poisson )+regression|controlling)|(?:the\s+)?(?:adjusted|multivariate|multivariable)\s+(?:odds|hazard|risk|rate)\s+ratio|(?:the\s+)?(?:adjusted|multivariate)\s+(?:OR|HR|RR)\b)/i;
/**
 * A clause whose subject is the finding before it: "the difference", "this reduction", "the
 * association"; or that says of it that it did not hold after adjustment ("…, but not after
 * adjustment for disease severity").
 */
const POINTS_BACK =
  /^(?:(?:but|and|however|although|though|yet|whereas)\b,?\s+)?(?:(?:the|this|that|these|those|such)\s+(?:observed\s+|apparent\s+)?(?:differences?|effects?|reductions?|increases?|decreases?|improvements?|associations?|relationships?|trends?|changes?|benefits?|gains?|advantages?|correlations?)\b|not\s+(?:after|when|once|following|on)\s+(?:adjust|controll|account|correct|multivari))/i;
/** A change whose object is a pronoun: "extended it", "reduced them". */
const CHANGED_PRONOUN = /\b(increas|decreas|reduc|improv|extend|shorten|lower|rais|prolong|worsen|lengthen|halv|doubl|delay)\w*\s+(it|them)\b/i;
/** A clause that ends on its negation, its predicate the sentence's: "time to debridement was not (OR 1.01)". */
const ELLIPTICAL = /\b(was|were|is|are|did|does|do|had|has|have)\s+not\s*(\([^)]*\))?\s*[.;]?\s*$/i;
/** A small share: "only one resident in three", "fewer than two in every hundred", "only 12%", "a minority of". */
const SMALL_SHARE =
  /\b(only|just|fewer than|less than|barely)\s+(about\s+|around\s+|approximately\s+|some\s+)?((one|two|three|\d+) (\w+ ){0,3}in (every )?(three|four|five|six|seven|eight|nine|ten|twenty|\d+|a hundred|hundred)|one|two|a (quarter|third|fifth|tenth)|\d+(\.\d+)?\s?%|\d+\s+(of|out of)\s+\d+)(?!\w)|\b(?:only|just|fewer than|less than|barely|under)\s+half\b|\ba (small )?minority of\b|\b(detected|identified|found|yielded|changed|altered) (very )?few\b/i;
/** A large share: "most parents", "the vast majority of", "nearly all", "nine in ten". */
const LARGE_SHARE = /(^|[,;:]\s*|\b(and|but)\s+)(most|the (vast )?majority of|nearly all|almost all|virtually all)\b|\b(nine|eight) (\w+ )?in (every )?ten\b|\b(more than|over) (half|nine in ten|90\s?%)\b/i;
/** The side a share takes on a claim about a share: too few is a yes to "underused", a no to "overused" or "do many …". */
function sideOfShare(clause: string, share: NonNullable<ClaimReading["share"]>): Side | null {
  // "Vitamin C deficiency was found in 40% of hospitalised adults", to "… is rare": a share stated
  // in figures, 5% or less is few, a fifth or more is not.
  const stated = share === "few" ? /(\d{1,3}(?:\.\d+)?)\s?%/.exec(clause) : null;
  if (stated) return Number(stated[1]) <= 5 ? "supports" : Number(stated[1]) >= 20 ? "contradicts" : null;
  const small = SMALL_SHARE.test(clause);
  const large = LARGE_SHARE.test(clause);
  if (small === large) return null;
  // "Most patients had no preference", to "Do patients prefer …?": a large share of people who do
  // not do it is a small share of those who do.
  const few = small !== SHARE_DENIED.test(clause);
  if (share === "under" || share === "few") return few ? "supports" : "contradicts";
  if (share === "yield") return few ? "contradicts" : null;
  return few ? "contradicts" : "supports";
}
/** The share's people said not to do it: "had no preference", "did not know", "never used"; not a relative clause ("drugs that are not indicated"). */
const SHARE_DENIED = /(?<!\b(?:that|which|who|whom)\s)(?:\b(?:had|have|has|showed|expressed|reported|gave|made|saw|felt|found|received|got|took|used|underwent) no\b|\b(?:did|do|does|were|was|are|is|could|would|can|had|have) not\b|n't\b|\bnever\b|\bfailed to\b|\bcannot\b)/i;

/**
 * A finding of the claim's superlative ("… were the most common adverse events") that does not name
 * what the claim says it is names something else: "Gastrointestinal events were the most common",
 * to "The most common adverse events are cardiovascular", is a no; naming it, a yes.
 */
function sideOfSuperlative(clause: string, names: string[]): Side | null {
  if (!SUPERLATIVE.test(clause)) return null;
  const stems = stemSet(clause);
  return names.some((n) => stems.has(n)) ? "supports" : "contradicts";
}

/** Two things found alike in what the comparison is about. */
const ALIKE_FOUND =
  /\b(equally|as (\w+ )?(effective|efficacious|good|safe|accurate|reliable|sensitive|specific|useful|efficient|successful|likely|well) as|(effective|safe|valid|reasonable|acceptable|viable|good|suitable|equivalent) (\w+ )?alternative to|as (many|much|often|frequently) (\w+ ){0,2}as|non-?inferior(ity)?|(is|are|was|were|remained|remains|be) (\w+ )?(the same|equivalent)|no (better|worse|more (\w+ )?than|less (\w+ )?than))\b/i;
/** Sameness denied ("not as effective as", "not all patients need the same"), or a multiple ("twice as much as"). */
const ALIKE_DENIED =
  /\b(not|no|never|nor|less|more)\s+(\w+\s+){0,3}(equally|as \w+ as|equivalent|similar(ly)?|comparable|the same)\b|\b(twice|thrice|double|half|(two|three|four|five|ten|\d+(\.\d+)?)[- ](times|fold))\s+as\s+(\w+\s+)?(much|many|often|long|large|high|fast|likely|great)\b/i;
/** How much of the claim's words a sentence must hold to restate it. */
const RESTATES = 0.3;
const HEDGED_OR_OPEN = /\b(whether|if|remains?|unknown|unclear|uncertain|investigat\w*|examin\w*|to (determine|assess|evaluate|test))\b/i;

/** One study's stance as a verdict, when it is the only study: a study that states nothing is `insufficient`. */
export function verdictOfStudy({ stance }: { stance: Stance }): Verdict {
  return stance === "unclear" ? "insufficient" : stance;
}
