import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/gateway/db";
import { createPayingFetch } from "@/lib/client/payments/client";
import { getPaidOperation, PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";
import { forgetEnclaveKey } from "@/lib/gateway/private/enclave-key";
import { createRecoveryKey, encodeBase64, openResponse, portablePrimitives, sealRequest, type SealedResponse } from "@/lib/shared/sealing";
import { seedLibrary, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { createConformance, type OpenApiDocument } from "../support/openapi-conformance";
import { namedPaymentHeader } from "../support/payment-identifier";
import { chain, claimTestPayment, freshAddress, fundedWallet, signPayment, usdcBalance, wallet } from "../support/payments";
import { freePort } from "../support/postgres";
import { gatewayFetch } from "../support/routes";
import { signingInFetch } from "../support/sign-in";
import { until } from "../support/until";

/**
 * Issue 16, "the document drifts from the wire": every operation of the served OpenAPI document,
 * called on the gateway (its API edge, then the route handlers, as Next.js runs them) in front of
 * the real agent on the synthetic library, paid with the official x402 client on the local chain,
 * sealed where the route is private. Each real answer is held to what the document declares for
 * its operation, status and content type, strictly (tests/support/openapi-conformance.ts: every
 * object closed, so a field the document does not name fails; required fields and required
 * headers present), sealed answers opened and held to the plaintext schema the document names.
 * The operations and their statuses come from the document itself: one it declares that no test
 * here produced fails the last test, unless NOT_EXERCISED names it with the reason.
 */

const PUBLIC_URL = "https://gateway.test";
const CRON_SECRET = "cron-secret-for-openapi-accuracy-0123";
const json = { "content-type": "application/json" };
/** This file's wallets: 32 to 38. */
const PAYER = { chat: 32, literature: 33, deepResearch: 34, chatEncrypted: 35, literatureEncrypted: 36, deepResearchEncrypted: 37, refused: 38 } as const;

/**
 * Declared statuses no test here produces, each with why. The last test fails on any declared
 * status neither exercised nor listed, and on a listed one that is exercised or no longer declared.
 */
const INTERNAL = "an internal failure (a bug, or a dependency failing in a way no test here arranges): never produced on purpose";
const NOT_EXERCISED: Record<string, string> = {
  ...Object.fromEntries(
    [
      "POST /api/deep-research/start",
      "GET /api/deep-research/{conversationId}",
      "POST /api/chat",
      "GET /api/chat/status/{requestId}",
      "GET /api/chat/encrypted/status/{requestId}",
      "POST /api/literature",
      "GET /api/literature/jobs/{jobId}",
      "GET /api/literature/encrypted/status/{requestId}",
      "GET /api/sealing",
      "GET /api/openapi.json",
      "GET /.well-known/x402.json",
      "GET /llms.txt",
      "POST /api/mcp",
      "GET /api/history",
      "GET /api/history/{id}",
      "DELETE /api/history/{id}",
      "POST /api/history/session",
      "DELETE /api/history/session",
    ].map((operation) => [`${operation} 500`, INTERNAL]),
  ),
  "POST /api/chat/encrypted 500":
    "the enclave failing between reporting itself ready and taking the envelope; an enclave that cannot be reached is the 503 before payment produced below",
  "POST /api/literature/encrypted 500":
    "the enclave failing between reporting itself ready and taking the envelope; an enclave that cannot be reached is the 503 before payment produced below",
  "POST /api/literature 200": "this service's agent always answers 202; the 200 is an upstream's synchronous answer, relayed as the shared API shape allows",
  ...Object.fromEntries(
    ["GET /api/history", "GET /api/history/{id}", "DELETE /api/history/{id}"].map((operation) => [
      `${operation} 429`,
      "more than 30 proofs checked on chain from one address: needs a deployed contract wallet, produced in tests/integration/contract-wallet-sign-in.test.ts",
    ]),
  ),
};

const operationOf = (op: PaidOperation) => `${op.method} ${op.path}`;
const gateway = (input: RequestInfo | URL, init?: RequestInit) => gatewayFetch(new Request(input, init));
const url = (route: string) => `${PUBLIC_URL}${route}`;

describe("the OpenAPI document, against what every operation really answers", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  const kekDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-openapi-"));
  const kekFile = path.join(kekDir, "enclave.kek");
  let restore: () => Promise<void>;
  let conformance: ReturnType<typeof createConformance>;
  let doc: OpenApiDocument;
  const payTo = freshAddress();
  const live = () => ({
    POSTGRES_URL: database.url,
    UPSTREAM_API_URL: agent.url,
    AGENT_SERVICE_KEY: "agent-service-key-for-tests-0123",
    PUBLIC_URL,
    RPC_URL: chain().rpcUrl,
    PAY_TO_ADDRESS: payTo,
    CRON_SECRET,
    INVALID_PAYMENT_LIMIT: "1",
    LONG_POLL_MAX_PER_CLIENT: "1",
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_KEK_FILE: kekFile, DEEP_RESEARCH_ITERATIONS: "2" });
    await seedLibrary(agent.pool);
    restore = await configureGateway(live());
  });
  afterAll(async () => {
    await restore?.();
    await agent?.stop();
    await database?.drop();
    fs.rmSync(kekDir, { recursive: true, force: true });
  });

  const check = (operation: string, response: Response) => conformance.check(operation, response);
  const pay = (payer: number) => createPayingFetch({ privateKey: wallet(payer).privateKey, network: chain().network, asset: chain().asset, fetchImpl: gateway }).fetch;
  const post = (fetcher: typeof fetch, route: string, body: unknown, headers: Record<string, string> = {}) =>
    fetcher(url(route), { method: "POST", headers: { ...json, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const enclaveKey = async () => ((await (await gateway(url("/api/enclave-key"))).json()) as { hpke_public_key: string }).hpke_public_key;
  const seal = async (plaintext: unknown) => sealRequest({ enclavePublicKey: await enclaveKey(), plaintext });

  /** A PAYMENT-SIGNATURE for `op`, signed by `payer` for the requirements of its 402. */
  async function signatureFor(op: PaidOperation, payer: number = PAYER.refused): Promise<string> {
    const unpaid = await post(gateway, op.path, op.bodyExample);
    expect(unpaid.status).toBe(402);
    const requirements = decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!).accepts[0]!;
    return (await signPayment({ privateKey: wallet(payer).privateKey, requirements })).header;
  }

  /** The schema the document names for the sealed answer of `operation`'s `status`, checked against `plaintext`. */
  async function checkSealed(operation: string, status: string, plaintext: unknown) {
    const [method, route] = operation.split(" ") as [string, string];
    const media = doc.paths[route]![method.toLowerCase()]!.responses[status]!.content!["application/json"] as { "x-sealed-answer"?: { schema: Record<string, unknown> } };
    expect(media["x-sealed-answer"], `${operation} ${status} names its sealed answer's schema`).toBeDefined();
    const echo = new Response(JSON.stringify(plaintext), { status: 200, headers: json });
    await conformance.checkSchema(`${operation} ${status} (sealed answer)`, media["x-sealed-answer"]!.schema, echo);
  }

  describe("free documents", () => {
    it("GET /api/openapi.json: the document, itself as it declares", async () => {
      const response = await gateway(url("/api/openapi.json"));
      doc = (await response.clone().json()) as OpenApiDocument;
      conformance = createConformance(doc);
      await check("GET /api/openapi.json", response);
    });

    it("GET /api/health, GET /api/enclave-key, GET /api/sealing, GET /.well-known/x402.json, GET /llms.txt", async () => {
      for (const route of ["/api/health", "/api/enclave-key", "/api/sealing", "/.well-known/x402.json", "/llms.txt"]) {
        const response = await gateway(url(route));
        expect(response.status, route).toBe(200);
        await check(`GET ${route}`, response);
      }
    });

    it("GET /api/cron: 401 without the bearer token, 200 with it", async () => {
      await check("GET /api/cron", await gateway(url("/api/cron")));
      const ran = await gateway(url("/api/cron"), { headers: { authorization: `Bearer ${CRON_SECRET}` } });
      expect(ran.status).toBe(200);
      await check("GET /api/cron", ran);
    });

    it("every path answers a method it does not serve with the document's 405", async () => {
      for (const [route, item] of Object.entries(doc.paths)) {
        const concrete = route.replace(/\{\w+\}/g, randomUUID());
        const served = Object.keys(item).map((m) => m.toUpperCase());
        const method = ["DELETE", "PUT", "PATCH"].find((m) => !served.includes(m))!;
        const response = await gateway(url(concrete), { method });
        expect(response.status, route).toBe(405);
        expect(response.headers.get("allow")?.split(", "), route).toEqual(expect.arrayContaining([...served, "OPTIONS"]));
        await conformance.checkUnserved(`${method} ${route}`, response);
      }
    });
  });

  describe("the MCP endpoint, as HTTP (its tools are the routes above; tests/integration/mcp-remote.test.ts pays them)", () => {
    const operation = "POST /api/mcp";
    const mcpHeaders = { ...json, accept: "application/json, text/event-stream" };
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "openapi-accuracy", version: "1" } } };
    const mcp = (body: string, headers: Record<string, string> = mcpHeaders) => gateway(url("/api/mcp"), { method: "POST", headers, body });

    it("200: a request answered as a Server-Sent Events stream; 202: notifications only", async () => {
      const answered = await mcp(JSON.stringify(initialize));
      expect(answered.status).toBe(200);
      expect(await check(operation, answered)).toContain('"serverInfo"');
      const notified = await mcp(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      expect(notified.status).toBe(202);
      await check(operation, notified);
    });

    it("400 not JSON-RPC, 406 an Accept without both types, 413 too large, 415 not JSON", async () => {
      await check(operation, await mcp("{not json"));
      await check(operation, await mcp(JSON.stringify(initialize), { ...json, accept: "application/json" }));
      await check(operation, await mcp(JSON.stringify({ ...initialize, params: { ...initialize.params, padding: "x".repeat(2 * 1024 * 1024) } })));
      await check(operation, await mcp(JSON.stringify(initialize), { "content-type": "text/plain", accept: mcpHeaders.accept }));
      for (const status of ["400", "406", "413", "415"]) expect(conformance.seen()).toContain(`${operation} ${status}`);
    });
  });

  describe("paid operations: what every one answers before any work", () => {
    it.each(PAID_OPERATIONS.map((op) => [operationOf(op), op] as const))("%s: 402 for a valid body, an invalid one, and a refused payment", async (operation, op) => {
      await check(operation, await post(gateway, op.path, op.bodyExample));
      await check(operation, await post(gateway, op.path, { unknownField: true }));
      await check(operation, await post(gateway, op.path, op.bodyExample, { "payment-signature": "bm90LWEtcGF5bWVudA==" }));
    });

    it.each(PAID_OPERATIONS.map((op) => [operationOf(op), op] as const))("%s: 400 for an invalid body with a payment, charged: false", async (operation, op) => {
      const response = await post(gateway, op.path, { unknownField: true }, { "payment-signature": await signatureFor(op) });
      expect(response.status).toBe(400);
      expect(await check(operation, response)).toMatchObject({ charged: false });
    });

    it.each(PAID_OPERATIONS.map((op) => [operationOf(op), op] as const))("%s: 409 for a payment named by an id that already named one for another request, charged: false", async (operation, op) => {
      const unpaid = await post(gateway, op.path, op.bodyExample);
      const requirements = decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!).accepts[0]!;
      const id = generatePaymentId();
      // That id already names a payment of this payer, for another request (its digest another's).
      await claimTestPayment({ db: await getDb(), requirements, privateKey: wallet(PAYER.refused).privateKey, operation: op.id, paymentId: id });
      const { payload } = await signPayment({ privateKey: wallet(PAYER.refused).privateKey, requirements });
      const response = await post(gateway, op.path, op.bodyExample, { "payment-signature": namedPaymentHeader(payload, id) });
      expect(response.status).toBe(409);
      expect(await check(operation, response)).toMatchObject({ reason: "payment_identifier_conflict", charged: false });
    });

    it.each(PAID_OPERATIONS.map((op) => [operationOf(op), op] as const))("%s: 413 for a body over the route's limit, with a payment", async (operation, op) => {
      const huge = { message: "x".repeat(op.id === "chatEncrypted" ? 1_100_000 : 300_000) };
      const response = await post(gateway, op.path, huge, { "payment-signature": await signatureFor(op) });
      expect(response.status).toBe(413);
      await check(operation, response);
    });

    it.each(PAID_OPERATIONS.map((op, i) => [operationOf(op), op, i] as const))("%s: 429 once a client address goes over its invalid payments", async (operation, op, i) => {
      const client = { "x-forwarded-for": `203.0.113.${10 + i}` };
      const first = await post(gateway, op.path, op.bodyExample, { ...client, "payment-signature": "bm90LWEtcGF5bWVudA==" });
      expect(first.status).toBe(402);
      const over = await post(gateway, op.path, op.bodyExample, { ...client, "payment-signature": "bm90LWEtcGF5bWVudA==" });
      expect(over.status).toBe(429);
      await check(operation, over);
    });
  });

  describe("chat", () => {
    let requestId: string;

    it("POST /api/chat: paid, 202; its status route until the answer, every poll as declared", async () => {
      const accepted = await post(pay(PAYER.chat), "/api/chat", { message: "Does rapamycin extend lifespan in mice?" });
      expect(accepted.status).toBe(202);
      ({ requestId } = (await check("POST /api/chat", accepted)) as { requestId: string });
      let status = "";
      await until(
        async () => {
          const poll = await gateway(url(`/api/chat/status/${requestId}`));
          ({ status } = (await check("GET /api/chat/status/{requestId}", poll)) as { status: string });
          return status === "completed" || status === "failed";
        },
        { what: "the chat answer" },
      );
      expect(status).toBe("completed");
    });

    it("POST /api/chat: 404 for a conversation this payer did not start, charged: false", async () => {
      const response = await post(pay(PAYER.chat), "/api/chat", { message: "And then?", conversationId: randomUUID() });
      expect(response.status).toBe(404);
      await check("POST /api/chat", response);
    });

    it("GET /api/chat/status/{requestId}: 404 for an unknown request", async () => {
      await check("GET /api/chat/status/{requestId}", await gateway(url(`/api/chat/status/${randomUUID()}`)));
    });
  });

  describe("literature", () => {
    async function searchAndPoll(body: Record<string, unknown>) {
      const accepted = await post(pay(PAYER.literature), "/api/literature", body);
      const answer = (await check("POST /api/literature", accepted)) as { jobId: string; status: string };
      if (accepted.status === 200) return;
      let status = "";
      await until(
        async () => {
          ({ status } = (await check("GET /api/literature/jobs/{jobId}", await gateway(url(`/api/literature/jobs/${answer.jobId}`)))) as { status: string });
          return status === "completed" || status === "failed";
        },
        { what: "the literature job" },
      );
      expect(status).toBe("completed");
    }

    it("POST /api/literature with rejected references: paid, 202; the job until completed", async () => {
      await searchAndPoll({ question: "rapamycin lifespan mice", includeRejected: true, filterReferences: false });
    });

    it("POST /api/literature as a fanout of tags: resultsByTag as declared", async () => {
      await searchAndPoll({ question: "interventions that slow aging", tags: ["rapamycin", "metformin"], tagMode: "fanout", includeRejected: true });
    });

    it("GET /api/literature/jobs/{jobId}: 404 for an unknown job", async () => {
      const response = await gateway(url(`/api/literature/jobs/${randomUUID()}`));
      expect(response.status).toBe(404);
      await check("GET /api/literature/jobs/{jobId}", response);
    });
  });

  let conversationId: string;
  let privateRun: { messageId: string; recoveryKey: string };

  describe("deep research", () => {
    it("POST /api/deep-research/start: paid, 202; the conversation until completed, every poll as declared", async () => {
      const accepted = await post(pay(PAYER.deepResearch), "/api/deep-research/start", { message: "Does rapamycin extend lifespan in mice?" });
      expect(accepted.status).toBe(202);
      ({ conversationId } = (await check("POST /api/deep-research/start", accepted)) as { conversationId: string });
      let status = "";
      await until(
        async () => {
          ({ status } = (await check("GET /api/deep-research/{conversationId}", await gateway(url(`/api/deep-research/${conversationId}`)))) as { status: string });
          return ["completed", "failed", "cancelled", "timeout"].includes(status);
        },
        { what: "the deep-research turn", timeoutMs: 120_000 },
      );
      expect(status).toBe("completed");
    });

    it("POST /api/deep-research/start: 404 for a conversation this payer did not start, charged: false", async () => {
      const response = await post(pay(PAYER.deepResearch), "/api/deep-research/start", { message: "And then?", conversationId: randomUUID() });
      expect(response.status).toBe(404);
      await check("POST /api/deep-research/start", response);
    });

    it("GET /api/deep-research/{conversationId}: 404 for an unknown conversation", async () => {
      const response = await gateway(url(`/api/deep-research/${randomUUID()}`));
      expect(response.status).toBe(404);
      await check("GET /api/deep-research/{conversationId}", response);
    });
  });

  describe("private mode", () => {
    it("POST /api/chat/encrypted: paid, 200 sealed; its status route; 404 for an unknown request", async () => {
      const sealed = await seal({ message: "Does rapamycin extend lifespan in mice?" });
      const answered = await post(pay(PAYER.chatEncrypted), "/api/chat/encrypted", sealed.envelope);
      expect(answered.status).toBe(200);
      const body = (await check("POST /api/chat/encrypted", answered)) as SealedResponse & { requestId: string };
      await checkSealed("POST /api/chat/encrypted", "200", openResponse({ ...sealed, response: body }));
      const polled = (await check("GET /api/chat/encrypted/status/{requestId}", await gateway(url(`/api/chat/encrypted/status/${body.requestId}`)))) as SealedResponse;
      await checkSealed("GET /api/chat/encrypted/status/{requestId}", "200", openResponse({ ...sealed, response: polled }));
      await check("GET /api/chat/encrypted/status/{requestId}", await gateway(url(`/api/chat/encrypted/status/${randomUUID()}`)));
    });

    it("POST /api/chat/encrypted: 202 when the answer takes longer than the enclave waits, polled until sealed", async () => {
      const slow = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_KEK_FILE: kekFile, PRIVATE_CHAT_WAIT_MS: "0" });
      await restore();
      restore = await configureGateway({ ...live(), UPSTREAM_API_URL: slow.url });
      try {
        const sealed = await seal({ message: "Senolytics in pulmonary fibrosis" });
        const accepted = await post(pay(PAYER.chatEncrypted), "/api/chat/encrypted", sealed.envelope);
        expect(accepted.status).toBe(202);
        const { pollUrl } = (await check("POST /api/chat/encrypted", accepted)) as { pollUrl: string };
        let polled: { status: string } = { status: "" };
        await until(
          async () => {
            polled = (await check("GET /api/chat/encrypted/status/{requestId}", await gateway(pollUrl))) as { status: string };
            return polled.status === "completed" || polled.status === "failed";
          },
          { what: "the sealed chat answer" },
        );
        expect(polled.status).toBe("completed");
      } finally {
        await restore();
        await slow.stop();
        restore = await configureGateway(live());
      }
    });

    it("POST /api/literature/encrypted: paid, 202; its status route waits and answers sealed; 400, 404 and 429 as declared", async () => {
      const sealed = await seal({ question: "rapamycin lifespan mice", includeRejected: true });
      const accepted = await post(pay(PAYER.literatureEncrypted), "/api/literature/encrypted", sealed.envelope);
      expect(accepted.status).toBe(202);
      const { pollUrl, requestId } = (await check("POST /api/literature/encrypted", accepted)) as { pollUrl: string; requestId: string };
      const operation = "GET /api/literature/encrypted/status/{requestId}";
      let polled: { status: string } = { status: "" };
      await until(
        async () => {
          polled = (await check(operation, await gateway(`${pollUrl}?timeout=25`))) as { status: string };
          return polled.status === "completed" || polled.status === "failed";
        },
        { what: "the sealed literature answer" },
      );
      expect(polled.status).toBe("completed");
      await checkSealed(operation, "200", openResponse({ ...sealed, response: polled as unknown as SealedResponse }));
      await check(operation, await gateway(`${pollUrl}?timeout=soon`));
      await check(operation, await gateway(url(`/api/literature/encrypted/status/${randomUUID()}`)));
      // The one long-poll this client address may hold (LONG_POLL_MAX_PER_CLIENT=1) is taken.
      const db = await getDb();
      await db.query(
        "INSERT INTO gateway.long_polls (client, holders) VALUES ($1, jsonb_build_object('held', floor(extract(epoch FROM now())) + 300)) ON CONFLICT (client) DO UPDATE SET holders = excluded.holders",
        [`request:${requestId}`],
      );
      const refused = await gateway(`${pollUrl}?timeout=5`);
      expect(refused.status).toBe(429);
      await check(operation, refused);
    });

    it("POST /api/deep-research/encrypted: paid, 202; sealed polls until the sealed result; 400 and 404 as declared", async () => {
      const recoveryKey = createRecoveryKey(portablePrimitives);
      const accepted = await post(pay(PAYER.deepResearchEncrypted), "/api/deep-research/encrypted", (await seal({ message: "Does rapamycin extend lifespan in mice?", recoveryKey })).envelope);
      expect(accepted.status).toBe(202);
      const { pollUrl, messageId } = (await check("POST /api/deep-research/encrypted", accepted)) as { pollUrl: string; messageId: string };
      privateRun = { messageId, recoveryKey };
      const operation = "POST /api/deep-research/encrypted/status/{messageId}";
      let polled: { status: string } = { status: "" };
      let poll = await seal({ recoveryKey });
      await until(
        async () => {
          poll = await seal({ recoveryKey });
          polled = (await check(operation, await post(gateway, pollUrl.slice(PUBLIC_URL.length), poll.envelope))) as { status: string };
          return polled.status === "completed" || polled.status === "failed";
        },
        { what: "the sealed deep-research result", timeoutMs: 120_000 },
      );
      expect(polled.status).toBe("completed");
      await checkSealed(operation, "200", openResponse({ ...poll, response: polled as unknown as SealedResponse }));
      await check(operation, await post(gateway, `/api/deep-research/encrypted/status/${messageId}`, { hpke_ciphertext: "AAAA" }));
      await check(operation, await post(gateway, `/api/deep-research/encrypted/status/${messageId}`, { hpke_ciphertext: "A".repeat(300_000), hpke_ephemeral_public_key: "AAAA" }));
      await check(operation, await post(gateway, `/api/deep-research/encrypted/status/${randomUUID()}`, (await seal({ recoveryKey })).envelope));
    });
  });

  /** A wallet's history (sign-in-with-x): a payer with a chat reopened, and one whose answer nobody kept yet. */
  const history = { privateKey: "0x" as `0x${string}`, kept: "", unkept: "" };
  const signedIn = (input: string, init?: RequestInit) => signingInFetch(history.privateKey, gateway)(url(input), init);

  describe("history (sign-in-with-x)", () => {
    it("GET /api/history: 402 without a proof and with a refused one, 400 for a query it cannot read, 200 for the wallet that paid", async () => {
      const payer = await fundedWallet(1_000_000n);
      history.privateKey = payer.privateKey;
      const paying = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: gateway }).fetch;
      for (const message of ["Does rapamycin extend lifespan in mice?", "Does metformin slow aging?"]) expect((await post(paying, "/api/chat", { message })).status).toBe(202);
      await check("GET /api/history", await gateway(url("/api/history")));
      await check("GET /api/history", await gateway(url("/api/history"), { headers: { "sign-in-with-x": "e30" } }));
      await check("GET /api/history", await signedIn("/api/history?limit=0"));
      const listed = (await check("GET /api/history", await signedIn("/api/history"))) as { items: { id: string }[] };
      [history.unkept, history.kept] = listed.items.map((i) => i.id) as [string, string];
    });

    it("GET /api/history/{id}: 200 reopened, 404 for another wallet's, 402; DELETE: 204, 404, 402", async () => {
      await check("GET /api/history/{id}", await signedIn(`/api/history/${history.kept}`));
      await check("GET /api/history/{id}", await signedIn(`/api/history/${randomUUID()}`));
      await check("GET /api/history/{id}", await gateway(url(`/api/history/${history.kept}`)));
      await check("DELETE /api/history/{id}", await signedIn(`/api/history/${randomUUID()}`, { method: "DELETE" }));
      await check("DELETE /api/history/{id}", await gateway(url(`/api/history/${history.kept}`), { method: "DELETE" }));
      const forgotten = await signedIn(`/api/history/${history.kept}`, { method: "DELETE" });
      expect(forgotten.status).toBe(204);
      await check("DELETE /api/history/{id}", forgotten);
    });

    it("POST /api/history/session: 402 without a proof, 200 with its cookie, 429 past the sign-ins an address may make; DELETE: 204", async () => {
      await check("POST /api/history/session", await gateway(url("/api/history/session"), { method: "POST" }));
      const signIn = await signedIn("/api/history/session", { method: "POST" });
      expect(signIn.status).toBe(200);
      await check("POST /api/history/session", signIn);
      const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
      const out = await gateway(url("/api/history/session"), { method: "DELETE", headers: { cookie } });
      expect(out.status).toBe(204);
      await check("DELETE /api/history/session", out);
      let last: Response | undefined;
      await until(async () => (last = await signedIn("/api/history/session", { method: "POST" })).status === 429, { what: "the sign-in limit" });
      await check("POST /api/history/session", last!);
    });
  });

  describe("when the agent cannot be reached", () => {
    let restoreDown: () => Promise<void>;
    beforeAll(async () => {
      await restore();
      restoreDown = await configureGateway({ ...live(), UPSTREAM_API_URL: `http://127.0.0.1:${await freePort()}`, UPSTREAM_TIMEOUT_MS: "1000" });
    });
    afterAll(async () => {
      await restoreDown();
      restore = await configureGateway(live());
    });

    it("GET /api/health: 503 with a component down", async () => {
      const response = await gateway(url("/api/health"));
      expect(response.status).toBe(503);
      await check("GET /api/health", response);
    });

    it.each(PAID_OPERATIONS.map((op) => [operationOf(op), op] as const))("%s: refused before payment, or not charged after it", async (operation, op) => {
      const unpaid = await post(gateway, op.path, op.bodyExample);
      if (unpaid.status !== 402) return void (await check(operation, unpaid));
      const before = await usdcBalance(payTo);
      const paid = await post(gateway, op.path, op.bodyExample, { "payment-signature": await signatureFor(op) });
      expect(paid.status).toBeGreaterThanOrEqual(500);
      await check(operation, paid);
      expect(await usdcBalance(payTo)).toBe(before);
    });

    it("every free route that asks the agent: as declared", async () => {
      const id = randomUUID();
      for (const [operation, route] of [
        ["GET /api/chat/status/{requestId}", `/api/chat/status/${id}`],
        ["GET /api/chat/encrypted/status/{requestId}", `/api/chat/encrypted/status/${id}`],
        ["GET /api/literature/jobs/{jobId}", `/api/literature/jobs/${id}`],
        ["GET /api/literature/encrypted/status/{requestId}", `/api/literature/encrypted/status/${id}`],
        ["GET /api/deep-research/{conversationId}", `/api/deep-research/${id}`],
      ] as const) {
        await check(operation, await gateway(url(route)));
      }
      // A chat whose answer nobody kept yet is asked of the agent, away: 502.
      await check("GET /api/history/{id}", await signedIn(`/api/history/${history.unkept}`));
      // The key this gateway cached a minute ago stands in while the agent is away; without it, 500.
      forgetEnclaveKey();
      await check("GET /api/enclave-key", await gateway(url("/api/enclave-key")));
      const sealedPoll = sealRequest({ enclavePublicKey: encodeBase64(portablePrimitives.publicKey(portablePrimitives.randomBytes(32))), plaintext: { recoveryKey: privateRun.recoveryKey } });
      await check("POST /api/deep-research/encrypted/status/{messageId}", await post(gateway, `/api/deep-research/encrypted/status/${privateRun.messageId}`, sealedPoll.envelope));
    });
  });

  describe("when the gateway's database cannot be reached", () => {
    let restoreNoDatabase: () => Promise<void>;
    beforeAll(async () => {
      await restore();
      restoreNoDatabase = await configureGateway({ ...live(), POSTGRES_URL: `postgres://lra:lra@127.0.0.1:${await freePort()}/lra` });
    });
    afterAll(async () => {
      await restoreNoDatabase();
      restore = await configureGateway(live());
    });

    it.each(PAID_OPERATIONS.map((op) => [operationOf(op), op] as const))("%s: a paid request is 503 database_unavailable, charged nothing", async (operation, op) => {
      const response = await post(gateway, op.path, op.bodyExample, { "payment-signature": await signatureFor(op) });
      expect(response.status).toBe(503);
      await check(operation, response);
    });

    it("the free routes that read the database: 503 database_unavailable, as declared", async () => {
      await check("GET /api/deep-research/{conversationId}", await gateway(url(`/api/deep-research/${conversationId}`)));
      const poll = sealRequest({ enclavePublicKey: encodeBase64(portablePrimitives.publicKey(portablePrimitives.randomBytes(32))), plaintext: { recoveryKey: privateRun.recoveryKey } });
      await check("POST /api/deep-research/encrypted/status/{messageId}", await post(gateway, `/api/deep-research/encrypted/status/${privateRun.messageId}`, poll.envelope));
      await check("GET /api/cron", await gateway(url("/api/cron"), { headers: { authorization: `Bearer ${CRON_SECRET}` } }));
      // A proof is spent in the database, and a session read from it.
      await check("GET /api/history", await signedIn("/api/history"));
      await check("GET /api/history/{id}", await signedIn(`/api/history/${history.unkept}`));
      await check("DELETE /api/history/{id}", await signedIn(`/api/history/${history.unkept}`, { method: "DELETE" }));
      await check("POST /api/history/session", await signedIn("/api/history/session", { method: "POST" }));
      await check("DELETE /api/history/session", await gateway(url("/api/history/session"), { method: "DELETE", headers: { cookie: "lra_history_session=any" } }));
    });
  });

  describe("when no literature source can answer (an empty library, nothing else)", () => {
    let empty: Awaited<ReturnType<typeof startTestAgent>>;
    let emptyDatabase: Awaited<ReturnType<typeof createTestDatabase>>;
    let restoreEmpty: () => Promise<void>;
    const emptyAgent = (env: Record<string, string> = {}) =>
      startTestAgent({ POSTGRES_URL: emptyDatabase.url, LITERATURE_SOURCES: "local", ENCLAVE_KEK_FILE: path.join(kekDir, "empty.kek"), ...env });
    beforeAll(async () => {
      emptyDatabase = await createTestDatabase();
      empty = await emptyAgent();
      await restore();
      restoreEmpty = await configureGateway({ ...live(), POSTGRES_URL: emptyDatabase.url, UPSTREAM_API_URL: empty.url });
    });
    afterAll(async () => {
      await restoreEmpty();
      await empty.stop();
      await emptyDatabase.drop();
      restore = await configureGateway(live());
    });

    it.each(["chat", "literature", "chatEncrypted", "literatureEncrypted", "deepResearch", "deepResearchEncrypted"] as const)("%s: 503 literature_unavailable before payment", async (id) => {
      const op = PAID_OPERATIONS.find((o) => o.id === id)!;
      const response = await post(gateway, op.path, op.bodyExample);
      expect(response.status).toBe(503);
      expect(await check(operationOf(op), response)).toMatchObject({ error: "literature_unavailable" });
    });

    it("POST /api/literature/encrypted: 403 before payment where private literature is off", async () => {
      const off = await emptyAgent({ PRIVATE_LITERATURE_ENABLED: "false" });
      await restoreEmpty();
      restoreEmpty = await configureGateway({ ...live(), POSTGRES_URL: emptyDatabase.url, UPSTREAM_API_URL: off.url });
      try {
        const response = await post(gateway, "/api/literature/encrypted", getPaidOperation("literatureEncrypted").bodyExample);
        expect(response.status).toBe(403);
        await check("POST /api/literature/encrypted", response);
      } finally {
        await off.stop();
      }
    });
  });

  it("exercises every status the document declares, or names why not", () => {
    const declared = new Set(conformance.declared());
    const seen = new Set(conformance.seen().filter((s) => !s.startsWith("unserved ")));
    const missing = [...declared].filter((s) => !seen.has(s) && !(s in NOT_EXERCISED));
    expect(missing, "declared, never produced, not listed in NOT_EXERCISED").toEqual([]);
    expect(Object.keys(NOT_EXERCISED).filter((s) => seen.has(s)), "listed in NOT_EXERCISED yet produced").toEqual([]);
    expect(Object.keys(NOT_EXERCISED).filter((s) => !declared.has(s)), "listed in NOT_EXERCISED, no longer declared").toEqual([]);
    const undeclaredSeen = [...seen].filter((s) => !declared.has(s));
    expect(undeclaredSeen).toEqual([]);
    // Every path's 405 was checked against the document's answer for a method a path does not serve.
    expect(conformance.seen().filter((s) => s.startsWith("unserved ")).length).toBe(Object.keys(doc.paths).length);
  });
});
