/**
 * A fast-mode literature job against the replay server with zero added latency (the agent's own
 * rate limits raised by SOURCE_RATE_MULTIPLIER, as the issue allows): time from submit to
 * completed, through the agent's HTTP API, its queue, its workers and its engine.
 */
import path from "node:path";
import { agentRequest, startTestAgent } from "../../tests/support/agent";
import { findPostgresBin, startThrowawayPostgres } from "../../tests/support/postgres";
import { startReplayServer } from "../../tests/support/replay-server";
import { percentile, root, saveResults } from "./common";

const JOBS = Number(process.env.BENCH_AGENT_JOBS ?? 40);

export async function runAgentBench(): Promise<void> {
  console.log("\n## Agent: fast-mode literature job, submit to completed\n");
  const bin = findPostgresBin();
  if (!bin) throw new Error("the agent bench needs the PostgreSQL server binaries (apt-get install postgresql)");
  const pg = await startThrowawayPostgres(bin);
  const recorded = (file: string) => path.join(root, "../shared/fixtures/literature-apis", file);
  const synthetic = (file: string) => path.join(root, "tests/fixtures/literature", file);
  const replay = await startReplayServer([
    { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
    { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
    { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json") },
  ]);
  const agent = await startTestAgent({
    POSTGRES_URL: pg.url,
    PUBMED_BASE_URL: `${replay.url}/pubmed`,
    EUROPEPMC_BASE_URL: `${replay.url}/europepmc`,
    LITERATURE_SOURCES: "pubmed,europepmc,local",
    SOURCE_RATE_MULTIPLIER: "1000",
    AGENT_WORKERS: "4",
    JOB_POLL_MS: "250",
  });
  try {
    const times: number[] = [];
    for (let i = 0; i < JOBS + 3; i++) {
      const started = performance.now();
      const response = await agentRequest(agent.app, "/api/literature", { body: { question: `leucocyte telomere length and mortality ${i}` } });
      const { jobId } = (await response.json()) as { jobId: string };
      for (;;) {
        const poll = (await (await agentRequest(agent.app, `/api/literature/jobs/${jobId}`)).json()) as { status: string };
        if (poll.status === "completed") break;
        if (poll.status === "failed") throw new Error(`job failed: ${JSON.stringify(poll)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      if (i >= 3) times.push(performance.now() - started); // three warm-up jobs
    }
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    console.log("| jobs | p50 ms | p99 ms | goal p50 |");
    console.log("|---:|---:|---:|---:|");
    console.log(`| ${JOBS} | ${p50.toFixed(0)} | ${p99.toFixed(0)} | ≤ 1500 |`);
    saveResults("agent", { jobs: JOBS, p50, p99, database: "PostgreSQL (throwaway cluster)" });
  } finally {
    await agent.stop();
    await replay.close();
    await pg.stop();
  }
}
