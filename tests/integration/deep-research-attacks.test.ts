import { randomBytes } from "node:crypto";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { erc20Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deepResearchConversationSchema, type DeepResearchConversation } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import { MAX_UNAVAILABLE_ATTEMPTS } from "@/lib/gateway/payments/settle";
import { transferCallData } from "@/lib/gateway/payments/settlement/transfer";
import { startDeepResearchDouble, type DeepResearchDouble } from "../support/agent-double";
import { createTestDatabase, databaseKind, NEEDS_SERVER } from "../support/database";
import { configureGateway } from "../support/gateway";
import { closedUrl } from "../support/http-double";
import { startGatewayProcess, type GatewayProcess } from "../support/gateway-processes";
import { chain, chainClients, claimTestPayment, drainWallet, freshAddress, fundedPayer, signPayment, usdcBalance, wallet } from "../support/payments";
import { startRpcProxy, type RpcProxy } from "../support/rpc-proxy";
import { postJson, routeFetch } from "../support/routes";

/**
 * Deep research is settled after its work (issue 24, items 1 to 3). Attacks on that: one balance
 * starting many turns, older turns starving the cron of the ones that finished, and a stranger's
 * turn in someone else's conversation.
 */

const PUBLIC_URL = "https://gateway.test";
const START_URL = `${PUBLIC_URL}/api/deep-research/start`;
const ENCRYPTED_URL = `${PUBLIC_URL}/api/deep-research/encrypted`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";
const PRICE = 1_000_000n;
/** Funds this file's payers; no other file pays with it. */
const FUNDER = () => wallet(68).privateKey;
const BOUNDS = { DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER: "3", DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT: "4", CRON_BATCH_SIZE: "3" };

const base64 = (bytes: number) => randomBytes(bytes).toString("base64");
const envelope = () => ({ hpke_ciphertext: base64(80), hpke_ephemeral_public_key: base64(32) });
const sealedAnswer = () => ({ hpke_response_ciphertext: base64(120), hpke_response_ephemeral_key: base64(32) });
/** The balanceOf(address) selector: the gateway's read of what a payer holds. */
const BALANCE_OF = "0x70a08231";

