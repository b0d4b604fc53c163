/**
 * Deep research that researches (issue 13, point 5): ten fixed questions researched through the
 * agent's POST /api/deep-research/start, each followed to completion through GET
 * /api/deep-research/{id}, over the replay server's recorded source responses
 * (../shared/fixtures/literature-apis and tests/fixtures/literature, served by
 * tests/support/replay-server.ts for PubMed, Europe PMC, ClinicalTrials.gov and Crossref) and the
 * dev library (tests/fixtures/library/records.jsonl and confusion.jsonl, plus
 * BENCH_DR_LIBRARY_RECORDS synthetic records from the seeded generator, default 20,000).
 *
 * Reported per question: the iterations, the axes searched and the axes with findings, records
 * screened, references accepted, distinct references cited, findings, repeated findings (the same
 * sentence twice, or the same work twice on one axis, in the world state: goal 0), contradictions
 * and whether every [N] resolves; and the latency of each run, once one at a time and once with the
 * ten started together (AGENT_WORKERS 10), whose replies must equal the serial ones (the research is
 * deterministic without a model). A second turn of each conversation (the same question again)
 * then must add no finding the conversation holds. BENCH_DR_LATENCY=1 gives the sources recorded-like
 * latencies (PubMed 0.6 s, Europe PMC 0.8 s, ClinicalTrials.gov 0.5 s, Crossref 0.4 s per request).
 * Without a model (LLM_BASE_URL is not passed to the agent).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { agentMigrations } from "../../agent/db/migrations";
import type { WorldState } from "../../agent/deep-research/world";
import { importLibraryFile } from "../../agent/library/import";
import { workKeys } from "../../agent/literature/merge";
import { runMigrations } from "../../lib/shared/db/migrate";
import { agentRequest, startTestAgent } from "../../tests/support/agent";
import { generateSyntheticRecords } from "../../tests/fixtures/library/synthetic-records";
import { startReplayServer, type ReplayServer } from "../../tests/support/replay-server";
import { openBenchDatabase, percentile, root, saveResults } from "./common";

const DEEP_RESEARCH_QUESTIONS = [
  "Does rapamycin extend lifespan?",
  "Does metformin reduce frailty in older adults?",
  "Is leucocyte telomere length associated with mortality?",
  "Do senolytics such as dasatinib plus quercetin improve physical function?",
  "Does caloric restriction delay age-related disease in rhesus monkeys?",
  "Is nicotinamide riboside safe, and at what dose?",
  "Does resistance exercise increase muscle mass in older adults?",
  "Does vitamin D supplementation prevent falls in older adults?",
  "Does spermidine extend lifespan in mice?",
  "Does high blood pressure in midlife raise the risk of dementia?",
] as const;

const SYNTHETIC = Number(process.env.BENCH_DR_LIBRARY_RECORDS ?? 20_000);
const WITH_LATENCY = process.env.BENCH_DR_LATENCY === "1";

type Turn = { reply: string; citations: Record<string, unknown>[]; world: WorldState & { messageIds?: string[] } };
type Run = { question: string; conversationId: string; ms: number; turn: Turn };

export async function runDeepResearchBench(): Promise<void> {
  console.log("\n## Deep research: ten questions over the replay fixtures and the dev library\n");
  const database = await openBenchDatabase("bench_deep_research");
  const replay = await startSources();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-bench-deep-research-"));
  try {
    const imported = await fillLibrary(database.url, dir);
    console.log(`Database: ${database.label}. Library: ${imported} records (dev fixtures and ${SYNTHETIC} synthetic). Sources: PubMed, Europe PMC, ClinicalTrials.gov and Crossref replayed${WITH_LATENCY ? " with recorded-like latencies" : " without delay"}, and the library. No model.\n`);
    const agent = await startTestAgent({
      POSTGRES_URL: database.url,
      PUBMED_BASE_URL: `${replay.url}/pubmed`,
      EUROPEPMC_BASE_URL: `${replay.url}/europepmc`,
      CTGOV_BASE_URL: `${replay.url}/ctgov`,
      CROSSREF_BASE_URL: `${replay.url}/crossref`,
      LITERATURE_SOURCES: "pubmed,europepmc,clinicaltrials,crossref,local",
      SOURCE_RATE_MULTIPLIER: "1000",
      AGENT_WORKERS: String(DEEP_RESEARCH_QUESTIONS.length),
      JOB_POLL_MS: "20",
    });
    let serial: Run[];
    let together: Run[];
    let wallTogether: number;
    let followUps: { question: string; before: number; after: number; repeated: number }[];
    try {
      serial = [];
      for (const question of DEEP_RESEARCH_QUESTIONS) serial.push(await research(agent.app, question));
      const started = performance.now();
      together = await Promise.all(DEEP_RESEARCH_QUESTIONS.map((q) => research(agent.app, q)));
      wallTogether = performance.now() - started;
      followUps = await Promise.all(
        together.map(async (run) => {
          const next = await research(agent.app, run.question, run.conversationId, 2);
          return { question: run.question, before: run.turn.world.findings.length, after: next.turn.world.findings.length, repeated: repeatedFindings(next.turn.world) };
        }),
      );
    } finally {
      await agent.stop();
    }

    const rows = serial.map((run, i) => figuresOf(run, together[i]!));
    console.log("| # | question | iterations | axes searched | axes with findings | records screened | accepted | distinct references cited | findings | repeated findings | contradictions | markers resolve | ms, one at a time | ms, ten at once |");
    console.log("|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|");
    rows.forEach((r, i) =>
      console.log(
        `| ${i + 1} | ${r.question} | ${r.iterations} | ${r.axesSearched.length} (${r.axesSearched.join(", ")}) | ${r.axesWithFindings.length} | ${r.screened} | ${r.accepted} | ${r.distinctCited} | ${r.findings} | ${r.repeated} | ${r.contradictions} | ${r.markersResolve ? "yes" : "NO"} | ${r.msSerial.toFixed(0)} | ${r.msTogether.toFixed(0)} |`,
      ),
    );
    const repeated = rows.reduce((n, r) => n + r.repeated, 0);
    const sameReplies = rows.filter((r) => r.sameReply).length;
    const serialMs = rows.map((r) => r.msSerial);
    const togetherMs = rows.map((r) => r.msTogether);
    const followUpRepeats = followUps.reduce((n, f) => n + f.repeated, 0);
    const followUpAdded = followUps.reduce((n, f) => n + (f.after - f.before), 0);
    console.log(`\nRepeated findings: ${repeated} in the ten world states (goal 0: ${repeated === 0 ? "met" : "NOT met"}); after a second turn of each conversation, ${followUpRepeats} (goal 0: ${followUpRepeats === 0 ? "met" : "NOT met"}), the second turns adding ${followUpAdded} findings.`);
    console.log(`Axes searched per question: ${rows.map((r) => r.axesSearched.length).join(", ")}; with findings: ${rows.map((r) => r.axesWithFindings.length).join(", ")}. Distinct references cited per reply: median ${percentile(rows.map((r) => r.distinctCited), 50)}.`);
    console.log(
      `Latency per run: one at a time p50 ${percentile(serialMs, 50).toFixed(0)} ms, max ${Math.max(...serialMs).toFixed(0)} ms (${(serialMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s for the ten); ` +
        `ten at once p50 ${percentile(togetherMs, 50).toFixed(0)} ms, max ${Math.max(...togetherMs).toFixed(0)} ms (${(wallTogether / 1000).toFixed(1)} s for the ten). Replies identical to the serial run's: ${sameReplies}/10.`,
    );
    saveResults("deep-research", {
      database: database.label,
      library: imported,
      sourceLatency: WITH_LATENCY ? "recorded-like" : "none",
      rows: rows.map(({ sameReply: _s, ...r }) => r),
      repeatedFindings: repeated,
      followUps,
      sameReplies,
      latency: { serial: { p50: percentile(serialMs, 50), max: Math.max(...serialMs) }, together: { p50: percentile(togetherMs, 50), max: Math.max(...togetherMs), wallMs: wallTogether } },
      replies: serial.map((r) => ({ question: r.question, reply: r.turn.reply })),
    });
  } finally {
    await replay.close();
    await database.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a conversation (or its turn `turns`), and follows it until that turn is completed. */
