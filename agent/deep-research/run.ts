import { literatureQueryRequestSchema, type ChatResult, type LiteratureJobResult } from "@/lib/contracts";
import type { Queryable } from "@/lib/db";
import { composeChatResult } from "../chat/compose";
import { JobFailure, type JobHandler } from "../jobs/worker";
import { runLiteratureSearch, type EngineDeps } from "../literature/engine";
import { workKeys } from "../literature/merge";
import { extractTerms, stem, tokenize } from "../literature/terms";
import { finishTurn, getTurn, getWorldState, saveIteration, setRunState, type Iteration, type WorldState } from "./store";

type StoredReference = NonNullable<LiteratureJobResult["references"]>[number] & { abstract?: string | null; pmid?: string | null; doi?: string | null };
export type StoredIteration = Iteration & { references: StoredReference[] };

/**
 * One deep-research turn: several iterations, each choosing an objective, searching in deep mode,
 * grading and recording the evidence in the conversation's world state (objectives, findings with
 * their references, hypotheses, open questions, sources), then a final reply under the chat
 * citation contract over everything found. Finished iterations are saved, so a run taken over
 * after a crash resumes where it stopped; the time budget ends a run early with what it has.
 */
export function createDeepResearchJobHandler({
  engine,
  db,
  iterations,
  budgetSeconds,
}: {
  engine: Omit<EngineDeps, "progress" | "signal">;
  db: Queryable;
  iterations: number;
  budgetSeconds: number;
}): JobHandler {
  return async (job, { progress, signal }) => {
    const { messageId } = job.input as { messageId: string };
    const turn = await getTurn({ db, messageId });
    if (!turn || turn.status === "cancelled" || turn.status === "completed") return { skipped: true };
    const { conversationId } = turn;
    const state = (status: Parameters<typeof setRunState>[0]["status"], sessionStatus: string) => setRunState({ db, conversationId, messageId, status, sessionStatus });
    try {
      // The conversation's world state holds its completed turns only: this turn's saved
      // iterations (a run taken over after a crash) are added to it here, and the turn's whole
      // state is written when the turn completes, naming the turns it now holds.
      const base = await getWorldState({ db, conversationId });
      const saved = turn.iterations as StoredIteration[];
      const { result, world, done } = await researchTurn({
        question: turn.objective,
        done: saved,
        world: saved.reduce(updateWorld, base),
        engine,
        iterations,
        budgetSeconds,
        ids: { conversationId, messageId },
        progress,
        signal,
        state: (sessionStatus) => state("running", sessionStatus),
        save: (done) => saveIteration({ db, messageId, iterations: done }),
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
      await state("failed", "The run failed; nothing was charged for this turn");
      throw err instanceof JobFailure ? err : new JobFailure("The research run failed");
    }
  };
}

export function finishedStatus(iterations: number, references: number): string {
  return `Finished after ${iterations} iteration${iterations === 1 ? "" : "s"} with ${references} references`;
}

/**
 * The research itself, independent of where it is kept (plain turns in the clear, private runs
 * encrypted under their recovery key): resumes after the iterations already `done` (whose findings
 * `world` holds already), saves each new one with the world state through `save`, and writes the
 * final cited reply.
 */
export async function researchTurn({
  question,
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
}: {
  question: string;
  done: StoredIteration[];
  world: WorldState;
  engine: Omit<EngineDeps, "progress" | "signal">;
  iterations: number;
  budgetSeconds: number;
  ids: { conversationId: string; messageId: string };
  progress: (stage: string, percent: number) => Promise<void>;
  signal: AbortSignal;
  state: (sessionStatus: string) => Promise<void>;
  save: (done: StoredIteration[], world: WorldState) => Promise<void>;
}): Promise<{ result: ChatResult; world: WorldState; done: StoredIteration[] }> {
  const started = Date.now();
  let world = initialWorld;
  const objectives = planObjectives(question, iterations);
  for (let i = done.length; i < objectives.length; i++) {
    if (Date.now() - started > budgetSeconds * 1000) break;
    const objective = objectives[i] === "*" ? emergingObjective(question, done) : objectives[i]!;
    await state(`Iteration ${i + 1} of ${objectives.length}: searching the literature for “${objective}”`);
    await progress("literature", Math.round(10 + (75 * i) / objectives.length));
    const literature = await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: objective, mode: "deep" }), { ...engine, includeAbstracts: true, signal });
    const iteration = toIteration(objective, literature);
    done.push(iteration);
    world = updateWorld(world, iteration);
    await save(done, world);
  }
  await state("Writing the final answer from everything found");
  await progress("thinking", 90);
  const references = uniqueReferences(done.flatMap((it) => it.references)).map((r, i) => ({ ...r, id: i + 1 }));
  const result = composeChatResult({ question, literature: { references }, ...ids });
  world = { ...world, hypotheses: hypothesesFrom(result.references.filter((r) => r.evidenceRole === "supporting").map((r) => r.title)) };
  await save(done, world);
  return { result, world, done };
}

