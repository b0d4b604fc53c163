import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION, type CallToolResult, type Progress } from "@modelcontextprotocol/sdk/types.js";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { GATEWAY_ROUTES } from "@/app/api/mcp/gateway-routes";
import { getDb } from "@/lib/gateway/db";
import { mcpBodyLimit } from "@/lib/gateway/mcp/body-limit";
import { MCP_TOOLS } from "@/lib/shared/mcp/catalog";
import { handleMcpRequest } from "@/lib/gateway/mcp/endpoint";
import { getPaidOperation } from "@/lib/shared/operations";
import { createPayingFetch } from "@/lib/client/payments/client";
import { startLibraryAgent, TEST_SERVICE_KEY } from "../support/agent";
import { configureGateway } from "../support/gateway";
import { startGatewayProcess, type GatewayProcess } from "../support/gateway-processes";
import { buildLiteratureJobResult, buildQueuedChatResult } from "../support/builders";
import { closedUrl, startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, drainWallet, freshAddress, fundedWallet, signPayment, usdcBalance, wallet } from "../support/payments";
import { gatewayFetch, postJson } from "../support/routes";
import { until } from "../support/until";

/**
 * Issue 16, "MCP, paid with x402": the remote MCP endpoint (POST /api/mcp) driven by the SDK's own
 * Client over Streamable HTTP, paying on the local chain with the official x402 client from the
 * PaymentRequired a tool returned. Both bindings of the x402 MCP transport (the tool result, and
 * the `org.x402/payment` extension advertised per request or at initialize), the payee's balance
 * moving by exactly the price, the ledger row, and the attacks of docs/threat-model.md: a payment
 * for one tool or body used for another, the same payment twice at once, an expired or
 * underpaying authorization, paid work that fails, another payer's conversation, and the client's
 * address carried over to the paid route's limits. This file's wallets: 11 to 15.
 */

