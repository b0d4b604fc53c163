/**
 * The local library's figures:
 *
 * 1. Known-item retrieval on PubMedQA (../shared/eval/pubmedqa-dev/pqal_dev.json, 500 items): each
 *    item's contexts imported as the abstract (no title: the library derives one; the question is
 *    never stored), its MeSH and year; then each QUESTION searched, and recall@1, recall@10 and MRR
 *    of the gold PMID, against a plain in-memory BM25 (k1 1.2, b 0.75) over the same texts,
 *    measured in the same run.
 * 2. searchLibrary latency (p50/p99) with those 500 records, and with 100,000 (99,500 synthetic
 *    records from a seeded generator added), plus the time to import them.
 *
 * The path measured is searchLibrary (agent/library/search.ts), the function the agent's "local"
 * source calls, invoked directly: the agent's HTTP route (POST /api/literature with only the local
 * source configured) is not wired into this section yet.
 *
 * Database: POSTGRES_URL (a fresh database is created on it and dropped after), else a throwaway
 * PostgreSQL cluster from the installed binaries, else (or with BENCH_DATABASE=pglite) the embedded
 * PGlite. BENCH_LIBRARY_RECORDS changes the large corpus size (default 100000).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { agentMigrations } from "../../agent/db/migrations";
import { importLibraryFile } from "../../agent/library/import";
import { searchLibrary } from "../../agent/library/search";
import { agentRequest, startTestAgent } from "../../tests/support/agent";
import { extractTerms } from "../../agent/literature/terms";
import type { SourceQuery } from "../../agent/literature/sources/types";
import { runMigrations } from "../../lib/shared/db/migrate";
import { generateSyntheticRecords } from "../../tests/fixtures/library/synthetic-records";
import { openBenchDatabase, percentile, saveResults } from "./common";
import { LIMIT, measureBm25, readPubmedQa, summariseRanks, writePubmedQaJsonLines, type PubmedQaItem, type Quality } from "./pubmedqa";

const LARGE = Number(process.env.BENCH_LIBRARY_RECORDS ?? 100_000);
/** The figures the issue sets: the reference BM25's on this data, and the latency ceilings. */
const TARGETS = { recallAt10: 0.994, mrr: 0.974, p50SmallMs: 30, p50LargeMs: 100 };
type Latency = { name: string; records: number; queries: number; p50: number; p99: number; mean: number };

