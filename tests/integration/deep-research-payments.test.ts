import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { deepResearchConversationSchema, type DeepResearchConversation } from "@/lib/contracts";
import { getDb } from "@/lib/db";
import { createPayingFetch } from "@/lib/payments/client";
import { startDeepResearchDouble, type DeepResearchDouble } from "../support/agent-double";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, drainWallet, freshAddress, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";

const PUBLIC_URL = "https://gateway.test";
const START_URL = `${PUBLIC_URL}/api/deep-research/start`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";
const PRICE = 1_000_000n;

describe("deep research: paid when delivered", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: DeepResearchDouble;
  let restore: () => Promise<void>;
  const payTo = freshAddress();
  let requirements: PaymentRequirements;
  let walletIndex = 10;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startDeepResearchDouble();
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      CRON_SECRET,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
    });
    const unpaid = await postJson(START_URL, { message: "q" });
    requirements = decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!).accepts[0]!;
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await restore();
    await agent.close();
    await database.drop();
  });

  /** Pays for a turn with the official client; returns the 202 body. */
  async function start(
    message: string,
    conversationId?: string,
    privateKey: `0x${string}` = wallet(walletIndex++).privateKey,
  ): Promise<{ messageId: string; conversationId: string }> {
    const { fetch: payFetch } = createPayingFetch({
      privateKey,
      network: chain().network,
      asset: chain().asset,
      fetchImpl: routeFetch,
    });
    const response = await payFetch(START_URL, { method: "POST", body: JSON.stringify({ message, ...(conversationId ? { conversationId } : {}) }) });
    expect(response.status).toBe(202);
    expect(response.headers.get("payment-response")).toBeNull(); // nothing settled yet
    const body = (await response.json()) as { messageId: string; conversationId: string; status: string };
    expect(body.status).toBe("queued");
    return body;
  }

  async function poll(conversationId: string): Promise<DeepResearchConversation> {
    const response = await routeFetch(`${PUBLIC_URL}/api/deep-research/${conversationId}`);
    expect(response.status).toBe(200);
    return deepResearchConversationSchema.parse(await response.json());
  }

  async function cron(): Promise<Record<string, unknown>> {
    const response = await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  async function paymentStatus(messageId: string): Promise<string> {
    const db = await getDb();
    const { rows } = await db.query("SELECT status FROM gateway.payments WHERE message_id = $1", [messageId]);
    return rows[0]?.status as string;
  }

  it("asks $1.00 with a one-hour authorization", () => {
    expect(requirements).toMatchObject({ amount: "1000000", maxTimeoutSeconds: 3600 });
  });

  it("settles nothing before the turn finishes, then once, and releases the reply only after settlement", async () => {
    const before = await usdcBalance(payTo);
    const { conversationId, messageId } = await start("What does rapamycin do to lifespan?");
    expect(await paymentStatus(messageId)).toBe("scheduled");

    expect(await cron()).toMatchObject({ ok: true, settled: 0 });
    const running = await poll(conversationId);
    expect(running.status).toBe("running");
    expect(running.turns?.[0]?.reply).toBeUndefined();
    expect(await usdcBalance(payTo)).toBe(before);

    agent.finish(messageId);
    const done = await poll(conversationId); // the poll finds it finished and settles
    expect(done.status).toBe("completed");
    expect(done.turns?.[0]?.reply).toContain("[1]");
    expect(done.turns?.[0]?.citations).toHaveLength(1);
    expect(done.worldState).toMatchObject({ findings: ["rapamycin extends lifespan in mice"] });
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);
    expect(await paymentStatus(messageId)).toBe("settled");

    await poll(conversationId);
    expect(await cron()).toMatchObject({ settled: 0 });
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);
  });

  it("withholds the reply, the citations and the world state when the payment cannot be settled", async () => {
    const payer = wallet(walletIndex++);
    const before = await usdcBalance(payTo);
    const { conversationId, messageId } = await start("a payer who spends the money first", undefined, payer.privateKey);
    await drainWallet(payer.privateKey);
    agent.finish(messageId);
    const conversation = await poll(conversationId);
    expect(conversation.status).toBe("failed");
    expect(conversation.sessionStatus).toMatch(/could not be settled/);
    expect(conversation.turns?.[0]?.reply).toBeUndefined();
    expect(conversation.turns?.[0]?.citations).toEqual([]);
    expect(conversation.worldState).toBeNull();
    expect(await paymentStatus(messageId)).toBe("failed");
    expect(await usdcBalance(payTo)).toBe(before);
  });

  it("two overlapping cron runs make one transfer", async () => {
    const before = await usdcBalance(payTo);
    const { messageId } = await start("senolytics and healthspan");
    agent.finish(messageId);
    const [a, b] = await Promise.all([cron(), cron()]);
    expect(Number(a.settled) + Number(b.settled)).toBe(1);
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);
    expect(await paymentStatus(messageId)).toBe("settled");
  });

  it("a poll and a cron at the same moment make one transfer", async () => {
    const before = await usdcBalance(payTo);
    const { conversationId, messageId } = await start("NAD+ precursors in humans");
    agent.finish(messageId);
    await Promise.all([poll(conversationId), cron(), poll(conversationId)]);
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);
    const final = await poll(conversationId);
    expect(final.turns?.[0]?.reply).toBeTruthy();
  });

  it("turns the conversation timeout when the authorization expires first, and charges nothing", async () => {
    const before = await usdcBalance(payTo);
    const { conversationId, messageId } = await start("a question that outlives its payment");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3_700_000); // past the one-hour window
    expect(await cron()).toMatchObject({ expired: 1 });
    expect(await paymentStatus(messageId)).toBe("expired");
    agent.finish(messageId); // finishing late changes nothing
    const conversation = await poll(conversationId);
    expect(conversation.status).toBe("timeout");
    expect(conversation.turns?.[0]?.reply).toBeUndefined();
    vi.useRealTimers();
    expect(await usdcBalance(payTo)).toBe(before);
    const db = await getDb();
    const { rows } = await db.query("SELECT status FROM gateway.deep_research_conversations WHERE conversation_id = $1", [conversationId]);
    expect(rows[0]?.status).toBe("timeout");
  });

  it.each(["failed", "cancelled"] as const)("voids the payment of a %s turn", async (status) => {
    const before = await usdcBalance(payTo);
    const { conversationId, messageId } = await start(`a turn that ends ${status}`);
    agent.setTurnStatus(messageId, status);
    expect(await cron()).toMatchObject({ voided: 1 });
    expect(await paymentStatus(messageId)).toBe("voided");
    expect((await poll(conversationId)).status).toBe(status);
    expect(await usdcBalance(payTo)).toBe(before);
  });

  it("a continued conversation pays once per turn", async () => {
    const before = await usdcBalance(payTo);
    const first = await start("first objective");
    agent.finish(first.messageId);
    await cron();
    const second = await start("follow-up objective", first.conversationId);
    expect(second.conversationId).toBe(first.conversationId);
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);
    let conversation = await poll(first.conversationId);
    expect(conversation.turns?.map((t) => Boolean(t.reply))).toEqual([true, false]);
    agent.finish(second.messageId);
    conversation = await poll(first.conversationId);
    expect(conversation.turns?.map((t) => Boolean(t.reply))).toEqual([true, true]);
    expect((await usdcBalance(payTo)) - before).toBe(2n * PRICE);
  });

  it("refuses a deep-research authorization too short for its run", async () => {
    const { header } = await signPayment({
      privateKey: wallet(walletIndex++).privateKey,
      requirements,
      overrides: { validBefore: Math.floor(Date.now() / 1000) + 600 },
    });
    const response = await postJson(START_URL, { message: "q" }, { "payment-signature": header });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ reason: "authorization_window_too_short" });
  });

  it("verifies with the facilitator before starting the work: an unfunded payer starts nothing", async () => {
    const { header } = await signPayment({ privateKey: generatePrivateKey(), requirements });
    const conversationsBefore = agent.conversations.size;
    const response = await postJson(START_URL, { message: "q" }, { "payment-signature": header });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ reason: "insufficient_funds" });
    expect(agent.conversations.size).toBe(conversationsBefore);
  });

  it("relays an unknown conversation as 404", async () => {
    const response = await routeFetch(`${PUBLIC_URL}/api/deep-research/no-such-conversation`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Conversation not found" });
  });
});