const PUBLIC_URL = "https://gateway.test";
const MCP_URL = `${PUBLIC_URL}/api/mcp`;
const EXTENSION = "org.x402/payment";
const PER_REQUEST_EXTENSION = { "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXTENSION]: {} } } };
/** Calls wait for chat and literature to finish inside the tool: far above any working run, a hang guard only. */
const CALL = { timeout: 600_000, resetTimeoutOnProgress: true } as const;
const LONG_TEST = { timeout: 300_000 };

type Json = Record<string, unknown>;
type Settlement = { success: boolean; transaction: string; network: string; payer: string; extensions?: Record<string, unknown> };

/** The settlement's signed receipt (x402 offer-and-receipt), as PAYMENT-RESPONSE carries it. */
const SIGNED_RECEIPT = { "offer-receipt": { info: { receipt: expect.objectContaining({ format: "eip712" }) } } };
const settlementOf = (result: CallToolResult) => (result._meta as Json | undefined)?.["x402/payment-response"] as Settlement | undefined;
const structured = (result: CallToolResult) => result.structuredContent as Json;
const textOf = (result: CallToolResult) => (result.content[0] as { type: "text"; text: string }).text;

describe("the remote MCP endpoint", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;
  let restore: () => Promise<void>;
  const payTo = freshAddress();
  const alice = wallet(11);
  const mallory = wallet(12);
  const replayer = wallet(13);
  const attacker = wallet(14);
  const researcher = wallet(15);
  const clients: Client[] = [];

  const gatewayEnv = () => ({
    POSTGRES_URL: agent.database.url,
    UPSTREAM_API_URL: agent.url,
    AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
    PUBLIC_URL,
    RPC_URL: chain().rpcUrl,
    PAY_TO_ADDRESS: payTo,
    INVALID_PAYMENT_LIMIT: "3",
  });

  beforeAll(async () => {
    agent = await startLibraryAgent();
    restore = await configureGateway(gatewayEnv());
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await restore?.();
    await agent?.stop();
  });

  /**
   * An SDK client on /api/mcp through the gateway's edge, from `address` when given (the
   * X-Forwarded-For the last proxy would add), advertising the extension at initialize when told.
   */
  async function connect({ address, extensionAtInitialize = false, handle }: { address?: string; extensionAtInitialize?: boolean; handle?: (request: Request) => Promise<Response> } = {}) {
    const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
      fetch: (url, init) => (handle ?? gatewayFetch)(new Request(url, init)),
      requestInit: { headers: address ? { "x-forwarded-for": address } : {} },
    });
    const client = new Client({ name: "mcp-remote-test", version: "1.0.0" }, extensionAtInitialize ? { capabilities: { extensions: { [EXTENSION]: {} } } } : {});
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  }

  /** The official x402 client of `privateKey`, signing a PaymentPayload for what a tool returned. */
  const sign = (privateKey: `0x${string}`, required: PaymentRequired): Promise<PaymentPayload> =>
    createPayingFetch({ privateKey, network: chain().network, asset: chain().asset }).client.createPaymentPayload(required);

  const call = (client: Client, name: string, args: Json, meta: Json = {}, onprogress?: (p: Progress) => void) =>
    client.callTool({ name, arguments: args, _meta: meta }, undefined, { ...CALL, ...(onprogress ? { onprogress } : {}) }) as Promise<CallToolResult>;
  const pay = (client: Client, name: string, args: Json, payment: unknown, meta: Json = {}, onprogress?: (p: Progress) => void) =>
    call(client, name, args, { ...meta, "x402/payment": payment }, onprogress);

  /** What the HTTP route answers the same unpaid body: the 402 the tool must carry. */
  const http402 = async (path: string, body: Json) => {
    const response = await postJson(`${PUBLIC_URL}${path}`, body);
    expect(response.status).toBe(402);
    return (await response.json()) as PaymentRequired;
  };

  const paymentRows = async (payer: string, nonce: string) =>
    (await (await getDb()).query<{ status: string; operation: string; tx_hash: string | null }>("SELECT status, operation, tx_hash FROM gateway.payments WHERE payer = $1 AND nonce = $2", [payer.toLowerCase(), nonce.toLowerCase()])).rows;
  const nonceOf = (payment: PaymentPayload) => (payment.payload as { authorization: { nonce: string } }).authorization.nonce;
  const chatJobs = async () => (await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent.jobs WHERE kind = 'chat'")).rows[0]!.n;

  /** A chat or literature result followed to its final status with the free status tool, if the tool's wait ran out first. */
  async function finalOf(client: Client, result: CallToolResult): Promise<Json> {
    let body = structured(result);
    const next = body.next as { tool: string; arguments: Json } | undefined;
    if (!next) return body;
    await until(
      async () => {
        body = structured(await call(client, next.tool, next.arguments));
        return body.status === "completed" || body.status === "failed";
      },
      { what: `${next.tool} to finish`, everyMs: 200 },
    );
    return body;
  }

  describe("discovery", () => {
    it("has in-process handlers for every tool's route: each paid tool's operation and each status tool's route", () => {
      const needed = MCP_TOOLS.map((tool) => {
        if (tool.kind === "free") return `${tool.method} ${tool.path}`;
        const op = getPaidOperation(tool.operation);
        return `${op.method} ${op.path}`;
      });
      expect(needed.filter((route) => !(route in GATEWAY_ROUTES))).toEqual([]);
    });

    it("advertises org.x402/payment and lists every catalog tool, its arguments the JSON Schema of its HTTP route's body", async () => {
      const { client } = await connect();
      expect(client.getServerCapabilities()?.extensions?.[EXTENSION]).toEqual({});
      expect(client.getInstructions()).toContain('_meta["x402/payment"]');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
      for (const tool of MCP_TOOLS) {
        const { $schema: _, ...schema } = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as Json;
        expect(tools.find((t) => t.name === tool.name)?.inputSchema, tool.name).toEqual(schema);
      }
      expect(tools.find((t) => t.name === "chat")?.inputSchema).toMatchObject({ additionalProperties: false, required: ["message"] });
    });

    it("answers GET and DELETE 405 with Allow, a body that is not JSON-RPC 400, one over the limit 413, each a JSON error", async () => {
      for (const method of ["GET", "DELETE"]) {
        const response = await gatewayFetch(new Request(MCP_URL, { method }));
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("OPTIONS, POST");
        expect(await response.json()).toMatchObject({ error: expect.any(String), reason: "method_not_allowed" });
      }
      const accept = { accept: "application/json, text/event-stream", "content-type": "application/json" };
      const notRpc = await gatewayFetch(new Request(MCP_URL, { method: "POST", headers: accept, body: JSON.stringify({ hello: "world" }) }));
      expect(notRpc.status).toBe(400);
      expect(await notRpc.json()).toMatchObject({ error: expect.stringContaining("Invalid JSON-RPC"), reason: "invalid_message", code: -32700 });
      const notJson = await gatewayFetch(new Request(MCP_URL, { method: "POST", headers: accept, body: "{" }));
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ reason: "invalid_message", code: -32700 });
      const tooLarge = await gatewayFetch(new Request(MCP_URL, { method: "POST", headers: accept, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(mcpBodyLimit(256 * 1024)) } }) }));
      expect(tooLarge.status).toBe(413);
      expect(await tooLarge.json()).toMatchObject({ error: expect.any(String), reason: "body_too_large" });
      const noAccept = await gatewayFetch(new Request(MCP_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }));
      expect(noAccept.status).toBe(406);
      expect(await noAccept.json()).toMatchObject({ error: expect.any(String), reason: "not_acceptable" });
    });

    it("is found from /llms.txt: the endpoint, every tool with its price, and where the payment goes", async () => {
      const text = await (await gatewayFetch(new Request(`${PUBLIC_URL}/llms.txt`))).text();
      const section = text.slice(text.indexOf("## MCP"), text.indexOf("## Private mode"));
      expect(section).toContain(`POST ${MCP_URL}`);
      for (const tool of MCP_TOOLS) expect(section).toMatch(new RegExp(`${tool.name} \\((\\$\\d+\\.\\d\\d|free)\\)`));
      expect(section).toContain('params._meta["x402/payment"]');
      expect(section).toContain('result._meta["x402/payment-response"]');
      expect(section).toContain(EXTENSION);
      // The protocol version to initialize with is said, not left to a guess (a fresh agent had to).
      expect(section).toContain(`MCP protocol version ${LATEST_PROTOCOL_VERSION}`);
    });

    it("refuses an unknown tool with a JSON-RPC error", async () => {
      const { client } = await connect();
      await expect(call(client, "nope", {})).rejects.toThrow(/Unknown tool: nope/);
    });
  });

  describe("the tool-result binding", () => {
    let conversationId: string;
    let alicePayment: PaymentPayload;
    let aliceAnswer: CallToolResult;

    it("answers an unpaid chat with the route's PaymentRequired in structuredContent and, as JSON, in content[0].text", async () => {
      const { client } = await connect();
      const args = { message: "Does rapamycin extend lifespan in mice?" };
      const result = await call(client, "chat", args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual(await http402("/api/chat", args));
      expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
      expect(result.resultType).toBeUndefined();
    });

    it("paid with the official client from that PaymentRequired: the cited answer, $0.02 charged once, the settlement in _meta and the ledger", LONG_TEST, async () => {
      // The progress notifications are read from the wire: the SDK's client drops one that reaches
      // it in the same chunk as the result (it handles notifications a microtask late, after the
      // result has removed the call's progress handler), which a fast chat on a busy machine does.
      const wire: string[] = [];
      const { client } = await connect({
        handle: async (request) => {
          const response = await gatewayFetch(request);
          if (!response.body) return response;
          const [kept, copy] = response.body.tee();
          void new Response(copy).text().then((text) => wire.push(text));
          return new Response(kept, response);
        },
      });
      const args = { message: "Does rapamycin extend lifespan in mice?" };
      const required = structured(await call(client, "chat", args)) as unknown as PaymentRequired;
      alicePayment = await sign(alice.privateKey, required);
      const before = await usdcBalance(payTo);
      const progress: Progress[] = [];
      aliceAnswer = await pay(client, "chat", args, alicePayment, {}, (p) => progress.push(p));

      expect(aliceAnswer.isError).toBeFalsy();
      const settlement = settlementOf(aliceAnswer)!;
      expect(settlement).toEqual({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), network: chain().network, payer: alice.address, extensions: SIGNED_RECEIPT });
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
      expect(await paymentRows(alice.address, nonceOf(alicePayment))).toEqual([{ status: "settled", operation: "chat", tx_hash: settlement.transaction }]);
      const notified = () =>
        wire
          .flatMap((text) => text.split("\n"))
          .filter((line) => line.startsWith("data: "))
          .map((line) => JSON.parse(line.slice("data: ".length)) as { method?: string; params?: { message?: string } })
          .filter((message) => message.method === "notifications/progress");
      await until(() => notified().length > 0, { what: "the paid chat's progress notifications on the wire" });
      expect(notified()[0]!.params!.message).toMatch(/^paid/);
      // What the client did hear is what was sent, in order.
      expect(progress.map((p) => p.message)).toEqual(notified().slice(0, progress.length).map((n) => n.params!.message));

      const final = await finalOf(client, aliceAnswer);
      expect(final.status).toBe("completed");
      const result = final.result as { text: string; conversationId: string; references: unknown[] };
      expect(result.references.length).toBeGreaterThan(0);
      conversationId = result.conversationId;
      if (!structured(aliceAnswer).next) expect(textOf(aliceAnswer)).toContain(result.text);
    });

    it("answers the same payment sent again with the same answer, charged once", LONG_TEST, async () => {
      const { client } = await connect();
      const before = await usdcBalance(payTo);
      const again = await pay(client, "chat", { message: "Does rapamycin extend lifespan in mice?" }, alicePayment);
      expect(structured(again).requestId).toBe(structured(aliceAnswer).requestId);
      expect(settlementOf(again)).toEqual(settlementOf(aliceAnswer));
      expect((await finalOf(client, again)).result).toEqual((await finalOf(client, aliceAnswer)).result);
      expect(await usdcBalance(payTo)).toBe(before);
      expect(await paymentRows(alice.address, nonceOf(alicePayment))).toHaveLength(1);
    });

    it("answers the same payment sent twice at once with one answer, charged once", LONG_TEST, async () => {
      const { client } = await connect();
      const args = { message: "Does metformin slow aging in humans?" };
      const payment = await sign(replayer.privateKey, structured(await call(client, "chat", args)) as unknown as PaymentRequired);
      const before = await usdcBalance(payTo);
      const [first, second] = await Promise.all([pay(client, "chat", args, payment), pay(client, "chat", args, payment)]);
      expect(first!.isError).toBeFalsy();
      expect(structured(second!).requestId).toBe(structured(first!).requestId);
      expect(settlementOf(second!)).toEqual(settlementOf(first!));
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
      expect(await paymentRows(replayer.address, nonceOf(payment))).toEqual([{ status: "settled", operation: "chat", tx_hash: settlementOf(first!)!.transaction }]);
    });

    it("says before signing why a body would be refused, and refuses it after with charged: false; the same payment then pays the corrected call", LONG_TEST, async () => {
      const { client } = await connect({ address: "192.0.2.10" });
      const wrong = { message: "Does rapamycin extend lifespan in mice?", model: "gpt-5" };
      const unpaid = await call(client, "chat", wrong);
      expect(unpaid.isError).toBe(true);
      expect(unpaid.structuredContent).toEqual(await http402("/api/chat", wrong));
      expect(structured(unpaid).error).toMatch(/would then be refused \(400 invalid_body, nothing charged\).*model: unknown field/);
      const payment = await sign(replayer.privateKey, structured(unpaid) as unknown as PaymentRequired);
      const before = await usdcBalance(payTo);
      const refused = await pay(client, "chat", wrong, payment);
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ httpStatus: 400, reason: "invalid_body", charged: false });
      expect(textOf(refused)).toContain("Nothing was charged");
      expect(settlementOf(refused)).toBeUndefined();
      expect(await usdcBalance(payTo)).toBe(before);
      const corrected = await pay(client, "chat", { message: wrong.message }, payment);
      expect(settlementOf(corrected)?.success).toBe(true);
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
    });

    it("reads a chat by the free chat_status as the HTTP route does, and an unknown id as its 404", async () => {
      const { client } = await connect();
      const requestId = String(structured(aliceAnswer).requestId);
      const viaMcp = await call(client, "chat_status", { requestId });
      const viaHttp = await (await gatewayFetch(new Request(`${PUBLIC_URL}/api/chat/status/${requestId}`))).json();
      expect(viaMcp.structuredContent).toEqual(viaHttp);
      const unknown = await call(client, "chat_status", { requestId: "00000000-0000-4000-8000-000000000000" });
      expect(unknown.isError).toBe(true);
      expect(unknown.structuredContent).toMatchObject({ httpStatus: 404 });
      const bad = await call(client, "chat_status", {});
      expect(bad).toMatchObject({ isError: true, structuredContent: { reason: "invalid_arguments" } });
    });

    describe("attacks", () => {
      it("cannot continue another payer's conversation: 404 as over HTTP, charged: false, nothing reaches the agent", LONG_TEST, async () => {
        const { client } = await connect({ address: "192.0.2.11" });
        const args = { message: "What did they ask before?", conversationId };
        const payment = await sign(mallory.privateKey, structured(await call(client, "chat", args)) as unknown as PaymentRequired);
        const before = await usdcBalance(payTo);
        const jobsBefore = await chatJobs();
        const result = await pay(client, "chat", args, payment);
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({ httpStatus: 404, reason: "not_found", charged: false });
        expect(settlementOf(result)).toBeUndefined();
        expect(await usdcBalance(payTo)).toBe(before);
        expect(await chatJobs()).toBe(jobsBefore);
        expect(await paymentRows(mallory.address, nonceOf(payment))).toEqual([{ status: "voided", operation: "chat", tx_hash: null }]);
      });

      it("cannot use a payment already spent on one chat for other arguments: 402 payment_already_used, uncharged, no new job", async () => {
        const { client } = await connect({ address: "192.0.2.12" });
        const before = await usdcBalance(payTo);
        const jobsBefore = await chatJobs();
        const result = await pay(client, "chat", { message: "Something else entirely, on the same payment" }, alicePayment);
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toMatchObject({ x402Version: 2, reason: "payment_already_used", accepts: [{ amount: "20000" }] });
        expect(await usdcBalance(payTo)).toBe(before);
        expect(await chatJobs()).toBe(jobsBefore);
      });

      it("cannot pay literature_search or deep_research_start with a payment signed for chat: 402, uncharged, nothing recorded", async () => {
        const { client } = await connect({ address: "192.0.2.13" });
        const payment = await sign(attacker.privateKey, structured(await call(client, "chat", { message: "q" })) as unknown as PaymentRequired);
        const before = await usdcBalance(payTo);
        const literature = await pay(client, "literature_search", { question: "rapamycin lifespan mice" }, payment);
        expect(literature).toMatchObject({ isError: true, structuredContent: { reason: "amount_mismatch", accepts: [{ amount: "30000" }] } });
        const research = await pay(client, "deep_research_start", { message: "rapamycin" }, payment);
        expect(research).toMatchObject({ isError: true, structuredContent: { reason: "amount_mismatch", accepts: [{ amount: "1000000" }] } });
        expect(await usdcBalance(payTo)).toBe(before);
        expect(await paymentRows(attacker.address, nonceOf(payment))).toEqual([]);
      });

      it("refuses an expired or underpaying authorization before any work, in either binding: uncharged", async () => {
        const { client } = await connect({ address: "192.0.2.14" });
        const required = structured(await call(client, "chat", { message: "q" })) as unknown as PaymentRequired;
        const requirements = required.accepts[0]!;
        const now = Math.floor(Date.now() / 1000);
        const expired = await signPayment({ privateKey: attacker.privateKey, requirements, overrides: { validAfter: now - 600, validBefore: now - 1 } });
        const cheap = await signPayment({ privateKey: attacker.privateKey, requirements, overrides: { value: "19999" } });
        const before = await usdcBalance(payTo);
        const jobsBefore = await chatJobs();
        const late = await pay(client, "chat", { message: "q" }, expired.payload);
        expect(late).toMatchObject({ isError: true, structuredContent: { reason: "authorization_expired", accepts: [{ amount: "20000" }] } });
        const under = await pay(client, "chat", { message: "q" }, cheap.payload, PER_REQUEST_EXTENSION);
        expect(under).toMatchObject({ resultType: "payment_required", paymentRequired: { reason: "amount_mismatch", accepts: [{ amount: "20000" }] } });
        expect(under.isError).toBeUndefined();
        expect(await usdcBalance(payTo)).toBe(before);
        expect(await chatJobs()).toBe(jobsBefore);
      });

      it("answers a settlement the chain cannot take now as a tool error naming Retry-After, nothing charged; the same payment sent again is charged once", LONG_TEST, async () => {
        const { client } = await connect({ address: "192.0.2.15" });
        const args = { message: "Does rapamycin extend lifespan in mice?" };
        const payment = await sign(replayer.privateKey, structured(await call(client, "chat", args)) as unknown as PaymentRequired);
        const before = await usdcBalance(payTo);
        const restoreChain = await configureGateway({ ...gatewayEnv(), RPC_URL: await closedUrl() });
        let unavailable: CallToolResult;
        try {
          unavailable = await pay(client, "chat", args, payment);
        } finally {
          await restoreChain();
        }
        expect(unavailable).toMatchObject({ isError: true, structuredContent: { httpStatus: 503, reason: "settlement_unavailable", retryAfterSeconds: expect.any(Number) } });
        expect(textOf(unavailable)).toMatch(/Try again in \d+ seconds; a call that carried a payment sends the same one again/);
        expect(settlementOf(unavailable)).toBeUndefined();
        expect(await usdcBalance(payTo)).toBe(before);
        const again = await pay(client, "chat", args, payment);
        expect(settlementOf(again)?.success).toBe(true);
        expect((await usdcBalance(payTo)) - before).toBe(20_000n);
        expect(await paymentRows(replayer.address, nonceOf(payment))).toEqual([{ status: "settled", operation: "chat", tx_hash: settlementOf(again)!.transaction }]);
      });

      it("carries the client's address to the paid route: its invalid attempts are limited (429) as over HTTP, another address's are not", async () => {
        const { client } = await connect({ address: "198.51.100.7" });
        for (let i = 0; i < 3; i++) {
          expect(await pay(client, "chat", { message: "q" }, "garbage")).toMatchObject({ isError: true, structuredContent: { reason: "invalid_payment_header" } });
        }
        const limited = await pay(client, "chat", { message: "q" }, "garbage");
        expect(limited).toMatchObject({ isError: true, structuredContent: { httpStatus: 429, reason: "too_many_invalid_payments", retryAfterSeconds: expect.any(Number) } });
        expect(textOf(limited)).toMatch(/Wait \d+ seconds/);
        const { client: other } = await connect({ address: "198.51.100.8" });
        expect(await pay(other, "chat", { message: "q" }, "garbage")).toMatchObject({ isError: true, structuredContent: { reason: "invalid_payment_header" } });
      });

      it("one batch of many paid tool calls, each a payment that cannot pay, starts at most INVALID_PAYMENT_LIMIT (3) jobs: every call reserves its attempt before any work", LONG_TEST, async () => {
        const args = { message: "Does rapamycin extend lifespan in mice?" };
        const required = await http402("/api/chat", args);
        // Ten signatures from ten wallets holding nothing: each passes every local check.
        const payments = await Promise.all(Array.from({ length: 10 }, () => sign(generatePrivateKey(), required)));
        const batch = payments.map((payment, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "chat", arguments: args, _meta: { "x402/payment": payment } } }));
        const before = await chatJobs();
        const response = await gatewayFetch(
          new Request(MCP_URL, {
            method: "POST",
            headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": LATEST_PROTOCOL_VERSION, "x-forwarded-for": "198.51.100.9" },
            body: JSON.stringify(batch),
          }),
        );
        expect(response.status).toBe(200);
        // One JSON-RPC answer per call, as JSON or as the events of a stream.
        const text = await response.text();
        const messages = (response.headers.get("content-type")?.includes("text/event-stream")
          ? text.split("\n").filter((line) => line.startsWith("data:")).map((line) => JSON.parse(line.slice(5)) as unknown)
          : [JSON.parse(text) as unknown].flat()) as { result?: CallToolResult }[];
        const reasons = messages.map((m) => String((m.result?.structuredContent as Json | undefined)?.reason));
        expect(reasons).toHaveLength(10);
        expect(reasons.filter((r) => r === "insufficient_funds").length).toBeLessThanOrEqual(3);
        expect((await chatJobs()) - before).toBe(reasons.filter((r) => r === "insufficient_funds" || r === "settlement_unavailable").length);
        expect(reasons.filter((r) => r === "too_many_payments_in_flight" || r === "too_many_invalid_payments").length).toBeGreaterThanOrEqual(7);
      });
    });
  });

  /**
   * The x402 MCP transport: "if settlement fails after the tool has already executed, the server
   * should not return the tool's content - only the payment error". Here the agent has the answer
   * before the settlement is tried (chat: its status says completed; literature: it answers 200
   * with the result at once), and the payer's wallet is emptied as the agent takes the work.
   */
  describe("a settlement that fails after the tool ran", () => {
    let double: HttpDouble;
    let restoreAgent: () => Promise<void>;
    let drainKey: `0x${string}` | undefined;
    const marker = `MARKER-${randomUUID()}`;
    const answered = new Set<string>();

    beforeAll(async () => {
      double = await startHttpDouble(async (req) => {
        const drain = async () => {
          const key = drainKey;
          drainKey = undefined;
          if (key) await drainWallet(key);
        };
        if (req.method === "POST" && req.path === "/api/chat") {
          await drain();
          const requestId = randomUUID();
          answered.add(requestId);
          return { status: 202, body: { requestId, status: "queued" } };
        }
        const chatStatus = /^\/api\/chat\/status\/([^/]+)$/.exec(req.path);
        if (req.method === "GET" && chatStatus && answered.has(chatStatus[1]!)) {
          return { status: 200, body: { status: "completed", result: buildQueuedChatResult({ reply: marker, answer: marker, text: marker }) } };
        }
        if (req.method === "POST" && req.path === "/api/literature") {
          await drain();
          return { status: 200, body: buildLiteratureJobResult({ jobId: randomUUID(), answer: marker, formattedAnswer: marker }) };
        }
        if (req.method === "POST" && req.path.includes("/cancel")) return { status: 204 };
        return { status: 404, body: { error: "unknown" } };
      });
      restoreAgent = await configureGateway({ ...gatewayEnv(), UPSTREAM_API_URL: double.url });
    });
    afterAll(async () => {
      await restoreAgent?.();
      await double?.close();
    });

    const chat = { tool: "chat", args: { message: "Does rapamycin extend lifespan in mice?" }, path: "/api/chat" } as const;
    const literature = { tool: "literature_search", args: { question: "rapamycin lifespan mice" }, path: "/api/literature" } as const;
    it.each([
      { ...chat, binding: "tool-result" },
      { ...chat, binding: "extension" },
      { ...literature, binding: "tool-result" },
      { ...literature, binding: "extension" },
    ] as const)("$tool, $binding binding: only the payment error, none of the tool's output, nothing charged, the work cancelled", LONG_TEST, async ({ tool, args, path, binding }) => {
      const { client } = await connect();
      const meta = binding === "extension" ? PER_REQUEST_EXTENSION : {};
      const payer = await fundedWallet(1_000_000n);
      const payment = await sign(payer.privateKey, await http402(path, args));
      const before = await usdcBalance(payTo);
      const cancelsBefore = double.requests.filter((r) => r.path.includes("/cancel")).length;
      drainKey = payer.privateKey;
      const result = await pay(client, tool, args, payment, meta);

      expect(JSON.stringify(result)).not.toContain(marker);
      expect(settlementOf(result)).toBeUndefined();
      const required = (binding === "extension" ? result.paymentRequired : result.structuredContent) as PaymentRequired & { reason?: string };
      if (binding === "extension") expect(result.resultType).toBe("payment_required");
      else expect(result.isError).toBe(true);
      expect(required).toMatchObject({ x402Version: 2, reason: "insufficient_funds", accepts: [expect.objectContaining({ payTo })] });
      expect(await usdcBalance(payTo)).toBe(before);
      expect(double.requests.filter((r) => r.path.includes("/cancel")).length - cancelsBefore).toBe(1);
      expect(await paymentRows(payer.address, nonceOf(payment))).toEqual([expect.objectContaining({ status: "failed", tx_hash: null })]);
    });
  });

  describe("the org.x402/payment extension binding", () => {
    it("advertised per request: payment_required with the route's PaymentRequired; paid: a complete literature result with its settlement", LONG_TEST, async () => {
      const { client } = await connect();
      const args = { question: "rapamycin lifespan mice" };
      const unpaid = await call(client, "literature_search", args, PER_REQUEST_EXTENSION);
      expect(unpaid.resultType).toBe("payment_required");
      expect(unpaid.isError).toBeUndefined();
      expect(unpaid.paymentRequired).toEqual(await http402("/api/literature", args));
      const payment = await sign(alice.privateKey, unpaid.paymentRequired as PaymentRequired);
      const before = await usdcBalance(payTo);
      const paid = await pay(client, "literature_search", args, payment, PER_REQUEST_EXTENSION);
      expect(paid.resultType).toBe("complete");
      expect(settlementOf(paid)).toEqual({ success: true, transaction: expect.stringMatching(/^0x/), network: chain().network, payer: alice.address, extensions: SIGNED_RECEIPT });
      expect((await usdcBalance(payTo)) - before).toBe(30_000n);
      expect(await paymentRows(alice.address, nonceOf(payment))).toEqual([{ status: "settled", operation: "literature", tx_hash: settlementOf(paid)!.transaction }]);
      expect((await finalOf(client, paid)).status).toBe("completed");
    });

    it("advertised at initialize: remembered by the session id, stateless; deep research is paid when delivered, its settlement in the status tool's _meta", LONG_TEST, async () => {
      const { client, transport } = await connect({ extensionAtInitialize: true });
      expect(transport.sessionId).toMatch(/^x402-payment\./);
      // Another client holding that session id, which never initialized: nothing was kept server-side.
      const resumed = new Client({ name: "mcp-remote-test", version: "1.0.0" });
      await resumed.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { sessionId: transport.sessionId!, fetch: (url, init) => gatewayFetch(new Request(url, init)) }));
      clients.push(resumed);
      const args = { message: "Does rapamycin extend lifespan in mice?" };
      for (const c of [client, resumed]) expect((await call(c, "deep_research_start", args)).resultType).toBe("payment_required");
      const { client: plain } = await connect();
      expect((await call(plain, "deep_research_start", args)).isError).toBe(true);

      const required = (await call(client, "deep_research_start", args)).paymentRequired as PaymentRequired;
      const payment = await sign(researcher.privateKey, required);
      const before = await usdcBalance(payTo);
      const started = await pay(client, "deep_research_start", args, payment);
      expect(started.resultType).toBe("complete");
      const accepted = structured(started);
      expect(accepted).toMatchObject({ status: "queued", next: { tool: "deep_research_status", arguments: { conversationId: accepted.conversationId } } });
      expect(settlementOf(started)).toBeUndefined();
      expect(textOf(started)).toContain("deep_research_status");
      expect(await usdcBalance(payTo)).toBe(before);

      let status: CallToolResult | undefined;
      await until(
        async () => {
          status = await call(client, "deep_research_status", { conversationId: String(accepted.conversationId) });
          return settlementOf(status) !== undefined || ["failed", "cancelled", "timeout"].includes(String(structured(status).status));
        },
        { what: "the deep-research turn to be delivered and settled", timeoutMs: 240_000, everyMs: 250 },
      );
      const settlement = settlementOf(status!)!;
      expect(settlement).toEqual({ success: true, transaction: expect.stringMatching(/^0x/), network: chain().network, payer: researcher.address, extensions: SIGNED_RECEIPT });
      const turns = structured(status!).turns as { settlement?: Omit<Settlement, "success"> }[];
      const receipt = (settlement.extensions as { "offer-receipt": { info: { receipt: unknown } } })["offer-receipt"].info.receipt;
      expect(turns.at(-1)?.settlement).toEqual({ transaction: settlement.transaction, network: settlement.network, payer: settlement.payer, receipt });
      expect((await usdcBalance(payTo)) - before).toBe(1_000_000n);
      expect(await paymentRows(researcher.address, nonceOf(payment))).toEqual([{ status: "settled", operation: "deepResearch", tx_hash: settlement.transaction }]);
    });
  });

  it("needs no state in the gateway process: initialized on one process, paid on two at once, charged once", { timeout: 300_000 }, async () => {
    const processes = await Promise.all([startGatewayProcess(gatewayEnv()), startGatewayProcess(gatewayEnv())]);
    try {
      const to = (gateway: GatewayProcess) => (url: string | URL, init?: RequestInit) => fetch(new URL(new URL(url).pathname, gateway.url), init);
      const first = new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch: to(processes[0]!) });
      const one = new Client({ name: "mcp-remote-test", version: "1.0.0" }, { capabilities: { extensions: { [EXTENSION]: {} } } });
      await one.connect(first);
      // The other process never saw that initialize: the session id alone says the client takes the extension.
      const two = new Client({ name: "mcp-remote-test", version: "1.0.0" });
      await two.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { sessionId: first.sessionId!, fetch: to(processes[1]!) }));
      clients.push(one, two);
      const args = { message: "Does rapamycin extend lifespan in mice?" };
      const unpaid = await call(two, "chat", args);
      expect(unpaid.resultType).toBe("payment_required");
      const payment = await sign(replayer.privateKey, unpaid.paymentRequired as PaymentRequired);
      const before = await usdcBalance(payTo);
      const [viaOne, viaTwo] = await Promise.all([pay(one, "chat", args, payment), pay(two, "chat", args, payment)]);
      expect(viaOne!.resultType).toBe("complete");
      expect(structured(viaTwo!).requestId).toBe(structured(viaOne!).requestId);
      expect(settlementOf(viaTwo!)).toEqual(settlementOf(viaOne!));
      expect((await usdcBalance(payTo)) - before).toBe(20_000n);
      expect(await paymentRows(replayer.address, nonceOf(payment))).toEqual([{ status: "settled", operation: "chat", tx_hash: settlementOf(viaOne!)!.transaction }]);
    } finally {
      await Promise.all(processes.map((p) => p.kill()));
    }
  });

  it("returns the 202, its settlement and the status tool to call when the work is not final within the tool's wait", LONG_TEST, async () => {
    const tools = MCP_TOOLS.map((t) => (t.name === "chat" ? { ...t, waitSeconds: 0 } : t));
    const { client } = await connect({ handle: (request) => handleMcpRequest({ request, routes: GATEWAY_ROUTES, tools }) });
    const args = { message: "Does caloric restriction extend lifespan in primates?" };
    const payment = await sign(replayer.privateKey, structured(await call(client, "chat", args)) as unknown as PaymentRequired);
    const result = await pay(client, "chat", args, payment);
    const accepted = structured(result);
    expect(accepted).toMatchObject({ requestId: expect.any(String), status: "queued", next: { tool: "chat_status", arguments: { requestId: accepted.requestId } } });
    expect(settlementOf(result)?.success).toBe(true);
    expect(textOf(result)).toContain(`Call chat_status with {"requestId":"${String(accepted.requestId)}"}`);
    expect((await finalOf(client, result)).status).toBe("completed");
  });
});
