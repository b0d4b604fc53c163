import type { EvidenceType, Verdict, VerdictBasis } from "@/lib/contracts";
import type { AnswerReference } from "./answer-reference";
import type { GradedForVerdict, QuestionClaim } from "./verdict";

/**
 * The first and last paragraphs of an answer: the bottom line (the verdict in words, with how many
 * on-topic studies found for and against and the strongest design behind it) and the limits of the
 * evidence (missing designs, thin, mixed, unclear findings, sources that could not be searched).
 */


const STRENGTH_ORDER: EvidenceType[] = [
  "systematic_review",
  "randomized_controlled_trial",
  "controlled_trial",
  "observational",
  "single_arm_trial",
  "preclinical",
  "narrative_review",
  "unknown",
  "commentary",
];
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
const HUMAN_EVIDENCE: EvidenceType[] = ["systematic_review", "randomized_controlled_trial", "controlled_trial", "single_arm_trial", "observational"];

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The bottom line. A supporting study may miss a concept the best candidate misses too (its authors
 * may put it in other words: docs/literature.md, "On topic"). When every one of them misses it, the
 * answer rests on the closest evidence found and says so, in its count of the studies and in a
 * sentence naming what none of them names: "Is metformin associated with reduced cancer risk?"
 * over metformin studies that never mention cancer.
 */
export function bottomLineOf(input: { verdict: Verdict; basis: VerdictBasis; references: AnswerReference[]; graded: GradedForVerdict[]; unnamed: string[] }): string {
  const { unnamed } = input;
  if (unnamed.length === 0) return verdictLine(input, ADDRESSING);
  return `${verdictLine(input, CLOSEST)} ${unnamedCaveat(unnamed, input.references.filter((r) => r.evidenceRole === "supporting").length)}`;
}

/** The question's concepts that no supporting reference names (each misses them): `unnamed` above. */
export function unnamedConcepts(references: Pick<AnswerReference, "evidenceRole" | "missingConcepts">[]): string[] {
  const supporting = references.filter((r) => r.evidenceRole === "supporting");
  if (supporting.length === 0) return [];
  return (supporting[0]!.missingConcepts ?? []).filter((c) => supporting.every((r) => (r.missingConcepts ?? []).includes(c)));
}

/** The sentence saying what none of the `supporting` studies names. */
export function unnamedCaveat(unnamed: string[], supporting: number): string {
  const named = unnamed.map((c) => `“${c}”`).join(" or ");
  return supporting === 1
    ? `That study does not name ${named}, so it may not address that part of the question.`
    : `None of them names ${named}, so they may not address that part of the question.`;
}

/** How the bottom line calls the supporting studies: one, and several. */
type StudiesNoun = { one: string; many: string };
const ADDRESSING: StudiesNoun = { one: "study that addresses the question", many: "studies that address the question" };
const CLOSEST: StudiesNoun = { one: "closest study found", many: "closest studies found" };

