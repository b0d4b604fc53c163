import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/gateway/db";
import { LOCAL_FACILITATOR } from "@/lib/shared/payments/local-chain";
import { digestRequest } from "@/lib/gateway/payments/paid-route";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, chainClients, claimTestPayment, freshAddress, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";
import { databaseKind } from "../support/database";
import { startGatewayProcess } from "../support/gateway-processes";
import { startRpcProxy, type RpcProxy } from "../support/rpc-proxy";

const PUBLIC_URL = "https://gateway.test";
const CHAT_URL = `${PUBLIC_URL}/api/chat`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";

describe("settlement recovery", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let restore: () => Promise<void>;
  let requirements: PaymentRequirements;
  const payTo = freshAddress();
  const { publicClient } = chainClients();
  const rpc = (method: string, params: unknown[] = []) => publicClient.request({ method, params } as never);
  const cron = async () => (await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } })).json();

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble(() => ({ status: 202, body: { requestId: randomUUID(), status: "queued" } }));
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      CRON_SECRET,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      // Long enough for a receipt on a busy machine: only the test that stops mining should reach it.
      SETTLE_CONFIRMATION_TIMEOUT_MS: "6000",
    });
    requirements = decodePaymentRequiredHeader((await postJson(CHAT_URL, { message: "q" })).headers.get("payment-required")!).accepts[0]!;
  });
  afterAll(async () => {
    await rpc("evm_setAutomine", [true]);
    await restore();
    await agent.close();
    await database.drop();
  });

  it("keeps a pending broadcast's hash and confirms it later, never sending a second transfer", async () => {
    const before = await usdcBalance(payTo);
    const sentBefore = await publicClient.getTransactionCount({ address: LOCAL_FACILITATOR.address });
    await rpc("evm_setAutomine", [false]); // the transfer is broadcast but no block confirms it
    const { header, nonce } = await signPayment({ privateKey: wallet(22).privateKey, requirements });
    const response = await postJson(CHAT_URL, { message: "pending receipt" }, { "payment-signature": header });
    expect(response.status).toBe(202); // the work is given; the settlement is confirmed later
    const pendingHash = decodePaymentResponseHeader(response.headers.get("payment-response")!).transaction;
    const db = await getDb();
    const row = async () => (await db.query("SELECT status, tx_hash FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()])).rows[0];
    expect(await row()).toEqual({ status: "settling", tx_hash: pendingHash });

    await rpc("evm_mine");
    await rpc("evm_setAutomine", [true]);
    // A cron within the settlement lease leaves it alone; once the lease is over, it resumes it.
    expect(await cron()).toMatchObject({ settled: 0 });
    await db.query("UPDATE gateway.payments SET settle_started_at = now() - interval '1 hour' WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(await cron()).toMatchObject({ settled: 1 });
    expect(await row()).toEqual({ status: "settled", tx_hash: pendingHash });
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    // Exactly one transaction left the facilitator's account for this payment.
    expect((await publicClient.getTransactionCount({ address: LOCAL_FACILITATOR.address })) - sentBefore).toBe(1);
  });

  it("concurrent retries of a payment settled after its work was cleared run the work once, and each gets that answer", async () => {
    const db = await getDb();
    const body = { message: "work cleared" };
    const { row, header } = await claimTestPayment({ db, requirements, privateKey: wallet(23).privateKey, requestDigest: digestRequest("POST /api/chat", {}, body) });
    // As after a 503 whose transfer landed later: settled, its job cancelled and its work forgotten.
    await db.query("UPDATE gateway.payments SET status = 'settled', tx_hash = $2, settled_at = now() WHERE id = $1", [row.id, `0x${"ab".repeat(32)}`]);
    const jobs = () => agent.requests.filter((r) => r.path === "/api/chat").length;
    const before = jobs();
    const responses = await Promise.all(Array.from({ length: 5 }, () => postJson(CHAT_URL, body, { "payment-signature": header })));
    expect(responses.map((r) => r.status)).toEqual(Array(5).fill(202));
    const ids = new Set(await Promise.all(responses.map(async (r) => ((await r.json()) as { requestId: string }).requestId)));
    expect(ids.size).toBe(1);
    expect(jobs() - before).toBe(1);
  });

  it("closes a request interrupted before it answered: voided when the chain shows no transfer", async () => {
    const db = await getDb();
    // As if the process died right after claiming the payment.
    const { header, nonce } = await claimTestPayment({ db, requirements, privateKey: wallet(23).privateKey, requestDigest: "d" });
    await db.query("UPDATE gateway.payments SET updated_at = now() - interval '1 hour' WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(await cron()).toMatchObject({ interrupted: 1, voided: 1 });
    const { rows } = await db.query("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(rows[0]).toEqual({ status: "voided" });
    // The signature now belongs to that request: another one is refused as used…
    const other = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header });
    expect(other.status).toBe(402); // a different request digest than the interrupted one ("d")
  });

  describe.skipIf(databaseKind() === "pglite")("a gateway process killed between broadcast and its final write", () => {
    let proxy: RpcProxy;
    const env = () => ({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      CRON_SECRET,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
    });
    beforeAll(async () => {
      proxy = await startRpcProxy(chain().rpcUrl);
    });
    afterAll(async () => {
      await proxy.close();
    });

    /** Pays a chat through a gateway process that dies (SIGKILL) right after its transfer was sent. */
    async function payThroughDyingGateway(payer: number) {
      const dying = await startGatewayProcess({ ...env(), RPC_URL: proxy.url });
      proxy.setHook((call) =>
        call.method === "eth_sendRawTransaction" ? { kind: "forward-then", after: () => dying.kill("SIGKILL") } : { kind: "forward" },
      );
      const { header, nonce } = await signPayment({ privateKey: wallet(payer).privateKey, requirements });
      const jobsBefore = agent.requests.length;
      const lost = await fetch(`${dying.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", "payment-signature": header },
        body: JSON.stringify({ message: "killed mid-payment" }),
      }).catch((err: unknown) => err);
      expect(lost).toBeInstanceOf(Error); // the connection died with the process
      proxy.setHook(() => ({ kind: "forward" }));
      const job = agent.requests.slice(jobsBefore).find((r) => r.path === "/api/chat");
      const requestId = (JSON.parse(job!.response!) as { requestId: string }).requestId;
      return { header, nonce, requestId };
    }

    it("the retry of the same signature gets the original answer once the cron settled it, charged once", async () => {
      const before = await usdcBalance(payTo);
      const { header, nonce, requestId } = await payThroughDyingGateway(28);
      const db = await getDb();
      const row = async () => (await db.query("SELECT status, response_status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()])).rows[0];
      expect(await row()).toEqual({ status: "settling", response_status: null });
      expect((await usdcBalance(payTo)) - before).toBe(20_000n); // the transfer was sent before the process died

      // The cron settles it once the dead process's lease is over…
      await db.query("UPDATE gateway.payments SET settle_started_at = now() - interval '1 hour' WHERE nonce = $1", [nonce.toLowerCase()]);
      expect(await cron()).toMatchObject({ settled: 1 });
      // …and the client's retry, to another gateway process, gets the answer the first one never wrote.
      const other = await startGatewayProcess(env());
      try {
        const retry = await fetch(`${other.url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", "payment-signature": header },
          body: JSON.stringify({ message: "killed mid-payment" }),
        });
        expect(retry.status).toBe(202);
        expect(await retry.json()).toEqual({ requestId, status: "queued" });
        expect(decodePaymentResponseHeader(retry.headers.get("payment-response")!)).toMatchObject({ success: true });
      } finally {
        await other.kill();
      }
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    });

    it("the retry of the same signature confirms the dead process's transfer itself, without waiting for the cron", async () => {
      const before = await usdcBalance(payTo);
      const { header, requestId } = await payThroughDyingGateway(29);
      const retry = await postJson(CHAT_URL, { message: "killed mid-payment" }, { "payment-signature": header });
      expect(retry.status).toBe(202);
      expect(await retry.json()).toEqual({ requestId, status: "queued" });
      const settlement = decodePaymentResponseHeader(retry.headers.get("payment-response")!);
      expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    });
  });
});
