import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import type { Hex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { literatureQueryRequestSchema } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import { digestRequest } from "@/lib/gateway/payments/paid-route";
import { createTestDatabase, databaseKind } from "../support/database";
import { startFacilitatorDouble, type FacilitatorDouble } from "../support/facilitator-double";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { authorizationUsed, chain, claimTestPayment, freshAddress, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";
import { until } from "../support/until";

const PUBLIC_URL = "https://gateway.test";
const LITERATURE_URL = `${PUBLIC_URL}/api/literature`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";
const PRICE = 30_000n;
/** What the official paying client's resend wrapper (lib/client/payments/resend.ts) sends again with the same signature. */
const RESEND_SAME_SIGNATURE = ["settlement_unavailable", "payment_in_progress"];

/**
 * Issue 24, item 12: under `npm run chaos` a paid literature request's first attempt was answered
 * 503 no_source_reachable, "nothing was charged", while its authorization was settled on chain; the
 * client, told so, signed again and paid twice. An answer that says nothing was charged must be
 * true whatever happened to the payment before it (its transfer sent by an attempt whose answer
 * was lost, found by the cron, or sent by a process that stopped before writing it down); where it
 * cannot be true, the answer says to send the same signature again, and that gets the paid answer
 * without a second charge.
 */
describe.skipIf(databaseKind() === "pglite")("charged once under faults: 'nothing was charged' is always true", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let facilitator: FacilitatorDouble;
  let restore: () => Promise<void>;
  let requirements: PaymentRequirements;
  const payTo = freshAddress();
  /** What the agent double says: whether a source can answer, and whether it accepts a search. */
  const agentState = { reachable: true, acceptsSearch: true };
  const body = { question: "Does rapamycin extend lifespan in mice?", maxResults: 5 };

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble(({ method, path }) => {
      if (path.startsWith("/api/literature/reach")) {
        return {
          status: 200,
          body: agentState.reachable
            ? { available: true, localLibrary: "has_records", sources: [], retryAfterSeconds: null, message: null }
            : { available: false, localLibrary: "empty", sources: [], retryAfterSeconds: 30, message: "No literature source can answer right now." },
        };
      }
      if (method === "POST" && path === "/api/literature") {
        return agentState.acceptsSearch
          ? { status: 202, body: { jobId: randomUUID(), status: "queued" } }
          : {
              status: 503,
              headers: { "retry-after": "30" },
              body: { error: "literature_unavailable", reason: "no_source_reachable", message: "No literature source could answer; nothing was charged.", failedSources: [], retryAfterSeconds: 30 },
            };
      }
      if (method === "POST" && path.endsWith("/cancel")) return { status: 200, body: { status: "cancelled" } };
      return { status: 404, body: { error: "not_found" } };
    });
    facilitator = await startFacilitatorDouble({ rpcUrl: chain().rpcUrl, chainId: chain().chainId, privateKey: wallet(56).privateKey, network: chain().network });
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      CRON_SECRET,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      FACILITATOR_URL: facilitator.url,
      // Long enough for a real settlement on a busy machine: only the facilitator that hangs on
      // purpose below should ever reach it.
      FACILITATOR_TIMEOUT_MS: "8000",
    });
    requirements = decodePaymentRequiredHeader((await postJson(LITERATURE_URL, body)).headers.get("payment-required")!).accepts[0]!;
  });
  beforeEach(async () => {
    facilitator.mode = "real";
    agentState.acceptsSearch = true;
    await setReach(true);
  });
  afterAll(async () => {
    await restore();
    await facilitator.close();
    await agent.close();
    await database.drop();
  });

  /** Sets what the agent says of reach, and waits until the gateway's cached reach says the same. */
  async function setReach(reachable: boolean) {
    agentState.reachable = reachable;
    await until(async () => ((await postJson(LITERATURE_URL, body)).status === 402) === reachable, { what: `the gateway to see reach ${reachable}` });
  }

  const cron = async () => (await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } })).json();

  /**
   * What a paying client reads as "nothing was charged, sign anew": `charged: false`, or a message
   * that says so. Returns the answer for the test's own checks.
   */
  async function send(header: string) {
    const response = await postJson(LITERATURE_URL, body, { "payment-signature": header });
    const answer = (await response.json()) as Record<string, unknown>;
    const words = `${String(answer.error ?? "")} ${String(answer.message ?? "")}`;
    const saysUncharged = answer.charged === false || /nothing (was|is) (started or |delivered or )?charged/i.test(words);
    return { response, answer, saysUncharged };
  }

  /** A first attempt whose transfer landed while the gateway was told nothing (the facilitator timed out): 503, resend. */
  async function transferredButUnanswered(payer: number) {
    const { header, nonce } = await signPayment({ privateKey: wallet(payer).privateKey, requirements });
    facilitator.mode = "transfer-then-hang";
    const first = await send(header);
    facilitator.mode = "real";
    expect(first.response.status).toBe(503);
    expect(first.saysUncharged, `the first attempt: answered ${JSON.stringify(first.answer)} while its transfer landed`).toBe(false);
    expect(RESEND_SAME_SIGNATURE).toContain(first.answer.reason);
    expect(await authorizationUsed(wallet(payer).address, nonce)).toBe(true);
    return { header, nonce };
  }

  /** The same signature once the service can work again: the paid answer with the transfer that already happened, no second charge. */
  async function servedOnce(header: string, before: bigint) {
    const served = await send(header);
    expect(served.response.status).toBe(202);
    expect(decodePaymentResponseHeader(served.response.headers.get("payment-response")!).transaction).toBe(facilitator.transactions.at(-1));
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);
  }

  function expectResendAnswer(resent: Awaited<ReturnType<typeof send>>, what: string) {
    expect(resent.saysUncharged, `${what}: answered ${resent.response.status} ${JSON.stringify(resent.answer)} although the authorization was used on chain`).toBe(false);
    expect(resent.response.status).toBe(503);
    expect(resent.response.headers.get("retry-after")).toBeTruthy();
    expect(RESEND_SAME_SIGNATURE).toContain(resent.answer.reason);
  }

  it("a resend of a payment whose transfer landed after a 503 is never answered 'nothing was charged' by the check before payment (no source reachable), and is served once a source is back", async () => {
    const before = await usdcBalance(payTo);
    const { header } = await transferredButUnanswered(57);
    await setReach(false);
    expectResendAnswer(await send(header), "the check before payment");
    await setReach(true);
    await servedOnce(header, before);
  });

  it("nor by the agent refusing the work done again (its search reached no source): the payment stays owed, not voided, and the next resend is served", async () => {
    const before = await usdcBalance(payTo);
    const { header, nonce } = await transferredButUnanswered(58);
    agentState.acceptsSearch = false;
    expectResendAnswer(await send(header), "the agent's 503 no_source_reachable");
    const db = await getDb();
    const { rows } = await db.query<{ status: string }>("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()]);
    expect(rows[0]!.status).not.toBe("voided");
    agentState.acceptsSearch = true;
    await servedOnce(header, before);
  });

  it("nor once the cron has found the transfer and settled the payment, when its work cannot be done again yet", async () => {
    const before = await usdcBalance(payTo);
    const { header, nonce } = await transferredButUnanswered(59);
    const db = await getDb();
    const status = async () => (await db.query<{ status: string }>("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()])).rows[0]!.status;
    await cron();
    expect(await status()).toBe("settled");
    agentState.acceptsSearch = false;
    expectResendAnswer(await send(header), "the work of a settled payment, refused");
    await setReach(false);
    expectResendAnswer(await send(header), "the check before payment, for a settled payment");
    await setReach(true);
    agentState.acceptsSearch = true;
    await servedOnce(header, before);
  });

  it("a payment whose process stopped after its transfer was sent (the settlement's lease ran out) is taken over as paid, never refused as used so that the client signs anew", async () => {
    const before = await usdcBalance(payTo);
    const db = await getDb();
    const { row, header, payload } = await claimTestPayment({
      db,
      requirements,
      privateKey: wallet(54).privateKey as Hex,
      operation: "literature",
      requestDigest: digestRequest("POST /api/literature", {}, literatureQueryRequestSchema.parse(body)),
    });
    // The request's process took the settlement, the facilitator transferred, and the process
    // stopped (or lost its database) before it wrote anything down.
    await db.query(
      `UPDATE gateway.payments SET status = 'settling', settle_started_at = now() - interval '10 minutes', settle_attempts = 1,
              work_status = 202, work_body = $2 WHERE id = $1`,
      [row.id, JSON.stringify({ jobId: randomUUID(), status: "queued" })],
    );
    const settled = await fetch(`${facilitator.url}/settle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: requirements }),
    });
    expect(await settled.json()).toMatchObject({ success: true });
    const resent = await send(header);
    expect(resent.saysUncharged).toBe(false);
    expect(resent.response.status, JSON.stringify(resent.answer)).toBe(202);
    expect(decodePaymentResponseHeader(resent.response.headers.get("payment-response")!).transaction).toBe(facilitator.transactions.at(-1));
    expect((await usdcBalance(payTo)) - before).toBe(PRICE);
  });
});
