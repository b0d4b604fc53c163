/**
 * `npm run bench -- chat-latency`: chat from submit to completed, against the replay server with
 * recorded-like latencies per source, serially and with many users arriving at once; through the
 * agent (POST /api/chat with the gateway's service key, as a paid chat reaches it) and through the
 * gateway's paid path (402, sign, pay, 202, poll) on a local chain. Goal: p50 ≤ 3 s, p99 ≤ 6 s.
 *
 * Latency profile (each request, uniform jitter ±25%, seeded so runs replay the same draws):
 *   PubMed esearch 600 ms and efetch 600 ms (a search is both, one after the other),
 *   Europe PMC search 800 ms, Crossref work and notices 400 ms each (a DOI check is both).
 * The sources keep their production rate limits (PubMed 10/s with an NCBI key, Europe PMC 8/s,
 * Crossref 5/s): with many users at once they are part of the figure.
 * Hit counts: `sparse` (default) answers every query with too few records, so a source left to
 * broaden on its own (`auto`, as in deep mode or with one of PubMed and Europe PMC disabled) sends
 * its broadened query after the strict one; `dense` (BENCH_CHAT_HITS=dense) reports hundreds of
 * hits, so the strict query suffices, as it does for common topics. The records returned are the
 * same. A chat's fast plan asks PubMed the strict query and Europe PMC the broadened one, one round
 * trip each, so both cases now make the same requests (docs/literature.md, "Chat latency").
 * Options: BENCH_CHAT_USERS (20), BENCH_CHAT_SERIAL (20), BENCH_CHAT_POLL_MS (100: the client's
 * poll interval; the contract's 750 ms would add up to that much to each figure), BENCH_CHAT_HITS.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadAgentConfig } from "../../agent/config";
import { createPayingFetch } from "../../lib/client/payments/client";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../../tests/support/agent";
import { findPostgresBin, freePort, startThrowawayPostgres } from "../../tests/support/postgres";
import { latencyProfile, startReplayServer, type ReplayRoute } from "../../tests/support/replay-server";
import { startLocalChain } from "../lib/local-chain";
import { startService, waitForHttp } from "../lib/processes";
import { percentile, root, saveResults } from "./common";

const USERS = Number(process.env.BENCH_CHAT_USERS ?? 20);
const SERIAL = Number(process.env.BENCH_CHAT_SERIAL ?? 20);
const POLL_MS = Number(process.env.BENCH_CHAT_POLL_MS ?? 100);
const HITS = process.env.BENCH_CHAT_HITS === "dense" ? "dense" : "sparse";
const GOAL = { p50: 3_000, p99: 6_000 };

/** The documented profile: mean milliseconds per request of each source. */
const LATENCY_PROFILE = { pubmedEsearch: 600, pubmedEfetch: 600, europepmc: 800, crossrefWork: 400, crossrefNotices: 400, jitter: 0.25 } as const;

const QUESTIONS = [
  "Is leucocyte telomere length associated with mortality?",
  "Does rapamycin extend lifespan in mice?",
  "Does metformin reduce all-cause mortality in older adults?",
  "Is caloric restriction associated with slower epigenetic aging?",
  "Do senolytics improve physical function in older people?",
  "Is grip strength associated with mortality in the elderly?",
  "Does NAD+ supplementation improve muscle function in aging?",
  "Is physical activity associated with longer telomeres?",
  "Does spermidine intake lower cardiovascular mortality?",
  "Are epigenetic clocks associated with frailty?",
];

