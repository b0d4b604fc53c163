import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { declarePaymentIdentifierExtension, generatePaymentId, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import type { Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/gateway/db";
import type { DiscoveryManifest } from "@/lib/gateway/discovery/manifest";
import { PAID_OPERATIONS } from "@/lib/shared/operations";
import { createPayingFetch } from "@/lib/client/payments/client";
import { LOCAL_FACILITATOR } from "@/lib/shared/payments/local-chain";
import { createTestDatabase, databaseKind } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startGatewayProcess, type GatewayProcess } from "../support/gateway-processes";
import { startAcceptingAgent } from "../support/agent-double";
import type { HttpDouble } from "../support/http-double";
import { namePayments } from "../support/payment-identifier";
import { authorizationUsed, chain, chainClients, freshAddress, fundedWallet, signPayment, usdcBalance } from "../support/payments";
import { startRpcProxy, type RpcProxy } from "../support/rpc-proxy";
import { gatewayFetch, postJson, routeFetch } from "../support/routes";

/**
 * x402 `payment-identifier`, attacked: a client names its payment with an id; the same id with the
 * same request is answered once and charged once whatever the signature (a client that lost its
 * signature signs anew), and the same id with another request is refused 409. Paid with the
 * official client (`namePayments` appends the id with the SDK's helper) on the local chain.
 */
const PUBLIC_URL = "https://gateway.test";
const CHAT = `${PUBLIC_URL}/api/chat`;
const LITERATURE = `${PUBLIC_URL}/api/literature`;
const DEEP_RESEARCH = `${PUBLIC_URL}/api/deep-research/start`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";
const json = { "content-type": "application/json" };

describe("payment-identifier: one payment per id", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let restore: () => Promise<void>;
  let env: Record<string, string>;
  const payTo = freshAddress();

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startAcceptingAgent();
    env = {
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      CRON_SECRET,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      INVALID_PAYMENT_LIMIT: "1000",
    };
    restore = await configureGateway(env);
  });
  afterAll(async () => {
    await restore?.();
    await agent?.close();
    await database?.drop();
  });

  const jobs = (path: string) => agent.requests.filter((r) => r.method === "POST" && r.path === path).length;

  /**
   * The official client of `privateKey`, naming every payment `id`, through `transport` (the
   * route handlers by default); `signed` lists each PAYMENT-SIGNATURE it sent, decoded.
   */
  function client(privateKey: Hex, id: string, transport: typeof fetch = routeFetch) {
    const signed: PaymentPayload[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const header = request.headers.get("payment-signature");
      if (header) signed.push(decodePaymentSignatureHeader(header));
      return transport(request);
    };
    const { fetch: pay, client: x402 } = createPayingFetch({ privateKey, network: chain().network, asset: chain().asset, fetchImpl: recording });
    namePayments(x402, () => id);
    const post = (url: string, body: unknown) => pay(url, { method: "POST", headers: json, body: JSON.stringify(body) });
    return { post, signed, nonces: () => signed.map((p) => (p.payload as { authorization: { nonce: string } }).authorization.nonce) };
  }

  it("is advertised in every paid route's 402, body and header, as the SDK declares it, and in /.well-known/x402.json", async () => {
    const manifest = (await (await gatewayFetch(new Request(`${PUBLIC_URL}/.well-known/x402.json`))).json()) as DiscoveryManifest;
    for (const op of PAID_OPERATIONS) {
      const unpaid = await postJson(`${PUBLIC_URL}${op.path}`, op.bodyExample);
      expect(unpaid.status, op.id).toBe(402);
      const body = (await unpaid.json()) as { extensions: Record<string, unknown> };
      const header = decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!);
      expect(body.extensions[PAYMENT_IDENTIFIER], op.id).toEqual(declarePaymentIdentifierExtension());
      // The header carries the declaration's `info`, all the SDK's helpers read; its schema stays in the body.
      expect(header.extensions?.[PAYMENT_IDENTIFIER], op.id).toEqual({ info: declarePaymentIdentifierExtension().info });
      const item = manifest.items.find((i) => i.resource.url === `${PUBLIC_URL}${op.path}`) as { extensions?: Record<string, unknown> } | undefined;
      expect(item?.extensions?.[PAYMENT_IDENTIFIER], op.id).toEqual(declarePaymentIdentifierExtension());
    }
  });

  it("the same id and the same request, signed anew (a client that lost its signature), get the first answer: one job, one charge, the new authorization never used", async () => {
    const payer = await fundedWallet(1_000_000n);
    const id = generatePaymentId();
    const before = await usdcBalance(payTo);
    const jobsBefore = jobs("/api/chat");
    const first = client(payer.privateKey, id);
    const answer = await first.post(CHAT, { message: "Does rapamycin extend lifespan?" });
    expect(answer.status).toBe(202);
    // The client lost its signature and its answer: it signs anew, naming the same payment.
    const again = client(payer.privateKey, id);
    const retry = await again.post(CHAT, { message: "Does rapamycin extend lifespan?" });
    expect(retry.status).toBe(202);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    expect(jobs("/api/chat") - jobsBefore).toBe(1);
    expect(await retry.json()).toEqual(await answer.json());
    expect(decodePaymentResponseHeader(retry.headers.get("payment-response")!).transaction).toBe(decodePaymentResponseHeader(answer.headers.get("payment-response")!).transaction);
    expect(retry.headers.get("x-payment-replayed")).toBe("true");
    expect(first.nonces()[0]).not.toBe(again.nonces()[0]);
    expect(await authorizationUsed(payer.address, again.nonces()[0]!)).toBe(false);
  });

  it("our own paying client names every payment: a response lost after its payment was sent is asked again, answered once and charged once", async () => {
    const payer = await fundedWallet(1_000_000n);
    const before = await usdcBalance(payTo);
    const jobsBefore = jobs("/api/chat");
    const signed: PaymentPayload[] = [];
    let lost = 0;
    // The paid request reaches the gateway, which does the work and settles it; its answer is
    // lost on the way back (a dropped connection), once.
    const losing: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const header = request.headers.get("payment-signature");
      if (!header) return routeFetch(request);
      signed.push(decodePaymentSignatureHeader(header));
      const response = await routeFetch(request);
      if (lost++ > 0) return response;
      await response.body?.cancel();
      throw new TypeError("fetch failed: the connection was reset");
    };
    const { fetch: pay } = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: losing });
    const answer = await pay(CHAT, { method: "POST", headers: json, body: JSON.stringify({ message: "Does taurine extend lifespan?" }) });
    expect(answer.status, await answer.clone().text()).toBe(202);
    expect(answer.headers.get("x-payment-replayed")).toBe("true");
    // Both payments it signed named the same payment, with an id of the SDK's format.
    const ids = signed.map((p) => (p.extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: string } } | undefined)?.info?.id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^[a-zA-Z0-9_-]{16,128}$/);
    expect(ids[1]).toBe(ids[0]);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    expect(jobs("/api/chat") - jobsBefore).toBe(1);
    const nonce = (p: PaymentPayload) => (p.payload as { authorization: { nonce: string } }).authorization.nonce;
    expect(await authorizationUsed(payer.address, nonce(signed[0]!))).toBe(true);
    expect(await authorizationUsed(payer.address, nonce(signed[1]!))).toBe(false);
    // Two calls are two payments: each names its own.
    const other = await pay(CHAT, { method: "POST", headers: json, body: JSON.stringify({ message: "Does taurine extend lifespan?" }) });
    expect(other.status).toBe(202);
    expect((signed[2]!.extensions?.[PAYMENT_IDENTIFIER] as { info: { id: string } }).info.id).not.toBe(ids[0]);
    expect((await usdcBalance(payTo)) - before).toBe(40_000n);
  });

  it("the same id for another request is refused 409, charging and starting nothing; on another route too", async () => {
    const payer = await fundedWallet(1_000_000n);
    const id = generatePaymentId();
    const first = await client(payer.privateKey, id).post(CHAT, { message: "first question" });
    expect(first.status).toBe(202);
    const before = await usdcBalance(payTo);
    const chatJobs = jobs("/api/chat");
    const literatureJobs = jobs("/api/literature");
    for (const [url, body] of [
      [CHAT, { message: "another question" }],
      [LITERATURE, { question: "another question" }],
    ] as const) {
      const other = client(payer.privateKey, id);
      const refused = await other.post(url, body);
      expect(refused.status, url).toBe(409);
      expect(await refused.json()).toMatchObject({ reason: "payment_identifier_conflict", charged: false });
      expect(await authorizationUsed(payer.address, other.nonces()[0]!)).toBe(false);
    }
    expect(jobs("/api/chat")).toBe(chatJobs);
    expect(jobs("/api/literature")).toBe(literatureJobs);
    expect(await usdcBalance(payTo)).toBe(before);
  });

  it("two requests naming the same payment at the same instant, signed apart: one job, one charge, one answer", async () => {
    const payer = await fundedWallet(1_000_000n);
    const id = generatePaymentId();
    const before = await usdcBalance(payTo);
    const jobsBefore = jobs("/api/literature");
    const body = { question: "senolytics and frailty" };
    const answers = await Promise.all([client(payer.privateKey, id).post(LITERATURE, body), client(payer.privateKey, id).post(LITERATURE, body)]);
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    expect((await usdcBalance(payTo)) - before).toBe(30_000n);
    expect(jobs("/api/literature") - jobsBefore).toBe(1);
    const [a, b] = await Promise.all(answers.map((r) => r.json()));
    expect(a).toEqual(b);
  });

  it("another payer naming its payment with the same id pays for its own, and is shown nothing of the first", async () => {
    // One after the other: the deployer that mints has one sequence of nonces.
    const one = await fundedWallet(1_000_000n);
    const two = await fundedWallet(1_000_000n);
    const id = generatePaymentId();
    const before = await usdcBalance(payTo);
    const first = await client(one.privateKey, id).post(CHAT, { message: "same words" });
    const second = await client(two.privateKey, id).post(CHAT, { message: "same words" });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(((await second.json()) as { requestId: string }).requestId).not.toBe(((await first.json()) as { requestId: string }).requestId);
    expect(second.headers.get("x-payment-replayed")).toBeNull();
    expect((await usdcBalance(payTo)) - before).toBe(40_000n);
  });

  it("a deep-research start named by an id and signed anew gets its original 202: one turn, settled once", async () => {
    const payer = await fundedWallet(3_000_000n);
    const id = generatePaymentId();
    const turns = jobs("/api/deep-research/start");
    const body = { message: "Does rapamycin extend lifespan in mice?" };
    const first = await client(payer.privateKey, id).post(DEEP_RESEARCH, body);
    expect(first.status).toBe(202);
    const again = client(payer.privateKey, id);
    const retry = await again.post(DEEP_RESEARCH, body);
    expect(retry.status).toBe(202);
    expect(jobs("/api/deep-research/start") - turns).toBe(1);
    expect(await retry.json()).toEqual(await first.json());
    const db = await getDb();
    const { rows } = await db.query("SELECT count(*)::int AS n FROM gateway.payments WHERE payer = $1", [payer.address.toLowerCase()]);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("an id the SDK would not accept is refused 400 before anything is recorded, charging nothing", async () => {
    const payer = await fundedWallet(1_000_000n);
    const requirements = decodePaymentRequiredHeader((await postJson(CHAT, { message: "q" })).headers.get("payment-required")!).accepts[0]!;
    const { payload, nonce } = await signPayment({ privateKey: payer.privateKey, requirements });
    const named = { ...payload, extensions: { [PAYMENT_IDENTIFIER]: { ...declarePaymentIdentifierExtension(), info: { required: false, id: "short" } } } };
    const jobsBefore = jobs("/api/chat");
    const refused = await postJson(CHAT, { message: "q" }, { "payment-signature": encodePaymentSignatureHeader(named) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ reason: "invalid_payment_identifier", charged: false });
    expect(jobs("/api/chat")).toBe(jobsBefore);
    const db = await getDb();
    expect((await db.query("SELECT 1 FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()])).rowCount).toBe(0);
  });

  it("an id whose payment's answer is no longer kept is refused 409, never worked or charged again", async () => {
    const payer = await fundedWallet(1_000_000n);
    const id = generatePaymentId();
    const body = { message: "an old question" };
    const first = await client(payer.privateKey, id).post(CHAT, body);
    expect(first.status).toBe(202);
    // As the sweep leaves a settled payment a day after its authorization expired: the answers cleared.
    const db = await getDb();
    await db.query(
      `UPDATE gateway.payments SET valid_before = extract(epoch FROM now())::bigint - 86400 * 2, response_status = NULL, response_body = NULL,
              response_headers = NULL, work_status = NULL, work_body = NULL WHERE payer = $1`,
      [payer.address.toLowerCase()],
    );
    const before = await usdcBalance(payTo);
    const jobsBefore = jobs("/api/chat");
    const again = await client(payer.privateKey, id).post(CHAT, body);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ reason: "payment_identifier_expired", charged: false });
    expect(jobs("/api/chat")).toBe(jobsBefore);
    expect(await usdcBalance(payTo)).toBe(before);
  });

  it("a signature the gateway cannot check itself, naming another payer's id, is refused by the facilitator and shown nothing of that payment", async () => {
    const victim = await fundedWallet(1_000_000n);
    const id = generatePaymentId();
    const body = { message: "the victim's question" };
    const paid = await client(victim.privateKey, id).post(CHAT, body);
    const { requestId } = (await paid.json()) as { requestId: string };
    // A contract wallet's signature (not 65 bytes) in the victim's name: only the chain can judge it.
    const requirements = decodePaymentRequiredHeader((await postJson(CHAT, body)).headers.get("payment-required")!).accepts[0]! as PaymentRequirements;
    const { payload } = await signPayment({ privateKey: generatePrivateKey(), requirements, overrides: { from: victim.address } });
    const forged = {
      ...payload,
      payload: { ...payload.payload, signature: `0x${"22".repeat(97)}` },
      extensions: { [PAYMENT_IDENTIFIER]: { ...declarePaymentIdentifierExtension(), info: { required: false, id } } },
    };
    const answer = await postJson(CHAT, body, { "payment-signature": encodePaymentSignatureHeader(forged) });
    expect(answer.status).toBe(402);
    const text = await answer.text();
    expect(text).not.toContain(requestId);
    expect(answer.headers.get("payment-response")).toBeNull();
  });

  describe.skipIf(databaseKind() === "pglite")("across gateway processes and a crash", () => {
    let proxy: RpcProxy;
    const processes: GatewayProcess[] = [];
    beforeAll(async () => {
      proxy = await startRpcProxy(chain().rpcUrl);
    });
    afterAll(async () => {
      await Promise.all(processes.map((p) => p.kill()));
      await proxy.close();
    });
    const viaProcess = (process: GatewayProcess): typeof fetch => (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      return fetch(new Request(`${process.url}${url.pathname}${url.search}`, request));
    };

    it("two requests naming the same payment, to two gateway processes at once: one job, one charge", async () => {
      const [a, b] = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
      processes.push(a, b);
      const payer = await fundedWallet(1_000_000n);
      const id = generatePaymentId();
      const before = await usdcBalance(payTo);
      const jobsBefore = jobs("/api/chat");
      const body = { message: "two processes" };
      const answers = await Promise.all([client(payer.privateKey, id, viaProcess(a)).post(CHAT, body), client(payer.privateKey, id, viaProcess(b)).post(CHAT, body)]);
      expect(answers.map((r) => r.status)).toEqual([202, 202]);
      expect(jobs("/api/chat") - jobsBefore).toBe(1);
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    });

    it("a gateway killed after its transfer was sent: the same id signed anew gets the answer it never wrote, charged once", async () => {
      const { publicClient } = chainClients();
      const dying = await startGatewayProcess({ ...env, RPC_URL: proxy.url });
      processes.push(dying);
      proxy.setHook((call) => (call.method === "eth_sendRawTransaction" ? { kind: "forward-then", after: () => dying.kill("SIGKILL") } : { kind: "forward" }));
      const payer = await fundedWallet(1_000_000n);
      const id = generatePaymentId();
      const before = await usdcBalance(payTo);
      const sentBefore = await publicClient.getTransactionCount({ address: LOCAL_FACILITATOR.address });
      const jobsBefore = agent.requests.length;
      const body = { message: "killed mid-payment" };
      const lost = await client(payer.privateKey, id, viaProcess(dying)).post(CHAT, body).catch((err: unknown) => err);
      expect(lost).toBeInstanceOf(Error);
      proxy.setHook(() => ({ kind: "forward" }));
      const job = agent.requests.slice(jobsBefore).find((r) => r.path === "/api/chat");
      const { requestId } = JSON.parse(job!.response!) as { requestId: string };

      // The client kept only the id: it signs anew, to another process.
      const other = await startGatewayProcess(env);
      processes.push(other);
      const again = client(payer.privateKey, id, viaProcess(other));
      const retry = await again.post(CHAT, body);
      expect(retry.status).toBe(202);
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
      expect(await retry.json()).toEqual({ requestId, status: "queued" });
      expect(decodePaymentResponseHeader(retry.headers.get("payment-response")!)).toMatchObject({ success: true });
      expect((await publicClient.getTransactionCount({ address: LOCAL_FACILITATOR.address })) - sentBefore).toBe(1);
      expect(await authorizationUsed(payer.address, again.nonces()[0]!)).toBe(false);
    });
  });
});