export async function runLibraryBench(): Promise<void> {
  console.log("\n## Local library (Postgres full-text search)\n");
  const database = await openBenchDatabase("bench_library");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-bench-library-"));
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  console.log(`Database: ${database.label}. Measured through searchLibrary (agent/library/search.ts) directly, ` +
    `the code the agent's "local" source runs, and end to end through the agent's POST /api/literature with only the local source.\n`);
  try {
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
    const items = readPubmedQa();
    const smallFile = path.join(dir, "pubmedqa.jsonl");
    writePubmedQaJsonLines(smallFile, items);
    const smallImport = await timed(() => importLibraryFile({ db: pool, file: smallFile }));
    if (smallImport.value.inserted !== items.length) throw new Error(`imported ${smallImport.value.inserted} of ${items.length} PubMedQA records`);

    // 1. Known-item retrieval.
    console.log(`### Known-item retrieval: ${items.length} PubMedQA questions, gold = the item's PMID\n`);
    const asText = (question: string): SourceQuery => ({ text: question, terms: [], limit: LIMIT });
    const asEngine = (question: string): SourceQuery => ({ text: question, terms: extractTerms(question).map((t) => t.term), limit: LIMIT });
    const library = await measureQuality({ name: "library: searchLibrary, the question's words", pool, items, toQuery: asText });
    const libraryEngine = await measureQuality({ name: "library: searchLibrary, the engine's extracted terms", pool, items, toQuery: asEngine });
    const bm25Abstract = measureBm25({ name: "reference: plain BM25, abstract", items, withMesh: false });
    const bm25Indexed = measureBm25({ name: "reference: plain BM25, abstract + MeSH (what the library indexes)", items, withMesh: true });
    const chat = await measureChat({ url: database.url, items });
    const viaApiRanked = await measureQualityThroughApi({ url: database.url, items, filterReferences: false });
    const viaApiAccepted = await measureQualityThroughApi({ url: database.url, items, filterReferences: true });
    const quality = [bm25Abstract, bm25Indexed, library, libraryEngine, viaApiRanked, viaApiAccepted];
    console.log("| ranking | recall@1 | recall@10 | MRR | recall@10 vs BM25 (abstract) | MRR vs BM25 (abstract) |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const q of quality) {
      console.log(`| ${q.name} | ${q.recallAt1.toFixed(3)} | ${q.recallAt10.toFixed(3)} | ${q.mrr.toFixed(3)} | ${(q.recallAt10 / bm25Abstract.recallAt10).toFixed(3)}× | ${(q.mrr / bm25Abstract.mrr).toFixed(3)}× |`);
    }
    const met = (q: Quality) => (q.recallAt10 >= TARGETS.recallAt10 && q.mrr >= TARGETS.mrr ? "met" : "NOT met");
    console.log(
      `\nTargets (the issue's BM25 figures): recall@10 ≥ ${TARGETS.recallAt10}, MRR ≥ ${TARGETS.mrr}: ` +
        `searchLibrary ${met(library)}; POST /api/literature ranking ${met(viaApiRanked)}. The accepted-references row ` +
        `is lower by design: the engine accepts only a reference that names the question's concepts and holds enough of its weight (docs/literature.md, Relevance), and a gold abstract that does not use the question's words misses.`,
    );
    console.log(`Each search asks for ${LIMIT} results, so MRR is MRR@${LIMIT} for every row (a gold record further down counts 0; full MRR can only be higher). BM25 tokenises lower-case alphanumeric runs without stemming, English stop words removed.`);

    console.log(`\n### Chat answers from the local library alone (${items.length} PubMedQA questions)\n`);
    console.log("| contractValid | own PMID cited as supporting | goal |");
    console.log("|---:|---:|---|");
    console.log(`| ${(chat.contractValid * 100).toFixed(1)}% | ${(chat.ownSupporting * 100).toFixed(1)}% | 100% and ≥ 95% |`);

    // 2. Latency.
    const questions = items.map(([, it]) => it.QUESTION);
    const latency: Latency[] = [];
    latency.push(await measureLatency({ name: "PubMedQA questions", pool, records: items.length, questions }));

    const synthetic = LARGE - items.length;
    const largeFile = path.join(dir, "synthetic.jsonl");
    const titles: string[] = [];
    await writeLines(largeFile, (function* () {
      let i = 0;
      for (const record of generateSyntheticRecords({ count: synthetic })) {
        if (i++ % Math.max(1, Math.floor(synthetic / 300)) === 0) titles.push(record.title);
        yield JSON.stringify(record);
      }
    })());
    const largeImport = await timed(() => importLibraryFile({ db: pool, file: largeFile }));
    await pool.query("VACUUM ANALYZE agent.library_records");
    latency.push(await measureLatency({ name: "PubMedQA questions", pool, records: LARGE, questions }));
    latency.push(await measureLatency({ name: "synthetic titles as queries (common vocabulary)", pool, records: LARGE, questions: titles }));
    const largeQuality = await measureQuality({ name: `library at ${LARGE} records`, pool, items, toQuery: asText });

    console.log(`\n### searchLibrary latency (limit ${LIMIT}, one query at a time, after a warm-up pass)\n`);
    console.log("| records | queries | p50 ms | p99 ms | mean ms | target p50 |");
    console.log("|---:|---|---:|---:|---:|---:|");
    for (const l of latency) {
      const target = l.records <= items.length ? TARGETS.p50SmallMs : TARGETS.p50LargeMs;
      console.log(`| ${l.records} | ${l.name} (${l.queries}) | ${l.p50.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.mean.toFixed(1)} | ≤ ${target} ${l.p50 <= target ? "met" : "NOT met"} |`);
    }
    console.log(`\nAt ${LARGE} records the PubMedQA items are still found: recall@1 ${largeQuality.recallAt1.toFixed(3)}, recall@10 ${largeQuality.recallAt10.toFixed(3)}, MRR ${largeQuality.mrr.toFixed(3)}.`);

    console.log("\n### Import\n");
    console.log("| file | records | inserted | duplicates | rejected | seconds | records/s |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    const imports = [
      { file: "PubMedQA JSON Lines", records: items.length, ...smallImport },
      { file: "synthetic JSON Lines", records: synthetic, ...largeImport },
    ];
    for (const i of imports) {
      const s = i.ms / 1000;
      console.log(`| ${i.file} | ${i.records} | ${i.value.inserted} | ${i.value.duplicates} | ${i.value.rejected.length} | ${s.toFixed(1)} | ${Math.round(i.records / s)} |`);
    }
    const again = await timed(() => importLibraryFile({ db: pool, file: smallFile }));
    console.log(`\nImporting the PubMedQA file again: ${again.value.inserted} inserted, ${again.value.duplicates} duplicates (${(again.ms / 1000).toFixed(2)} s).`);

    saveResults("library", {
      database: database.label,
      path: "searchLibrary (direct call)",
      quality,
      largeQuality,
      targets: TARGETS,
      latency,
      imports: imports.map((i) => ({ file: i.file, records: i.records, inserted: i.value.inserted, duplicates: i.value.duplicates, rejected: i.value.rejected.length, seconds: i.ms / 1000 })),
    });
  } finally {
    await pool.end();
    await database.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function measureQuality({
  name,
  pool,
  items,
  toQuery,
}: {
  name: string;
  pool: pg.Pool;
  items: [string, PubmedQaItem][];
  toQuery: (question: string) => SourceQuery;
}): Promise<Quality> {
  const ranks: number[] = [];
  for (const [pmid, item] of items) {
    const hits = await searchLibrary({ db: pool, query: toQuery(item.QUESTION) });
    ranks.push(hits.findIndex((h) => h.record.ids.pmid === pmid) + 1);
  }
  return summariseRanks(name, ranks);
}

/**
 * The product path: each question through the agent's POST /api/literature (fast mode, only the
 * local library, maxResults 10), the gold PMID's position in the completed job's references.
 * The engine re-judges and orders the library's candidates by its own relevance score; with
 * filterReferences false that is the ranking, by default the accepted references only.
 */
async function measureQualityThroughApi({
  url,
  items,
  filterReferences,
}: {
  url: string;
  items: [string, PubmedQaItem][];
  filterReferences: boolean;
}): Promise<Quality> {
  const agent = await startTestAgent({ POSTGRES_URL: url, LITERATURE_SOURCES: "local", AGENT_WORKERS: "4" });
  try {
    const ranks: number[] = [];
    for (const [pmid, item] of items) {
      const accepted = await agentRequest(agent.app, "/api/literature", { body: { question: item.QUESTION, maxResults: LIMIT, filterReferences } });
      const { jobId } = (await accepted.json()) as { jobId: string };
      let result: { status: string; references?: { pmid?: string | null }[] };
      for (;;) {
        result = (await (await agentRequest(agent.app, `/api/literature/jobs/${jobId}`)).json()) as typeof result;
        if (result.status === "completed" || result.status === "failed") break;
        await new Promise((r) => setTimeout(r, 5));
      }
      ranks.push((result.references ?? []).findIndex((r) => r.pmid === pmid) + 1);
    }
    return summariseRanks(
      filterReferences
        ? "agent: POST /api/literature, local only, default (accepted references after the relevance filter)"
        : "agent: POST /api/literature, local only, filterReferences false (the engine's ranking)",
      ranks,
    );
  } finally {
    await agent.stop();
  }
}

/** Each question as a chat (service key, local library only): contract validity and the gold PMID cited as supporting. */
async function measureChat({ url, items }: { url: string; items: [string, PubmedQaItem][] }): Promise<{ contractValid: number; ownSupporting: number }> {
  const agent = await startTestAgent({ POSTGRES_URL: url, LITERATURE_SOURCES: "local", AGENT_WORKERS: "4" });
  let valid = 0;
  let own = 0;
  try {
    for (const [pmid, item] of items) {
      const { requestId } = (await (await agentRequest(agent.app, "/api/chat", { body: { message: item.QUESTION } })).json()) as { requestId: string };
      let status: { status: string; result?: { quality: { contractValid: boolean; citedSupportingOrdinals: number[] }; references: { ordinal: number; pmid?: string | null }[] } };
      for (;;) {
        status = (await (await agentRequest(agent.app, `/api/chat/status/${requestId}`)).json()) as typeof status;
        if (status.status === "completed" || status.status === "failed") break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const result = status.result;
      if (result?.quality.contractValid) valid++;
      const gold = result?.references.find((r) => r.pmid === pmid);
      if (gold && result!.quality.citedSupportingOrdinals.includes(gold.ordinal)) own++;
    }
  } finally {
    await agent.stop();
  }
  return { contractValid: valid / items.length, ownSupporting: own / items.length };
}


async function measureLatency({ name, pool, records, questions }: { name: string; pool: pg.Pool; records: number; questions: string[] }): Promise<Latency> {
  const run = async () => {
    const times: number[] = [];
    for (const text of questions) {
      const started = performance.now();
      await searchLibrary({ db: pool, query: { text, terms: [], limit: LIMIT } });
      times.push(performance.now() - started);
    }
    return times;
  };
  await run();
  const times = await run();
  return { name, records, queries: questions.length, p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}


async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const out = fs.createWriteStream(file);
  for (const line of lines) {
    if (!out.write(line + "\n")) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}
