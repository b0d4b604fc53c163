/**
 * `npm run bench -- paraphrase`: search by meaning (issue 25). Questions reworded as a person would
 * ask them, in lay words sharing no word stem with the item's question or MeSH
 * (tests/fixtures/eval/paraphrase.{tune,holdout}.jsonl, `{id, pmid, question}`, written blind to the
 * engine), each searched over the 500 PubMedQA development abstracts imported into the local
 * library (pubmed form, as scripts/bench/answers.ts imports them). Reported per half, for the engine
 * (POST /api/literature, local only, filterReferences false: its ranking) and a plain BM25 over the
 * same texts in the same run: the intended record's recall@1, recall@10 and MRR@10, and how often it
 * is accepted among the references a person is shown (relevance.accepted within the first 10).
 * Goal: the engine's recall@10 ≥ 90%, and at least BM25's. The held-out half is read by this script
 * only and reported as aggregates: its questions are never printed (rules are written on the tuning
 * half). BENCH_EVAL_DIR points at another folder holding the two files (default
 * tests/fixtures/eval). BENCH_PARAPHRASE_HALVES=tune measures the tuning half alone (while tuning,
 * so the held-out half is run only when a figure is reported).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { agentRequest, startTestAgent } from "../../tests/support/agent";
import { importItems, inParallel } from "./answers";
import { openBenchDatabase, root, saveResults } from "./common";
import { LIMIT, measureBm25, readPubmedQa, summariseRanks, type Quality } from "./pubmedqa";

const HALVES = ["tune", "holdout"] as const;
const GOAL = 0.9;
const CONCURRENCY = 4;

type Paraphrase = { id: string; pmid: string; question: string };
type Outcome = { rank: number; accepted: boolean; why: string };

function wantedHalves(): (typeof HALVES)[number][] {
  const named = (process.env.BENCH_PARAPHRASE_HALVES ?? "").split(",").map((h) => h.trim()).filter(Boolean);
  if (named.length === 0) return [...HALVES];
  const unknown = named.filter((h) => !(HALVES as readonly string[]).includes(h));
  if (unknown.length > 0) throw new Error(`BENCH_PARAPHRASE_HALVES: unknown half ${unknown.join(", ")}; choose from ${HALVES.join(", ")}`);
  return HALVES.filter((h) => named.includes(h));
}

function readHalf(half: (typeof HALVES)[number]): Paraphrase[] {
  const file = path.join(process.env.BENCH_EVAL_DIR ?? path.join(root, "tests/fixtures/eval"), `paraphrase.${half}.jsonl`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: set BENCH_EVAL_DIR to the folder of paraphrase.{tune,holdout}.jsonl`);
  return fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Paraphrase);
}

export async function runParaphraseBench(): Promise<void> {
  const items = readPubmedQa();
  const known = new Set(items.map(([pmid]) => pmid));
  const sets = wantedHalves().map((half) => ({ half, questions: readHalf(half) }));
  for (const { half, questions } of sets) {
    const unknown = questions.filter((q) => !known.has(q.pmid)).length;
    if (unknown > 0) throw new Error(`paraphrase.${half}: ${unknown} questions name a PMID outside the PubMedQA development set`);
  }
  console.log("\n## Paraphrase: lay questions over the 500 PubMedQA abstracts (pubmed form), local library only\n");
  const database = await openBenchDatabase("bench_paraphrase");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-bench-paraphrase-"));
  const figures: Record<string, unknown> = {};
  try {
    await importItems({ url: database.url, items, dir, form: "pubmed" });
    const agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", AGENT_WORKERS: String(CONCURRENCY) });
    const outcomes = new Map<string, Outcome[]>();
    try {
      for (const { half, questions } of sets) outcomes.set(half, await inParallel(questions, CONCURRENCY, (q) => rank(agent.app, q)));
    } finally {
      await agent.stop();
    }
    console.log("| half | questions | ranking | recall@1 | recall@10 | MRR@10 | accepted (shown) |");
    console.log("|---|---:|---|---:|---:|---:|---:|");
    for (const { half, questions } of sets) {
      const results = outcomes.get(half)!;
      const engine = summariseRanks("engine", results.map((r) => r.rank));
      const accepted = results.filter((r) => r.accepted).length / results.length;
      const bm25 = measureBm25({ name: "BM25", items, withMesh: false, form: "pubmed", queries: questions.map((q) => [q.pmid, q.question]) });
      const row = (q: Quality, shown: string) => `| ${half} | ${questions.length} | ${q.name} | ${pct(q.recallAt1)} | ${pct(q.recallAt10)} | ${q.mrr.toFixed(3)} | ${shown} |`;
      console.log(row(engine, pct(accepted)));
      console.log(row(bm25, "—"));
      figures[half] = { questions: questions.length, engine, accepted, bm25, goalMet: engine.recallAt10 >= GOAL && engine.recallAt10 >= bm25.recallAt10 };
      // The tuning half may be read: its misses, to write rules from. The held-out half never is.
      if (half === "tune" && process.env.BENCH_PARAPHRASE_MISSES) {
        questions.forEach((q, i) => {
          const r = results[i]!;
          if (r.rank === 0 || r.rank > LIMIT) console.log(`  miss ${q.id} (PMID ${q.pmid}): ${q.question}`);
          else if (!r.accepted) console.log(`  not shown ${q.id} (PMID ${q.pmid}, rank ${r.rank}; ${r.why}): ${q.question}`);
        });
      }
    }
    console.log(`\nGoal: the intended record in the engine's top 10 for ≥ ${pct(GOAL)} of each half, and at least BM25's recall@10.`);
  } finally {
    await database.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  saveResults("paraphrase", figures);
}

type App = Awaited<ReturnType<typeof startTestAgent>>["app"];

/** The intended record's place in the engine's ranking (0: not in the first LIMIT), and whether it is accepted there. */
async function rank(app: App, q: Paraphrase): Promise<Outcome> {
  const submitted = await agentRequest(app, "/api/literature", { body: { question: q.question, maxResults: LIMIT, filterReferences: false } });
  const { jobId } = (await submitted.json()) as { jobId: string };
  for (;;) {
    const result = (await (await agentRequest(app, `/api/literature/jobs/${jobId}`)).json()) as {
      status: string;
      references?: { pmid?: string | null; relevance?: { accepted?: boolean; score?: number; missingConcepts?: string[] } }[];
    };
    if (result.status === "failed") throw new Error(`literature search for ${q.id} failed`);
    if (result.status === "completed") {
      const listed = (result.references ?? []).slice(0, LIMIT);
      const at = listed.findIndex((r) => r.pmid === q.pmid);
      const relevance = at >= 0 ? listed[at]!.relevance : undefined;
      const lead = Math.max(0, ...listed.map((r) => r.relevance?.score ?? 0));
      const why = `score ${relevance?.score ?? "-"} of best ${lead}, missing ${(relevance?.missingConcepts ?? []).join(", ") || "nothing"}`;
      return { rank: at + 1, accepted: relevance?.accepted === true, why };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}
