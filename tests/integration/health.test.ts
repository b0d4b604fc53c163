import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createJobCounts, JOB_COUNTS_MAX_AGE_MS } from "@/agent/jobs/job-counts";
import { GET } from "@/app/api/health/route";
import { healthResponseSchema, type HealthResponse } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import type { Queryable } from "@/lib/shared/db";
import { upsertConversationStatus } from "@/lib/shared/db/queries/conversations";
import { createPaidRequestCounts, PAID_REQUEST_COUNTS_MAX_AGE_MS } from "@/lib/shared/db/queries/paid-requests";
import { agentRequest, seedLibrary, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { closedUrl, startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain } from "../support/payments";
import { findPostgresBin, startThrowawayPostgres } from "../support/postgres";

async function health(): Promise<{ status: number; body: HealthResponse }> {
  const response = await GET(new Request("http://gateway.test/api/health"));
  const body = healthResponseSchema.parse(await response.json());
  return { status: response.status, body };
}

describe("GET /api/health", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let upstream: HttpDouble;
  let upstreamAnswer: { status: number; body?: unknown; delayMs?: number };
  let restore: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startHttpDouble(() => upstreamAnswer);
  });
  afterEach(async () => {
    await restore?.();
    restore = undefined;
  });
  afterAll(async () => {
    await upstream.close();
    await database.drop();
  });

  const configure = async (env: Parameters<typeof configureGateway>[0] = {}) => {
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: upstream.url,
      // Only the tests of slowness and of timeouts set thresholds an answer can pass: a busy
      // machine's first connection must not make the other tests' components read slow.
      HEALTH_SLOW_MS: "4000",
      HEALTH_TIMEOUT_MS: "5000",
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      RPC_URL: chain().rpcUrl,
      ...env,
    });
  };

  it("is healthy with a reachable database and upstream, and reports the contract's fields", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" } };
    await configure();
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.status).toBe("healthy");
    expect(body.components.database).toMatchObject({ status: "healthy", message: null });
    expect(body.components.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.components.upstreamApi).toMatchObject({ status: "healthy", message: null });
    expect(body.components.payments).toMatchObject({ status: "healthy", message: null });
    expect(body.version).toBe("0.1.0");
    expect(body.config).toMatchObject({
      upstreamApiBaseUrl: upstream.url,
      network: "eip155:31337",
      pricing: {
        "POST /api/deep-research/start": "$1.00",
        "POST /api/deep-research/encrypted": "$1.00",
        "POST /api/chat": "$0.02",
        "POST /api/chat/encrypted": "$0.02",
        "POST /api/literature": "$0.03",
        "POST /api/literature/encrypted": "$0.03",
      },
    });
    // The upstream check is a real call to the agent, with the service key.
    const call = upstream.requests.at(-1);
    expect(call?.path).toBe("/api/health");
    expect(call?.headers.authorization).toBe("Bearer service-key-for-tests-0123");
  });

  it("is down (503) when payments cannot be taken: the chain's RPC unreachable or serving another chain, a hosted facilitator unreachable", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" } };
    await configure({ RPC_URL: await closedUrl() });
    let report = await health();
    expect(report.status).toBe(503);
    expect(report.body.components.payments).toMatchObject({ status: "down", message: expect.stringMatching(/^the chain's RPC could not be reached \(ECONNREFUSED\)$/) });
    expect(report.body.components.database.status).toBe("healthy");
    await restore?.();

    const otherChain = await startHttpDouble(() => ({ status: 200, body: { jsonrpc: "2.0", id: 1, result: "0x2105" } }));
    try {
      await configure({ RPC_URL: otherChain.url });
      report = await health();
      expect(report.status).toBe(503);
      expect(report.body.components.payments?.message).toBe("the chain's RPC serves chain 8453, not 31337");
      await restore?.();
    } finally {
      await otherChain.close();
    }

    await configure({ FACILITATOR_URL: await closedUrl() });
    report = await health();
    expect(report.status).toBe(503);
    expect(report.body.components.payments?.message).toMatch(/^the facilitator could not be reached/);
  });

  it("counts conversations by status", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" } };
    await configure();
    const db = await getDb();
    await upsertConversationStatus({ db, conversationId: "h1", status: "queued" });
    await upsertConversationStatus({ db, conversationId: "h2", status: "timeout" });
    const { body } = await health();
    expect(body.conversations).toEqual({ total: 2, byStatus: { queued: 1, timeout: 1 } });
  });

  it("counts the paid requests it has settled by kind, private ones included, at most once every few seconds", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" } };
    await configure();
    const db = await getDb();
    const insert = async (operation: string, status: string) =>
      db.query(
        `INSERT INTO gateway.payments (id, network, asset, payer, nonce, signature, operation, route, amount, request_digest, payload, requirements, valid_after, valid_before, status)
         VALUES ($1::uuid, 'eip155:31337', '0xasset', '0xpayer', $1::text, '0xsig', $2, $2, 20000, 'digest', '{}', '{}', 0, 1, $3)`,
        [randomUUID(), operation, status],
      );
    let queries = 0;
    const counting: Queryable = {
      query: ((text: string, params?: unknown[]) => {
        if (/FROM gateway\.payments WHERE status = 'settled'/.test(text)) queries++;
        return db.query(text, params);
      }) as Queryable["query"],
    };
    let nowMs = 1_000_000;
    const count = createPaidRequestCounts({ now: () => nowMs });
    const before = await count({ db: counting });
    for (const operation of ["chat", "chat", "chatEncrypted", "literature", "deepResearchEncrypted"]) await insert(operation, "settled");
    // What charged nothing, or not yet, is not a request served.
    await insert("chat", "voided");
    await insert("deepResearch", "scheduled");
    await Promise.all(Array.from({ length: 10 }, () => count({ db: counting })));
    expect(queries).toBe(1);
    nowMs += PAID_REQUEST_COUNTS_MAX_AGE_MS;
    expect(await count({ db: counting })).toEqual({ chats: before.chats + 3, literatureSearches: before.literatureSearches + 1, deepResearchRuns: before.deepResearchRuns + 1 });
    expect(queries).toBe(2);
    // The report carries the counts beside the deep-research conversations (the route's own counter may be a few seconds behind).
    const { body } = await health();
    expect(body.paidRequests).toEqual({ chats: expect.any(Number), literatureSearches: expect.any(Number), deepResearchRuns: expect.any(Number) });
  });

  it("is degraded (200) when the upstream is slow", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" }, delayMs: 300 };
    await configure({ HEALTH_SLOW_MS: "150" });
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.status).toBe("degraded");
    expect(body.components.upstreamApi.status).toBe("degraded");
    expect(body.components.upstreamApi.latencyMs).toBeGreaterThanOrEqual(300);
    expect(body.components.upstreamApi.message).toMatch(/slow/);
  });

  it("is down (503) when the upstream answers 5xx, whatever its body says", async () => {
    upstreamAnswer = { status: 503, body: { status: "down" } };
    await configure();
    const reportsDown = await health();
    expect(reportsDown.status).toBe(503);
    expect(reportsDown.body.status).toBe("down");
    expect(reportsDown.body.components.upstreamApi).toMatchObject({ status: "down", message: "answered 503 and reports itself down" });

    upstreamAnswer = { status: 500, body: "Internal Server Error" };
    const bare = await health();
    expect(bare.status).toBe(503);
    expect(bare.body.components.upstreamApi).toMatchObject({ status: "down", message: "answered 500" });
    expect(bare.body.components.database.status).toBe("healthy");
  });

  it("is down (503) when the upstream answers 200 but reports itself down", async () => {
    upstreamAnswer = { status: 200, body: { status: "down", components: { database: { status: "down" } } } };
    await configure();
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.components.upstreamApi).toMatchObject({ status: "down", message: "reports itself down: its database is down" });
  });

  it("stays degraded (200) when the upstream reports itself degraded (a literature source failing)", async () => {
    upstreamAnswer = { status: 200, body: { status: "degraded" } };
    await configure();
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body.components.upstreamApi).toMatchObject({ status: "degraded", message: "reports itself degraded" });
  });

  it("is down (503) when the upstream is unreachable", async () => {
    upstreamAnswer = { status: 200 };
    await configure({ UPSTREAM_API_URL: await closedUrl() });
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.status).toBe("down");
    expect(body.components.upstreamApi).toMatchObject({ status: "down", latencyMs: null });
    expect(body.components.upstreamApi.message).toMatch(/ECONNREFUSED/);
    expect(body.components.database.status).toBe("healthy");
  });

  it("is down (503) when the upstream does not answer in time", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" }, delayMs: 2_000 };
    await configure({ HEALTH_TIMEOUT_MS: "600" });
    const before = upstream.requests.length;
    const { status, body } = await health();
    expect(upstream.requests.length - before).toBe(1); // health reports what is, without retries
    expect(status).toBe(503);
    expect(body.components.upstreamApi.status).toBe("down");
    expect(body.components.upstreamApi.message).toMatch(/did not answer within 600 ms/);
  });

  it("is down (503) when the database is unreachable, and still answers", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" } };
    const deadDb = new URL(await closedUrl());
    await configure({ POSTGRES_URL: `postgres://postgres@127.0.0.1:${deadDb.port}/postgres` });
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.status).toBe("down");
    expect(body.components.database).toMatchObject({ status: "down", latencyMs: null });
    expect(body.components.database.message).toBe("unreachable: ECONNREFUSED");
    expect(JSON.stringify(body.components.database)).not.toContain("127.0.0.1"); // no hosts in a public report
    expect(body.conversations).toBeNull();
    expect(body.paidRequests).toBeNull();
    expect(body.components.upstreamApi.status).toBe("healthy");
  });

  it("shares one check between concurrent requests", async () => {
    upstreamAnswer = { status: 200, body: { status: "healthy" }, delayMs: 50 };
    await configure();
    const before = upstream.requests.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => health()));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(upstream.requests.length - before).toBe(1);
  });
});

