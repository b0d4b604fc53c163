import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepChatConversations } from "@/agent/chat/retention";
import { loadAgentConfig } from "@/agent/config";
import { sweepDeepResearch } from "@/agent/deep-research/retention";
import { agentSweeps } from "@/agent/lifecycle";
import { sweepLiteratureJobs } from "@/agent/literature/retention";
import { createOperatorKey } from "@/agent/premium/keys";
import { sweepPremium } from "@/agent/premium/retention";
import { sweepPrivateConversations } from "@/agent/private/retention";
import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { sweepGatewayTables } from "@/lib/gateway/lifecycle/sweep";
import { countInWindow, sweepRateLimits } from "@/lib/shared/rate-limit/fixed-window";
import { agentRequest, seedLibrary, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress } from "../support/payments";
import { requestFrom } from "../support/request-from";
import { routeFetch } from "../support/routes";

type Agent = Awaited<ReturnType<typeof startTestAgent>>;

const DAY = 86_400;
const rowExists = async (db: pg.Pool, sql: string, params: unknown[]) => ((await db.query(sql, params)).rowCount ?? 0) > 0;

describe("every table has a retention, enforced by a sweep", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Agent;
  let gateway: pg.Pool;
  let restore: () => Promise<void>;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      LITERATURE_SOURCES: "local",
      SERVICE_TOKEN_ADDRESS: "0x000000000000000000000000000000000000dEaD",
      PREMIUM_CHALLENGES_PER_CLIENT: "2",
      PREMIUM_CHALLENGES_MAX: "3",
    });
    // Public chat runs only when a source can answer: the synthetic library.
    await seedLibrary(agent.pool);
    restore = await configureGateway({ POSTGRES_URL: database.url });
    gateway = await getDb();
  });
  afterAll(async () => {
    await restore?.();
    await agent?.stop();
    await database?.drop();
  });

  it("names every table of both schemas, with its retention, in docs/data-lifecycle.md", async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../docs/data-lifecycle.md"), "utf8");
    const { rows } = await agent.pool.query<{ name: string }>(
      "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema IN ('agent', 'gateway') ORDER BY 1",
    );
    expect(rows.length).toBeGreaterThan(15);
    const missing = rows.map((r) => r.name).filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it("deletes rate-limit windows of both services once they ended, and keeps the current ones", async () => {
    for (const [db, table] of [
      [agent.pool, "agent.rate_limits"],
      [gateway, "gateway.rate_limits"],
    ] as const) {
      const key = `lifecycle:${randomUUID()}`;
      const nowMs = Date.now();
      expect((await countInWindow({ db, table, key, windowSeconds: 600, nowMs })).count).toBe(1);
      expect((await countInWindow({ db, table, key, windowSeconds: 600, nowMs })).count).toBe(2);
      await sweepRateLimits({ db, table, nowMs });
      expect(await rowExists(db, `SELECT 1 FROM ${table} WHERE key = $1`, [key])).toBe(true);
      // Ten minutes on, the window has ended: it limits nothing, and goes.
      await sweepRateLimits({ db, table, nowMs: nowMs + 600_000 });
      expect(await rowExists(db, `SELECT 1 FROM ${table} WHERE key = $1`, [key])).toBe(false);
    }
  });

  it("an anchored window starts at a key's first request, so a clock boundary never lets a burst through twice", async () => {
    const key = `anchored:${randomUUID()}`;
    // One second before a ten-minute boundary of the clock.
    const beforeBoundary = Math.ceil(Date.now() / 600_000) * 600_000 + 600_000 - 1000;
    const count = (nowMs: number) => countInWindow({ db: gateway, table: "gateway.rate_limits", key, windowSeconds: 600, nowMs, anchored: true });
    expect((await count(beforeBoundary)).count).toBe(1);
    // Two seconds later, past the clock's boundary: still the same window, ending ten minutes after the first.
    const after = await count(beforeBoundary + 2000);
    expect(after.count).toBe(2);
    expect(after.endsAtMs).toBe(beforeBoundary + 600_000);
    expect(after.retryAfterSeconds).toBe(598);
    // Once it ended, the next request starts a new one; the sweep deletes an ended one.
    const restarted = await count(beforeBoundary + 600_000);
    expect(restarted).toMatchObject({ count: 1, endsAtMs: beforeBoundary + 1_200_000 });
    await sweepRateLimits({ db: gateway, table: "gateway.rate_limits", nowMs: beforeBoundary + 1_200_000 });
    expect(await rowExists(gateway, "SELECT 1 FROM gateway.rate_limits WHERE key = $1", [`anchored:${key}`])).toBe(false);
  });

  it("bounds the premium challenges anyone may ask for, per client and in all: 429 with Retry-After, and expired ones are deleted", async () => {
    // Each client over a socket of its own, from a loopback address (tests/support/request-from.ts).
    const ask = (client: string) => requestFrom({ url: `${agent.url}/api/premium/challenge`, from: client, body: { wallet: "0x000000000000000000000000000000000000bEEF" } });
    expect((await ask("127.0.0.71")).status).toBe(200);
    expect((await ask("127.0.0.71")).status).toBe(200);
    const own = await ask("127.0.0.71");
    expect(own.status).toBe(429);
    expect(Number(own.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await own.json()).toMatchObject({ reason: "too_many_challenges", retryAfterSeconds: expect.any(Number) });
    // Another client gets one, and then the total (3) is reached for everyone.
    expect((await ask("127.0.0.72")).status).toBe(200);
    const everyone = await ask("127.0.0.73");
    expect(everyone.status).toBe(429);
    expect(everyone.headers.get("retry-after")).not.toBeNull();
    const { rows } = await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent.premium_challenges");
    expect(rows[0]!.n).toBe(3);

    // Once they expired they go, and anyone may ask again.
    await agent.pool.query("UPDATE agent.premium_challenges SET expires_at = now() - interval '1 second'");
    await sweepPremium({ db: agent.pool, keyRetentionSeconds: 30 * DAY });
    expect((await agent.pool.query("SELECT 1 FROM agent.premium_challenges")).rowCount).toBe(0);
    expect((await ask("127.0.0.73")).status).toBe(200);
  });

  it("keeps a premium key's hash for its retention after its term, then deletes it", async () => {
    const past = await createOperatorKey({ db: agent.pool, termDays: 30, nowMs: Date.now() - 61 * DAY * 1000 });
    const recent = await createOperatorKey({ db: agent.pool, termDays: 30, nowMs: Date.now() - 59 * DAY * 1000 });
    await sweepPremium({ db: agent.pool, keyRetentionSeconds: 30 * DAY });
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.premium_keys WHERE id = $1", [past.id])).toBe(false);
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.premium_keys WHERE id = $1", [recent.id])).toBe(true);
    // Until then, its holder is told it expired, not that it is unknown.
    const response = await agentRequest(agent.app, "/api/chat", { body: { message: "hi" }, key: recent.key });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ reason: "premium_key_expired" });
  });

  it("deletes finished literature jobs after LITERATURE_RETENTION_SECONDS, never an unfinished one", async () => {
    const insert = (status: string, ageSeconds: number) =>
      agent.pool
        .query<{ id: string }>(
          `INSERT INTO agent.jobs (id, kind, status, input, created_at, locked_by, locked_until)
           VALUES ($1, 'literature', $2, '{"question":"lifecycle"}', now() - make_interval(secs => $3), $4, $5) RETURNING id`,
          [randomUUID(), status, ageSeconds, status === "running" ? "another/0" : null, status === "running" ? new Date(Date.now() + 3_600_000) : null],
        )
        .then((r) => r.rows[0]!.id);
    const old = await insert("completed", 2 * DAY);
    const recent = await insert("completed", DAY - 60);
    const running = await insert("running", 2 * DAY);
    await sweepLiteratureJobs({ db: agent.pool, retentionSeconds: DAY });
    const left = (await agent.pool.query<{ id: string }>("SELECT id FROM agent.jobs WHERE id = ANY($1)", [[old, recent, running]])).rows.map((r) => r.id);
    expect(left.sort()).toEqual([recent, running].sort());
    expect(loadAgentConfig({}).retention.literatureSeconds).toBe(DAY);
  });

  it("deletes a chat conversation and its turns once its last turn is past CHAT_CONVERSATION_RETENTION_SECONDS", async () => {
    const conversation = async (lastTurnAgeSeconds: number) => {
      const id = randomUUID();
      await agent.pool.query("INSERT INTO agent.conversations (id, created_at) VALUES ($1, now() - interval '3 days')", [id]);
      for (const age of [3 * DAY, lastTurnAgeSeconds]) {
        await agent.pool.query(
          "INSERT INTO agent.chat_turns (request_id, conversation_id, message, answer, created_at) VALUES ($1, $2, 'q', 'a', now() - make_interval(secs => $3))",
          [randomUUID(), id, age],
        );
      }
      return id;
    };
    const idle = await conversation(DAY + 60);
    const active = await conversation(60);
    await sweepChatConversations({ db: agent.pool, retentionSeconds: DAY });
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.conversations WHERE id = $1", [idle])).toBe(false);
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.chat_turns WHERE conversation_id = $1", [idle])).toBe(false);
    expect((await agent.pool.query("SELECT 1 FROM agent.chat_turns WHERE conversation_id = $1", [active])).rowCount).toBe(2);
    // A follow-up to the forgotten conversation is told so.
    const followUp = await agentRequest(agent.app, "/api/chat", { body: { message: "and then?", conversationId: idle }, key: null });
    expect(followUp.status).toBe(404);
  });

  it("deletes deep research untouched for DEEP_RESEARCH_RETENTION_DAYS with its turns and jobs, unless a job of it still runs", async () => {
    const conversation = async (jobStatus: string) => {
      const id = randomUUID();
      const messageId = randomUUID();
      await agent.pool.query("INSERT INTO agent.dr_conversations (id, status, updated_at) VALUES ($1, 'completed', now() - interval '31 days')", [id]);
      await agent.pool.query("INSERT INTO agent.dr_turns (message_id, conversation_id, objective, status, reply) VALUES ($1, $2, 'objective', 'completed', 'reply')", [messageId, id]);
      await agent.pool.query("INSERT INTO agent.jobs (id, kind, status, input) VALUES ($1, 'deep_research', $2, $3)", [randomUUID(), jobStatus, JSON.stringify({ messageId })]);
      return { id, messageId };
    };
    const done = await conversation("completed");
    const busy = await conversation("running");
    await sweepDeepResearch({ db: agent.pool, retentionSeconds: 30 * DAY });
    const jobOf = (messageId: string) => rowExists(agent.pool, "SELECT 1 FROM agent.jobs WHERE kind = 'deep_research' AND input->>'messageId' = $1", [messageId]);
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.dr_conversations WHERE id = $1", [done.id])).toBe(false);
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.dr_turns WHERE message_id = $1", [done.messageId])).toBe(false);
    expect(await jobOf(done.messageId)).toBe(false);
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.dr_conversations WHERE id = $1", [busy.id])).toBe(true);
    expect(await jobOf(busy.messageId)).toBe(true);
    await agent.pool.query("DELETE FROM agent.jobs WHERE kind = 'deep_research' AND input->>'messageId' = $1", [busy.messageId]);
  });

  it("deletes private conversations and runs unused for PRIVATE_CONVERSATION_RETENTION_DAYS", async () => {
    const lookup = `lookup-${randomUUID()}`;
    await agent.pool.query("INSERT INTO agent.private_conversations (lookup_id, sealed, updated_at) VALUES ($1, 'x', now() - interval '91 days'), ($2, 'x', now())", [
      lookup,
      `${lookup}-fresh`,
    ]);
    const run = randomUUID();
    await agent.pool.query("INSERT INTO agent.private_runs (message_id, lookup_id, status, updated_at) VALUES ($1, $2, 'completed', now() - interval '91 days')", [run, lookup]);
    await sweepPrivateConversations({ db: agent.pool, retentionSeconds: 90 * DAY });
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.private_conversations WHERE lookup_id = $1", [lookup])).toBe(false);
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.private_conversations WHERE lookup_id = $1", [`${lookup}-fresh`])).toBe(true);
    expect(await rowExists(agent.pool, "SELECT 1 FROM agent.private_runs WHERE message_id = $1", [run])).toBe(false);
  });

  it("the agent's workers run every sweep on their own, with the retention the environment sets", async () => {
    const config = loadAgentConfig({ LITERATURE_RETENTION_SECONDS: "60" });
    expect(Object.keys(agentSweeps({ db: agent.pool, config })).sort()).toEqual(
      ["chatConversations", "chatJobs", "deepResearch", "literatureJobs", "premium", "privateConversations", "privateJobs", "rateLimits"].sort(),
    );
    const { rows } = await agent.pool.query<{ id: string }>(
      "INSERT INTO agent.jobs (id, kind, status, input, created_at) VALUES ($1, 'literature', 'completed', '{}', now() - interval '61 seconds') RETURNING id",
      [randomUUID()],
    );
    const short = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", LITERATURE_RETENTION_SECONDS: "60" });
    try {
      const deadline = Date.now() + 30_000;
      while (await rowExists(agent.pool, "SELECT 1 FROM agent.jobs WHERE id = $1", [rows[0]!.id])) {
        if (Date.now() > deadline) throw new Error("the workers did not sweep the literature job");
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await short.stop();
    }
  });

  it("finds a job by its messageId through an index, as every private poll and sweep does", async () => {
    const client = await agent.pool.connect();
    try {
      await client.query("BEGIN");
      // The planner would scan a table this small whatever the indexes; forbid that to see which it has.
      await client.query("SET LOCAL enable_seqscan = off");
      const { rows } = await client.query<{ "QUERY PLAN": string }>(
        "EXPLAIN SELECT status FROM agent.jobs WHERE kind = 'private_deep_research' AND input->>'messageId' = $1",
        [randomUUID()],
      );
      expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/jobs_message_id/);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  });

  describe("the gateway's tables", () => {
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    const insertPayment = async ({ status, validBefore, answer = true }: { status: string; validBefore: number; answer?: boolean }) => {
      const id = randomUUID();
      await gateway.query(
        `INSERT INTO gateway.payments (id, network, asset, payer, nonce, signature, operation, route, amount, request_digest, payload, requirements,
                                       valid_after, valid_before, status, response_status, response_body, response_headers, work_status, work_body)
         VALUES ($1::uuid, 'eip155:31337', '0xasset', '0xpayer', $1::text, '0xsig', 'chat', 'chat', 20000, 'digest', '{}', '{}', 0, $2, $3, $4, $5, $6, $4, $5)`,
        [id, validBefore, status, answer ? 202 : null, answer ? JSON.stringify({ text: "a paid answer" }) : null, answer ? "{}" : null],
      );
      return id;
    };
    const payment = async (id: string) =>
      (await gateway.query<{ status: string; response_body: unknown; work_body: unknown }>("SELECT status, response_body, work_body FROM gateway.payments WHERE id = $1", [id]))
        .rows[0];

    it("keeps settled payments for ever, clears their answers once no retry can be accepted, and deletes what charged nothing after its retention", async () => {
      const { retention } = getConfig();
      expect(retention).toEqual({ paymentAnswerSeconds: DAY, unchargedPaymentSeconds: 30 * DAY, deepResearchSeconds: 30 * DAY, chatConversationSeconds: DAY, historySeconds: 30 * DAY });
      const settledOld = await insertPayment({ status: "settled", validBefore: nowSeconds() - 2 * DAY });
      const settledLive = await insertPayment({ status: "settled", validBefore: nowSeconds() + 600 });
      const voidedOld = await insertPayment({ status: "voided", validBefore: nowSeconds() - 31 * DAY });
      const failedRecent = await insertPayment({ status: "failed", validBefore: nowSeconds() - 2 * DAY });
      const scheduledOld = await insertPayment({ status: "scheduled", validBefore: nowSeconds() - 31 * DAY });
      // A reverted transfer of ours names its payment: a chain record, kept.
      const reverted = await insertPayment({ status: "failed", validBefore: nowSeconds() - 31 * DAY });
      await gateway.query(
        `INSERT INTO gateway.settlement_transactions (hash, chain, address, nonce, payment_id, raw, max_fee_per_gas, max_priority_fee_per_gas, status)
         VALUES ($1, 'c', '0xa', 1, $2, '0x', 1, 1, 'reverted')`,
        [`0x${randomUUID().replaceAll("-", "")}`, reverted],
      );

      await sweepGatewayTables({ db: gateway, retention });

      expect(await payment(settledOld)).toEqual({ status: "settled", response_body: null, work_body: null });
      expect(await payment(settledLive)).toMatchObject({ status: "settled", response_body: { text: "a paid answer" } });
      expect(await payment(voidedOld)).toBeUndefined();
      expect(await payment(failedRecent)).toEqual({ status: "failed", response_body: null, work_body: null });
      expect(await payment(scheduledOld)).toMatchObject({ status: "scheduled", response_body: { text: "a paid answer" } });
      expect(await payment(reverted)).toEqual({ status: "failed", response_body: null, work_body: null });
    });

    it("the cron runs the gateway's sweeps and says what each did", async () => {
      const cronSecret = "cron-secret-for-tests-0123456789";
      await restore();
      restore = await configureGateway({
        POSTGRES_URL: database.url,
        UPSTREAM_API_URL: agent.url,
        PUBLIC_URL: "https://gateway.test",
        RPC_URL: chain().rpcUrl,
        PAY_TO_ADDRESS: freshAddress(),
        CRON_SECRET: cronSecret,
        AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
      });
      gateway = await getDb();
      const voided = await insertPayment({ status: "voided", validBefore: nowSeconds() - 31 * DAY });
      const response = await routeFetch("https://gateway.test/api/cron", { headers: { authorization: `Bearer ${cronSecret}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { swept: Record<string, number> | null };
      expect(body.swept).toMatchObject({ unchargedPayments: 1, rateLimits: expect.any(Number), longPolls: expect.any(Number) });
      expect(await payment(voided)).toBeUndefined();
    });

    it("deletes long-poll rows whose holds all lapsed, and finished conversations' rows after DEEP_RESEARCH_RETENTION_DAYS", async () => {
      await gateway.query(
        `INSERT INTO gateway.long_polls (client, holders) VALUES
           ('lapsed', jsonb_build_object('h', floor(extract(epoch FROM now())) - 5)),
           ('holding', jsonb_build_object('h', floor(extract(epoch FROM now())) + 600))`,
      );
      await gateway.query(
        `INSERT INTO gateway.deep_research_conversations (conversation_id, status, updated_at) VALUES
           ('old-done', 'completed', now() - interval '31 days'), ('old-queued', 'queued', now() - interval '31 days'), ('new-done', 'timeout', now())`,
      );
      await sweepGatewayTables({ db: gateway, retention: getConfig().retention });
      expect((await gateway.query<{ client: string }>("SELECT client FROM gateway.long_polls ORDER BY client")).rows.map((r) => r.client)).toEqual(["holding"]);
      const conversations = await gateway.query<{ conversation_id: string }>("SELECT conversation_id FROM gateway.deep_research_conversations ORDER BY 1");
      expect(conversations.rows.map((r) => r.conversation_id)).toEqual(["new-done", "old-queued"]);
    });

    it("forgets who started a chat conversation once it went unused for CHAT_CONVERSATION_RETENTION_SECONDS, as the agent forgets the conversation", async () => {
      await gateway.query(
        `INSERT INTO gateway.chat_conversations (conversation_id, payer, created_at, last_used_at) VALUES
           ('chat-stale', '0xpayer', now() - interval '3 days', now() - interval '25 hours'),
           ('chat-continued', '0xpayer', now() - interval '3 days', now() - interval '1 hour')`,
      );
      const swept = await sweepGatewayTables({ db: gateway, retention: getConfig().retention });
      expect(swept.chatConversations).toBe(1);
      const rows = await gateway.query<{ conversation_id: string }>("SELECT conversation_id FROM gateway.chat_conversations WHERE conversation_id LIKE 'chat-%' ORDER BY 1");
      expect(rows.rows.map((r) => r.conversation_id)).toEqual(["chat-continued"]);
    });

    it("forgets a paid request's question and answer HISTORY_RETENTION_DAYS after it was paid for (a row its payer forgot stays, empty), spent sign-in nonces once no proof can carry them, and ended sign-in sessions", async () => {
      const old = await insertPayment({ status: "settled", validBefore: nowSeconds() - 40 * DAY });
      const recent = await insertPayment({ status: "settled", validBefore: nowSeconds() - 2 * DAY });
      const forgotten = await insertPayment({ status: "settled", validBefore: nowSeconds() - 40 * DAY });
      await gateway.query(
        `INSERT INTO gateway.wallet_history (payment_id, question, result, created_at, forgotten_at) VALUES
           ($1, 'an old question', '{"answer":"old"}', now() - interval '31 days', NULL),
           ($2, 'a recent question', '{"answer":"recent"}', now() - interval '29 days', NULL),
           ($3, NULL, NULL, now() - interval '40 days', now() - interval '35 days')`,
        [old, recent, forgotten],
      );
      await gateway.query(
        `INSERT INTO gateway.sign_in_nonces (nonce, expires_at) VALUES ('spentlongago0000', now() - interval '1 second'), ('spentjustnow0000', now() + interval '4 minutes');
         INSERT INTO gateway.sign_in_sessions (token_hash, payer, expires_at) VALUES ('ended', '0xpayer', now() - interval '1 second'), ('live', '0xpayer', now() + interval '1 hour')`,
      );
      const swept = await sweepGatewayTables({ db: gateway, retention: getConfig().retention });
      expect(swept).toMatchObject({ walletHistory: 1, signIns: 2 });
      const kept = await gateway.query<{ payment_id: string; question: string | null }>("SELECT payment_id, question FROM gateway.wallet_history WHERE payment_id = ANY($1) ORDER BY question", [[old, recent, forgotten]]);
      expect(kept.rows).toEqual([
        { payment_id: recent, question: "a recent question" },
        { payment_id: forgotten, question: null },
      ]);
      expect((await gateway.query("SELECT nonce FROM gateway.sign_in_nonces WHERE nonce LIKE 'spent%'")).rows).toEqual([{ nonce: "spentjustnow0000" }]);
      expect((await gateway.query("SELECT token_hash FROM gateway.sign_in_sessions WHERE token_hash IN ('ended', 'live')")).rows).toEqual([{ token_hash: "live" }]);
      // The payment itself is an accounting record: kept.
      expect(await payment(old)).toMatchObject({ status: "settled" });
    });

    it("deletes what an agent said before payment once nobody asked it again for a day (an agent no longer configured)", async () => {
      await gateway.query(
        `INSERT INTO gateway.agent_status (agent_url, key, value, read_at, lease_until) VALUES
           ('http://gone.test', 'literature_reach:fast', 'null', now() - interval '25 hours', now() - interval '25 hours'),
           ('http://live.test', 'literature_reach:fast', 'null', now(), now())`,
      );
      const swept = await sweepGatewayTables({ db: gateway, retention: getConfig().retention });
      expect(swept.agentStatus).toBe(1);
      const rows = await gateway.query<{ agent_url: string }>("SELECT agent_url FROM gateway.agent_status WHERE agent_url LIKE '%.test' ORDER BY 1");
      expect(rows.rows.map((r) => r.agent_url)).toEqual(["http://live.test"]);
    });
  });
});
