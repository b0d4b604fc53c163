import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentRequiredBodySchema } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { expectHeaderSaysBody } from "../support/payment-required";
import { chain, freshAddress, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson } from "../support/routes";

/**
 * Issue 16, "know before you sign": a client learns from the 402 itself why its body would be
 * refused (the requirements stay in it, so prices remain discoverable), and a 400 that comes after
 * a payment was signed says it charged nothing. Unknown fields are refused by name, on every paid
 * route, plain and sealed (for sealed routes, the envelope's shape: its content is the enclave's).
 */

const PUBLIC_URL = "https://gateway.test";
const ENVELOPE = { hpke_ciphertext: Buffer.alloc(64, 1).toString("base64"), hpke_ephemeral_public_key: Buffer.alloc(32, 2).toString("base64") };

type Case = { route: string; body: unknown; field: string; problem: RegExp };

/** Bodies each route would refuse, and the field path and problem its 400 names. */
const REFUSED: Case[] = [
  { route: "/api/chat", body: {}, field: "message", problem: /required/ },
  { route: "/api/chat", body: { message: "q", model: "gpt-5" }, field: "model", problem: /unknown field/ },
  { route: "/api/chat", body: { message: "q", conversationId: "not-a-uuid" }, field: "conversationId", problem: /UUID/i },
  { route: "/api/literature", body: { question: "q", mode: "thorough" }, field: "mode", problem: /fast|deep/ },
  { route: "/api/literature", body: { question: "q", limit: 5 }, field: "limit", problem: /unknown field/ },
  { route: "/api/deep-research/start", body: { message: "q", depth: 3 }, field: "depth", problem: /unknown field/ },
  { route: "/api/chat/encrypted", body: { hpke_ciphertext: ENVELOPE.hpke_ciphertext }, field: "hpke_ephemeral_public_key", problem: /string|required/ },
  { route: "/api/chat/encrypted", body: { ...ENVELOPE, message: "smuggled beside the envelope" }, field: "message", problem: /unknown field/ },
  { route: "/api/literature/encrypted", body: { ...ENVELOPE, hpke_ciphertext: "not base64!" }, field: "hpke_ciphertext", problem: /base64/ },
  { route: "/api/deep-research/encrypted", body: { ...ENVELOPE, recoveryKey: "in the clear" }, field: "recoveryKey", problem: /unknown field/ },
];

/** The start path each gateway route calls on the agent. */
const AGENT_PATH: Record<string, string> = {
  "/api/chat": "/api/chat",
  "/api/literature": "/api/literature",
  "/api/deep-research/start": "/api/deep-research/start",
  "/api/chat/encrypted": "/api/private/chat",
  "/api/literature/encrypted": "/api/private/literature",
  "/api/deep-research/encrypted": "/api/private/deep-research",
};

