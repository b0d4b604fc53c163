/**
 * Against the replay server with zero added latency (the agent's own rate limits raised by
 * SOURCE_RATE_MULTIPLIER, as the issues allow): a fast-mode literature job and a chat (extractive
 * writer), each from submit to completed through the agent's API, queue, workers and engine;
 * 200 concurrent /api/chat/sync streams on one agent process, counted completed, errored, dropped;
 * and a paid chat's wait for a worker (queued to started) with 500 free chats queued at once ahead
 * of it, against its wait on an empty queue and the wait of the last free chat of the burst.
 */
import path from "node:path";
import pg from "pg";
import { enqueueJob } from "../../agent/jobs/queue";
import { jobWakeups } from "../../agent/jobs/worker";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../../tests/support/agent";
import { findPostgresBin, startThrowawayPostgres } from "../../tests/support/postgres";
import { startReplayServer } from "../../tests/support/replay-server";
import { percentile, root, saveResults } from "./common";

const JOBS = Number(process.env.BENCH_AGENT_JOBS ?? 40);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);

export async function runAgentBench(): Promise<void> {
  console.log("\n## Agent: fast-mode literature job, submit to completed\n");
  const bin = findPostgresBin();
  if (!bin) throw new Error("the agent bench needs the PostgreSQL server binaries (apt-get install postgresql)");
  const server = await startThrowawayPostgres(bin);
  const recorded = (file: string) => path.join(root, "../shared/fixtures/literature-apis", file);
  const synthetic = (file: string) => path.join(root, "tests/fixtures/literature", file);
  const replay = await startReplayServer([
    { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
    { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
    { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json") },
  ]);
  const agent = await startTestAgent({
    POSTGRES_URL: server.url,
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

    // Chat with the extractive writer: submit to completed through the public API.
    console.log("\n## Agent: chat (extractive writer), submit to completed\n");
    const chatTimes: number[] = [];
    for (let i = 0; i < JOBS + 3; i++) {
      const started = performance.now();
      const { requestId } = (await (await agentRequest(agent.app, "/api/chat", { body: { message: `Is leucocyte telomere length associated with mortality? ${i}` } })).json()) as { requestId: string };
      for (;;) {
        const status = (await (await agentRequest(agent.app, `/api/chat/status/${requestId}`)).json()) as { status: string };
        if (status.status === "completed") break;
        if (status.status === "failed") throw new Error("chat failed");
        await new Promise((r) => setTimeout(r, 10));
      }
      if (i >= 3) chatTimes.push(performance.now() - started);
    }
    console.log("| chats | p50 ms | p99 ms | goal p50 |");
    console.log("|---:|---:|---:|---:|");
    console.log(`| ${JOBS} | ${percentile(chatTimes, 50).toFixed(0)} | ${percentile(chatTimes, 99).toFixed(0)} | ≤ 2000 |`);

    // 200 concurrent server-sent event streams on one agent process (service key: not rate limited).
    console.log("\n## Agent: 200 concurrent /api/chat/sync streams\n");
    const streamsStarted = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: STREAMS }, async (_, i) => {
        try {
          const response = await fetch(`${agent.url}/api/chat/sync`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${TEST_SERVICE_KEY}` },
            body: JSON.stringify({ message: `telomere length and mortality, stream ${i}` }),
          });
          const text = await response.text();
          return text.includes("event: completed") ? "completed" : text.includes("event: error") ? "error" : "dropped";
        } catch {
          return "dropped";
        }
      }),
    );
    const count = (o: string) => outcomes.filter((x) => x === o).length;
    console.log("| streams | completed | error events | dropped | seconds |");
    console.log("|---:|---:|---:|---:|---:|");
    console.log(`| ${STREAMS} | ${count("completed")} | ${count("error")} | ${count("dropped")} | ${((performance.now() - streamsStarted) / 1000).toFixed(1)} |`);

    // Paid work first: a paid chat's wait for a worker, alone and behind 500 free chats queued at once.
    console.log("\n## Agent: a paid chat's wait for a worker, with 500 free chats queued ahead of it\n");
    const pool = new pg.Pool({ connectionString: server.url, max: 4 });
    const waitOf = async (id: string) => {
      for (;;) {
        const { rows } = await pool.query<{ waited: number | null; status: string }>(
          "SELECT extract(epoch FROM started_at - created_at) * 1000 AS waited, status FROM agent.jobs WHERE id = $1",
          [id],
        );
        if (rows[0]?.waited != null) return Number(rows[0].waited);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const paidChat = async (message: string) =>
      ((await (await agentRequest(agent.app, "/api/chat", { body: { message } })).json()) as { requestId: string }).requestId;
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) alone.push(await waitOf(await paidChat(`telomere length and mortality, paid alone ${i}`)));
    const free: string[] = [];
    for (let i = 0; i < 500; i++) free.push((await enqueueJob({ db: pool, kind: "chat", input: { message: `telomere length and mortality, free ${i}`, conversationId: null }, lane: "free" })).id);
    jobWakeups.emit("job");
    const paidBehind = await waitOf(await paidChat("telomere length and mortality, paid behind the burst"));
    const lastFree = await waitOf(free.at(-1)!);
    await pool.end();
    console.log("| paid wait, empty queue (median of 5) ms | paid wait, 500 free queued ms | last free chat's wait ms | paid / last free |");
    console.log("|---:|---:|---:|---:|");
    console.log(`| ${percentile(alone, 50).toFixed(0)} | ${paidBehind.toFixed(0)} | ${lastFree.toFixed(0)} | ${(paidBehind / lastFree).toFixed(4)} |`);

    saveResults("agent", {
      paidPriority: { freeQueued: 500, workers: 4, paidWaitEmptyMs: percentile(alone, 50), paidWaitBehindFreeMs: paidBehind, lastFreeWaitMs: lastFree },
      literatureJobs: { jobs: JOBS, p50, p99 },
      chat: { chats: JOBS, p50: percentile(chatTimes, 50), p99: percentile(chatTimes, 99) },
      streams: { streams: STREAMS, completed: count("completed"), errors: count("error"), dropped: count("dropped") },
      database: "PostgreSQL (throwaway cluster)",
    });
  } finally {
    await agent.stop();
    await replay.close();
    await server.stop();
  }
}
