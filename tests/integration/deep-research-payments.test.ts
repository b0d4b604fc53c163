import { randomBytes, randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { extractReceiptFromResponse } from "@x402/extensions/offer-receipt";
import type { PaymentRequirements } from "@x402/core/types";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { deepResearchConversationSchema, type DeepResearchConversation } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import { createPayingFetch } from "@/lib/client/payments/client";
import { fetchPublishedSigners, verifyReceipt } from "@/lib/client/offer-receipt/verify";
import { startDeepResearchDouble, type DeepResearchDouble } from "../support/agent-double";
import { buildWorldState } from "../support/builders";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, chainClients, drainWallet, freshAddress, fundedPayer, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";

const PUBLIC_URL = "https://gateway.test";
const START_URL = `${PUBLIC_URL}/api/deep-research/start`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";
const PRICE = 1_000_000n;
/** Pays for the turns of the tests below that never drain their payer (one authorization each). */
const PAYER = () => wallet(9).privateKey;

/** A world state every entry of which carries `tag`, so any response that shows a part of it is caught. */
function worldFound(tag: string) {
  return buildWorldState({
    objectives: [`rapamycin lifespan ${tag}`],
    findings: [
      {
        statement: `Excerpt ${tag}: rapamycin fed late in life extended median lifespan in mice.`,
        references: [{ ordinal: 1, title: `Reference ${tag}`, url: `https://pubmed.ncbi.nlm.nih.gov/?term=${tag}`, pmid: null, doi: null }],
      },
    ],
    hypotheses: [`Hypothesis ${tag}`],
    openQuestions: [`Open question ${tag}`],
  });
}

/** The session line of a running turn, which names what it searches (from iteration 3 on, words of the evidence found). */
/** The agent's report of a running iteration: its line, which names what it searches, and its progress as data. */
const searching = (iteration: number, tag: string) => ({
  sessionStatus: `Iteration ${iteration} of 3: searching the literature for “rapamycin lifespan ${tag}”`,
  progress: { step: "searching" as const, iteration, of: 3 },
});

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

  /** A poll's conversation, and its body as sent, for what the schema would strip. */
  async function pollBody(conversationId: string): Promise<{ conversation: DeepResearchConversation; text: string }> {
    const response = await routeFetch(`${PUBLIC_URL}/api/deep-research/${conversationId}`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return { conversation: deepResearchConversationSchema.parse(JSON.parse(text)), text };
  }

  async function cron(): Promise<Record<string, unknown>> {
    const response = await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  /**
   * A payer of its own holding $1.00, so emptying it touches no other test's wallet: the numbered
   * test wallets are shared by every integration file on one chain.
   */
  const freshPayer = () => fundedPayer({ usdc: PRICE, from: PAYER() });

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

  it("answers a retried start (the same signature, the same request) with its original 202, before and after settlement", async () => {
    const before = await usdcBalance(payTo);
    const { header } = await signPayment({ privateKey: wallet(walletIndex++).privateKey, requirements });
    const send = () => postJson(START_URL, { message: "Does rapamycin extend lifespan?" }, { "payment-signature": header });
    const first = await send();
    expect(first.status).toBe(202);
    const body = (await first.json()) as { messageId: string; conversationId: string };
    const again = await send();
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(body);
    agent.finish(body.messageId);
    expect((await poll(body.conversationId)).status).toBe("completed");
    const afterSettlement = await send();
    expect(afterSettlement.status).toBe(202);
    expect(await afterSettlement.json()).toEqual(body);
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);

    // A turn that failed voids its payment; its start sent again is still the same conversation,
    // not a second one started with the same authorization.
    const { header: other } = await signPayment({ privateKey: wallet(walletIndex++).privateKey, requirements });
    const failing = await postJson(START_URL, { message: "a turn that fails" }, { "payment-signature": other });
    const failed = (await failing.json()) as { messageId: string; conversationId: string };
    agent.setTurnStatus(failed.messageId, "failed");
    expect((await poll(failed.conversationId)).status).toBe("failed");
    expect(await paymentStatus(failed.messageId)).toBe("voided");
    const startsBefore = agent.requests.filter((r) => r.path === "/api/deep-research/start").length;
    const retried = await postJson(START_URL, { message: "a turn that fails" }, { "payment-signature": other });
    expect(retried.status).toBe(202);
    expect(await retried.json()).toEqual(failed);
    expect(agent.requests.filter((r) => r.path === "/api/deep-research/start").length).toBe(startsBefore);
  });

  it("withholds the reply, the citations and the world state when the payment cannot be settled", async () => {
    const payer = await freshPayer(); // drained below: never a numbered wallet another file pays with
    const before = await usdcBalance(payTo);
    const { conversationId, messageId } = await start("a payer who spends the money first", undefined, payer);
    await drainWallet(payer);
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
    const payer = wallet(walletIndex++).privateKey; // a conversation continues only for the payer that started it
    const first = await start("first objective", undefined, payer);
    agent.finish(first.messageId);
    await cron();
    const second = await start("follow-up objective", first.conversationId, payer);
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

  describe("nothing a turn found is shown before its payment settles", () => {
    it("shows a running turn's progress, never its world state, its session text, reply or citations, until its payment settles", async () => {
      const tag = `found-${randomUUID()}`;
      const { conversationId, messageId } = await start("What does rapamycin do to lifespan?", undefined, PAYER());
      // Mid-run the agent's world state holds what the turn found so far, and its session line names
      // the objective being searched, which from the third iteration on is taken from the evidence.
      agent.report(messageId, { ...searching(3, tag), worldState: worldFound(tag) });
      let view = await pollBody(conversationId);
      expect(view.text).not.toContain(tag);
      expect(view.conversation).toMatchObject({ status: "running", sessionStatus: "Iteration 3 of 3: searching the literature", worldState: null });
      expect(view.conversation.turns).toEqual([expect.objectContaining({ messageId, status: "running", citations: [] })]);
      expect(view.conversation.turns?.[0]?.reply).toBeUndefined();

      // Naming the unpaid turn as one the world state was built from changes nothing; nor does the last stage.
      agent.report(messageId, { sessionStatus: "Writing the final answer from everything found", progress: { step: "writing" }, worldState: { ...worldFound(tag), messageIds: [messageId] } });
      view = await pollBody(conversationId);
      expect(view.text).not.toContain(tag);
      expect(view.conversation).toMatchObject({ sessionStatus: "Writing the final answer", worldState: null });

      const world = { ...worldFound(tag), messageIds: [messageId] };
      agent.finish(messageId, { worldState: world, sessionStatus: "Finished after 3 iterations with 1 references", reply: `Rapamycin extended lifespan in mice [1]. ${tag}` });
      view = await pollBody(conversationId); // settles, then releases everything
      expect(await paymentStatus(messageId)).toBe("settled");
      expect(view.conversation).toMatchObject({ status: "completed", sessionStatus: "Finished after 3 iterations with 1 references", worldState: world });
      expect(view.conversation.turns?.[0]?.reply).toContain(tag);
      expect(view.conversation.turns?.[0]?.citations).toHaveLength(1);
    });

    it("keeps a paid turn's reply, citations and world state visible while the next turn runs, and shows none of the new turn's findings", async () => {
      const firstTag = `first-${randomUUID()}`;
      const secondTag = `second-${randomUUID()}`;
      const first = await start("What does rapamycin do to lifespan?", undefined, PAYER());
      const paidWorld = { ...worldFound(firstTag), messageIds: [first.messageId] };
      agent.finish(first.messageId, { worldState: paidWorld, reply: `Rapamycin extended lifespan in mice [1]. ${firstTag}` });
      expect((await pollBody(first.conversationId)).conversation.worldState).toEqual(paidWorld);

      const second = await start("And in humans?", first.conversationId, PAYER());
      // The agent keeps the world state of its completed turns while a new one runs: all paid, so shown.
      agent.report(second.messageId, { ...searching(2, secondTag), worldState: paidWorld });
      let view = await pollBody(first.conversationId);
      expect(view.text).not.toContain(secondTag);
      expect(view.conversation).toMatchObject({ status: "running", sessionStatus: "Iteration 2 of 3: searching the literature", worldState: paidWorld });
      expect(view.conversation.turns?.map((t) => t.reply)).toEqual([expect.stringContaining(firstTag), undefined]);
      expect(view.conversation.turns?.map((t) => t.citations.length)).toEqual([1, 0]);

      // A world state that holds the new turn's findings, whether it says so or not, is withheld whole.
      const both = { ...paidWorld, findings: [...paidWorld.findings, ...worldFound(secondTag).findings] };
      const { messageIds: _unlabelled, ...unlabelled } = both;
      for (const worldState of [{ ...both, messageIds: [first.messageId, second.messageId] }, unlabelled]) {
        agent.report(second.messageId, { worldState });
        view = await pollBody(first.conversationId);
        expect(view.text).not.toContain(secondTag);
        expect(view.conversation.worldState).toBeNull();
        expect(view.conversation.turns?.[0]?.reply).toContain(firstTag);
      }

      const finalWorld = { ...both, messageIds: [first.messageId, second.messageId] };
      agent.finish(second.messageId, { worldState: finalWorld, reply: `In humans the evidence is thin [1]. ${secondTag}` });
      view = await pollBody(first.conversationId);
      expect(await paymentStatus(second.messageId)).toBe("settled");
      expect(view.conversation.worldState).toEqual(finalWorld);
      expect(view.conversation.turns?.map((t) => t.reply)).toEqual([expect.stringContaining(firstTag), expect.stringContaining(secondTag)]);
    });

    it.each(["failed", "cancelled"] as const)("never shows what a %s turn found, not even once a later turn is paid", async (status) => {
      const tag = `abandoned-${randomUUID()}`;
      const first = await start(`a turn that ends ${status} after finding something`, undefined, PAYER());
      agent.report(first.messageId, { ...searching(3, tag), worldState: worldFound(tag) });
      agent.setTurnStatus(first.messageId, status);
      let view = await pollBody(first.conversationId);
      expect(await paymentStatus(first.messageId)).toBe("voided");
      expect(view.conversation.status).toBe(status);
      expect(view.text).not.toContain(tag);

      // The next turn is paid for; a world state still holding the unpaid turn's findings stays withheld.
      const second = await start("a paid follow-up", first.conversationId, PAYER());
      agent.finish(second.messageId, { worldState: { ...worldFound(tag), messageIds: [first.messageId, second.messageId] } });
      view = await pollBody(first.conversationId);
      expect(await paymentStatus(second.messageId)).toBe("settled");
      expect(view.conversation.turns?.[1]?.reply).toBeTruthy();
      expect(view.conversation.worldState).toBeNull();
      expect(view.text).not.toContain(tag);
    });
  });

  describe("an encrypted run", () => {
    const ENCRYPTED_URL = `${PUBLIC_URL}/api/deep-research/encrypted`;
    const base64 = (bytes: number) => randomBytes(bytes).toString("base64");
    // The gateway cannot open envelopes; the double takes any, and answers what the test set.
    const envelope = () => ({ hpke_ciphertext: base64(80), hpke_ephemeral_public_key: base64(32) });
    const sealedAnswer = () => ({ hpke_response_ciphertext: base64(120), hpke_response_ephemeral_key: base64(32) });

    async function startRun(privateKey: Hex): Promise<string> {
      const { fetch: payFetch } = createPayingFetch({ privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const response = await payFetch(ENCRYPTED_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(envelope()) });
      expect(response.status).toBe(202);
      return ((await response.json()) as { messageId: string }).messageId;
    }

    async function pollRun(messageId: string): Promise<Record<string, unknown>> {
      const response = await postJson(`${ENCRYPTED_URL}/status/${messageId}`, envelope());
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    }

    it("answers a running run's status alone, whatever the enclave sends with it, and the sealed answer once paid", async () => {
      const before = await usdcBalance(payTo);
      const messageId = await startRun(PAYER());
      agent.setRun(messageId, { status: "running", ...sealedAnswer(), reply: "partial", worldState: worldFound("partial") });
      expect(await pollRun(messageId)).toEqual({ status: "running" });
      expect(await paymentStatus(messageId)).toBe("scheduled");

      const answer = sealedAnswer();
      agent.setRun(messageId, { status: "completed", ...answer });
      expect(await pollRun(messageId)).toEqual({ status: "completed", ...answer });
      expect(await paymentStatus(messageId)).toBe("settled");
      expect((await usdcBalance(payTo)) - before).toBe(PRICE);
    });

    it("a sealed poll: Retry-After while running; the poll that releases the answer sends PAYMENT-RESPONSE, once; the envelope unchanged", async () => {
      const messageId = await startRun(PAYER());
      agent.setRun(messageId, { status: "running", settlement: { transaction: `0x${"cd".repeat(32)}` } });
      let response = await postJson(`${ENCRYPTED_URL}/status/${messageId}`, envelope());
      expect(response.headers.get("retry-after")).toBe("10");
      expect(response.headers.get("payment-response")).toBeNull();
      expect(await response.json()).toEqual({ status: "running" });

      const answer = sealedAnswer();
      agent.setRun(messageId, { status: "completed", ...answer });
      response = await postJson(`${ENCRYPTED_URL}/status/${messageId}`, envelope());
      expect(await response.json()).toEqual({ status: "completed", ...answer });
      expect(response.headers.get("retry-after")).toBeNull();
      const settled = decodePaymentResponseHeader(response.headers.get("payment-response")!);
      const db = await getDb();
      const { rows } = await db.query("SELECT tx_hash FROM gateway.payments WHERE message_id = $1", [messageId]);
      expect(settled).toMatchObject({ success: true, transaction: rows[0]?.tx_hash, network: chain().network, payer: privateKeyToAccount(PAYER()).address });
      const receipt = await chainClients().publicClient.getTransactionReceipt({ hash: settled.transaction as Hex });
      expect(receipt.status).toBe("success");

      response = await postJson(`${ENCRYPTED_URL}/status/${messageId}`, envelope());
      expect(await response.json()).toEqual({ status: "completed", ...answer });
      expect(response.headers.get("payment-response")).toBeNull();
    });

    it("never releases a finished run's sealed answer when its payment cannot be settled", async () => {
      const payer = await freshPayer();
      const messageId = await startRun(payer);
      await drainWallet(payer);
      agent.setRun(messageId, { status: "completed", ...sealedAnswer() });
      const response = await postJson(`${ENCRYPTED_URL}/status/${messageId}`, envelope());
      expect(await response.json()).toEqual({ status: "failed", reason: "settlement_failed", error: expect.stringMatching(/could not be settled/) });
      expect(response.headers.get("payment-response")).toBeNull();
      expect(response.headers.get("retry-after")).toBeNull();
      expect(await paymentStatus(messageId)).toBe("failed");
      expect(await pollRun(messageId)).toEqual({ status: "failed", reason: "settlement_failed", error: expect.stringMatching(/could not be settled/) });
    });

    it("says a run whose authorization expired first failed for that reason, in a field, and charges nothing", async () => {
      const before = await usdcBalance(payTo);
      const messageId = await startRun(PAYER());
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 3_700_000); // past the one-hour window
      expect(await cron()).toMatchObject({ expired: 1 });
      agent.setRun(messageId, { status: "completed", ...sealedAnswer() }); // finishing late changes nothing
      expect(await pollRun(messageId)).toEqual({ status: "failed", reason: "authorization_expired", error: expect.stringMatching(/expired before the research finished; nothing was charged/) });
      vi.useRealTimers();
      expect(await paymentStatus(messageId)).toBe("expired");
      expect(await usdcBalance(payTo)).toBe(before);
    });
  });

  describe("what a turn cost: its settlement in the body, PAYMENT-RESPONSE on the first poll that shows it, Retry-After until final", () => {
    const payerAddress = () => privateKeyToAccount(PAYER()).address; // checksummed

    async function pollResponse(conversationId: string): Promise<{ response: Response; conversation: DeepResearchConversation; text: string }> {
      const response = await routeFetch(`${PUBLIC_URL}/api/deep-research/${conversationId}`);
      const text = await response.text();
      expect(response.status, text).toBe(200);
      return { response, conversation: deepResearchConversationSchema.parse(JSON.parse(text)), text };
    }

    async function ledgerTransaction(messageId: string): Promise<string | null> {
      const db = await getDb();
      const { rows } = await db.query("SELECT tx_hash FROM gateway.payments WHERE message_id = $1", [messageId]);
      return (rows[0]?.tx_hash as string | null) ?? null;
    }

    /**
     * The settlement a poll's PAYMENT-RESPONSE carries, after checking it is the x402 settle response
     * of a mined transfer to the payee, with its signed receipt (x402 offer-and-receipt), which the
     * client's verification accepts for that transaction, payer and resource.
     */
    async function receiptOf(response: Response): Promise<{ transaction: string; network: string; payer: string; receipt: unknown }> {
      const header = response.headers.get("payment-response");
      expect(header).toBeTruthy();
      const settled = decodePaymentResponseHeader(header!);
      expect(settled.success).toBe(true);
      const receipt = await chainClients().publicClient.getTransactionReceipt({ hash: settled.transaction as Hex });
      expect(receipt.status).toBe("success");
      const transfers = receipt.logs.filter((l) => l.address.toLowerCase() === chain().asset.toLowerCase());
      expect(transfers.some((l) => l.topics[2]?.toLowerCase().endsWith(payTo.slice(2).toLowerCase()))).toBe(true);
      const signed = extractReceiptFromResponse(response);
      const signers = await fetchPublishedSigners(PUBLIC_URL, (input, init) => routeFetch(input, init));
      const expected = { resourceUrl: START_URL, payer: settled.payer!, network: settled.network, transaction: settled.transaction };
      expect(await verifyReceipt({ receipt: signed, signers, expected })).toMatchObject({ ok: true });
      return { transaction: settled.transaction, network: settled.network, payer: settled.payer!, receipt: signed };
    }

    it("a running turn has Retry-After and no transaction; the poll that settles it sends PAYMENT-RESPONSE with its signed receipt, later polls only the body's settlement, with the same receipt", async () => {
      const { conversationId, messageId } = await start("What does metformin do to lifespan?", undefined, PAYER());
      const running = await pollResponse(conversationId);
      expect(running.conversation.status).toBe("running");
      expect(running.response.headers.get("retry-after")).toBe("10");
      expect(running.response.headers.get("payment-response")).toBeNull();
      expect(running.text).not.toContain("settlement");

      agent.finish(messageId);
      const done = await pollResponse(conversationId); // settles, then releases
      expect(done.conversation.status).toBe("completed");
      expect(done.response.headers.get("retry-after")).toBeNull();
      const receipt = await receiptOf(done.response);
      expect(receipt).toEqual({ transaction: await ledgerTransaction(messageId), network: chain().network, payer: payerAddress(), receipt: expect.objectContaining({ format: "eip712" }) });
      expect(done.conversation.turns?.[0]?.settlement).toEqual(receipt);

      const later = await pollResponse(conversationId);
      expect(later.response.headers.get("payment-response")).toBeNull();
      expect(later.response.headers.get("retry-after")).toBeNull();
      expect(later.conversation.turns?.[0]?.settlement).toEqual(receipt);
    });

    it("a turn the cron settled sends PAYMENT-RESPONSE with the next poll, once, however many polls race for it", async () => {
      const { conversationId, messageId } = await start("Does acarbose extend lifespan?", undefined, PAYER());
      agent.finish(messageId);
      expect(await cron()).toMatchObject({ settled: 1 });
      const polls = await Promise.all(Array.from({ length: 4 }, () => pollResponse(conversationId)));
      const withReceipt = polls.filter((p) => p.response.headers.get("payment-response") !== null);
      expect(withReceipt).toHaveLength(1);
      const receipt = await receiptOf(withReceipt[0]!.response);
      expect(receipt.transaction).toBe(await ledgerTransaction(messageId));
      for (const p of polls) expect(p.conversation.turns?.[0]?.settlement).toEqual(receipt);
      expect((await pollResponse(conversationId)).response.headers.get("payment-response")).toBeNull();
    });

    it("never shows a transaction the agent made up, on an unpaid, failed-to-settle or voided turn", async () => {
      const forged = { transaction: `0x${"ab".repeat(32)}`, network: chain().network, payer: payerAddress() };
      const forge = (conversationId: string) => {
        for (const turn of agent.conversations.get(conversationId)!.turns!) turn.settlement = forged;
      };

      const unpaid = await start("a running turn whose agent claims it was paid", undefined, PAYER());
      forge(unpaid.conversationId);
      let view = await pollResponse(unpaid.conversationId);
      expect(view.text).not.toContain(forged.transaction);
      expect(view.conversation.turns?.[0]?.settlement).toBeUndefined();
      expect(view.response.headers.get("payment-response")).toBeNull();

      const payer = await freshPayer();
      const drained = await start("a payer who spends the money first, with a forged receipt", undefined, payer);
      await drainWallet(payer);
      agent.finish(drained.messageId);
      forge(drained.conversationId);
      view = await pollResponse(drained.conversationId);
      expect(view.conversation.status).toBe("failed");
      expect(await ledgerTransaction(drained.messageId)).toBeNull();
      expect(view.text).not.toContain(forged.transaction);
      expect(view.text).not.toContain("settlement");
      expect(view.response.headers.get("payment-response")).toBeNull();
      expect(view.response.headers.get("retry-after")).toBeNull();

      const voided = await start("a turn that fails, with a forged receipt", undefined, PAYER());
      agent.setTurnStatus(voided.messageId, "failed");
      forge(voided.conversationId);
      view = await pollResponse(voided.conversationId);
      expect(await paymentStatus(voided.messageId)).toBe("voided");
      expect(view.text).not.toContain("settlement");
      expect(view.response.headers.get("payment-response")).toBeNull();
    });

    it("a continued conversation: each turn its own settlement and one PAYMENT-RESPONSE each; the running turn none", async () => {
      const first = await start("first objective, paid", undefined, PAYER());
      agent.finish(first.messageId);
      const firstReceipt = await receiptOf((await pollResponse(first.conversationId)).response);
      const second = await start("second objective", first.conversationId, PAYER());
      let view = await pollResponse(first.conversationId);
      expect(view.response.headers.get("payment-response")).toBeNull();
      expect(view.response.headers.get("retry-after")).toBe("10");
      expect(view.conversation.turns?.map((t) => t.settlement)).toEqual([firstReceipt, undefined]);
      agent.finish(second.messageId);
      view = await pollResponse(first.conversationId);
      const secondReceipt = await receiptOf(view.response);
      expect(secondReceipt.transaction).toBe(await ledgerTransaction(second.messageId));
      expect(secondReceipt.transaction).not.toBe(firstReceipt.transaction);
      expect(view.conversation.turns?.map((t) => t.settlement)).toEqual([firstReceipt, secondReceipt]);
    });

    it("a timed-out conversation is final: no Retry-After, no transaction", async () => {
      const { conversationId } = await start("a question that outlives its payment, polled", undefined, PAYER());
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 3_700_000);
      const view = await pollResponse(conversationId);
      vi.useRealTimers();
      expect(view.conversation.status).toBe("timeout");
      expect(view.response.headers.get("retry-after")).toBeNull();
      expect(view.response.headers.get("payment-response")).toBeNull();
      expect(view.text).not.toContain("settlement");
    });
  });

  it("relays an unknown conversation as 404", async () => {
    const response = await routeFetch(`${PUBLIC_URL}/api/deep-research/no-such-conversation`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Conversation not found" });
  });
});
