import type { EvidenceType, OutcomeDirection, Stance, StudySpecies } from "@/lib/shared/contracts";
import { workKeys } from "../literature/merge";
import type { EngineReference } from "../literature/result";
import { AXES, AXIS_IDS, type AxisId, type AxisPlan } from "./axes";

/**
 * What a deep-research conversation knows: its objectives, its findings (each once, grouped by
 * evidence axis), what each axis covered, the contradictions among the findings, hypotheses, open
 * questions and the sources searched. The contract leaves the world state open; the fields of
 * earlier versions (objectives, findings with statement and references, hypotheses, openQuestions,
 * sources) keep their names and shapes, and what this version adds is optional on reading, so a
 * conversation stored before it still reads.
 */

export type FindingReference = { ordinal: number; title: string; url: string; pmid?: string | null; doi?: string | null };

export type Finding = {
  statement: string;
  references: FindingReference[];
  /** The sentence as its source wrote it (the statement may name the study's subject before it). */
  quote?: string;
  /** The evidence axis the finding is on. */
  axis?: AxisId;
  /** Who or what the study was done in (animal findings are grouped by species). */
  species?: StudySpecies | null;
  /** The direction of the study's finding: an effect (`positive`), a harm (`negative`), none (`null`). */
  direction?: OutcomeDirection;
  /** The study's stance toward the question, read as the verdict reads it (findings on the question itself). */
  stance?: Stance;
  design?: EvidenceType;
};

/** What one axis of the conversation's research covered. */
export type AxisState = {
  axis: AxisId;
  label: string;
  /** `covered`: searched; `not_covered`: left out for the iteration budget; `not_applicable`: not a question for this axis. */
  status: "covered" | "not_covered" | "not_applicable";
  queries: string[];
  /** Records the axis' searches screened, and those they accepted (each search counted once). */
  referencesRead: number;
  referencesAccepted: number;
  findings: number;
  /** Animal findings per species. */
  species?: Partial<Record<StudySpecies, number>>;
  /** A model's audited summary of what the axis found, when a model is configured. */
  summary?: string;
};

/** References on one axis whose findings go opposite ways. */
export type Contradiction = { axis: AxisId; species?: StudySpecies | null; statement: string; references: FindingReference[] };

/** How one turn researched: what a reply says of itself, kept for every turn of the conversation. */
type RunRecord = {
  messageId: string;
  iterations: number;
  axes: AxisId[];
  referencesScreened: number;
  referencesAccepted: number;
  referencesCited: number;
  findings: number;
  /** `deep-research` (deterministic) or `deep-research-model` (the model's report passed the audit). */
  writer: string;
  /** Which of the model's steps passed their checks, when a model is configured. */
  model?: Record<string, boolean>;
};

export type WorldState = {
  objectives: string[];
  findings: Finding[];
  hypotheses: string[];
  openQuestions: string[];
  sources: string[];
  axes?: AxisState[];
  contradictions?: Contradiction[];
  runs?: RunRecord[];
};

/** A reference as an iteration keeps it: the engine's graded reference with its abstract. */
export type StoredReference = EngineReference;

/** What one iteration of a run found: its objective and axis, its findings and the references behind them. */
export type Iteration = {
  objective: string;
  findings: Finding[];
  sources: string[];
  acceptedCount: number;
  /** The axis searched (absent on iterations saved before runs were planned by axis). */
  axis?: AxisId;
  /** One key per record the search screened, accepted or not, to count distinct records read. */
  screened?: string[];
  /** A model's audited summary of the iteration (markers refer to `findings`' references, by `ordinal`). */
  summary?: string;
};

export type StoredIteration = Iteration & { references: StoredReference[] };

export const EMPTY_WORLD: WorldState = { objectives: [], findings: [], hypotheses: [], openQuestions: [], sources: [], axes: [], contradictions: [], runs: [] };

/** The keys naming a reference's work: any shared key means the same paper. */
export function keysOf(ref: Parameters<typeof workKeys>[0]): string[] {
  const keys = workKeys(ref);
  return keys.length > 0 ? keys : [`url:${(ref.url ?? "").toLowerCase()}`];
}

/** The keys a finding's sentence is known by: its statement's and its source sentence's. */
export function sentenceKeysOf(finding: Pick<Finding, "statement" | "quote">): string[] {
  return [...new Set([finding.statement, finding.quote ?? ""].map(sentenceKey).filter(Boolean))];
}