/** The run's objectives: the question, then its human trial evidence, then an emerging subtopic. */
export function planObjectives(question: string, iterations: number): string[] {
  const plan = [question, `${question} randomized controlled trial humans`, "*"];
  while (plan.length < iterations) plan.push("*");
  return plan.slice(0, iterations);
}

/** The most frequent content word of the evidence so far that the question does not already name. */
function emergingObjective(question: string, done: StoredIteration[]): string {
  const known = new Set(extractTerms(question).flatMap((t) => t.stems));
  const asked = new Set(done.map((d) => d.objective));
  const counts = new Map<string, number>();
  for (const ref of done.flatMap((d) => d.references)) {
    for (const word of tokenize(ref.title)) {
      if (word.length < 5 || known.has(stem(word)) || extractTerms(word).length === 0) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [word] of ranked) {
    const objective = `${question} ${word}`;
    if (!asked.has(objective)) return objective;
  }
  return `${question} mechanisms`;
}

function toIteration(objective: string, literature: LiteratureJobResult): StoredIteration {
  const accepted = ((literature.references ?? []) as StoredReference[]).filter((r) => r.relevance?.accepted);
  const passages = (literature.contextPassages ?? []) as { url?: string; text?: string }[];
  const references = accepted.slice(0, 8).map((r) => ({ ...r, abstract: passages.find((p) => p.url === r.url)?.text ?? r.abstract ?? null }));
  return {
    objective,
    acceptedCount: accepted.length,
    sources: literature.effectiveSources ?? [],
    findings: references.slice(0, 3).map((r, i) => ({
      statement: (r.abstract ?? r.title).slice(0, 400),
      references: [{ ordinal: i + 1, title: r.title, url: r.url, pmid: r.pmid ?? null, doi: r.doi ?? null }],
    })),
    references,
  };
}

function updateWorld(world: WorldState, iteration: StoredIteration): WorldState {
  // A finding rests on one reference: an iteration that finds that work again adds nothing.
  const known = new Set(world.findings.flatMap((f) => f.references.flatMap(workKeys)));
  const fresh = iteration.findings.filter((f) => {
    const keys = f.references.flatMap(workKeys);
    if (keys.some((k) => known.has(k))) return false;
    for (const k of keys) known.add(k);
    return true;
  });
  return {
    objectives: [...world.objectives, iteration.objective],
    findings: [...world.findings, ...fresh],
    hypotheses: world.hypotheses,
    openQuestions:
      iteration.acceptedCount < 2 ? [...world.openQuestions, `Little evidence was found on “${iteration.objective}”.`] : world.openQuestions,
    sources: [...new Set([...world.sources, ...iteration.sources])],
  };
}

function hypothesesFrom(titles: string[]): string[] {
  return titles.slice(0, 3).map((t) => `Supported by “${t}”: worth testing further.`);
}

/** Each work once across iterations: the same paper by any id, its URL, or its title. */
function uniqueReferences(references: StoredReference[]): StoredReference[] {
  const seen = new Set<string>();
  return references.filter((r) => {
    const keys = workKeys(r as Parameters<typeof workKeys>[0]);
    if (keys.some((k) => seen.has(k))) return false;
    for (const k of keys) seen.add(k);
    return true;
  });
}
