import type { EvidenceType, Verdict, VerdictBasis } from "@/lib/shared/contracts";
import type { AnswerReference } from "./answer-reference";
import { phrasesOf, requiredParts, type QuestionReading } from "./reading";
import { inQuestionSpecies, speciesWords } from "./roles";
import type { GradedForVerdict } from "./verdict";
import { listed } from "./words";
import { BOTTOM_LINE_LEAD, INSUFFICIENT_OPENER, VERDICT_SENTENCE } from "@/lib/shared/contracts/bottom-line";
import { CONTROLLED_DESIGNS, DESIGN_STRENGTH_ORDER, PRIMARY_DESIGNS } from "@/lib/shared/contracts/designs";

/**
 * The first and last paragraphs of an answer: the bottom line (the verdict in words with its
 * confidence, what the studies that test the question found, and why the confidence is what it is)
 * and the limits of the evidence (missing designs, thin, mixed, unclear findings, sources that
 * could not be searched). A low-confidence verdict leans ("the evidence leans toward supporting
 * it"); it never reads like a high one.
 */

const DESIGN_NAME: Record<EvidenceType, string> = {
  systematic_review: "a systematic review",
  randomized_controlled_trial: "a randomized trial",
  controlled_trial: "a controlled trial",
  single_arm_trial: "an uncontrolled trial",
  observational: "an observational study",
  preclinical: "an animal or cell study",
  narrative_review: "a narrative review",
  commentary: "a commentary",
  unknown: "a study of unstated design",
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "metformin and aging": what a study that tests the question studies, in the question's words. */
export function testedConcepts(reading: QuestionReading): string {
  const labels = requiredParts(reading).flatMap((part) => reading.concepts.filter((c) => c.part === part).flatMap((c) => phrasesOf(c.label)));
  return listed(labels.length > 0 ? labels : [reading.question.replace(/[?.!]+$/, "")]);
}

/**
 * The bottom line: the verdict with its confidence, then what the studies that test the question
 * report (how many, which way, the strongest design), then why the confidence is what it is. When
 * no study tests the question, it says what the closest ones study and what they lack.
 */
export function bottomLineOf({
  reading,
  verdict,
  basis,
  references,
  graded,
}: {
  reading: QuestionReading;
  verdict: Verdict;
  basis: VerdictBasis;
  references: AnswerReference[];
  graded: GradedForVerdict[];
}): string {
  const tested = testedConcepts(reading);
  const onTopic = graded.filter((g) => g.evidenceRole === "supporting");
  const m = onTopic.length;
  const confidence = basis.confidence ?? "low";
  if (basis.reasonCode === "no_claim_to_test") return `${BOTTOM_LINE_LEAD}${noClaim(reading, references.length)}`;
  if (verdict === "insufficient") return `${BOTTOM_LINE_LEAD}${INSUFFICIENT_OPENER}${insufficientReason({ reading, basis, references, graded, tested })}`;
  const studies = { one: `study that tests ${tested}`, many: `studies that test ${tested}` };
  const strongestOf = (side: "supports" | "contradicts") => {
    const types = onTopic.filter((g) => g.stance === side).map((g) => g.evidenceType);
    const best = DESIGN_STRENGTH_ORDER.find((t) => types.includes(t));
    return best ? `; the strongest is ${DESIGN_NAME[best]}` : "";
  };
  const allPreclinical = m > 0 && references.filter((r) => r.evidenceRole === "supporting").every((r) => !PRIMARY_DESIGNS.includes(r.evidenceType) && r.snapshot?.species !== "human");
  const strongest = (side: "supports" | "contradicts") => (allPreclinical ? ` (${m === 1 ? "an animal or cell study" : "animal and cell studies only"})` : strongestOf(side));
  /** "The one study that tests X and Y reports", "Both …", "All 3 … report", "2 of the 3 … report". */
  const tally = (k: number) => {
    const subject = m === 1 ? `The one ${studies.one}` : k === m ? `${m === 2 ? "Both" : `All ${m}`} ${studies.many}` : `${k} of the ${m} ${studies.many}`;
    return `${subject} report${k === 1 ? "s" : ""}`;
  };
  const why = basis.confidenceReason ? ` ${capitalise(confidence)} confidence: it rests on ${basis.confidenceReason}.` : "";
  switch (verdict) {
    case "supports":
      return `${BOTTOM_LINE_LEAD}${VERDICT_SENTENCE.supports[confidence]}. ${tally(basis.supporting)} findings in its favour${basis.contradicting ? ` and ${basis.contradicting} against it` : ""}${strongest("supports")}.${why}`;
    case "contradicts":
      return `${BOTTOM_LINE_LEAD}${VERDICT_SENTENCE.contradicts[confidence]}. ${tally(basis.contradicting)} no effect or the opposite${basis.supporting ? `, ${basis.supporting} findings in its favour` : ""}${strongest("contradicts")}.${why}`;
    case "mixed":
      return `${BOTTOM_LINE_LEAD}${VERDICT_SENTENCE.mixed[confidence]}. Of the ${m} ${m === 1 ? studies.one : studies.many}, ${basis.supporting} report${basis.supporting === 1 ? "s" : ""} findings in its favour, ${basis.contradicting} no effect or the opposite${basis.mixed ? `, and ${basis.mixed} both` : ""}.${why}`;
  }
}

/**
 * A topic with no claim: no verdict, and why. Never the words of another verdict ("support",
 * "contradict"): the audit (agent/chat/audit.ts) holds a bottom line to its own.
 */
function noClaim(reading: QuestionReading, found: number): string {
  const topic = `“${reading.question.replace(/[?.!]+$/, "").trim()}”`;
  const shown = found === 0 ? "Nothing on it was found in the sources searched." : `The ${found === 1 ? "study" : `${found} studies`} found on it ${found === 1 ? "is" : "are"} listed as background.`;
  return `no verdict: ${topic} names a topic, not a claim to test, so the evidence is insufficient for one. ${shown} Ask a question about it (what it does, or what changes it) for a verdict.`;
}

/** Why the evidence is insufficient, in words, ending with a full stop. */
function insufficientReason({
  reading,
  basis,
  references,
  graded,
  tested,
}: {
  reading: QuestionReading;
  basis: VerdictBasis;
  references: AnswerReference[];
  graded: GradedForVerdict[];
  tested: string;
}): string {
  if (basis.reasonCode === "no_study_tests_it") {
    // Studies of the whole question in another species than the one it names (roles.ts).
    const elsewhere = references
      .map((r, i) => ({ r, g: graded[i] }))
      .filter(({ r }) => r.evidenceRole === "context" && (r.missingConcepts?.length ?? 0) === 0 && !inQuestionSpecies(reading, { species: r.snapshot ? r.snapshot.species : undefined, evidenceType: r.evidenceType }));
    if (elsewhere.length > 0) {
      const found = elsewhere.filter(({ g }) => g && g.stance !== "unclear").map(({ g }) => g!);
      const where = speciesWords(elsewhere.map(({ r }) => r.snapshot?.species ?? null));
      const studies = plural(elsewhere.length, "study", "studies");
      const way = found.length === 0 ? "state no clear finding on it" : `${directionWord(found)} it there`;
      return `no study found tests ${tested} in ${speciesWords(reading.species)}. The closest found, ${studies} in ${where}, ${elsewhere.length === 1 ? way.replace(/^state /, "states ") : way}.`;
    }
    const closest = references.filter((r) => r.evidenceRole === "context" && (r.missingConcepts?.length ?? 0) > 0);
    const both = requiredParts(reading).length > 1 ? `no study found tests both ${tested}` : `no study found tests ${tested}`;
    if (closest.length === 0) return `${both}.`;
    return `${both}. ${closestSentence(closest)}`;
  }
  if (basis.reasonCode === "only_other_species") {
    const indirect = graded.filter((g) => g.evidenceRole === "supporting" && !g.direct && g.stance !== "unclear");
    return `the only studies of ${tested} that state a finding on it are in other species than the question's (animals or cells). ${plural(indirect.length, "study", "studies")} in other species ${directionWord(indirect)} it there.`;
  }
  // Each reason names what the question asks about, so the bottom line says which question it answers.
  if (basis.reasonCode === "no_clear_finding") return `none of the studies that test ${tested} states a clear finding on it.`;
  if (basis.reasonCode === "only_weak_evidence") return `the only direct evidence on ${tested} found is weak.`;
  if (basis.reasonCode === "nothing_on_topic") return `nothing on ${tested} was found in the sources searched.`;
  return `${basis.reason}.`;
}

/** How studies read on a claim, as a verb agreeing with their number: "supports", "contradict", "disagree on". */
function directionWord(found: Pick<GradedForVerdict, "stance">[]): string {
  const one = found.length === 1;
  if (found.every((g) => g.stance === "supports")) return one ? "supports" : "support";
  if (found.every((g) => g.stance === "contradicts")) return one ? "contradicts" : "contradict";
  return one ? "is mixed on" : "disagree on";
}

/**
 * What the closest studies found study, and what they lack: "The closest found, 2 studies, do not
 * study reduced cancer risk." or, when they lack different parts, each group in turn.
 */
function closestSentence(closest: AnswerReference[]): string {
  const groups = new Map<string, number>();
  for (const r of closest) {
    const key = listed((r.missingConcepts ?? []).flatMap(phrasesOf), "or");
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  if (groups.size === 1) {
    const [missing] = [...groups.keys()];
    return closest.length === 1 ? `The closest study found does not study ${missing}.` : `The closest found, ${closest.length} studies, do not study ${missing}.`;
  }
  const parts = [...groups].map(([missing, k]) => `${k} ${k === 1 ? "does" : "do"} not study ${missing}`);
  return `The closest found, ${closest.length} studies, each address only part of it: ${listed(parts)}.`;
}

export function limitsOf({
  references,
  graded,
  verdict,
  basis,
  reading,
  sourcesNote,
}: {
  references: AnswerReference[];
  graded: GradedForVerdict[];
  verdict: Verdict;
  basis: VerdictBasis;
  reading: QuestionReading;
  /** The sentence naming the sources that failed (describeSourceFailures), when any did. */
  sourcesNote: string | null;
}): string[] {
  const notes: string[] = [];
  const supporting = references.filter((r) => r.evidenceRole === "supporting");
  const aboutAnimals = reading.species.length > 0 && !reading.species.includes("human");
  if (references.length > 0 && supporting.length === 0 && reading.asks) notes.push("None of these references tests the question itself; they are shown as background.");
  else if (supporting.length > 0 && !aboutAnimals) {
    const humanDesigns = supporting.filter((r) => PRIMARY_DESIGNS.includes(r.evidenceType) && r.snapshot?.species !== "mouse" && r.snapshot?.species !== "rat");
    if (humanDesigns.length === 0 && supporting.every((r) => r.evidenceType === "preclinical" || (r.snapshot?.species && r.snapshot.species !== "human"))) {
      notes.push("All of the supporting evidence comes from animal or laboratory studies; it has not been shown in humans.");
    } else if (!supporting.some((r) => CONTROLLED_DESIGNS.includes(r.evidenceType))) {
      notes.push("No randomized or controlled trial in humans, and no systematic review, tests it among the references found.");
    }
  }
  if (supporting.length > 0 && supporting.length < 3) notes.push(`The evidence is thin: only ${supporting.length === 1 ? "one study tests" : `${supporting.length} studies test`} the question.`);
  if (verdict === "mixed") notes.push("The findings are mixed: some studies report an effect and others do not.");
  const unclear = graded.filter((g) => g.evidenceRole === "supporting" && g.stance === "unclear").length;
  if (unclear > 0 && basis.unclear < supporting.length) notes.push(`${unclear} of the studies that test it state${unclear === 1 ? "s" : ""} no clear finding on it.`);
  if (sourcesNote) notes.push(sourcesNote);
  return notes;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