describe("deep research under attack", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: DeepResearchDouble;
  let proxy: RpcProxy;
  let restore: () => Promise<void>;
  const payTo = freshAddress();
  let requirements: PaymentRequirements;
  let encryptedRequirements: PaymentRequirements;
  const env = () => ({
    POSTGRES_URL: database.url,
    UPSTREAM_API_URL: agent.url,
    PUBLIC_URL,
    RPC_URL: proxy.url,
    PAY_TO_ADDRESS: payTo,
    CRON_SECRET,
    AGENT_SERVICE_KEY: "service-key-for-tests-0123",
    ...BOUNDS,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startDeepResearchDouble();
    proxy = await startRpcProxy(chain().rpcUrl);
    restore = await configureGateway(env());
    requirements = decodePaymentRequiredHeader((await postJson(START_URL, { message: "q" })).headers.get("payment-required")!).accepts[0]!;
    encryptedRequirements = decodePaymentRequiredHeader((await postJson(ENCRYPTED_URL, envelope())).headers.get("payment-required")!).accepts[0]!;
  });
  afterAll(async () => {
    await restore();
    await proxy.close();
    await agent.close();
    await database.drop();
  });

  const agentStarts = () => agent.requests.filter((r) => r.method === "POST" && (r.path === "/api/deep-research/start" || r.path === "/api/private/deep-research")).length;
  const payer = (dollars: number) => fundedPayer({ usdc: BigInt(dollars) * PRICE, from: FUNDER() });

  /** A signed start: the response and, when accepted, its ids. */
  async function startTurn(privateKey: Hex, body: { message: string; conversationId?: string }, headers: Record<string, string> = {}) {
    const { header } = await signPayment({ privateKey, requirements });
    return sendStart(header, body, headers);
  }
  async function sendStart(header: string, body: { message: string; conversationId?: string }, headers: Record<string, string> = {}) {
    const response = await postJson(START_URL, body, { "payment-signature": header, ...headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as Record<string, unknown> & { messageId: string; conversationId: string } };
  }
  async function startRun(privateKey: Hex) {
    const { header } = await signPayment({ privateKey, requirements: encryptedRequirements });
    const response = await postJson(ENCRYPTED_URL, envelope(), { "payment-signature": header });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { messageId: string } };
  }
  async function poll(conversationId: string): Promise<DeepResearchConversation> {
    const response = await routeFetch(`${PUBLIC_URL}/api/deep-research/${conversationId}`);
    expect(response.status).toBe(200);
    return deepResearchConversationSchema.parse(await response.json());
  }
  async function cron(): Promise<Record<string, number>> {
    const response = await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, number>;
  }
  async function paymentStatus(messageId: string): Promise<string | undefined> {
    const { rows } = await (await getDb()).query("SELECT status FROM gateway.payments WHERE message_id = $1", [messageId]);
    return rows[0]?.status as string | undefined;
  }
  /** Moves `dollars` more to `privateKey`'s address. */
  async function fund(privateKey: Hex, dollars: number): Promise<void> {
    const { publicClient, walletFor } = chainClients();
    const to = privateKeyToAccount(privateKey).address;
    const hash = await walletFor(FUNDER()).writeContract({ address: chain().asset as Hex, abi: erc20Abi, functionName: "transfer", args: [to, BigInt(dollars) * PRICE] });
    await publicClient.waitForTransactionReceipt({ hash });
  }

  describe("one balance, many turns", () => {
    it("a wallet holding $1.00 that starts five turns at once gets one; the other four are 402 insufficient_funds and never reach the agent", async () => {
      const before = await usdcBalance(payTo);
      const key = await payer(1);
      const startsBefore = agentStarts();
      const signed = await Promise.all(Array.from({ length: 5 }, () => signPayment({ privateKey: key, requirements })));
      const answers = await Promise.all(signed.map(({ header }, i) => sendStart(header, { message: `turn ${i} of one dollar` })));
      expect(answers.map((a) => a.status).sort()).toEqual([202, 402, 402, 402, 402]);
      for (const refused of answers.filter((a) => a.status === 402)) {
        expect(refused.body).toMatchObject({ reason: "insufficient_funds", message: expect.stringMatching(/not yet settled/) });
      }
      expect(agentStarts() - startsBefore).toBe(1);

      // The payer then moves the dollar away: the one turn it started is never delivered, and nothing else ran.
      const accepted = answers.find((a) => a.status === 202)!.body;
      await drainWallet(key);
      agent.finish(accepted.messageId);
      expect((await poll(accepted.conversationId)).status).toBe("failed");
      expect(await usdcBalance(payTo)).toBe(before);
    });

    it("a sealed run is held to the same balance: of three sealed starts of a $1.00 wallet at once, one is accepted", async () => {
      const key = await payer(1);
      const startsBefore = agentStarts();
      const answers = await Promise.all([startRun(key), startRun(key), startRun(key)]);
      expect(answers.map((a) => a.status).sort()).toEqual([202, 402, 402]);
      expect(answers.filter((a) => a.status === 402).map((a) => a.body.reason)).toEqual(["insufficient_funds", "insufficient_funds"]);
      expect(agentStarts() - startsBefore).toBe(1);
      // Plain and sealed draw on the one balance.
      const plain = await startTurn(key, { message: "a plain turn beside the sealed run" });
      expect(plain.status).toBe(402);
      expect(plain.body.reason).toBe("insufficient_funds");
    });

    it("a payer's unsettled turns are bounded (DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER): one more is 429 too_many_unsettled_turns, uncharged; once one settles, the same signature is accepted", async () => {
      const key = await payer(5);
      const accepted = [];
      for (let i = 0; i < 3; i++) {
        const answer = await startTurn(key, { message: `bounded turn ${i}` });
        expect(answer.status).toBe(202);
        accepted.push(answer.body);
      }
      const startsBefore = agentStarts();
      const { header } = await signPayment({ privateKey: key, requirements });
      const fourth = await sendStart(header, { message: "one turn too many" });
      expect(fourth.status).toBe(429);
      expect(fourth.body).toMatchObject({ reason: "too_many_unsettled_turns", charged: false, retryAfterSeconds: expect.any(Number) });
      expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(agentStarts()).toBe(startsBefore);

      agent.finish(accepted[0]!.messageId);
      expect((await poll(accepted[0]!.conversationId)).status).toBe("completed");
      const again = await sendStart(header, { message: "one turn too many" });
      expect(again.status).toBe(202);
      expect(agentStarts() - startsBefore).toBe(1);
    });

    it("a client address's unsettled turns are bounded across payers (DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT); another address is not affected", async () => {
      const from = (address: string) => ({ "x-forwarded-for": address });
      for (let i = 0; i < 4; i++) expect((await startTurn(await payer(1), { message: `client turn ${i}` }, from("203.0.113.24"))).status).toBe(202);
      const startsBefore = agentStarts();
      const fifth = await startTurn(await payer(1), { message: "a fifth payer from the same address" }, from("203.0.113.24"));
      expect(fifth.status).toBe(429);
      expect(fifth.body).toMatchObject({ reason: "too_many_unsettled_turns", charged: false });
      expect(agentStarts()).toBe(startsBefore);
      expect((await startTurn(await payer(1), { message: "another address" }, from("198.51.100.24"))).status).toBe(202);
    });

    it("a balance the chain cannot read is 503 with Retry-After before any work, never a pass; the same signature is accepted once it can be read", async () => {
      const key = await payer(1);
      const { header } = await signPayment({ privateKey: key, requirements });
      const startsBefore = agentStarts();
      proxy.setHook((call) => {
        const data = (call.params[0] as { data?: string; input?: string } | undefined)?.data ?? (call.params[0] as { input?: string } | undefined)?.input;
        return call.method === "eth_call" && typeof data === "string" && data.startsWith(BALANCE_OF) ? { kind: "error", code: -32000, message: "header not found" } : { kind: "forward" };
      });
      try {
        const refused = await sendStart(header, { message: "while the chain cannot be read" });
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ reason: "settlement_unavailable" });
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(agentStarts()).toBe(startsBefore);
      } finally {
        proxy.setHook(() => ({ kind: "forward" }));
      }
      expect((await sendStart(header, { message: "while the chain cannot be read" })).status).toBe(202);
    });

    it("an authorization valid far longer than its route needs is refused before any work: authorization_window_too_long", async () => {
      const startsBefore = agentStarts();
      const now = Math.floor(Date.now() / 1000);
      const { header } = await signPayment({ privateKey: await payer(1), requirements, overrides: { validBefore: now + 24 * 3600 } });
      const research = await sendStart(header, { message: "a day-long authorization" });
      expect(research.status).toBe(402);
      expect(research.body.reason).toBe("authorization_window_too_long");
      expect(agentStarts()).toBe(startsBefore);

      const chatRequirements = decodePaymentRequiredHeader((await postJson(`${PUBLIC_URL}/api/chat`, { message: "q" })).headers.get("payment-required")!).accepts[0]!;
      const chat = await signPayment({ privateKey: wallet(68).privateKey, requirements: chatRequirements, overrides: { validBefore: now + 3600 } });
      const answer = await postJson(`${PUBLIC_URL}/api/chat`, { message: "an hour-long chat authorization" }, { "payment-signature": chat.header });
      expect(answer.status).toBe(402);
      expect(((await answer.json()) as { reason: string }).reason).toBe("authorization_window_too_long");
    });
  });

  describe("the cron", () => {
    it("settles what finished, plain and sealed, however many older turns still run ahead of it (CRON_BATCH_SIZE=3)", async () => {
      // Clear what earlier tests left scheduled: those turns end, and their payments with them.
      for (const conversation of agent.conversations.values()) {
        for (const turn of conversation.turns ?? []) if (turn.status === "running") agent.setTurnStatus(turn.messageId, "cancelled");
      }
      for (let i = 0; i < 10 && Number((await cron()).checked) > 0; i++);

      for (let i = 0; i < 4; i++) expect((await startTurn(await payer(1), { message: `still running ${i}` })).status).toBe(202);
      const finished = await startTurn(await payer(1), { message: "finished behind them" });
      const run = await startRun(await payer(1));
      agent.finish(finished.body.messageId);
      agent.setRun(run.body.messageId, { status: "completed", ...sealedAnswer() });

      const result = await cron();
      expect(result.settled).toBe(2);
      expect(await paymentStatus(finished.body.messageId)).toBe("settled");
      expect(await paymentStatus(run.body.messageId)).toBe("settled");
    });

    it("an agent without the many-at-once status route (deployed before the gateway) still has what finished settled: the cron asks one conversation and one run at a time", async () => {
      agent.servesWorkStatuses = false;
      try {
        expect((await startTurn(await payer(1), { message: "still running, the older agent" })).status).toBe(202);
        const finished = await startTurn(await payer(1), { message: "finished, the older agent" });
        const run = await startRun(await payer(1));
        agent.finish(finished.body.messageId);
        agent.setRun(run.body.messageId, { status: "completed", ...sealedAnswer() });
        const result = await cron();
        expect(result).toMatchObject({ settled: 2, errors: 0 });
        expect(await paymentStatus(finished.body.messageId)).toBe("settled");
        expect(await paymentStatus(run.body.messageId)).toBe("settled");
      } finally {
        agent.servesWorkStatuses = true;
      }
    });

    it("no row blocks another: payments it cannot move yet do not keep the next minute's run from the one behind them", async () => {
      const db = await getDb();
      const chatRequirements = decodePaymentRequiredHeader((await postJson(`${PUBLIC_URL}/api/chat`, { message: "q" })).headers.get("payment-required")!).accepts[0]!;
      // Three payments answered 503 whose authorizations are unused: nothing to do until they expire.
      for (let i = 0; i < 3; i++) {
        const { row } = await claimTestPayment({ db, requirements: chatRequirements, privateKey: await payer(1), operation: "chat" });
        await db.query("UPDATE gateway.payments SET status = 'unsettled' WHERE id = $1", [row.id]);
      }
      // A fourth whose transfer landed after its 503 (its outcome was unknown): the cron can settle it.
      const late = await claimTestPayment({ db, requirements: chatRequirements, privateKey: await payer(1), operation: "chat" });
      await db.query("UPDATE gateway.payments SET status = 'unsettled', outcome_unknown_since = now() - interval '1 minute' WHERE id = $1", [late.row.id]);
      const { publicClient, walletFor } = chainClients();
      const hash = await walletFor(FUNDER()).sendTransaction({ to: chain().asset as Hex, data: transferCallData(late.payload) });
      expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");

      const status = async () => ((await db.query("SELECT status FROM gateway.payments WHERE id = $1", [late.row.id])).rows[0] as { status: string }).status;
      for (let minute = 0; minute < 2 && (await status()) !== "settled"; minute++) {
        await cron();
        // A minute later: the run's claims have lapsed, as they have when the scheduler calls again.
        await db.query("UPDATE gateway.payments SET cron_claimed_until = NULL");
      }
      expect(await status()).toBe("settled");
    });

    it(`gives a finished turn's settlement up after ${MAX_UNAVAILABLE_ATTEMPTS} tries that never reached the facilitator: failed, nothing charged; one try short of that, it is tried again`, async () => {
      const db = await getDb();
      // Whatever earlier tests left for the cron is moved first, so this run's batch holds these two.
      for (let i = 0; i < 10 && Number((await cron()).checked) > 0; i++) await db.query("UPDATE gateway.payments SET cron_claimed_until = NULL");
      const before = await usdcBalance(payTo);
      const givenUp = await startTurn(await payer(1), { message: "its facilitator never answers" });
      const kept = await startTurn(await payer(1), { message: "one more try to come" });
      expect([givenUp.status, kept.status]).toEqual([202, 202]);
      agent.finish(givenUp.body.messageId);
      agent.finish(kept.body.messageId);
      // Each earlier try found the facilitator unreachable; this run's try is the last one for the first.
      await db.query("UPDATE gateway.payments SET settle_attempts = $2 WHERE message_id = $1", [givenUp.body.messageId, MAX_UNAVAILABLE_ATTEMPTS - 1]);
      await db.query("UPDATE gateway.payments SET settle_attempts = $2 WHERE message_id = $1", [kept.body.messageId, MAX_UNAVAILABLE_ATTEMPTS - 2]);
      const restoreUnreachable = await configureGateway({ ...env(), FACILITATOR_URL: await closedUrl() });
      try {
        await cron();
      } finally {
        await restoreUnreachable();
      }
      // Reconfiguring the gateway opened a new pool.
      const row = async (messageId: string) => (await (await getDb()).query("SELECT status, failure_reason FROM gateway.payments WHERE message_id = $1", [messageId])).rows[0];
      expect(await row(givenUp.body.messageId)).toEqual({ status: "failed", failure_reason: "settlement_unavailable" });
      expect(await row(kept.body.messageId)).toMatchObject({ status: "scheduled" });
      expect((await poll(givenUp.body.conversationId)).status).toBe("failed");
      expect(await usdcBalance(payTo)).toBe(before);
      // With the facilitator back, the one still scheduled is settled.
      await (await getDb()).query("UPDATE gateway.payments SET cron_claimed_until = NULL");
      await cron();
      expect(await paymentStatus(kept.body.messageId)).toBe("settled");
      expect((await usdcBalance(payTo)) - before).toBe(PRICE);
    });
  });

  describe("whose conversation", () => {
    it("a payer cannot continue another payer's conversation: 404 as if unknown, charged: false, nothing reaches the agent; the owner goes on", async () => {
      const before = await usdcBalance(payTo);
      const owner = await payer(2);
      const first = await startTurn(owner, { message: "the owner's question" });
      agent.finish(first.body.messageId);
      expect((await poll(first.body.conversationId)).status).toBe("completed");

      const startsBefore = agentStarts();
      const stranger = await payer(1);
      const foreign = await startTurn(stranger, { message: "a stranger's turn", conversationId: first.body.conversationId });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ reason: "not_found", charged: false });
      expect(agentStarts()).toBe(startsBefore);
      const unknown = await startTurn(stranger, { message: "a conversation nobody started", conversationId: "5d0f0a3e-1111-4aaa-8bbb-0123456789ab" });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(foreign.body);

      const second = await startTurn(owner, { message: "the owner's follow-up", conversationId: first.body.conversationId });
      expect(second.status).toBe(202);
      agent.finish(second.body.messageId);
      const conversation = await poll(first.body.conversationId);
      expect(conversation.status).toBe("completed");
      expect(conversation.turns?.map((t) => Boolean(t.reply))).toEqual([true, true]);
      expect((await usdcBalance(payTo)) - before).toBe(2n * PRICE);
    });

    it("a conversation's status is its latest turn's: an earlier turn whose payment failed never makes a later paid turn read failed", async () => {
      const owner = await payer(1);
      const first = await startTurn(owner, { message: "a turn whose payment will fail" });
      await drainWallet(owner);
      agent.finish(first.body.messageId);
      expect((await poll(first.body.conversationId)).status).toBe("failed");

      await fund(owner, 1);
      const second = await startTurn(owner, { message: "a paid follow-up", conversationId: first.body.conversationId });
      expect(second.status).toBe(202);
      agent.finish(second.body.messageId);
      const conversation = await poll(first.body.conversationId);
      expect(await paymentStatus(second.body.messageId)).toBe("settled");
      expect(conversation.status).toBe("completed");
      expect(conversation.turns?.map((t) => t.status)).toEqual(["failed", "completed"]);
      expect(conversation.turns?.map((t) => Boolean(t.reply))).toEqual([false, true]);
      expect(conversation.turns?.[1]?.settlement).toBeTruthy();
    });
  });

  describe.skipIf(databaseKind() === "pglite")(`across gateway processes (${NEEDS_SERVER})`, () => {
    let gateways: GatewayProcess[] = [];
    beforeAll(async () => {
      const processEnv = { ...env(), RPC_URL: chain().rpcUrl, DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER: "4", DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT: "4" };
      gateways = await Promise.all([startGatewayProcess(processEnv), startGatewayProcess(processEnv), startGatewayProcess(processEnv)]);
      // Each process loads the paid route on its first request: done here, not within a test's bound.
      for (const gateway of gateways) expect((await fetch(`${gateway.url}/api/deep-research/start`, { method: "POST", body: "{}" })).status).toBe(402);
    });
    afterAll(async () => {
      await Promise.all(gateways.map((g) => g.kill()));
    });

    const startAt = async (gateway: GatewayProcess, header: string, message: string) => {
      const response = await fetch(`${gateway.url}/api/deep-research/start`, { method: "POST", headers: { "content-type": "application/json", "payment-signature": header }, body: JSON.stringify({ message }) });
      return { status: response.status, body: (await response.json()) as { reason?: string; messageId: string } };
    };
    /** Ends the turns a test started, so what they held is released for the next. */
    const endTurns = async (messageIds: string[]) => {
      for (const id of messageIds) agent.setTurnStatus(id, "failed");
      for (let i = 0; i < 10 && Number((await cron()).checked) > 0; i++);
      for (const id of messageIds) expect(await paymentStatus(id)).toBe("voided");
    };

    it("twelve starts of a $3.00 wallet split over three gateway processes at once: exactly three accepted, three turns at the agent", async () => {
      const key = await payer(3);
      const startsBefore = agentStarts();
      const signed = await Promise.all(Array.from({ length: 12 }, () => signPayment({ privateKey: key, requirements })));
      const answers = await Promise.all(signed.map(({ header }, i) => startAt(gateways[i % 3]!, header, `turn ${i} of three dollars`)));
      expect(answers.filter((a) => a.status === 202), JSON.stringify(answers)).toHaveLength(3);
      expect(answers.filter((a) => a.status !== 202).map((a) => `${a.status} ${a.body.reason}`)).toEqual(Array(9).fill("402 insufficient_funds"));
      expect(agentStarts() - startsBefore).toBe(3);
      await endTurns(answers.filter((a) => a.status === 202).map((a) => a.body.messageId));
    });

    it("ten payers from one address over three processes at once: exactly DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT (4) accepted", async () => {
      const keys: Hex[] = [];
      for (let i = 0; i < 10; i++) keys.push(await payer(1));
      const startsBefore = agentStarts();
      const signed = await Promise.all(keys.map((privateKey) => signPayment({ privateKey, requirements })));
      const answers = await Promise.all(signed.map(({ header }, i) => startAt(gateways[i % 3]!, header, `payer ${i} of one address`)));
      expect(answers.filter((a) => a.status === 202), JSON.stringify(answers)).toHaveLength(4);
      expect(answers.filter((a) => a.status !== 202).map((a) => `${a.status} ${a.body.reason}`)).toEqual(Array(6).fill("429 too_many_unsettled_turns"));
      expect(agentStarts() - startsBefore).toBe(4);
      await endTurns(answers.filter((a) => a.status === 202).map((a) => a.body.messageId));
    });
  });
});
