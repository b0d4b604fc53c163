import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { paymentRequiredBodySchema } from "@/lib/shared/contracts";
import { chat } from "@/lib/shared/operations/chat";
import { withPayment } from "@/lib/gateway/payments/paid-route";
import { getDb } from "@/lib/gateway/db";
import { createPayingFetch } from "@/lib/client/payments/client";
import { getPaymentsContext } from "@/lib/gateway/payments/context";
import { generatePrivateKey } from "viem/accounts";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { expectHeaderSaysBody } from "../support/payment-required";
import { chain, drainWallet, freshAddress, fundedPayer, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";

const PUBLIC_URL = "https://gateway.test";
const CHAT_URL = `${PUBLIC_URL}/api/chat`;
const LITERATURE_URL = `${PUBLIC_URL}/api/literature`;

const post = postJson;

async function requirementsOf(url: string, body: unknown = { message: "q" }): Promise<{ required: PaymentRequired; requirements: PaymentRequirements }> {
  const response = await post(url, body);
  expect(response.status).toBe(402);
  const required = decodePaymentRequiredHeader(response.headers.get("payment-required")!);
  return { required, requirements: required.accepts[0]! };
}

describe("paid routes: chat and literature", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let agentMode: "ok" | "fail" | "slow" | "drain" = "ok";
  let drainKey: `0x${string}` | undefined;
  let restore: () => Promise<void>;
  let gatewayEnv: Parameters<typeof configureGateway>[0];
  const payTo = freshAddress();
  let facilitatorCalls = { verify: 0, settle: 0 };

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble(async (req) => {
      if (req.path.includes("/cancel")) return { status: 204 };
      if (agentMode === "fail") return { status: 500, body: { error: "boom" } };
      // Four times the gateway's timeout: the gateway gives up long before this answers.
      if (agentMode === "slow") return { status: 202, body: {}, delayMs: 60_000 };
      // Only the work's start drains, and only once: the gateway may also read the agent's status
      // meanwhile (its cache of the literature's reach expires on a slow run), and a second drain
      // of the emptied wallet reverts, leaving that request unanswered until the test times out.
      if (agentMode === "drain" && drainKey && req.path === "/api/chat") {
        const key = drainKey;
        drainKey = undefined;
        await drainWallet(key);
      }
      if (req.path === "/api/chat") return { status: 202, body: { requestId: randomUUID(), status: "queued" } };
      if (req.path === "/api/literature") return { status: 202, body: { jobId: randomUUID(), status: "queued" } };
      return { status: 404, body: { error: "unknown" } };
    });
    gatewayEnv = {
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      // Far above any working answer: the drained-wallet double below makes a chain transfer before
      // it answers (5 s, then 15 s, were not enough on a loaded machine). The "times out" case
      // configures a short one of its own.
      UPSTREAM_TIMEOUT_MS: "120000",
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      INVALID_PAYMENT_LIMIT: "1000",
    };
    restore = await configureGateway(gatewayEnv);
  });
  beforeEach(() => {
    agentMode = "ok";
    countFacilitatorCalls();
  });

  /** Counts what reaches the facilitator, to prove the cheap checks never get there. */
  function countFacilitatorCalls(): void {
    const { facilitator } = getPaymentsContext();
    const original = { verify: facilitator.verify.bind(facilitator), settle: facilitator.settle.bind(facilitator) };
    facilitatorCalls = { verify: 0, settle: 0 };
    Object.assign(facilitator, {
      verify: (...args: Parameters<typeof facilitator.verify>) => (facilitatorCalls.verify++, original.verify(...args)),
      settle: (...args: Parameters<typeof facilitator.settle>) => (facilitatorCalls.settle++, original.settle(...args)),
      original,
    });
  }
  afterEach(() => {
    const { facilitator } = getPaymentsContext() as unknown as { facilitator: Record<string, unknown> & { original?: object } };
    if (facilitator.original) Object.assign(facilitator, facilitator.original);
  });
  afterAll(async () => {
    await restore();
    await agent.close();
    await database.drop();
  });

  describe("without PAYMENT-SIGNATURE", () => {
    it.each([
      ["a valid body", { message: "Does rapamycin extend lifespan?" }],
      ["an invalid body", { nope: true }],
      ["a malformed body", "{not json"],
      ["no body", ""],
    ])("answers 402 with the requirements for %s", async (_name, body) => {
      const response = await post(CHAT_URL, body);
      expect(response.status).toBe(402);
      const json = paymentRequiredBodySchema.parse(await response.json());
      expectHeaderSaysBody(response, json);
      expect(json.resource.url).toBe(CHAT_URL);
      expect(json.accepts[0]).toMatchObject({
        scheme: "exact",
        network: "eip155:31337",
        amount: "20000",
        payTo,
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      });
      expect(json.accepts[0]?.asset.toLowerCase()).toBe(chain().asset.toLowerCase());
      const bazaar = json.extensions?.bazaar as { info: { input: Record<string, unknown> }; schema: Record<string, unknown> };
      expect(bazaar.info.input).toMatchObject({ type: "http", method: "POST", bodyType: "json" });
      expect(JSON.stringify(bazaar.schema)).toContain("message");
    });

    it("prices literature at 30000 base units", async () => {
      const { requirements } = await requirementsOf(LITERATURE_URL, { question: "q" });
      expect(requirements.amount).toBe("30000");
    });
  });

  it("pays for chat with the official client: 202, PAYMENT-RESPONSE, payee up by exactly the price", async () => {
    const before = await usdcBalance(payTo);
    const payer = wallet(0);
    const { fetch: payFetch } = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
    const response = await payFetch(CHAT_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "Does metformin slow aging?" }) });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { requestId: string; status: string };
    expect(body.status).toBe("queued");
    const settlement = decodePaymentResponseHeader(response.headers.get("payment-response")!);
    expect(settlement).toMatchObject({ success: true, network: "eip155:31337" });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    const db = await getDb();
    const { rows } = await db.query("SELECT status, tx_hash, upstream_job_id FROM gateway.payments WHERE upstream_job_id = $1", [body.requestId]);
    expect(rows).toEqual([{ status: "settled", tx_hash: settlement.transaction, upstream_job_id: body.requestId }]);
  });

  it("pays for literature: 202, payee up by exactly 30000", async () => {
    const before = await usdcBalance(payTo);
    const { fetch: payFetch } = createPayingFetch({ privateKey: wallet(1).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
    const response = await payFetch(LITERATURE_URL, { method: "POST", body: JSON.stringify({ question: "senolytics and frailty" }) });
    expect(response.status).toBe(202);
    expect(response.headers.get("payment-response")).toBeTruthy();
    expect((await usdcBalance(payTo)) - before).toBe(30_000n);
  });

  it("answers 400 for an invalid body with a valid payment, and charges nothing", async () => {
    const { requirements } = await requirementsOf(CHAT_URL);
    const { header } = await signPayment({ privateKey: wallet(2).privateKey, requirements });
    const before = await usdcBalance(payTo);
    const response = await post(CHAT_URL, { wrong: "field" }, { "payment-signature": header });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ reason: "invalid_body", charged: false });
    expect(await usdcBalance(payTo)).toBe(before);
    expect(facilitatorCalls).toEqual({ verify: 0, settle: 0 });
  });

  it.each([
    ["fails", "fail" as const],
    ["times out", "slow" as const],
  ])("answers 502 when the agent %s, voids the payment and charges nothing", async (_name, mode) => {
    agentMode = mode;
    // A timeout of its own, far below the double's 60 s delay: the gateway gives up first.
    const restoreTimeout = mode === "slow" ? await configureGateway({ ...gatewayEnv, UPSTREAM_TIMEOUT_MS: "1000" }) : null;
    if (restoreTimeout) countFacilitatorCalls();
    onTestFinished(async () => {
      if (restoreTimeout) await restoreTimeout();
    });
    const { requirements } = await requirementsOf(CHAT_URL);
    const { header, nonce } = await signPayment({ privateKey: wallet(3).privateKey, requirements });
    const before = await usdcBalance(payTo);
    const response = await post(CHAT_URL, { message: "q" }, { "payment-signature": header });
    expect(response.status).toBe(502);
    expect(await usdcBalance(payTo)).toBe(before);
    const db = await getDb();
    const { rows } = await db.query("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(rows).toEqual([{ status: "voided" }]);
    expect(facilitatorCalls.settle).toBe(0);
  });

  it("replays the original answer for the same signature and request, and refuses it for another request", async () => {
    const { requirements } = await requirementsOf(CHAT_URL);
    const { header } = await signPayment({ privateKey: wallet(4).privateKey, requirements });
    const before = await usdcBalance(payTo);
    const first = await post(CHAT_URL, { message: "same question" }, { "payment-signature": header });
    expect(first.status).toBe(202);
    const firstBody = await first.json();
    const again = await post(CHAT_URL, { message: "same question" }, { "payment-signature": header });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(firstBody);
    expect(again.headers.get("payment-response")).toBe(first.headers.get("payment-response"));
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);

    const other = await post(CHAT_URL, { message: "a different question" }, { "payment-signature": header });
    expect(other.status).toBe(402);
    expect(await other.json()).toMatchObject({ reason: "payment_already_used" });
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
  });

  it("accepts exactly one of fifty concurrent copies of a fresh signature: one job, one transfer", async () => {
    const { requirements } = await requirementsOf(CHAT_URL);
    const { header } = await signPayment({ privateKey: wallet(5).privateKey, requirements });
    const before = await usdcBalance(payTo);
    const jobsBefore = agent.requests.filter((r) => r.path === "/api/chat").length;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => post(CHAT_URL, { message: "concurrent" }, { "payment-signature": header })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(202));
    const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as { requestId: string }).requestId)));
    expect(ids.size).toBe(1);
    expect(agent.requests.filter((r) => r.path === "/api/chat").length - jobsBefore).toBe(1);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    expect(facilitatorCalls).toEqual({ verify: 0, settle: 1 }); // settle verifies first; no separate verify
  });

  describe("refuses wrong payments with their own reason", () => {
    const now = () => Math.floor(Date.now() / 1000);
    const cheap: [string, string, (r: PaymentRequirements) => Parameters<typeof signPayment>[0]][] = [
      ["wrong amount", "amount_mismatch", (r) => ({ privateKey: wallet(6).privateKey, requirements: { ...r, amount: "1" } })],
      ["wrong payTo", "pay_to_mismatch", (r) => ({ privateKey: wallet(6).privateKey, requirements: { ...r, payTo: freshAddress() } })],
      ["wrong network", "network_mismatch", (r) => ({ privateKey: wallet(6).privateKey, requirements: { ...r, network: "eip155:8453" } })],
      ["wrong asset", "asset_mismatch", (r) => ({ privateKey: wallet(6).privateKey, requirements: { ...r, asset: freshAddress() } })],
      ["expired", "authorization_expired", (r) => ({ privateKey: wallet(6).privateKey, requirements: r, overrides: { validBefore: now() - 1 } })],
      ["not yet valid", "authorization_not_yet_valid", (r) => ({ privateKey: wallet(6).privateKey, requirements: r, overrides: { validAfter: now() + 120 } })],
      ["too short a window", "authorization_window_too_short", (r) => ({ privateKey: wallet(6).privateKey, requirements: r, overrides: { validBefore: now() + 20 } })],
      ["an authorization for another amount", "amount_mismatch", (r) => ({ privateKey: wallet(6).privateKey, requirements: r, overrides: { value: "1" } })],
      ["a signature by someone else", "invalid_signature", (r) => ({ privateKey: wallet(7).privateKey, requirements: r, overrides: { from: wallet(6).address } })],
    ];

    it.each(cheap)("%s → %s, without a facilitator call", async (_name, reason, build) => {
      const { requirements } = await requirementsOf(CHAT_URL);
      const args = build(requirements);
      const { header } = await signPayment({ ...args, accepted: args.requirements });
      const before = await usdcBalance(payTo);
      const response = await post(CHAT_URL, { message: "q" }, { "payment-signature": header });
      expect(response.status).toBe(402);
      const body = paymentRequiredBodySchema.parse(await response.json());
      expect(body.reason).toBe(reason);
      expect(body.message).toBeTruthy();
      expect(body.accepts[0]?.amount).toBe("20000");
      expect(facilitatorCalls).toEqual({ verify: 0, settle: 0 });
      expect(await usdcBalance(payTo)).toBe(before);
    });

    it("a tampered signature → invalid_signature, without a facilitator call", async () => {
      const { requirements } = await requirementsOf(CHAT_URL);
      const { payload } = await signPayment({ privateKey: wallet(6).privateKey, requirements });
      const inner = payload.payload as { signature: string };
      inner.signature = inner.signature.slice(0, 10) + (inner.signature[10] === "a" ? "b" : "a") + inner.signature.slice(11);
      const header = Buffer.from(JSON.stringify(payload)).toString("base64");
      const response = await post(CHAT_URL, { message: "q" }, { "payment-signature": header });
      expect(response.status).toBe(402);
      expect(await response.json()).toMatchObject({ reason: "invalid_signature" });
      expect(facilitatorCalls.verify).toBe(0);
    });

    it("garbage in PAYMENT-SIGNATURE → invalid_payment_header", async () => {
      const response = await post(CHAT_URL, { message: "q" }, { "payment-signature": "%%%not-base64%%%" });
      expect(response.status).toBe(402);
      expect(await response.json()).toMatchObject({ reason: "invalid_payment_header" });
    });

      it("an unfunded payer → insufficient_funds, decided by simulating the transfer; the job is cancelled", async () => {
      const { requirements } = await requirementsOf(CHAT_URL);
      const { header } = await signPayment({ privateKey: generatePrivateKey(), requirements });
      const before = await usdcBalance(payTo);
      const cancelsBefore = agent.requests.filter((r) => r.path.startsWith("/api/chat/cancel/")).length;
      const response = await post(CHAT_URL, { message: "q" }, { "payment-signature": header });
      expect(response.status).toBe(402);
      const body = (await response.json()) as { reason: string; message: string };
      expect(body.reason).toBe("insufficient_funds");
      expect(body.message).toContain("exceeds balance");
      expect(facilitatorCalls).toEqual({ verify: 0, settle: 1 });
      expect(agent.requests.filter((r) => r.path.startsWith("/api/chat/cancel/")).length - cancelsBefore).toBe(1);
      expect(await usdcBalance(payTo)).toBe(before);
    });
  });

  it("cancels the job and answers 402 when the payment cannot be settled after the agent accepted it", async () => {
    // A payer of this test's own (a shared test wallet's nonce would race other files' transfers),
    // drained by the agent double after the gateway's checks and before its settlement.
    drainKey = await fundedPayer({ usdc: 1_000_000n, from: wallet(8).privateKey });
    agentMode = "drain";
    const { requirements } = await requirementsOf(CHAT_URL);
    const { header } = await signPayment({ privateKey: drainKey, requirements });
    const before = await usdcBalance(payTo);
    const cancelsBefore = agent.requests.filter((r) => r.path.startsWith("/api/chat/cancel/")).length;
    const response = await post(CHAT_URL, { message: "q" }, { "payment-signature": header });
    expect(response.status).toBe(402);
    const body = (await response.json()) as { reason: string };
    expect(["insufficient_funds", "payment_simulation_failed", "settlement_failed"]).toContain(body.reason);
    expect(await usdcBalance(payTo)).toBe(before);
    expect(agent.requests.filter((r) => r.path.startsWith("/api/chat/cancel/")).length - cancelsBefore).toBe(1);
  });

  it("never settles when the work answers 400 or more without throwing, and cancels what it started", async () => {
    let cancelled = 0;
    const route = withPayment(chat, {
      handle: async () => ({ status: 409, body: { error: "the agent refused this question" }, upstreamJobId: randomUUID(), cancel: async () => void cancelled++ }),
    });
    const { requirements } = await requirementsOf(CHAT_URL);
    const { header, nonce } = await signPayment({ privateKey: wallet(8).privateKey, requirements });
    const before = await usdcBalance(payTo);
    const response = await route(new Request(CHAT_URL, { method: "POST", headers: { "content-type": "application/json", "payment-signature": header }, body: JSON.stringify({ message: "q" }) }));
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: "the agent refused this question", charged: false });
    expect(response.headers.get("payment-response")).toBeNull();
    expect(cancelled).toBe(1);
    expect(facilitatorCalls.settle).toBe(0);
    expect(await usdcBalance(payTo)).toBe(before);
    const db = await getDb();
    const { rows } = await db.query("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(rows).toEqual([{ status: "voided" }]);
  });
});
