import { literatureQueryRequestSchema, type FailedSource, type RunProgress } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db";
import { decideFollowUp } from "../chat/follow-up";
import { withReading } from "../chat/follow-up-note";
import type { LlmSettings } from "../chat/llm";
import { JobFailure, type JobHandler } from "../jobs/worker";
import { runLiteratureSearch, type EngineDeps } from "../literature/engine";
import { NoSourceAnsweredError, unavailableJobFailure } from "../literature/reach";
import { sourceNames } from "../literature/record";
import type { EngineResult } from "../literature/result";
import { extractTerms, stemSet, type QueryTerm } from "../literature/terms";
import { AXES, AXIS_IDS, axisQuery, planAxes, readResearchQuestion, steerTerms, type AxisId, type AxisPlan, type PlannedAxis, type ResearchQuestion } from "./axes";
import { bearsOn, findingsOf } from "./axis-findings";
import { composeTurn, type TurnAnswer } from "./compose-turn";
import { planWithModel, summarizeWithModel, type ModelStep } from "./model";
import { finishTurn, getEarlierObjectives, getTurn, getWorldState, saveIteration, setRunState } from "./store";
import { findContradictions } from "./synthesis";
import { countFindings, keysOf, markUncovered, normalizeWorld, sentenceKey, sentenceKeysOf, updateWorld, type StoredIteration, type WorldState } from "./world";
import { nameCitations, createCitations } from "./citations";

export type { StoredIteration } from "./world";

/** How many of the conversation's earlier questions a turn is read against (agent/chat/follow-up.ts). */
const EARLIER_TURNS = 6;

/** References an iteration keeps (with their abstracts) for the reply: the most relevant first. */
const KEPT_PER_ITERATION = 12;

/**
 * One deep-research turn: a plan by evidence axes (human trials, observational cohorts, animal
 * models, mechanism, safety, dose and timing; the most relevant to the question first, as many as
 * the iteration budget allows), one deep-mode search per axis with a query built from the
 * question's concepts and the axis' vocabulary, the findings of each recorded once in the
 * conversation's world state, grouped by axis; then hypotheses, open questions and contradictions
 * from what the axes found and did not, and a reply that says how it researched, gives the bottom
 * line and the evidence by axis under the chat citation contract. Finished iterations are saved,
 * so a run taken over after a crash resumes where it stopped; the time budget ends a run early
 * with what it has. With a model (`llm`), the model plans, summarizes, proposes hypotheses and
 * writes the report, each step checked and falling back to the deterministic one.
 */
export function createDeepResearchJobHandler({
  engine,
  db,
  iterations,
  budgetSeconds,
  llm = null,
}: {
  engine: Omit<EngineDeps, "progress" | "signal">;
  db: Queryable;
  iterations: number;
  budgetSeconds: number;
  llm?: LlmSettings | null;
}): JobHandler<"deep_research"> {
  return async (job, { progress, signal }) => {
    const { messageId } = job.input;
    const turn = await getTurn({ db, messageId });
    if (!turn || turn.status === "cancelled" || turn.status === "completed") return { skipped: true };
    const { conversationId } = turn;
    const state = (status: Parameters<typeof setRunState>[0]["status"], sessionStatus: string, progress?: RunProgress) =>
      setRunState({ db, conversationId, messageId, status, sessionStatus, progress });
    try {
      // The conversation's world state holds its completed turns only: this turn's saved
      // iterations (a run taken over after a crash) are added to it here, and the turn's whole
      // state is written when the turn completes, naming the turns it now holds.
      const base = await getWorldState({ db, conversationId });
      const saved = turn.iterations;
      const { result, world, done } = await researchTurn({
        question: turn.objective,
        earlier: await getEarlierObjectives({ db, conversationId, messageId, count: EARLIER_TURNS }),
        done: saved,
        world: saved.reduce(updateWorld, normalizeWorld(base)),
        engine,
        iterations,
        budgetSeconds,
        ids: { conversationId, messageId },
        progress,
        signal,
        state: (sessionStatus, progress) => state("running", sessionStatus, progress),
        save: (done) => saveIteration({ db, messageId, iterations: done }),
        llm,
      });
      await finishTurn({
        db,
        messageId,
        reply: result.answer,
        citations: result.references,
        sessionStatus: finishedStatus(done.length, result.references.length),
        worldState: { ...world, messageIds: [...new Set([...base.messageIds, messageId])] },
      });
      return { conversationId, messageId, quality: result.quality };
    } catch (err) {
      if (signal.aborted) throw err; // cancelled: the cancel route already recorded it
      if (err instanceof NoSourceAnsweredError) {
        await state("failed", `${err.message} Nothing was charged for this turn.`);
        throw unavailableJobFailure(err);
      }
      await state("failed", "The run failed; nothing was charged for this turn");
      throw err instanceof JobFailure ? err : new JobFailure("The research run failed");
    }
  };
}

