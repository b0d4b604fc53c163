import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatJobStatusSchema, rateLimitedBodySchema } from "@/lib/shared/contracts";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, freshAddress, signPayment, wallet } from "../support/payments";
import { requestFrom } from "../support/request-from";
import { postJson, routeFetch } from "../support/routes";
import { startGatewayProcess, type GatewayProcess } from "../support/gateway-processes";
import { buildQueuedChatResult } from "../support/builders";

const PUBLIC_URL = "https://gateway.test";
const CHAT_URL = `${PUBLIC_URL}/api/chat`;
const CRON_SECRET = "cron-secret-for-tests-0123456789";

describe("invalid-payment rate limit, polling routes and the cron route", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let restore: () => Promise<void>;
  let requirements: PaymentRequirements;
  const completedId = randomUUID();

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble((req) => {
      if (req.path.startsWith("/api/chat/cancel/")) return { status: 204 };
      if (req.path === "/api/chat") return { status: 202, body: { requestId: randomUUID(), status: "queued" } };
      if (req.path === `/api/chat/status/${completedId}`) {
        return { status: 200, body: { status: "completed", progress: { stage: "done", percent: 100 }, result: buildQueuedChatResult() } };
      }
      if (req.path.startsWith("/api/chat/status/")) return { status: 404, body: { error: "Unknown or expired request id" } };
      if (req.path.startsWith("/api/literature/jobs/")) return { status: 200, body: { jobId: "j1", status: "queued" } };
      return { status: 404, body: { error: "unknown" } };
    });
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: freshAddress(),
      CRON_SECRET,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      INVALID_PAYMENT_LIMIT: "3",
      INVALID_PAYMENT_WINDOW_SECONDS: "600",
    });
    const unpaid = await postJson(CHAT_URL, { message: "q" });
    requirements = decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!).accepts[0]!;
  });
  afterAll(async () => {
    await restore();
    await agent.close();
    await database.drop();
  });

  it("answers 429 with retryAfterSeconds once a client address has made too many invalid attempts", async () => {
    const from = { "x-forwarded-for": "203.0.113.7" };
    const bad = (await signPayment({ privateKey: wallet(20).privateKey, requirements: { ...requirements, amount: "1" } })).header;
    for (let i = 0; i < 3; i++) {
      const response = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": bad });
      expect(response.status).toBe(402);
    }
    const limited = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": bad });
    expect(limited.status).toBe(429);
    const body = rateLimitedBodySchema.parse(await limited.json());
    expect(body.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.headers.get("retry-after")).toBe(String(body.retryAfterSeconds));

    // Even a good payment waits out the window from that address; other addresses are unaffected.
    const good = (await signPayment({ privateKey: wallet(21).privateKey, requirements })).header;
    expect((await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": good })).status).toBe(429);
    expect((await postJson(CHAT_URL, { message: "q" }, { "x-forwarded-for": "198.51.100.2", "payment-signature": good })).status).toBe(202);
    // Price discovery is never limited.
    expect((await postJson(CHAT_URL, { message: "q" }, from)).status).toBe(402);
  });

  /**
   * What a burst of invalid payments from one address may get, with a limit of 3: three refused
   * after their jobs started (402), the rest 429 before any work. A settlement the service could
   * not attempt (503, a chain slow to answer on a busy machine) is not the client's attempt and
   * frees its place, so each 503 may let one more job start; none of them ever counts as work
   * given to an invalid payment.
   */
  function expectBounded(statuses: number[], jobs: number): void {
    const count = (status: number) => statuses.filter((s) => s === status).length;
    expect(statuses.filter((s) => ![402, 429, 503].includes(s))).toEqual([]);
    expect(count(402)).toBeLessThanOrEqual(3);
    expect(jobs).toBe(count(402) + count(503));
  }

  /** Chat jobs the agent was asked to start so far. */
  const chatJobs = () => agent.requests.filter((r) => r.method === "POST" && r.path === "/api/chat").length;
  /** Payments that pass every local check but cannot pay: each its own signature, from a wallet that holds nothing. */
  const emptyWalletPayments = (count: number) =>
    Promise.all(Array.from({ length: count }, async () => (await signPayment({ privateKey: generatePrivateKey(), requirements })).header));

  it("fifteen invalid payments arriving together from one address start at most INVALID_PAYMENT_LIMIT (3) agent jobs: the attempt is reserved before any work, the rest are 429", async () => {
    const from = { "x-forwarded-for": "203.0.113.40" };
    const headers = await emptyWalletPayments(15);
    const before = chatJobs();
    const responses = await Promise.all(headers.map((header) => postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": header })));
    const statuses = responses.map((r) => r.status);
    expectBounded(statuses, chatJobs() - before);
    // Refused while the first three were judged (in flight), or once they were (invalid).
    for (const response of responses.filter((r) => r.status === 429)) {
      expect(["too_many_payments_in_flight", "too_many_invalid_payments"]).toContain(rateLimitedBodySchema.parse(await response.json()).reason);
    }
    const [after] = await emptyWalletPayments(1);
    const limited = await postJson(CHAT_URL, { message: "q" }, { ...from, "payment-signature": after! });
    expect(rateLimitedBodySchema.parse(await limited.json()).reason).toBe("too_many_invalid_payments");
    expect(chatJobs() - before).toBe(statuses.filter((s) => s !== 429).length);
  });

  it("relays chat status from the agent: the job, or its 404", async () => {
    const done = await routeFetch(`${PUBLIC_URL}/api/chat/status/${completedId}`);
    expect(done.status).toBe(200);
    expect(chatJobStatusSchema.parse(await done.json()).status).toBe("completed");
    const unknown = await routeFetch(`${PUBLIC_URL}/api/chat/status/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Unknown or expired request id" });
    expect(agent.requests.at(-1)?.headers.authorization).toBe("Bearer service-key-for-tests-0123");
  });

  it("relays literature jobs, free", async () => {
    const response = await routeFetch(`${PUBLIC_URL}/api/literature/jobs/j1`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jobId: "j1", status: "queued" });
  });

  it("runs the cron with the right token and counts what it did", async () => {
    const response = await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, checked: expect.any(Number), settled: 0 });
    const wrong = await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: "Bearer nope-nope-nope-nope" } });
    expect(wrong.status).toBe(401);
  });

  describe("who counts as the client", () => {
    let gateway: GatewayProcess;
    const processEnv = {
      POSTGRES_URL: "",
      UPSTREAM_API_URL: "",
      PUBLIC_URL,
      RPC_URL: "",
      PAY_TO_ADDRESS: freshAddress(),
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      INVALID_PAYMENT_LIMIT: "3",
      INVALID_PAYMENT_WINDOW_SECONDS: "600",
    };
    beforeAll(async () => {
      Object.assign(processEnv, { POSTGRES_URL: database.url, UPSTREAM_API_URL: agent.url, RPC_URL: chain().rpcUrl });
      gateway = await startGatewayProcess(processEnv);
    });
    afterAll(async () => {
      await gateway.kill();
    });

    /** A paid chat to the gateway process from a loopback address of our choosing. */
    async function send({ from, header, forwardedFor, to = gateway }: { from: string; header: string; forwardedFor?: string; to?: GatewayProcess }): Promise<number> {
      const headers = { "payment-signature": header, ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) };
      return (await requestFrom({ url: `${to.url}/api/chat`, from, headers, body: { message: "q" } })).status;
    }

    it("a client that rotates X-Forwarded-For is still counted by its socket address and reaches 429", async () => {
      const bad = (await signPayment({ privateKey: wallet(20).privateKey, requirements: { ...requirements, amount: "1" } })).header;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await send({ from: "127.0.0.3", header: bad, forwardedFor: `198.51.100.${i + 1}` }));
      expect(statuses).toEqual([402, 402, 402, 429, 429]);
    });

    it("a burst split over two gateway processes still starts at most INVALID_PAYMENT_LIMIT (3) agent jobs: the reservation is one row in Postgres", { timeout: 300_000 }, async () => {
      const second = await startGatewayProcess(processEnv);
      try {
        const own = decodePaymentRequiredHeader((await fetch(`${gateway.url}/api/chat`, { method: "POST", body: "{}" })).headers.get("payment-required")!).accepts[0]!;
        const headers = await Promise.all(Array.from({ length: 16 }, async () => (await signPayment({ privateKey: generatePrivateKey(), requirements: own })).header));
        const before = chatJobs();
        const statuses = await Promise.all(headers.map((header, i) => send({ from: "127.0.0.6", header, to: i % 2 === 0 ? gateway : second })));
        expectBounded(statuses, chatJobs() - before);
      } finally {
        await second.kill();
      }
    });

    it("one client's invalid attempts never block another client", async () => {
      const bad = (await signPayment({ privateKey: wallet(20).privateKey, requirements: { ...requirements, amount: "1" } })).header;
      for (let i = 0; i < 3; i++) expect(await send({ from: "127.0.0.4", header: bad })).toBe(402);
      expect(await send({ from: "127.0.0.4", header: bad })).toBe(429);
      // Another address, even one claiming to be the blocked client, is served as itself.
      expect(await send({ from: "127.0.0.5", header: bad, forwardedFor: "127.0.0.4" })).toBe(402);
      const own = decodePaymentRequiredHeader((await fetch(`${gateway.url}/api/chat`, { method: "POST", body: "{}" })).headers.get("payment-required")!).accepts[0]!;
      const good = (await signPayment({ privateKey: wallet(21).privateKey, requirements: own })).header;
      expect(await send({ from: "127.0.0.5", header: good })).toBe(202);
    });
  });
});
