import { generateKeyPairSync, randomUUID, verify, type KeyObject } from "node:crypto";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/gateway/db";
import { createPayingFetch } from "@/lib/client/payments/client";
import { MAX_UNAVAILABLE_ATTEMPTS } from "@/lib/gateway/payments/settle";
import { createTestDatabase } from "../support/database";
import { startFacilitatorDouble, type FacilitatorDouble } from "../support/facilitator-double";
import { configureGateway } from "../support/gateway";
import { closedUrl, startHttpDouble, type HttpDouble } from "../support/http-double";
import { erc20Abi, type Hex } from "viem";
import { cancelAuthorization, chain, chainClients, claimTestPayment, freshAddress, fundedWallet, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";
import { until } from "../support/until";

/**
 * This file's wallets: 40 to 79 of the suite's chain.
 *
 * Attacks on the paid routes, each reproduced from the payments issue: work given away when
 * settlement throws, payers refused because others paid at the same moment, an authorization
 * counted as paid because it was used (cancelled), values the ledger cannot store.
 */

const PUBLIC_URL = "https://gateway.test";
const CHAT_URL = `${PUBLIC_URL}/api/chat`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";
const SERVICE_KEY = "service-key-for-tests-0123";

type Agent = HttpDouble & {
  started: () => number;
  cancelled: () => number;
  /** The jobs cancelled, by the id each was accepted under. */
  cancelledIds: () => string[];
  /** The next chat it is sent whose message is `message` waits for `release` before it is accepted, under the id `jobId`. */
  holdNext: (message: string) => { jobId: string; release: () => void };
};

async function startAgent(): Promise<Agent> {
  let held: { message: string; jobId: string; gate: Promise<void> } | null = null;
  const agent = await startHttpDouble(async (req) => {
    if (req.path.startsWith("/api/chat/cancel/")) return { status: 204 };
    if (req.path === "/api/chat") {
      const hold = held && (JSON.parse(req.body) as { message?: string }).message === held.message ? held : null;
      if (hold) {
        held = null;
        await hold.gate;
      }
      const requestId = hold?.jobId ?? randomUUID();
      return { status: 202, body: { requestId, conversationId: `conversation-${requestId}`, status: "queued" } };
    }
    return { status: 404, body: { error: "unknown" } };
  });
  return Object.assign(agent, {
    started: () => agent.requests.filter((r) => r.path === "/api/chat").length,
    cancelled: () => agent.requests.filter((r) => r.path.startsWith("/api/chat/cancel/")).length,
    cancelledIds: () => agent.requests.filter((r) => r.path.startsWith("/api/chat/cancel/")).map((r) => r.path.slice("/api/chat/cancel/".length)),
    holdNext: (message: string) => {
      let release!: () => void;
      const jobId = randomUUID();
      held = { message, jobId, gate: new Promise<void>((resolve) => (release = resolve)) };
      return { jobId, release };
    },
  });
}

async function chatRequirements(): Promise<PaymentRequirements> {
  const response = await postJson(CHAT_URL, { message: "q" });
  return decodePaymentRequiredHeader(response.headers.get("payment-required")!).accepts[0]!;
}

const cron = async () => (await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } })).json();