export function finishedStatus(iterations: number, references: number): string {
  return `Finished after ${iterations} iteration${iterations === 1 ? "" : "s"} with ${references} reference${references === 1 ? "" : "s"}`;
}

/**
 * The research itself, independent of where it is kept (plain turns in the clear, private runs
 * encrypted under their recovery key): resumes after the iterations already `done` (whose findings
 * `world` holds already), saves each new one with the world state through `save`, and writes the
 * final cited reply. `earlier` are the conversation's earlier questions (oldest first): a turn that
 * follows up on them ("and in women?") is read with their subject, one that names its own subject
 * on its own words only (decideFollowUp), and the reply says when it was read as a follow-up.
 */
export async function researchTurn({
  question,
  earlier = [],
  done,
  world: initialWorld,
  engine,
  iterations,
  budgetSeconds,
  ids,
  progress,
  signal,
  state,
  save,
  llm = null,
  now = Date.now,
}: {
  question: string;
  earlier?: string[];
  done: StoredIteration[];
  world: Partial<WorldState>;
  engine: Omit<EngineDeps, "progress" | "signal">;
  iterations: number;
  budgetSeconds: number;
  ids: { conversationId: string; messageId: string };
  progress: (stage: string, percent: number) => Promise<void>;
  signal: AbortSignal;
  state: (sessionStatus: string, progress: RunProgress) => Promise<void>;
  save: (done: StoredIteration[], world: WorldState) => Promise<void>;
  llm?: LlmSettings | null;
  /** The clock the time budget is kept by. */
  now?: () => number;
}): Promise<{ result: TurnAnswer; world: WorldState; done: StoredIteration[] }> {
  const started = now();
  const inTime = () => now() - started <= budgetSeconds * 1000;
  const reading = earlier.length > 0 ? decideFollowUp({ earlier, message: question }) : null;
  const read = readResearchQuestion(reading?.question ?? question);
  const terms = extractTerms(read.question);
  const steps: Record<string, ModelStep> = {};
  let world = normalizeWorld(initialWorld);

  const full = planAxes(read, AXIS_IDS.length);
  let order: PlannedAxis[] = full.planned;
  if (llm) {
    const model = await planWithModel({ settings: llm, read, allowed: full.planned.map((p) => p.axis), iterations, signal });
    steps.plan = model.step;
    if (model.planned) order = [...model.planned, ...order.filter((p) => !model.planned!.some((m) => m.axis === p.axis))];
  }
  const doneAxes = new Set(done.map((d) => d.axis));
  const toRun = order.filter((p) => !doneAxes.has(p.axis)).slice(0, Math.max(0, iterations - done.length));
  const total = done.length + toRun.length;
  let outOfTime = false;
  // Honest reach, as for chat: a turn whose every search reached no literature source (each one
  // failing, the local library finding nothing) has nothing to research from; it fails, and a
  // failed turn is never charged. A turn whose sources answered with nothing relevant is an answer.
  let reached = done.some((d) => (d.screened?.length ?? 0) > 0);
  const unreached: FailedSource[] = [];
  // Whether the local library answered (with nothing) every search that reached no other source.
  let libraryAnsweredEvery = true;
  for (const item of toRun) {
    if (!inTime()) {
      outOfTime = true;
      break;
    }
    const i = done.length;
    await state(`Iteration ${i + 1} of ${total}: ${AXES[item.axis].label.toLowerCase()}, searching the literature for “${item.query}”`, { step: "searching", iteration: i + 1, of: total });
    await progress("literature", Math.round(10 + (75 * i) / Math.max(1, total)));
    const { iteration, failedSources, libraryAnswered } = await searchAxis({ read, item, terms, engine, signal, known: world.findings });
    if (failedSources) {
      unreached.push(...failedSources);
      libraryAnsweredEvery &&= libraryAnswered;
    } else reached = true;
    if (llm && inTime()) {
      const summary = await summarizeWithModel({
        settings: llm,
        read,
        axis: item.axis,
        query: item.query,
        evidence: iteration.references.map((r, n) => ({ ordinal: n + 1, title: r.title, passage: r.abstract ?? r.title, evidenceType: r.evidenceType ?? "unknown" })),
        signal,
      });
      steps[`summary:${item.axis}`] = summary.step;
      if (summary.text) iteration.summary = summary.text;
    }
    done.push(iteration);
    world = updateWorld(world, iteration);
    await save(done, world);
  }

  if (!reached && unreached.length > 0) {
    const seen = new Set<string>();
    throw new NoSourceAnsweredError({ failedSources: unreached.filter((f) => !seen.has(f.source) && seen.add(f.source)), libraryAnswered: libraryAnsweredEvery });
  }

  await state("Writing the final answer from everything found", { step: "writing" });
  await progress("thinking", 90);
  const plan = turnPlan({ done, order, full, outOfTime });
  const composed = await composeTurn({ read, ids, iterations: done, plan, budget: iterations, outOfTime, world, llm, inTime, signal });
  const { cite, cited } = createCitations();
  const contradictions = findContradictions(world.findings, read, cite).map((c) => ({ ...c, statement: nameCitations(c.statement, cited) }));
  world = {
    ...world,
    hypotheses: [...new Set([...world.hypotheses, ...composed.hypotheses])],
    openQuestions: composed.openQuestions,
    contradictions,
    axes: withSummaries(markUncovered(countFindings(world.axes ?? [], world.findings), plan.notCovered), done),
  };
  const allSteps = { ...steps, ...composed.steps };
  const summary = composed.result.metadata.deepResearch;
  const result = withReading(
    llm ? { ...composed.result, metadata: { ...composed.result.metadata, deepResearch: { ...summary, model: { name: llm.model, steps: allSteps } } } } : composed.result,
    reading,
  );
  world.runs = [
    ...(world.runs ?? []).filter((r) => r.messageId !== ids.messageId),
    {
      messageId: ids.messageId,
      iterations: done.length,
      axes: plan.planned.map((p) => p.axis),
      referencesScreened: summary.referencesScreened,
      referencesAccepted: summary.referencesAccepted,
      referencesCited: summary.referencesCited,
      findings: summary.findings,
      writer: composed.result.metadata.writer,
      ...(llm ? { model: Object.fromEntries(Object.entries(allSteps).map(([step, s]) => [step, s.used])) } : {}),
    },
  ];
  await save(done, world);
  return { result, world, done };
}