describe("know before you sign: every paid route says why a body would be refused, before and after payment", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let restore: () => Promise<void>;
  const payTo = freshAddress();

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble((req) => {
      if (req.path === "/api/private/status") return { status: 200, body: { privateMode: "ready", privateLiterature: "enabled", attested: false } };
      if (req.path.startsWith("/api/literature/reach")) return { status: 200, body: { available: true, localLibrary: "has_records", sources: [], retryAfterSeconds: null, message: null } };
      if (req.path.includes("/cancel")) return { status: 204 };
      // The enclave cannot open the envelope: its 400, which the gateway relays uncharged.
      if (req.path === "/api/private/chat") return { status: 400, body: { error: "decryption_failed", reason: "decryption_failed" } };
      return { status: 404, body: { error: "unknown" } };
    });
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      UPSTREAM_TIMEOUT_MS: "2000",
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      INVALID_PAYMENT_LIMIT: "1000",
    });
  });
  afterAll(async () => {
    await restore?.();
    await agent?.close();
    await database?.drop();
  });

  /** What the route's 402 asks to sign (the official client signs the same). */
  async function requirementsOf(route: string, body: unknown) {
    const response = await postJson(`${PUBLIC_URL}${route}`, body);
    expect(response.status).toBe(402);
    return decodePaymentRequiredHeader(response.headers.get("payment-required")!).accepts[0]!;
  }
  const startsAtAgent = (route: string) => agent.requests.filter((r) => r.method === "POST" && r.path === AGENT_PATH[route]).length;

  it.each(REFUSED)("without payment, $route answers 402 with its requirements and says why $field would be refused", async ({ route, body, field, problem }) => {
    const response = await postJson(`${PUBLIC_URL}${route}`, body);
    expect(response.status).toBe(402);
    const json = paymentRequiredBodySchema.parse(await response.json());
    // Prices stay discoverable: the requirements are all there, in the body and the header alike.
    expect(json.accepts[0]).toMatchObject({ scheme: "exact", payTo });
    expectHeaderSaysBody(response, json);
    expect(json.error).toMatch(/^Payment required/);
    expect(json.error).toContain(`${field}: `);
    expect(json.error).toMatch(problem);
    expect(json.error).toMatch(/400/);
  });

  it("without payment, a valid body gets the plain 402 (no body problem named)", async () => {
    const response = await postJson(`${PUBLIC_URL}/api/chat`, { message: "Does rapamycin extend lifespan?", conversationId: randomUUID() });
    expect(response.status).toBe(402);
    expect(((await response.json()) as { error: string }).error).toBe("Payment required");
  });

  it("without payment, an unreadable body is named too: not JSON, or too large", async () => {
    const malformed = await postJson(`${PUBLIC_URL}/api/literature`, "{not json");
    expect(malformed.status).toBe(402);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/not valid JSON/);
    const huge = await postJson(`${PUBLIC_URL}/api/chat`, { message: "x".repeat(300 * 1024) });
    expect(huge.status).toBe(402);
    expect(((await huge.json()) as { error: string }).error).toMatch(/413.*larger than \d+ bytes/);
  });

  it.each(REFUSED)("after a signed payment, $route refuses the body naming $field, says charged: false, and charges nothing", async ({ route, body, field, problem }) => {
    const { header, nonce } = await signPayment({ privateKey: wallet(62).privateKey, requirements: await requirementsOf(route, body) });
    const before = await usdcBalance(payTo);
    const startsBefore = startsAtAgent(route);
    const response = await postJson(`${PUBLIC_URL}${route}`, body, { "payment-signature": header });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { error: string; reason: string; charged: boolean };
    expect(answer).toMatchObject({ reason: "invalid_body", charged: false });
    expect(answer.error).toContain(`${field}: `);
    expect(answer.error).toMatch(problem);
    expect(await usdcBalance(payTo)).toBe(before);
    expect(startsAtAgent(route)).toBe(startsBefore);
    const db = await getDb();
    expect((await db.query("SELECT 1 FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()])).rowCount).toBe(0);
  });

  it("a sealed request the enclave cannot open: 400 after payment, relayed with charged: false, the payment voided", async () => {
    const { header, nonce } = await signPayment({ privateKey: wallet(63).privateKey, requirements: await requirementsOf("/api/chat/encrypted", ENVELOPE) });
    const before = await usdcBalance(payTo);
    const response = await postJson(`${PUBLIC_URL}/api/chat/encrypted`, ENVELOPE, { "payment-signature": header });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "decryption_failed", reason: "decryption_failed", charged: false });
    expect(await usdcBalance(payTo)).toBe(before);
    const db = await getDb();
    expect((await db.query("SELECT status FROM gateway.payments WHERE nonce = $1", [nonce.toLowerCase()])).rows).toEqual([{ status: "voided" }]);
    // The same signature sent again gets the same uncharged answer, not a charge.
    const again = await postJson(`${PUBLIC_URL}/api/chat/encrypted`, ENVELOPE, { "payment-signature": header });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ charged: false });
    expect(await usdcBalance(payTo)).toBe(before);
  });
});
