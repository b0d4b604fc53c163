/**
 * `npm run bench -- confusion`: evidence that must test the question (issue 25), through the whole
 * chat pipeline. The confusion set (tests/fixtures/eval/confusion.{tune,holdout}.jsonl) asks
 * questions whose words match studies of other interventions, outcomes or species, over its own
 * synthetic library (confusion-library.jsonl) imported into the local library; each item names the
 * records that must support, the ones that must never support, and the verdict expected (or none).
 *
 * Reported per half of the fixed split: references marked supporting that must never support (the
 * goal is 0), the expected supporting records found supporting, other records supporting (neither
 * listed), and the verdict. The tuning half's failures are listed item by item; the held-out half
 * only ever in aggregate. BENCH_EVAL_DIR reads the set from another folder.
 */
import path from "node:path";
import pg from "pg";
import { agentMigrations } from "../../agent/db/migrations";
import { importLibraryFile } from "../../agent/library/import";
import { runMigrations } from "../../lib/shared/db/migrate";
import { startTestAgent } from "../../tests/support/agent";
import { chatThrough, inParallel, type App } from "./answers";
import { openBenchDatabase, root, saveResults } from "./common";
import { CONFUSION_LIBRARY_FILE, HALVES, readConfusionLibrary, readConfusionSet, type ConfusionItem } from "./eval-sets";
import type { Half } from "./split";

const CONCURRENCY = Number(process.env.BENCH_CHAT_CONCURRENCY ?? 8);

type Outcome = {
  item: ConfusionItem;
  /** Records marked supporting, by PMID (a reference without one by its id). */
  supporting: string[];
  verdict: string | null;
  confidence: string | null;
};

type HalfFigures = {
  questions: number;
  neverSupportingMarked: number;
  questionsWithOne: number;
  expectedSupporting: number;
  expectedFound: number;
  otherSupporting: number;
  verdictsExpected: number;
  verdictsRight: number;
  /** Verdicts that commit (supports, contradicts) and how many of them are right. */
  committed: number;
  committedRight: number;
};

export async function runConfusionBench(): Promise<void> {
  const dir = process.env.BENCH_EVAL_DIR ? path.resolve(process.env.BENCH_EVAL_DIR) : path.join(root, "tests/fixtures/eval");
  console.log(`\n## Confusion set through POST /api/chat, over its own library (${path.relative(root, dir) || "."})\n`);
  const library = readConfusionLibrary({ dir });
  const halves = Object.fromEntries(HALVES.map((half) => [half, readConfusionSet({ half, dir })])) as Record<Half, ConfusionItem[]>;

  const database = await openBenchDatabase("bench_confusion");
  const figures: Partial<Record<Half, HalfFigures>> = {};
  try {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    try {
      await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
      const imported = await importLibraryFile({ db: pool, file: path.join(dir, CONFUSION_LIBRARY_FILE) });
      if (imported.inserted !== library.length) throw new Error(`imported ${imported.inserted} of ${library.length} confusion records`);
    } finally {
      await pool.end();
    }
    const agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", AGENT_WORKERS: String(CONCURRENCY) });
    try {
      for (const half of HALVES) {
        const outcomes = await inParallel(halves[half], CONCURRENCY, (item) => ask(agent.app, item));
        figures[half] = score(outcomes);
        // The tuning half is read item by item; the held-out half never is.
        if (half === "tune") for (const o of outcomes) describeFailure(o);
      }
    } finally {
      await agent.stop();
    }
  } finally {
    await database.stop();
  }

  console.log("\n| half | questions | never-supporting records marked supporting (goal 0) | questions with one | expected supporting found | other records supporting | verdict right | committed verdicts right |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const half of HALVES) {
    const f = figures[half]!;
    console.log(
      `| ${half} | ${f.questions} | ${f.neverSupportingMarked} | ${f.questionsWithOne} | ${ratio(f.expectedFound, f.expectedSupporting)} | ${f.otherSupporting} | ${ratio(f.verdictsRight, f.verdictsExpected)} | ${ratio(f.committedRight, f.committed)} |`,
    );
  }
  saveResults("confusion", { database: database.label, figures });
}

async function ask(app: App, item: ConfusionItem): Promise<Outcome> {
  const result = await chatThrough(app, item.question);
  return {
    item,
    supporting: result.references.filter((r) => r.evidenceRole === "supporting").map((r) => r.pmid ?? r.id ?? "?"),
    verdict: typeof result.verdict === "string" ? result.verdict : null,
    confidence: typeof result.verdictBasis?.confidence === "string" ? result.verdictBasis.confidence : null,
  };
}

function score(outcomes: Outcome[]): HalfFigures {
  const f: HalfFigures = {
    questions: outcomes.length,
    neverSupportingMarked: 0,
    questionsWithOne: 0,
    expectedSupporting: 0,
    expectedFound: 0,
    otherSupporting: 0,
    verdictsExpected: 0,
    verdictsRight: 0,
    committed: 0,
    committedRight: 0,
  };
  for (const { item, supporting, verdict } of outcomes) {
    const wrong = supporting.filter((id) => item.never_supporting.includes(id)).length;
    f.neverSupportingMarked += wrong;
    if (wrong > 0) f.questionsWithOne++;
    f.expectedSupporting += item.supporting.length;
    f.expectedFound += item.supporting.filter((id) => supporting.includes(id)).length;
    f.otherSupporting += supporting.filter((id) => !item.supporting.includes(id) && !item.never_supporting.includes(id)).length;
    if (item.verdict !== null) {
      f.verdictsExpected++;
      if (verdict === item.verdict) f.verdictsRight++;
    }
    if (verdict === "supports" || verdict === "contradicts") {
      f.committed++;
      if (verdict === item.verdict) f.committedRight++;
    }
  }
  return f;
}

function describeFailure({ item, supporting, verdict, confidence }: Outcome): void {
  const wrong = supporting.filter((id) => item.never_supporting.includes(id));
  const missed = item.supporting.filter((id) => !supporting.includes(id));
  const verdictWrong = item.verdict !== null && verdict !== item.verdict;
  if (wrong.length === 0 && missed.length === 0 && !verdictWrong) return;
  const parts = [
    wrong.length > 0 ? `never-supporting marked supporting: ${wrong.join(", ")}` : null,
    missed.length > 0 ? `expected supporting missed: ${missed.join(", ")}` : null,
    verdictWrong ? `verdict ${verdict ?? "none"} (${confidence ?? "?"}) where ${item.verdict} is expected, from ${supporting.length > 0 ? supporting.join(", ") : "no supporting record"}` : null,
  ].filter(Boolean);
  console.log(`✗ ${item.id} “${item.question}”: ${parts.join("; ")}`);
}

const ratio = (right: number, n: number) => (n ? `${((100 * right) / n).toFixed(1)}% (${right}/${n})` : "n/a");