/** What this turn searched (its iterations with an axis, in order) and what it left out, and why. */
function turnPlan({ done, order, full, outOfTime }: { done: StoredIteration[]; order: PlannedAxis[]; full: AxisPlan; outOfTime: boolean }): AxisPlan {
  const planned = done.filter((d): d is StoredIteration & { axis: AxisId } => Boolean(d.axis)).map((d) => ({ axis: d.axis, query: d.objective }));
  const left = order.filter((p) => !planned.some((d) => d.axis === p.axis));
  return {
    planned,
    notCovered: [...left.map((p) => ({ axis: p.axis, reason: outOfTime ? ("time_budget" as const) : ("iteration_budget" as const) })), ...full.notCovered],
  };
}

/**
 * One axis' search. An axis on the question itself is judged against the question, with its
 * vocabulary steering what the sources are asked; an axis on the intervention (its mechanism,
 * safety, doses) is judged against its own query, and keeps only references that name the
 * intervention and say something on the axis.
 */
async function searchAxis({
  read,
  item,
  terms,
  engine,
  signal,
  known,
}: {
  read: ResearchQuestion;
  item: PlannedAxis;
  terms: QueryTerm[];
  engine: Omit<EngineDeps, "progress" | "signal">;
  signal: AbortSignal;
  /** The findings the conversation holds already. */
  known: WorldState["findings"];
}): Promise<{ iteration: StoredIteration; failedSources: FailedSource[] | null; libraryAnswered: boolean }> {
  const knownSentences = new Set(known.flatMap(sentenceKeysOf));
  const onQuestion = AXES[item.axis].anchor === "question";
  const request = literatureQueryRequestSchema.parse({ question: onQuestion ? read.question : item.query, mode: "deep", includeRejected: true });
  const sources = onQuestion ? steerSources(engine.sources, item.query, read) : engine.sources;
  let literature: Pick<EngineResult, "references" | "rejectedReferences" | "effectiveSources">;
  let failedSources: FailedSource[] | null = null;
  let libraryAnswered = false;
  try {
    literature = await runLiteratureSearch(request, { ...engine, sources, includeAbstracts: true, signal, requireReach: true });
  } catch (err) {
    if (!(err instanceof NoSourceAnsweredError)) throw err;
    // No source answered this axis' search: an empty iteration, and the turn decides (researchTurn).
    failedSources = err.failedSources;
    libraryAnswered = err.libraryAnswered;
    literature = { references: [], rejectedReferences: [], effectiveSources: [] };
  }
  const all = [...literature.references, ...(literature.rejectedReferences ?? [])];
  const intervention = stemSet(read.intervention ?? axisQuery(read, item.axis));
  const accepted = literature.references
    .filter((r) => r.relevance?.accepted && !r.isRetracted)
    .filter((r) => onQuestion || ((r.relevance?.matchedTerms ?? []).some((t) => [...stemSet(t)].some((s) => intervention.has(s))) && bearsOn(r, item.axis)));
  const references = accepted.slice(0, KEPT_PER_ITERATION);
  const iteration: StoredIteration = {
    objective: item.query,
    axis: item.axis,
    acceptedCount: accepted.length,
    screened: [...new Set(all.map((r) => keysOf(r)[0]!))],
    sources: literature.effectiveSources,
    findings: references.flatMap((ref, n) =>
      findingsOf({ ref, searched: item.axis, anchoredToQuestion: onQuestion, terms, reading: read.reading, ordinal: n + 1, known: (statement) => knownSentences.has(sentenceKey(statement)) }),
    ),
    references,
  };
  return { iteration, failedSources, libraryAnswered };
}

/** The sources, each asked the axis' words with the concepts of every query variant the engine makes. */
function steerSources(sources: EngineDeps["sources"], query: string, read: ResearchQuestion): EngineDeps["sources"] {
  const steered: EngineDeps["sources"] = {};
  for (const name of sourceNames) {
    const source = sources[name];
    if (!source) continue;
    steered[name] = { name: source.name, search: (q, options) => source.search({ ...q, text: query, terms: steerTerms(q.terms, query, read) }, options) };
  }
  return steered;
}

/** Each axis' model summary, if an iteration of this turn has one, its markers written as names. */
function withSummaries(axes: NonNullable<WorldState["axes"]>, done: StoredIteration[]): NonNullable<WorldState["axes"]> {
  return axes.map((a) => {
    const it = done.find((d) => d.axis === a.axis && d.summary);
    if (!it) return a;
    const summary = it.summary!.replace(/\s*\[(\d+)\]/g, (_, n: string) => {
      const ref = it.references[Number(n) - 1];
      return ref ? ` (${ref.pmid ? `PMID ${ref.pmid}` : ref.doi ? `doi:${ref.doi}` : `“${ref.title}”`})` : "";
    });
    return { ...a, summary };
  });
}