describe("self-hosted facilitator under attack and load", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Agent;
  let restore: () => Promise<void>;
  const payTo = freshAddress();

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startAgent();
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      CRON_SECRET,
      AGENT_SERVICE_KEY: SERVICE_KEY,
      INVALID_PAYMENT_LIMIT: "3",
    });
  });
  afterAll(async () => {
    await restore();
    await agent.close();
    await database.drop();
  });

  it("a malformed ERC-6492 signature from an unfunded address gets no work: 402 before any job starts", async () => {
    const requirements = await chatRequirements();
    const { payload } = await signPayment({ privateKey: generatePrivateKey(), requirements });
    (payload.payload as { signature: string }).signature = `0x${"6492".repeat(16)}`;
    const header = Buffer.from(JSON.stringify(payload)).toString("base64");
    const before = { started: agent.started(), balance: await usdcBalance(payTo) };
    const response = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header, "x-forwarded-for": "192.0.2.60" });
    expect(response.status).toBe(402);
    expect(response.headers.get("payment-response")).toBeNull();
    expect(agent.started() - before.started).toBe(0);
    expect(await usdcBalance(payTo)).toBe(before.balance);
  });

  it("a signature the local checks cannot judge (not 65 bytes) is refused by the facilitator before any work starts", async () => {
    const requirements = await chatRequirements();
    const { payload } = await signPayment({ privateKey: wallet(40).privateKey, requirements });
    // 66 bytes: not an EOA signature, so only the chain can say whether the payer's wallet accepts it.
    (payload.payload as { signature: string }).signature = `${(payload.payload as { signature: string }).signature}00`;
    const header = Buffer.from(JSON.stringify(payload)).toString("base64");
    const before = agent.started();
    const response = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header, "x-forwarded-for": "192.0.2.61" });
    expect(response.status).toBe(402);
    expect(((await response.json()) as { reason: string }).reason).toBe("invalid_signature");
    expect(agent.started() - before).toBe(0);
  });

  it("a paid request the ledger cannot take (its database down) is 503 payment_in_progress with Retry-After: send the same signature again, never sign anew", async () => {
    const requirements = await chatRequirements();
    const { header } = await signPayment({ privateKey: wallet(52).privateKey, requirements });
    const restoreDown = await configureGateway({ POSTGRES_URL: `postgres://nobody@127.0.0.1:${new URL(await closedUrl()).port}/none`, UPSTREAM_API_URL: agent.url, PUBLIC_URL, RPC_URL: chain().rpcUrl, PAY_TO_ADDRESS: payTo, CRON_SECRET, AGENT_SERVICE_KEY: SERVICE_KEY });
    try {
      const response = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      // The official client's resend wrapper sends the same signature again on this reason.
      expect(((await response.json()) as { reason: string }).reason).toBe("payment_in_progress");
    } finally {
      await restoreDown();
    }
  });

  it("two distinct payers at the same instant are both served, and charged once each", async () => {
    const requirements = await chatRequirements();
    const before = await usdcBalance(payTo);
    const headers = await Promise.all([41, 42].map(async (i) => (await signPayment({ privateKey: wallet(i).privateKey, requirements })).header));
    const responses = await Promise.all(headers.map((h) => postJson(CHAT_URL, { message: "same moment" }, { "payment-signature": h })));
    expect(responses.map((r) => r.status)).toEqual([202, 202]);
    expect((await usdcBalance(payTo)) - before).toBe(40_000n);
  });

  it("twenty payers at once with the official client: all accepted, the payee gains exactly twenty prices", async () => {
    const before = await usdcBalance(payTo);
    const payers = Array.from({ length: 20 }, (_, i) => wallet(50 + i));
    const responses = await Promise.all(
      payers.map((p) =>
        createPayingFetch({ privateKey: p.privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch }).fetch(CHAT_URL, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.20" },
          body: JSON.stringify({ message: "a crowd" }),
        }),
      ),
    );
    const outcomes = await Promise.all(responses.map(async (r) => (r.status === 202 ? 202 : `${r.status} ${await r.text()}`)));
    expect(outcomes).toEqual(Array(20).fill(202));
    for (const r of responses) expect(decodePaymentResponseHeader(r.headers.get("payment-response")!).transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await usdcBalance(payTo)) - before).toBe(400_000n);
  });

  it("an authorization valid until 2^63 is a 402 with a reason, not a 500", async () => {
    const requirements = await chatRequirements();
    const { header } = await signPayment({ privateKey: wallet(43).privateKey, requirements, overrides: { validBefore: 2 ** 63 } });
    const response = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header, "x-forwarded-for": "192.0.2.62" });
    expect(response.status).toBe(402);
    expect(((await response.json()) as { reason?: string }).reason).toBeTruthy();
  });

  it("a payer that moves its funds away ahead of the settlement (a higher tip, the same block) is refused 402 insufficient_funds and counted: the revert it caused is not the service's fault", async () => {
    const { publicClient, walletFor } = chainClients();
    const rpc = (method: string, params: unknown[] = []) => publicClient.request({ method, params } as never);
    const requirements = await chatRequirements();
    const payer = await fundedWallet(BigInt(requirements.amount));
    const from = { "x-forwarded-for": "192.0.2.70" };
    const { header } = await signPayment({ privateKey: payer.privateKey, requirements });
    const before = await usdcBalance(payTo);
    const db = await getDb();
    await rpc("evm_setAutomine", [false]);
    let response: Response;
    try {
      const answer = postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
      // Every check passed and the settlement's transfer waits in the node's pool…
      const pending = async () =>
        (
          await db.query<{ tip: string; cap: string }>(
            `SELECT t.max_priority_fee_per_gas::text AS tip, t.max_fee_per_gas::text AS cap FROM gateway.settlement_transactions t
               JOIN gateway.payments p ON p.id = t.payment_id WHERE p.payer = $1 AND t.status = 'pending'`,
            [payer.address.toLowerCase()],
          )
        ).rows[0];
      await until(async () => (await pending()) !== undefined, { what: "the settlement's transfer in the pool" });
      const ours = (await pending())!;
      // …when the payer sends all it holds elsewhere with a higher tip, and one block takes both.
      await walletFor(payer.privateKey).writeContract({
        address: chain().asset as Hex,
        abi: erc20Abi,
        functionName: "transfer",
        args: [freshAddress(), BigInt(requirements.amount)],
        // Not estimated: against the pool's pending state (the settlement first) it would revert.
        gas: 100_000n,
        maxPriorityFeePerGas: BigInt(ours.tip) * 2n + 1n,
        maxFeePerGas: BigInt(ours.cap) * 2n + 1n,
      });
      await rpc("evm_mine");
      response = await answer;
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    expect(response.status).toBe(402);
    expect(((await response.json()) as { reason: string }).reason).toBe("insufficient_funds");
    expect(await usdcBalance(payTo)).toBe(before);
    // Counted: with a limit of 3, two more refusals reach it, and the next is 429.
    const bad = (await signPayment({ privateKey: wallet(43).privateKey, requirements: { ...requirements, amount: "1" } })).header;
    for (let i = 0; i < 2; i++) expect((await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": bad })).status).toBe(402);
    expect((await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": bad })).status).toBe(429);
  });

  it("a request taken for dead whose work then arrives is 503 payment_in_progress, its own job cancelled: the retry that took it over is charged once, and the payer's history names the retry's work", async () => {
    const requirements = await chatRequirements();
    // The price of any chat; the request below is digested with its own message.
    const payer = wallet(70);
    const { header, nonce } = await signPayment({ privateKey: payer.privateKey, requirements });
    const db = await getDb();
    const before = await usdcBalance(payTo);
    const from = { "payment-signature": header, "x-forwarded-for": "192.0.2.71" };
    // The first request's job is accepted only when the test says so: until then it holds the payment.
    const message = "a question whose first request is taken for dead";
    const slow = agent.holdNext(message);
    const first = postJson(CHAT_URL, { message }, from);
    const row = async () => (await db.query<{ status: string; upstream_job_id: string | null }>("SELECT status, upstream_job_id FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()])).rows[0];
    await until(async () => (await row())?.status === "received" && agent.requests.some((r) => r.path === "/api/chat" && r.body.includes(message) && r.response === undefined), { what: "the first request to hold its payment and wait for its job" });
    // Its process is taken for dead (it has not moved on for longer than a request's lease).
    await db.query("UPDATE gateway.payments SET updated_at = now() - interval '1 hour' WHERE nonce = $1", [nonce.toLowerCase()]);
    const retry = await postJson(CHAT_URL, { message }, from);
    expect(retry.status).toBe(202);
    const retryJob = ((await retry.clone().json()) as { requestId: string }).requestId;
    const paid = decodePaymentResponseHeader(retry.headers.get("payment-response")!);
    expect(paid.success).toBe(true);

    slow.release();
    const late = await first;
    expect(late.status).toBe(503);
    expect(late.headers.get("retry-after")).toBeTruthy();
    expect(((await late.json()) as { reason: string }).reason).toBe("payment_in_progress");
    // The late job is never delivered by anyone: cancelled, while the retry's runs on.
    await until(async () => agent.cancelledIds().includes(slow.jobId), { what: "the late request's job to be cancelled" });
    expect(agent.cancelledIds()).not.toContain(retryJob);
    expect((await row())?.upstream_job_id).toBe(retryJob);
    const { rows: history } = await db.query<{ conversation_id: string | null }>(
      "SELECT h.conversation_id FROM gateway.wallet_history h JOIN gateway.payments p ON p.id = h.payment_id WHERE p.nonce = $1",
      [nonce.toLowerCase()],
    );
    expect(history.map((h) => h.conversation_id)).toEqual([`conversation-${retryJob}`]);
    // Sent again as the 503 says: the retry's answer, with the one transfer.
    const again = await postJson(CHAT_URL, { message }, from);
    expect(again.status).toBe(202);
    expect(((await again.json()) as { requestId: string }).requestId).toBe(retryJob);
    expect(decodePaymentResponseHeader(again.headers.get("payment-response")!).transaction).toBe(paid.transaction);
    expect((await usdcBalance(payTo)) - before).toBe(BigInt(requirements.amount));
  });

  it("a cancelled authorization is never counted as paid", async () => {
    const requirements = await chatRequirements();
    const payer = wallet(44);
    const db = await getDb();
    // The request was interrupted after its claim; meanwhile the payer cancels the authorization.
    const { nonce } = await claimTestPayment({ db, requirements, privateKey: payer.privateKey, requestDigest: "interrupted" });
    await db.query("UPDATE gateway.payments SET updated_at = now() - interval '1 hour' WHERE nonce = $1", [nonce.toLowerCase()]);
    await cancelAuthorization(payer.privateKey, nonce);
    await cron();
    const { rows } = await db.query("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(rows[0]?.status).not.toBe("settled");
  });
});

describe("hosted facilitator failures", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Agent;
  let facilitator: FacilitatorDouble;
  let restore: () => Promise<void>;
  const payTo = freshAddress();
  /** The gateway's environment for this block, a hosted facilitator's settings on top. */
  const env = (facilitatorSettings: Record<string, string>) => ({
    POSTGRES_URL: database.url,
    UPSTREAM_API_URL: agent.url,
    PUBLIC_URL,
    RPC_URL: chain().rpcUrl,
    PAY_TO_ADDRESS: payTo,
    CRON_SECRET,
    AGENT_SERVICE_KEY: SERVICE_KEY,
    // Long enough for a real settlement on a busy machine (a transfer and its receipt): only the
    // facilitator that hangs on purpose below should ever reach it.
    FACILITATOR_TIMEOUT_MS: "8000",
    INVALID_PAYMENT_LIMIT: "2",
    ...facilitatorSettings,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startAgent();
    facilitator = await startFacilitatorDouble({ rpcUrl: chain().rpcUrl, chainId: chain().chainId, privateKey: wallet(49).privateKey, network: chain().network });
    restore = await configureGateway(env({ FACILITATOR_URL: facilitator.url }));
  });
  beforeEach(() => {
    facilitator.mode = "real";
  });
  afterAll(async () => {
    await restore();
    await facilitator.close();
    await agent.close();
    await database.drop();
  });

  it.each([["an x402 refusal", "refuse-400" as const], ["a plain error body", "refuse-400-plain" as const]])(
    "a facilitator that refuses with HTTP 400 (%s) gets a 402 and the job is cancelled, not a free 202",
    async (_name, mode) => {
      facilitator.mode = mode;
      const requirements = await chatRequirements();
      const { header } = await signPayment({ privateKey: generatePrivateKey(), requirements });
      const before = { started: agent.started(), cancelled: agent.cancelled() };
      const response = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header, "x-forwarded-for": `192.0.2.${mode.length}` });
      expect(response.status).toBe(402);
      expect(response.headers.get("payment-response")).toBeNull();
      expect(agent.cancelled() - before.cancelled).toBe(agent.started() - before.started);
    },
  );

  it("an unreachable facilitator is a 503 with Retry-After, nothing delivered, the job cancelled; it never counts as the client's invalid attempt", async () => {
    const requirements = await chatRequirements();
    const reachable = facilitator.url;
    const restoreUnreachable = await configureGateway(env({ FACILITATOR_URL: await closedUrl() }));
    const from = { "x-forwarded-for": "203.0.113.50" };
    try {
      for (let i = 0; i < 4; i++) {
        const { header } = await signPayment({ privateKey: wallet(45).privateKey, requirements });
        const before = { started: agent.started(), cancelled: agent.cancelled() };
        const response = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
        expect(response.status).toBe(503);
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(response.headers.get("payment-response")).toBeNull();
        expect(agent.cancelled() - before.cancelled).toBe(agent.started() - before.started);
      }
    } finally {
      await restoreUnreachable();
    }
    expect(facilitator.url).toBe(reachable);
    // The same client, with the facilitator back: served, not 429.
    const { header } = await signPayment({ privateKey: wallet(45).privateKey, requirements });
    const response = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
    expect(response.status).toBe(202);
  });

  it("a facilitator whose own transaction failed (its account's nonce clashed) is the service's fault: 503 with Retry-After, never counted against the payer, and the same signature is served once it settles", async () => {
    const requirements = await chatRequirements();
    const from = { "x-forwarded-for": "203.0.113.51" };
    const before = await usdcBalance(payTo);
    facilitator.mode = "own-nonce-clash";
    // More refusals than INVALID_PAYMENT_LIMIT (2): none may turn into a 429 for this payer.
    for (let i = 0; i < 4; i++) {
      const { header } = await signPayment({ privateKey: wallet(48).privateKey, requirements });
      const started = { started: agent.started(), cancelled: agent.cancelled() };
      const response = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { reason: string }).reason).toBe("settlement_unavailable");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(agent.cancelled() - started.cancelled).toBe(agent.started() - started.started);
    }
    const { header } = await signPayment({ privateKey: wallet(48).privateKey, requirements });
    expect((await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header })).status).toBe(503);
    expect(await usdcBalance(payTo)).toBe(before);
    facilitator.mode = "real";
    const retry = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
    expect(retry.status).toBe(202);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
  });

  it("a facilitator that calls a signature invalid which the gateway proved valid (it cannot reach its chain) is 503, never counted against the payer; the same signature is served once it can", async () => {
    const requirements = await chatRequirements();
    const from = { "x-forwarded-for": "203.0.113.52" };
    const before = await usdcBalance(payTo);
    facilitator.mode = "chain-blind";
    let header = "";
    for (let i = 0; i < 4; i++) {
      header = (await signPayment({ privateKey: wallet(50).privateKey, requirements })).header;
      const response = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { reason: string }).reason).toBe("settlement_unavailable");
    }
    expect(await usdcBalance(payTo)).toBe(before);
    facilitator.mode = "real";
    const retry = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
    expect(retry.status).toBe(202);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
  });

  it("with the chain out of reach for the gateway too, the same signature sent again is 503 while nothing can be known, never a 500, and is served once the chain is back", async () => {
    const requirements = await chatRequirements();
    const from = { "x-forwarded-for": "203.0.113.53" };
    const before = await usdcBalance(payTo);
    const { header } = await signPayment({ privateKey: wallet(51).privateKey, requirements });
    facilitator.mode = "chain-blind";
    const restoreBlind = await configureGateway(env({ FACILITATOR_URL: facilitator.url, RPC_URL: await closedUrl() }));
    try {
      // The first attempt cannot learn whether anything happened (the gateway cannot read the
      // chain either); each resend must look on chain first, and cannot: 503 both times.
      for (let i = 0; i < 2; i++) {
        const response = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
        expect(response.status).toBe(503);
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    } finally {
      await restoreBlind();
    }
    facilitator.mode = "real";
    const retry = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header });
    expect(retry.status).toBe(202);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
  });

  it("a facilitator that transferred and then timed out: 503, and the retry with the same signature gets the work without a second charge", async () => {
    const requirements = await chatRequirements();
    const { header } = await signPayment({ privateKey: wallet(46).privateKey, requirements });
    const before = await usdcBalance(payTo);
    facilitator.mode = "transfer-then-hang";
    const first = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header });
    expect(first.status).toBe(503);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n); // the transfer did happen
    facilitator.mode = "real";
    const retry = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header });
    expect(retry.status).toBe(202);
    expect(((await retry.json()) as { requestId: string }).requestId).toBeTruthy();
    expect(decodePaymentResponseHeader(retry.headers.get("payment-response")!).transaction).toBe(facilitator.transactions.at(-1));
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
  });

  it("authenticates to a facilitator that needs credentials: CDP API keys (signed JWTs through @coinbase/x402), or another provider's header", async () => {
    const requirements = await chatRequirements();
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const keyId = "organizations/test/apiKeys/test-key";
    facilitator.requiredHeader = { name: "authorization", value: (value) => isCdpJwt(value, publicKey, keyId) };
    const common = env({ FACILITATOR_URL: facilitator.url, FACILITATOR_TIMEOUT_MS: "5000" });
    try {
      // Without credentials the facilitator refuses us: our fault, 503, nothing delivered.
      const unauthenticated = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": (await signPayment({ privateKey: wallet(47).privateKey, requirements })).header });
      expect(unauthenticated.status).toBe(503);
      const before = await usdcBalance(payTo);
      const restoreCdp = await configureGateway({ ...common, CDP_API_KEY_ID: keyId, CDP_API_KEY_SECRET: privateKey.export({ type: "pkcs8", format: "pem" }).toString() });
      try {
        const paid = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": (await signPayment({ privateKey: wallet(47).privateKey, requirements })).header });
        expect(paid.status).toBe(202);
      } finally {
        await restoreCdp();
      }
      facilitator.requiredHeader = { name: "x-api-key", value: "provider-key-0123" };
      const restoreHeaders = await configureGateway({ ...common, FACILITATOR_HEADERS: JSON.stringify({ "X-API-Key": "provider-key-0123" }) });
      try {
        const paid = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": (await signPayment({ privateKey: wallet(47).privateKey, requirements })).header });
        expect(paid.status).toBe(202);
      } finally {
        await restoreHeaders();
      }
      expect((await usdcBalance(payTo)) - before).toBe(40_000n);
    } finally {
      facilitator.requiredHeader = null;
    }
  });

  it("the cron never gives up a deferred settlement whose process stopped mid-attempt (that attempt may have reached the facilitator: its transfer would count), and closes an unsettled payment once it expired", async () => {
    const db = await getDb();
    const drRequirements = decodePaymentRequiredHeader((await postJson(`${PUBLIC_URL}/api/deep-research/start`, { message: "q" })).headers.get("payment-required")!).accepts[0]!;
    const scheduled = await claimed(drRequirements, 48, "deepResearch");
    await db.query("UPDATE gateway.payments SET status = 'settling', settle_started_at = now() - interval '1 hour', settle_attempts = $2 WHERE id = $1", [scheduled, MAX_UNAVAILABLE_ATTEMPTS]);
    const unsettled = await claimed(await chatRequirements(), 48, "chat");
    await db.query("UPDATE gateway.payments SET status = 'unsettled', valid_before = extract(epoch from now())::bigint - 1 WHERE id = $1", [unsettled]);
    const restoreUnreachable = await configureGateway(env({ FACILITATOR_URL: await closedUrl() }));
    try {
      await cron();
    } finally {
      await restoreUnreachable();
    }
    const status = async (id: string) => (await (await getDb()).query("SELECT status, failure_reason FROM gateway.payments WHERE id = $1", [id])).rows[0];
    // Given up ('failed'), a transfer the stopped attempt sent would land unrecorded: it stays owed
    // until its authorization expires, and a transfer found meanwhile settles it.
    expect(await status(scheduled)).toEqual({ status: "scheduled", failure_reason: "settlement_unavailable" });
    const { rows } = await (await getDb()).query("SELECT outcome_unknown_since IS NOT NULL AS unknown FROM gateway.payments WHERE id = $1", [scheduled]);
    expect(rows[0]).toEqual({ unknown: true });
    expect(await status(unsettled)).toEqual({ status: "voided", failure_reason: "unsettled_expired" });
  });
});

/** A claimed payment of the given kind (as the paid route leaves it), by wallet index. */
async function claimed(requirements: PaymentRequirements, walletIndex: number, operation: "chat" | "deepResearch"): Promise<string> {
  return (await claimTestPayment({ db: await getDb(), requirements, privateKey: wallet(walletIndex).privateKey, operation })).row.id;
}

/** Whether `value` is `Bearer <JWT>` signed (ES256) by the CDP key `keyId` for one of the facilitator's routes. */
function isCdpJwt(value: string | undefined, publicKey: KeyObject, keyId: string): boolean {
  const token = /^Bearer (.+)$/.exec(value ?? "")?.[1];
  const [header, payload, signature] = token?.split(".") ?? [];
  if (!header || !payload || !signature) return false;
  const signed = verify("sha256", Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { sub?: string; exp?: number; uris?: string[] };
  return (
    signed &&
    claims.sub === keyId &&
    (claims.exp ?? 0) > Date.now() / 1000 &&
    (claims.uris ?? []).some((uri) => /^(POST|GET) api\.cdp\.coinbase\.com\/platform\/v2\/x402\/(verify|settle|supported)$/.test(uri))
  );
}
