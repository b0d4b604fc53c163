import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatJobStatusSchema } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import { createPayingFetch } from "@/lib/client/payments/client";
import { startLibraryAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway, configureGatewayFor } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";
import { until } from "../support/until";

/**
 * Issue 16, "chat threads through the gateway": POST /api/chat takes the `conversationId` of an
 * earlier answer and the agent (variant A) answers within that conversation, for the payer
 * address that started it only. Another payer's conversation is refused as unknown (404) and
 * never charged; nothing reaches the agent.
 */

const PUBLIC_URL = "https://gateway.test";
const CHAT_URL = `${PUBLIC_URL}/api/chat`;

describe("chat threads through the gateway", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;
  let restore: () => Promise<void>;
  const payTo = freshAddress();
  const alice = wallet(64);
  const mallory = wallet(65);

  beforeAll(async () => {
    agent = await startLibraryAgent();
    restore = await configureGatewayFor({ agentUrl: agent.url, databaseUrl: agent.database.url, rpcUrl: chain().rpcUrl, payTo });
  });
  afterAll(async () => {
    await restore?.();
    await agent?.stop();
  });

  const payerFetch = (privateKey: `0x${string}`) => createPayingFetch({ privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch }).fetch;
  const ask = (privateKey: `0x${string}`, body: unknown) =>
    payerFetch(privateKey)(CHAT_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const chatJobs = async () => (await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent.jobs WHERE kind = 'chat'")).rows[0]!.n;

  async function answerOf(requestId: string) {
    let status = chatJobStatusSchema.parse(await (await routeFetch(`${PUBLIC_URL}/api/chat/status/${requestId}`)).json());
    await until(
      async () => {
        status = chatJobStatusSchema.parse(await (await routeFetch(`${PUBLIC_URL}/api/chat/status/${requestId}`)).json());
        return status.status === "completed" || status.status === "failed";
      },
      { what: `chat ${requestId} to finish` },
    );
    return status;
  }

  let conversationId: string;

  it("a first question opens a conversation: the 202 and the answer name it, and the gateway records who started it", async () => {
    const before = await usdcBalance(payTo);
    const response = await ask(alice.privateKey, { message: "Does rapamycin extend lifespan in mice?" });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as { requestId: string; status: string; conversationId: string };
    expect(accepted).toMatchObject({ status: "queued", conversationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    conversationId = accepted.conversationId;
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    const status = await answerOf(accepted.requestId);
    expect(status.result?.conversationId).toBe(conversationId);
    const db = await getDb();
    const { rows } = await db.query("SELECT payer FROM gateway.chat_conversations WHERE conversation_id = $1", [conversationId]);
    expect(rows).toEqual([{ payer: alice.address.toLowerCase() }]);
  });

  it("the same payer continues it: the agent answers within the conversation, charged once", async () => {
    const before = await usdcBalance(payTo);
    const response = await ask(alice.privateKey, { message: "And when treatment starts late in life?", conversationId });
    expect(response.status).toBe(202);
    const accepted = (await response.json()) as { requestId: string; conversationId: string };
    expect(accepted.conversationId).toBe(conversationId);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    const { rows } = await agent.pool.query<{ conversation: string }>("SELECT input->>'conversationId' AS conversation FROM agent.jobs WHERE id = $1", [accepted.requestId]);
    expect(rows).toEqual([{ conversation: conversationId }]);
    expect((await answerOf(accepted.requestId)).result?.conversationId).toBe(conversationId);
    const turns = await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent.chat_turns WHERE conversation_id = $1", [conversationId]);
    expect(turns.rows[0]!.n).toBe(2);
  });

  it("another payer cannot continue it: 404 as if unknown, charged: false, nothing reaches the agent", async () => {
    const before = await usdcBalance(payTo);
    const jobsBefore = await chatJobs();
    const response = await ask(mallory.privateKey, { message: "What did they ask before?", conversationId });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ reason: "not_found", charged: false });
    expect(await usdcBalance(payTo)).toBe(before);
    expect(await chatJobs()).toBe(jobsBefore);
    const db = await getDb();
    const { rows } = await db.query("SELECT payer FROM gateway.chat_conversations WHERE conversation_id = $1", [conversationId]);
    expect(rows).toEqual([{ payer: alice.address.toLowerCase() }]);
    const payments = await db.query("SELECT status FROM gateway.payments WHERE payer = $1", [mallory.address.toLowerCase()]);
    expect(payments.rows.every((p: { status: string }) => p.status === "voided")).toBe(true);
  });

  it("a conversation the gateway never saw is refused the same way, and never charged", async () => {
    const before = await usdcBalance(payTo);
    const response = await ask(alice.privateKey, { message: "Continue, please.", conversationId: randomUUID() });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ reason: "not_found", charged: false });
    expect(await usdcBalance(payTo)).toBe(before);
  });

  it("the 402 of a body with a conversationId still carries the requirements (whose conversation it is needs the payer)", async () => {
    const response = await postJson(CHAT_URL, { message: "q", conversationId });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ error: "Payment required", accepts: [{ amount: "20000" }] });
  });
});

describe("a follow-up the agent cannot continue", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let restore: () => Promise<void>;
  const payTo = freshAddress();
  const payer = wallet(66);

  beforeAll(async () => {
    database = await createTestDatabase();
    // An agent without conversations (variant B): it drops conversationId and opens none.
    agent = await startHttpDouble((req) => {
      if (req.path.startsWith("/api/chat/cancel/")) return { status: 204 };
      if (req.path === "/api/chat") return { status: 202, body: { requestId: randomUUID(), status: "queued" } };
      return { status: 404, body: { error: "unknown" } };
    });
    restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: agent.url, AGENT_SERVICE_KEY: "service-key-for-tests-0123", PUBLIC_URL, RPC_URL: chain().rpcUrl, PAY_TO_ADDRESS: payTo });
  });
  afterAll(async () => {
    await restore?.();
    await agent?.close();
    await database?.drop();
  });

  it("is a 502 with charged: false and the job cancelled, never a charged answer without its context", async () => {
    const conversationId = randomUUID();
    const db = await getDb();
    await db.query("INSERT INTO gateway.chat_conversations (conversation_id, payer) VALUES ($1, $2)", [conversationId, payer.address.toLowerCase()]);
    const before = await usdcBalance(payTo);
    const response = await createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch }).fetch(CHAT_URL, {
      method: "POST",
      body: JSON.stringify({ message: "And the follow-up?", conversationId }),
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ reason: "conversation_not_continued", charged: false });
    expect(await usdcBalance(payTo)).toBe(before);
    expect(agent.requests.filter((r) => r.path.startsWith("/api/chat/cancel/"))).toHaveLength(1);
  });
});

