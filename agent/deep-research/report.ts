import type { StudySpecies } from "@/lib/shared/contracts";
import { AXES, AXIS_IDS, type AxisId, type AxisPlan, type ResearchQuestion } from "./axes";
import { ANSWERING_AXES, isDesignEvidence } from "./axis-findings";
import { SPECIES_PLURAL, type Cite } from "./synthesis";
import type { Contradiction, Finding } from "./world";

/**
 * The reply of a deep-research turn, deterministic: first how it was researched (iterations, the
 * axes covered and those left out, records screened, accepted and cited), so the reply itself
 * shows it is more than a chat; then the bottom line; then the evidence axis by axis (animals by
 * species), with the contradictions on each; then hypotheses, open questions and limits. Texts
 * carry citation placeholders (citations.ts) until the reference list is numbered.
 */

/** Findings quoted per axis in the reply; the world state keeps them all. */
const PER_AXIS = 4;
export const CITED_COUNT = "⟨cited⟩";

export type TurnFacts = {
  read: ResearchQuestion;
  /** What this turn searched (`planned`, in order) and left out (`notCovered`), and why. */
  plan: AxisPlan;
  /** The configured iteration budget. */
  budget: number;
  /** Whether the time budget ended the run before its plan. */
  outOfTime: boolean;
  screened: number;
  accepted: number;
  findings: Finding[];
  contradictions: Contradiction[];
  hypotheses: string[];
  openQuestions: string[];
  bottomLine: string;
  limits: string | null;
};

function writeHeader(facts: TurnFacts): string {
  const n = facts.plan.planned.length;
  const covered = facts.plan.planned.map((p) => AXES[p.axis].label.toLowerCase());
  const budgetLeft = facts.plan.notCovered.filter((c) => c.reason === "iteration_budget" || c.reason === "time_budget");
  const notApplicable = facts.plan.notCovered.filter((c) => c.reason === "not_applicable");
  const parts = [
    `Deep research: ${n} iteration${n === 1 ? "" : "s"}, one search per evidence axis (${list(covered) || "none"}); ${facts.screened} records screened, ${facts.accepted} accepted, ${CITED_COUNT} cited below.`,
  ];
  if (budgetLeft.length > 0) {
    const why = facts.outOfTime ? "the time budget ran out" : `the iteration budget is ${facts.budget}`;
    parts.push(`Not covered: ${list(budgetLeft.map((c) => AXES[c.axis].label.toLowerCase()))} (${why}).`);
  }
  if (notApplicable.length > 0) parts.push(`${capitalise(list(notApplicable.map((c) => AXES[c.axis].label.toLowerCase())))}: not applicable to an association.`);
  return parts.join(" ");
}

/** The evidence sections, one per axis that was searched or has findings, in plan order. */
function writeAxisSections(facts: TurnFacts, cite: Cite): string[] {
  const searched = facts.plan.planned.map((p) => p.axis);
  const order = [...searched, ...AXIS_IDS.filter((a) => !searched.includes(a))];
  const sections: string[] = [];
  for (const axis of order) {
    const planned = facts.plan.planned.find((p) => p.axis === axis);
    const on = facts.findings.filter((f) => f.axis === axis);
    if (!planned && on.length === 0) continue;
    const how = planned ? ` (searched “${planned.query}”)` : " (not searched on its own; found along the way)";
    const body = on.length === 0 ? `${nothingOn(axis)}` : axisBody(axis, on, cite);
    const contradictions = facts.contradictions.filter((c) => c.axis === axis).map((c) => c.statement);
    sections.push(`${AXES[axis].label}${how}: ${[body, ...contradictions].join(" ")}`);
  }
  return sections;
}

function axisBody(axis: AxisId, findings: Finding[], cite: Cite): string {
  // Studies of the axis' own design first (trials before reviews on human trials, and so on); on an
  // axis of designs, a study of another or unstated design is quoted apart, never as one of them.
  const own = findings.filter((f) => isDesignEvidence(axis, f));
  const ranked = [...own, ...findings.filter((f) => !isDesignEvidence(axis, f))];
  const quoted = ranked.slice(0, PER_AXIS);
  const more = ranked.length - quoted.length;
  const tail = more > 0 ? ` ${more} more finding${more === 1 ? " is" : "s are"} in the world state.` : "";
  if (ANSWERING_AXES.includes(axis)) {
    const ofDesign = quoted.filter((f) => own.includes(f));
    const other = quoted.filter((f) => !own.includes(f));
    const head = ofDesign.length > 0 ? speciesBody(axis, ofDesign, cite) : nothingOn(axis);
    const apart = other.length > 0 ? ` ${OTHER_DESIGNS[axis]}: ${other.map((f) => `${f.statement} ${cite(f.references)}`).join(" ")}` : "";
    return head + apart + tail;
  }
  return quoted.map((f) => `${f.statement} ${cite(f.references)}`).join(" ") + tail;
}

/** The words that set apart, on an axis of designs, what its search found of other designs. */
const OTHER_DESIGNS: Partial<Record<AxisId, string>> = {
  human_trials: "Not a trial, or of unstated design, found by the same search",
  observational: "Not an observational study, or of unstated design, found by the same search",
  animal: "Not an animal study, or of unstated design, found by the same search",
};

function speciesBody(axis: AxisId, quoted: Finding[], cite: Cite): string {
  if (axis !== "animal") return quoted.map((f) => `${f.statement} ${cite(f.references)}`).join(" ");
  const bySpecies = new Map<StudySpecies | null, Finding[]>();
  for (const f of quoted) bySpecies.set(f.species ?? null, [...(bySpecies.get(f.species ?? null) ?? []), f]);
  const parts = [...bySpecies].map(([species, list]) => {
    const text = list.map((f) => `${f.statement} ${cite(f.references)}`).join(" ");
    const name = species ? SPECIES_PLURAL[species] : undefined;
    return bySpecies.size > 1 && name ? `In ${name}: ${text}` : text;
  });
  return parts.join(" ");
}

function nothingOn(axis: AxisId): string {
  switch (axis) {
    case "human_trials":
      return "no human trial on it was found.";
    case "observational":
      return "no observational cohort on it was found.";
    case "animal":
      return "no animal study on it was found.";
    case "mechanism":
      return "nothing on its mechanism was found.";
    case "safety":
      return "no adverse-effect data in the references found.";
    case "dose_timing":
      return "nothing comparing doses, schedules or when to start was found.";
  }
}

/** The whole reply, in order; the header's count of cited references is filled in once they are numbered. */
export function writeReply(facts: TurnFacts, cite: Cite, { hypotheses = facts.hypotheses }: { hypotheses?: string[] } = {}): string[] {
  return [
    writeHeader(facts),
    facts.bottomLine,
    ...writeAxisSections(facts, cite),
    ...(hypotheses.length > 0 ? [`Hypotheses: ${hypotheses.join(" ")}`] : []),
    ...(facts.openQuestions.length > 0 ? [`Open questions: ${facts.openQuestions.join(" ")}`] : []),
    ...(facts.limits ? [facts.limits] : []),
  ];
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