function verdictLine({ verdict, basis, references, graded }: { verdict: Verdict; basis: VerdictBasis; references: AnswerReference[]; graded: GradedForVerdict[] }, studies: StudiesNoun): string {
  const onTopic = graded.filter((g) => g.evidenceRole === "supporting");
  const m = onTopic.length;
  const strongestOf = (side: "supports" | "contradicts") => {
    const types = graded.filter((g) => g.evidenceRole === "supporting" && g.stance === side).map((g) => g.evidenceType);
    const best = STRENGTH_ORDER.find((t) => types.includes(t));
    return best ? `; the strongest is ${DESIGN_NAME[best]}` : "";
  };
  const allPreclinical = onTopic.length > 0 && references.filter((r) => r.evidenceRole === "supporting").every((r) => !HUMAN_EVIDENCE.includes(r.evidenceType) && r.snapshot?.species !== "human");
  const strongest = (side: "supports" | "contradicts") => (allPreclinical ? ` (${m === 1 ? "an animal or cell study" : "animal and cell studies only"})` : strongestOf(side));
  /** "The one study that addresses the question reports", "All 3 … report", "2 of the 3 … report". */
  const tally = (k: number) => {
    const subject = m === 1 ? `The one ${studies.one}` : k === m ? `All ${m} ${studies.many}` : `${k} of the ${m} ${studies.many}`;
    return `${subject} report${k === 1 ? "s" : ""}`;
  };
  switch (verdict) {
    case "supports":
      return `Bottom line: the evidence supports it. ${tally(basis.supporting)} findings in its favour${basis.contradicting ? ` and ${basis.contradicting} against it` : ""}${strongest("supports")}.`;
    case "contradicts":
      return `Bottom line: the evidence contradicts it. ${tally(basis.contradicting)} no effect or the opposite${basis.supporting ? `, ${basis.supporting} findings in its favour` : ""}${strongest("contradicts")}.`;
    case "mixed":
      return `Bottom line: the evidence is mixed. Of the ${m} ${m === 1 ? studies.one : studies.many}, ${basis.supporting} report${basis.supporting === 1 ? "s" : ""} findings in its favour, ${basis.contradicting} no effect or the opposite${basis.mixed ? `, and ${basis.mixed} both` : ""}.`;
    default: {
      const indirect = graded.filter((g) => g.evidenceRole === "supporting" && !g.direct && g.stance !== "unclear");
      const there =
        indirect.length > 0 && basis.reason.startsWith("the only studies")
          ? ` ${plural(indirect.length, "study", "studies")} in other species ${indirect.every((g) => g.stance === "supports") ? (indirect.length === 1 ? "supports" : "support") : indirect.every((g) => g.stance === "contradicts") ? (indirect.length === 1 ? "contradicts" : "contradict") : "disagree on"} it there.`
          : "";
      return `Bottom line: the evidence is insufficient to answer it: ${basis.reason}.${there}`;
    }
  }
}

export function limitsOf({
  references,
  graded,
  verdict,
  basis,
  claim,
  sourcesNote,
}: {
  references: AnswerReference[];
  graded: GradedForVerdict[];
  verdict: Verdict;
  basis: VerdictBasis;
  claim: QuestionClaim;
  /** The sentence naming the sources that failed (describeSourceFailures), when any did. */
  sourcesNote: string | null;
}): string[] {
  const notes: string[] = [];
  const supporting = references.filter((r) => r.evidenceRole === "supporting");
  const aboutAnimals = claim.species.length > 0 && !claim.species.includes("human");
  if (references.length > 0 && supporting.length === 0) notes.push("None of these references addresses the question directly; treat them as background.");
  else if (supporting.length > 0 && !aboutAnimals) {
    const humanDesigns = supporting.filter((r) => HUMAN_EVIDENCE.includes(r.evidenceType) && r.snapshot?.species !== "mouse" && r.snapshot?.species !== "rat");
    if (humanDesigns.length === 0 && supporting.every((r) => r.evidenceType === "preclinical" || (r.snapshot?.species && r.snapshot.species !== "human"))) {
      notes.push("All of the supporting evidence comes from animal or laboratory studies; it has not been shown in humans.");
    } else if (!supporting.some((r) => ["randomized_controlled_trial", "controlled_trial", "systematic_review"].includes(r.evidenceType))) {
      notes.push("No randomized or controlled trial in humans, and no systematic review, addresses it among the references found.");
    }
  }
  if (references.length > 0 && references.length < 3) notes.push(`The evidence is thin: only ${references.length} relevant reference${references.length === 1 ? " was" : "s were"} found.`);
  if (verdict === "mixed") notes.push("The findings are mixed: some studies report an effect and others do not.");
  const unclear = graded.filter((g) => g.evidenceRole === "supporting" && g.stance === "unclear").length;
  if (unclear > 0 && basis.unclear < supporting.length) notes.push(`${unclear} of the studies that address it state${unclear === 1 ? "s" : ""} no clear finding on it.`);
  if (sourcesNote) notes.push(sourcesNote);
  return notes;
}