/** A sentence as it is compared: case, spacing, punctuation and markers do not make it another. */
export function sentenceKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\[[\d,\s–-]+\]/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/**
 * Adds an iteration to the world: its objective, its findings that are new (no finding with the
 * same sentence, and none on the same axis resting on the same work, in this conversation), its
 * sources, and what its axis covered. A finding that the world already holds is never added again,
 * whichever iteration or turn finds it.
 */
export function updateWorld(world: WorldState, iteration: Iteration): WorldState {
  const findings = groupByAxis([...world.findings, ...newFindings(world.findings, iteration.findings)]);
  return {
    ...world,
    objectives: [...world.objectives, iteration.objective],
    findings,
    sources: [...new Set([...world.sources, ...iteration.sources])],
    axes: iteration.axis ? coverAxis(world.axes ?? [], iteration, findings) : world.axes,
  };
}

/** The findings of `incoming` that `known` does not hold (same sentence, or same work on the same axis), each once. */
export function newFindings(known: Finding[], incoming: Finding[]): Finding[] {
  const sentences = new Set(known.flatMap(sentenceKeysOf));
  const onAxis = new Set(known.flatMap((f) => f.references.flatMap(keysOf).map((k) => `${f.axis ?? "-"}|${k}`)));
  const fresh: Finding[] = [];
  for (const finding of incoming) {
    const own = sentenceKeysOf(finding);
    const keys = finding.references.flatMap(keysOf).map((k) => `${finding.axis ?? "-"}|${k}`);
    if (own.length === 0 || own.some((k) => sentences.has(k)) || keys.some((k) => onAxis.has(k))) continue;
    for (const k of own) sentences.add(k);
    for (const k of keys) onAxis.add(k);
    fresh.push(finding);
  }
  return fresh;
}

/** Findings grouped by axis, in the axes' order; within an axis, in the order found. */
export function groupByAxis(findings: Finding[]): Finding[] {
  const rank = (f: Finding) => (f.axis ? AXIS_IDS.indexOf(f.axis) : AXIS_IDS.length);
  return findings.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
}

function coverAxis(axes: AxisState[], iteration: Iteration, findings: Finding[]): AxisState[] {
  const axis = iteration.axis!;
  const current = axes.find((a) => a.axis === axis) ?? emptyAxis(axis, "covered");
  const next: AxisState = {
    ...current,
    status: "covered",
    queries: [...new Set([...current.queries, iteration.objective])],
    referencesRead: current.referencesRead + (iteration.screened?.length ?? iteration.acceptedCount),
    referencesAccepted: current.referencesAccepted + iteration.acceptedCount,
  };
  return countFindings(
    axes.some((a) => a.axis === axis) ? axes.map((a) => (a.axis === axis ? next : a)) : [...axes, next].sort((a, b) => AXIS_IDS.indexOf(a.axis) - AXIS_IDS.indexOf(b.axis)),
    findings,
  );
}

/** Each axis' finding count (and, for animals, per species) from the findings themselves. */
export function countFindings(axes: AxisState[], findings: Finding[]): AxisState[] {
  return axes.map((a) => {
    const on = findings.filter((f) => f.axis === a.axis);
    const species: Partial<Record<StudySpecies, number>> = {};
    if (a.axis === "animal") for (const f of on) if (f.species) species[f.species] = (species[f.species] ?? 0) + 1;
    return { ...a, findings: on.length, ...(a.axis === "animal" ? { species } : {}) };
  });
}

function emptyAxis(axis: AxisId, status: AxisState["status"]): AxisState {
  return { axis, label: AXES[axis].label, status, queries: [], referencesRead: 0, referencesAccepted: 0, findings: 0 };
}

/** Marks the axes a turn left out, unless an earlier turn covered them. */
export function markUncovered(axes: AxisState[], notCovered: AxisPlan["notCovered"]): AxisState[] {
  const out = [...axes];
  for (const { axis, reason } of notCovered) {
    if (out.some((a) => a.axis === axis)) continue;
    out.push(emptyAxis(axis, reason === "not_applicable" ? "not_applicable" : "not_covered"));
  }
  return out.sort((a, b) => AXIS_IDS.indexOf(a.axis) - AXIS_IDS.indexOf(b.axis));
}

/** A world state read from storage: every field present, whatever version wrote it. */
export function normalizeWorld(world: Partial<WorldState>): WorldState {
  return {
    objectives: world.objectives ?? [],
    findings: world.findings ?? [],
    hypotheses: world.hypotheses ?? [],
    openQuestions: world.openQuestions ?? [],
    sources: world.sources ?? [],
    axes: world.axes ?? [],
    contradictions: world.contradictions ?? [],
    runs: world.runs ?? [],
  };
}
