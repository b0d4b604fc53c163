import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepChatJobs } from "@/agent/chat/retention";
import { loadAgentConfig } from "@/agent/config";
import { chatJobStatusSchema, upstreamChatAcceptedASchema } from "@/lib/shared/contracts";
import { agentRequest, seedLibrary, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { until } from "../support/until";

type Agent = Awaited<ReturnType<typeof startTestAgent>>;

describe("public chat jobs are kept for their retention, then deleted with their question", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Agent;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local" });
    await seedLibrary(agent.pool);
  });
  afterAll(async () => {
    await agent?.stop();
    await database?.drop();
  });

  /** Asks the public chat API, as anyone may, and waits for the job to finish. */
  async function askAndFinish(target: Agent, message: string): Promise<string> {
    const accepted = await agentRequest(target.app, "/api/chat", { body: { message }, key: null });
    expect(accepted.status).toBe(202);
    const { requestId } = upstreamChatAcceptedASchema.parse(await accepted.json());
    await until(async () => {
      const status = chatJobStatusSchema.parse(await (await agentRequest(target.app, `/api/chat/status/${requestId}`, { key: null })).json());
      return status.status === "completed" || status.status === "failed";
    }, { what: "the chat job to finish" });
    return requestId;
  }
  /** Moves a job into the past, as the clock would after `seconds`. */
  const age = (id: string, seconds: number) =>
    agent.pool.query(
      `UPDATE agent.jobs SET created_at = created_at - make_interval(secs => $2), started_at = started_at - make_interval(secs => $2),
              finished_at = finished_at - make_interval(secs => $2) WHERE id = $1`,
      [id, seconds],
    );
  const jobRowsHolding = async (text: string) =>
    (await agent.pool.query("SELECT id FROM agent.jobs WHERE input::text LIKE $1 OR result::text LIKE $1 OR coalesce(error, '') LIKE $1", [`%${text}%`])).rowCount;

  it("a public chat question older than its retention is no longer in agent.jobs after the sweep, neither the question nor the answer", async () => {
    const marker = `retention-marker-${randomUUID()}`;
    const requestId = await askAndFinish(agent, `Does rapamycin extend lifespan in mice? ${marker}`);
    expect(await jobRowsHolding(marker)).toBe(1);

    // An hour and a second later the status route has forgotten it; the sweep deletes the row.
    await age(requestId, 3601);
    expect((await agentRequest(agent.app, `/api/chat/status/${requestId}`, { key: null })).status).toBe(404);
    await sweepChatJobs({ db: agent.pool, retentionSeconds: 3600 });
    expect(await jobRowsHolding(marker)).toBe(0);
    expect((await agent.pool.query("SELECT 1 FROM agent.jobs WHERE id = $1", [requestId])).rowCount).toBe(0);
  });

  it("keeps what is still within its retention, and never deletes a chat job that has not finished", async () => {
    const marker = `recent-marker-${randomUUID()}`;
    const recent = await askAndFinish(agent, `Metformin and frailty ${marker}`);
    await age(recent, 3500);
    // A job still running (under another process's live lease) is not finished: it stays whatever its age.
    const running = randomUUID();
    await agent.pool.query(
      `INSERT INTO agent.jobs (id, kind, status, input, attempts, locked_by, locked_until, created_at, started_at)
       VALUES ($1, 'chat', 'running', $2, 1, 'another-process/0', now() + interval '1 hour', now() - interval '2 hours', now() - interval '2 hours')`,
      [running, JSON.stringify({ message: "still running", conversationId: null })],
    );

    await sweepChatJobs({ db: agent.pool, retentionSeconds: 3600 });
    expect(await jobRowsHolding(marker)).toBe(1);
    expect(chatJobStatusSchema.parse(await (await agentRequest(agent.app, `/api/chat/status/${recent}`, { key: null })).json()).status).toMatch(/completed|failed/);
    expect((await agent.pool.query("SELECT 1 FROM agent.jobs WHERE id = $1", [running])).rowCount).toBe(1);
    await agent.pool.query("DELETE FROM agent.jobs WHERE id = $1", [running]);
  });

  it("the agent's workers sweep on their own, after CHAT_RETENTION_SECONDS (default the contract's hour)", async () => {
    expect(loadAgentConfig({}).chat.retentionSeconds).toBe(3600);
    const marker = `worker-sweep-marker-${randomUUID()}`;
    const requestId = await askAndFinish(agent, `Caloric restriction in primates ${marker}`);
    await age(requestId, 61);
    // An agent with a one-minute retention: its workers sweep when they start, and every 10 s.
    const short = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", CHAT_RETENTION_SECONDS: "60" });
    try {
      await until(async () => (await jobRowsHolding(marker)) === 0, { what: "the workers to delete the expired chat job" });
    } finally {
      await short.stop();
    }
  });
});