/** A small seeded generator (mulberry32): the same jitter draws every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function profiledRoutes(): ReplayRoute[] {
  const random = seeded(13);
  const recorded = (file: string) => path.join(root, "../shared/fixtures/literature-apis", file);
  const synthetic = (file: string) => path.join(root, "tests/fixtures/literature", file);
  const delay = (ms: number) => latencyProfile(ms, { jitter: LATENCY_PROFILE.jitter, random });
  // The same records either way; `dense` only says there are many more, so no search broadens.
  const esearch = JSON.parse(fs.readFileSync(synthetic("pubmed-esearch-synthetic-27797938.json"), "utf8")) as { esearchresult: { count: string } };
  const europepmc = JSON.parse(fs.readFileSync(synthetic("europepmc-search-core-synthetic.json"), "utf8")) as { hitCount: number };
  if (HITS === "dense") {
    esearch.esearchresult.count = "250";
    europepmc.hitCount = 250;
  }
  return [
    { path: "/pubmed/esearch.fcgi", body: esearch, delayMs: delay(LATENCY_PROFILE.pubmedEsearch) },
    { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml"), delayMs: delay(LATENCY_PROFILE.pubmedEfetch) },
    { path: "/europepmc/search", body: europepmc, delayMs: delay(LATENCY_PROFILE.europepmc) },
    { path: /^\/crossref\/works\/.+/, file: recorded("crossref-openalex-unpaywall/derived_from_paperqa_doi_search_crossref_work.json"), delayMs: delay(LATENCY_PROFILE.crossrefWork) },
    {
      path: "/crossref/works",
      body: { status: "ok", "message-type": "work-list", message: { items: [], "total-results": 0 } },
      delayMs: delay(LATENCY_PROFILE.crossrefNotices),
    },
  ];
}

type Run = { label: string; times: number[]; responseTimes: number[]; failures: number };

function summary(run: Run) {
  return {
    label: run.label,
    n: run.times.length,
    p50: percentile(run.times, 50),
    p99: percentile(run.times, 99),
    max: Math.max(...run.times),
    agentResponseTimeP50: percentile(run.responseTimes, 50),
    failures: run.failures,
  };
}

function printRuns(runs: Run[]): void {
  console.log("| path | users | chats | p50 ms | p99 ms | max ms | agent responseTime p50 ms | failed | goal (p50 ≤ 3000, p99 ≤ 6000) |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---|");
  for (const run of runs) {
    const s = summary(run);
    const met = s.p50 <= GOAL.p50 && s.p99 <= GOAL.p99 && s.failures === 0;
    const [path, users] = run.label.split(" · ");
    console.log(`| ${path} | ${users} | ${s.n} | ${s.p50.toFixed(0)} | ${s.p99.toFixed(0)} | ${s.max.toFixed(0)} | ${s.agentResponseTimeP50.toFixed(0)} | ${s.failures} | ${met ? "met" : "missed"} |`);
  }
}

/** Runs `count` chats through `one`, `concurrency` at a time; each returns its submit-to-completed time. */
async function measure(label: string, count: number, concurrency: number, one: (i: number) => Promise<{ ms: number; responseTime: number }>): Promise<Run> {
  const run: Run = { label, times: [], responseTimes: [], failures: 0 };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        try {
          const { ms, responseTime } = await one(i);
          run.times.push(ms);
          run.responseTimes.push(responseTime);
        } catch (err) {
          run.failures++;
          console.warn(`  ${label}: chat ${i} failed: ${(err as Error).message}`);
        }
      }
    }),
  );
  return run;
}