describe("GET /api/health with the real agent", () => {
  const bin = findPostgresBin();

  it.skipIf(!bin)("is down (503) once the agent's own database is down, and still shows each literature source", async () => {
    const database = await createTestDatabase();
    // The agent on a PostgreSQL server of its own, so that server alone can be stopped.
    const agentPostgres = await startThrowawayPostgres(bin!);
    let agent: Awaited<ReturnType<typeof startTestAgent>> | undefined;
    let restore: (() => Promise<void>) | undefined;
    try {
      agent = await startTestAgent({ POSTGRES_URL: agentPostgres.url, LITERATURE_SOURCES: "local" });
      await seedLibrary(agent.pool);
      restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: agent.url, AGENT_SERVICE_KEY: TEST_SERVICE_KEY, HEALTH_SLOW_MS: "5000", RPC_URL: chain().rpcUrl });
      const before = await health();
      expect(before.status).toBe(200);
      expect(before.body.components.upstreamApi.status).toBe("healthy");

      await agentPostgres.stop();
      const { status, body } = await health();
      expect(status).toBe(503);
      expect(body.status).toBe("down");
      expect(body.components.upstreamApi).toMatchObject({ status: "down", message: "answered 503 and reports itself down: its database is down" });
      expect(body.components.database.status).toBe("healthy");
      // The sources' health is the agent process's own, and is shown beside it.
      expect(body.literature?.sources.map((s) => s.source)).toEqual(["local"]);
    } finally {
      await restore?.();
      await agent?.stop().catch(() => undefined);
      await agentPostgres.stop().catch(() => undefined);
      await database.drop();
    }
  });

  it("counts the agent's jobs at most once every few seconds, however often its open health is asked", async () => {
    const database = await createTestDatabase();
    const agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local" });
    try {
      let counts = 0;
      const db = {
        query: ((text: string, params?: unknown[]) => {
          if (/FROM agent\.jobs GROUP BY/.test(text)) counts++;
          return agent.pool.query(text, params);
        }) as Queryable["query"],
      };
      let nowMs = 1_000_000;
      const jobCounts = createJobCounts({ db, now: () => nowMs });
      await Promise.all(Array.from({ length: 20 }, () => jobCounts()));
      for (let i = 0; i < 20; i++) await jobCounts();
      expect(counts).toBe(1);
      await agent.pool.query("INSERT INTO agent.jobs (id, kind, status, input) VALUES ($1, 'literature', 'completed', '{}')", [randomUUID()]);
      nowMs += JOB_COUNTS_MAX_AGE_MS;
      expect((await jobCounts()).completed).toBe(1);
      expect(counts).toBe(2);

      // The open route answers a burst from it (agent/server.ts uses the same counter).
      const burst = await Promise.all(Array.from({ length: 10 }, () => agentRequest(agent.app, "/api/health", { key: null })));
      expect(burst.every((r) => r.status === 200)).toBe(true);
    } finally {
      await agent.stop();
      await database.drop();
    }
  });
});
