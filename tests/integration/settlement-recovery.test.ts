import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { LOCAL_FACILITATOR } from "@/lib/payments/local-chain";
import { claimPayment } from "@/lib/payments/ledger";
import { decodePaymentHeader, verifyPaymentLocally } from "@/lib/payments/verify-locally";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, chainClients, freshAddress, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";

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
      SETTLE_CONFIRMATION_TIMEOUT_MS: "1500",
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

  it("closes a request interrupted before it answered: voided when the chain shows no transfer", async () => {
    const { header, nonce } = await signPayment({ privateKey: wallet(23).privateKey, requirements });
    const checked = await verifyPaymentLocally({
      payload: decodePaymentHeader(header),
      requirements,
      chainId: chain().chainId,
      nowSeconds: Math.floor(Date.now() / 1000),
      minRemainingSeconds: 60,
    });
    const db = await getDb();
    // As if the process died right after claiming the payment.
    await claimPayment({ db, checked, requirements, operation: "chat", route: "POST /api/chat", requestDigest: "d" });
    await db.query("UPDATE gateway.payments SET updated_at = now() - interval '1 hour' WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(await cron()).toMatchObject({ interrupted: 1, voided: 1 });
    const { rows } = await db.query("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(rows[0]).toEqual({ status: "voided" });
    // The signature now belongs to that request: another one is refused as used…
    const other = await postJson(CHAT_URL, { message: "q" }, { "payment-signature": header });
    expect(other.status).toBe(402); // a different request digest than the interrupted one ("d")
  });
});