async function research(app: Parameters<typeof agentRequest>[0], question: string, conversationId?: string, turns = 1): Promise<Run> {
  const started = performance.now();
  const response = await agentRequest(app, "/api/deep-research/start", { body: { message: question, ...(conversationId ? { conversationId } : {}) } });
  if (response.status !== 202) throw new Error(`start answered ${response.status}: ${await response.text()}`);
  const { conversationId: id } = (await response.json()) as { conversationId: string };
  for (;;) {
    const answer = await agentRequest(app, `/api/deep-research/${id}`);
    // On a loaded machine the agent may answer 503 (its database pool busy): that is asked again, not a result.
    const conversation = (answer.ok ? await answer.json() : { turns: [] }) as {
      worldState: Turn["world"];
      turns: { status: string; reply?: string; citations: Record<string, unknown>[] }[];
    };
    const turn = conversation.turns?.[turns - 1];
    if (turn?.status === "failed" || turn?.status === "cancelled") throw new Error(`the run of “${question}” ${turn.status}`);
    if (turn?.status === "completed") return { question, conversationId: id, ms: performance.now() - started, turn: { reply: turn.reply ?? "", citations: turn.citations, world: conversation.worldState } };
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Findings the world state holds twice: the same sentence, or the same work on the same axis. */
function repeatedFindings(world: WorldState): number {
  const sentences = new Set<string>();
  const onAxis = new Set<string>();
  let repeated = 0;
  for (const f of world.findings) {
    const sentence = (f.quote ?? f.statement).toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
    const keys = f.references.flatMap((r) => workKeys(r)).map((k) => `${f.axis}|${k}`);
    if (sentences.has(sentence) || keys.some((k) => onAxis.has(k))) repeated++;
    sentences.add(sentence);
    for (const k of keys) onAxis.add(k);
  }
  return repeated;
}

function figuresOf(serial: Run, together: Run) {
  const { world, reply, citations } = serial.turn;
  const run = world.runs?.at(-1);
  const markers = [...reply.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  const cited = new Set(markers);
  const distinct = new Set(
    [...cited].map((n) => {
      const ref = citations.find((c) => c.ordinal === n) as Parameters<typeof workKeys>[0] | undefined;
      return ref ? (workKeys(ref)[0] ?? String(n)) : `missing ${n}`;
    }),
  );
  return {
    question: serial.question,
    iterations: run?.iterations ?? world.objectives.length,
    axesSearched: (world.axes ?? []).filter((a) => a.status === "covered").map((a) => a.axis),
    axesWithFindings: (world.axes ?? []).filter((a) => a.findings > 0).map((a) => a.axis),
    screened: run?.referencesScreened ?? 0,
    accepted: run?.referencesAccepted ?? citations.length,
    distinctCited: distinct.size,
    findings: world.findings.length,
    repeated: repeatedFindings(world),
    contradictions: world.contradictions?.length ?? 0,
    markersResolve: markers.every((n) => citations.some((c) => c.ordinal === n)),
    msSerial: serial.ms,
    msTogether: together.ms,
    sameReply: serial.turn.reply === together.turn.reply,
  };
}

/** The recorded source responses, each source on its own path of one replay server. */
async function startSources(): Promise<ReplayServer> {
  const recorded = (file: string) => path.join(root, "../shared/fixtures/literature-apis", file);
  const synthetic = (file: string) => path.join(root, "tests/fixtures/literature", file);
  const delay = (ms: number) => (WITH_LATENCY ? { delayMs: ms } : {});
  return startReplayServer([
    { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json"), ...delay(600) },
    { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml"), ...delay(600) },
    { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json"), ...delay(800) },
    { path: /^\/ctgov\//, file: recorded("clinicaltrials-gov/biomcp_search_phelan_limit5_20260811.json"), ...delay(500) },
    { path: /^\/crossref\//, status: 404, body: { status: "error", message: "not found" }, ...delay(400) },
  ]);
}

/** The dev library: the fixture records, the confusion set, and the synthetic records. */
async function fillLibrary(url: string, dir: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
    let inserted = 0;
    for (const file of ["records.jsonl", "confusion.jsonl"]) {
      const full = path.join(root, "tests/fixtures/library", file);
      if (fs.existsSync(full)) inserted += (await importLibraryFile({ db: pool, file: full })).inserted;
    }
    const file = path.join(dir, "synthetic.jsonl");
    const out = fs.createWriteStream(file);
    for (const record of generateSyntheticRecords({ count: SYNTHETIC })) out.write(`${JSON.stringify(record)}\n`);
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    inserted += (await importLibraryFile({ db: pool, file })).inserted;
    await pool.query("ANALYZE agent.library_records");
    return inserted;
  } finally {
    await pool.end();
  }
}