async function pollUntilDone(read: () => Promise<{ status: string; result?: { responseTime?: number } | null; error?: string | null }>): Promise<number> {
  for (;;) {
    const status = await read();
    if (status.status === "completed") return status.result?.responseTime ?? NaN;
    if (status.status === "failed") throw new Error(status.error ?? "failed");
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export async function runChatLatencyBench(): Promise<void> {
  console.log("\n## Chat latency: submit to completed, recorded-like source latencies\n");
  console.log(
    `Profile: PubMed esearch ${LATENCY_PROFILE.pubmedEsearch} ms + efetch ${LATENCY_PROFILE.pubmedEfetch} ms, Europe PMC ${LATENCY_PROFILE.europepmc} ms, Crossref work ${LATENCY_PROFILE.crossrefWork} ms + notices ${LATENCY_PROFILE.crossrefNotices} ms, each ±${LATENCY_PROFILE.jitter * 100}%; production rate limits; ${HITS} hit counts; client polls every ${POLL_MS} ms.\n`,
  );
  const bin = findPostgresBin();
  if (!bin) throw new Error("the chat-latency bench needs the PostgreSQL server binaries (apt-get install postgresql)");
  const pg = await startThrowawayPostgres(bin);
  const replay = await startReplayServer(profiledRoutes());
  const defaults = loadAgentConfig({});
  const agent = await startTestAgent({
    POSTGRES_URL: pg.url,
    PUBMED_BASE_URL: `${replay.url}/pubmed`,
    EUROPEPMC_BASE_URL: `${replay.url}/europepmc`,
    CROSSREF_BASE_URL: `${replay.url}/crossref`,
    LITERATURE_SOURCES: "pubmed,europepmc,crossref,local",
    NCBI_API_KEY: "bench-ncbi-key",
    // The agent as `npm run agent` runs it: its own defaults for workers and polling.
    AGENT_WORKERS: process.env.AGENT_WORKERS ?? String(defaults.jobs.workers),
    JOB_POLL_MS: process.env.JOB_POLL_MS ?? String(defaults.jobs.pollMs),
    // 1: the sources' own limits. A large value takes them out, to see what else the figure holds.
    SOURCE_RATE_MULTIPLIER: process.env.SOURCE_RATE_MULTIPLIER ?? "1",
  });
  const chain = await startLocalChain({ port: await freePort(), walletCount: Math.max(USERS, 10) + 2, usdcPerWallet: 1_000n * 10n ** 6n });
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-bench-chat-"));
  const gateway = startService({
    name: "gateway",
    command: process.execPath,
    args: ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/lib/route-server.ts"), String(gatewayPort)],
    env: {
      ...process.env,
      LOG_SILENT: "1",
      DATA_DIR: dataDir,
      POSTGRES_URL: pg.url,
      UPSTREAM_API_URL: agent.url,
      AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
      PUBLIC_URL: gatewayUrl,
      RPC_URL: chain.rpcUrl,
      X402_ASSET: chain.asset,
      PAY_TO_ADDRESS: chain.testWallets.at(-1)!.address,
      INVALID_PAYMENT_LIMIT: "1000000",
    },
    quiet: true,
  });
  const runs: Run[] = [];
  try {
    await waitForHttp(`${gatewayUrl}/api/health`, { statuses: [200, 503] });

    // The agent path: the service key, so each start is answered once its search reached a source.
    const viaAgent = async (i: number) => {
      const started = performance.now();
      const accepted = await agentRequest(agent.app, "/api/chat", { body: { message: QUESTIONS[i % QUESTIONS.length] } });
      if (accepted.status !== 202) throw new Error(`agent answered ${accepted.status}`);
      const { requestId } = (await accepted.json()) as { requestId: string };
      const responseTime = await pollUntilDone(async () => (await agentRequest(agent.app, `/api/chat/status/${requestId}`)).json() as never);
      return { ms: performance.now() - started, responseTime };
    };
    await measure("warm-up", 3, 1, viaAgent);
    runs.push(await measure("agent · one at a time", SERIAL, 1, viaAgent));
    runs.push(await measure(`agent · ${USERS} at once`, USERS, USERS, viaAgent));

    // The gateway's paid path: 402, sign, paid POST (settled before the 202), then free polls.
    let wallet = 0;
    const viaGateway = async (i: number) => {
      const { fetch: pay } = createPayingFetch({ privateKey: chain.testWallets[wallet++ % (chain.testWallets.length - 1)]!.privateKey, network: chain.network, asset: chain.asset });
      const started = performance.now();
      const accepted = await pay(`${gatewayUrl}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: QUESTIONS[i % QUESTIONS.length] }) });
      if (accepted.status !== 202) throw new Error(`gateway answered ${accepted.status}: ${await accepted.text()}`);
      const { requestId } = (await accepted.json()) as { requestId: string };
      const responseTime = await pollUntilDone(async () => (await fetch(`${gatewayUrl}/api/chat/status/${requestId}`)).json() as never);
      return { ms: performance.now() - started, responseTime };
    };
    await measure("warm-up", 2, 1, viaGateway);
    runs.push(await measure("gateway, paid · one at a time", SERIAL, 1, viaGateway));
    runs.push(await measure(`gateway, paid · ${USERS} at once`, USERS, USERS, viaGateway));

    printRuns(runs);
    const chats = runs.reduce((n, r) => n + r.times.length + r.failures, 0) + 5; // and the five warm-ups
    const counts = (pattern: RegExp) => replay.requestsTo(pattern).length;
    console.log(
      `\nRequests the sources received over ${chats} chats: PubMed esearch ${counts(/esearch/)}, efetch ${counts(/efetch/)}; Europe PMC ${counts(/^\/europepmc\//)}; Crossref ${counts(/^\/crossref\//)}.`,
    );
    saveResults("chat-latency", { profile: LATENCY_PROFILE, hits: HITS, pollMs: POLL_MS, goal: GOAL, runs: runs.map(summary) });
  } finally {
    await gateway.stop();
    await chain.stop();
    await agent.stop();
    await replay.close();
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
