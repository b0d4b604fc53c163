import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { eip3009ABI } from "@x402/evm";
import { createEIP712OfferReceiptIssuer, extractOffersFromPaymentRequired, extractReceiptFromResponse, type EIP712SignedOffer } from "@x402/extensions/offer-receipt";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatJobStatusSchema } from "@/lib/shared/contracts";
import { EXPIRY_MARGIN_SECONDS } from "@/lib/client/mcp-local/spend-ledger";
import { fetchPublishedSigners, verifyReceipt } from "@/lib/client/offer-receipt/verify";
import { getPaidOperation } from "@/lib/shared/operations";
import { createPayingFetch } from "@/lib/client/payments/client";
import { transferCallData } from "@/lib/gateway/payments/settlement/transfer";
import { startLibraryAgent, TEST_SERVICE_KEY } from "../support/agent";
import { startGatewayProcess, type GatewayProcess } from "../support/gateway-processes";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { authorizationUsed, chain, chainClients, freshAddress, usdcBalance, wallet } from "../support/payments";
import { freePort } from "../support/postgres";
import { until } from "../support/until";
import { startLocalChain } from "../../scripts/lib/local-chain";

/**
 * Issue 16, the local MCP server: the real server process (bin/longevity-mcp.mjs, on stdio),
 * driven by the MCP SDK's client, paying a real gateway process on the local chain with the
 * user's key. It pays what a tool costs and no more, keeps its caps per call and per 24 hours
 * across calls made at once, across restarts and across the servers of several assistants, and
 * signs nothing a server asks for another network, token, payee or price.
 */

const root = path.resolve(import.meta.dirname, "../..");
const PAYMENT_RESPONSE = "x402/payment-response";

type Mcp = { client: Client; stderr: () => string; close: () => Promise<void> };

const openClients: Mcp[] = [];
const stateDirs: string[] = [];

/** A fresh state directory (ledger and remembered services), removed after the file. */
function newStateDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-mcp-local-"));
  stateDirs.push(dir);
  return dir;
}

/** Starts the local MCP server as an MCP client would (the package's bin, over stdio) and connects the SDK's client. */
async function startMcp(env: Record<string, string>): Promise<Mcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, "bin/longevity-mcp.mjs")],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: "mcp-local-test", version: "1.0.0" });
  await client.connect(transport);
  const mcp = { client, stderr: () => stderr, close: () => client.close() };
  openClients.push(mcp);
  return mcp;
}

async function call(mcp: Mcp, name: string, args: Record<string, unknown>, onProgress?: (p: Progress) => void): Promise<CallToolResult> {
  // The request timeout is only a hang guard: the chat tool itself waits at most its 55 s.
  return (await mcp.client.callTool({ name, arguments: args }, undefined, {
    timeout: 300_000,
    ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
  })) as CallToolResult;
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const ledgerOf = (stateDir: string) => {
  const file = path.join(stateDir, "spend-ledger.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { entries: { id: string; state: string; amount: string; transaction?: string; tool: string }[] }).entries : [];
};

type Kept = { verdict: string; problem?: string; signer?: string; resourceUrl: string; network: string; payer: string; transaction: string; spendEntryId?: string; receipt: unknown };
const receiptsOf = (stateDir: string): Kept[] => {
  const file = path.join(stateDir, "receipts.json");
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { receipts: Kept[] }).receipts : [];
};
const signersOf = (baseUrl: string) => fetchPublishedSigners(baseUrl);

/** `npm run ask` as a person runs it, against `gateway`; its exit code and what it printed. */
async function ask(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/ask.ts"), ...args], {
    cwd: root,
    // No demo stack (an empty DEMO_DIR): the gateway and the key are the ones given.
    env: { ...process.env, DEMO_DIR: newStateDir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

afterEach(async () => {
  await Promise.all(openClients.splice(0).map((m) => m.close()));
});
afterAll(() => {
  for (const dir of stateDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the local MCP server against a real gateway", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;
  let gateway: GatewayProcess;
  const payTo = freshAddress();

  beforeAll(async () => {
    agent = await startLibraryAgent({ DEEP_RESEARCH_ITERATIONS: "1" });
    gateway = await startGatewayProcess({
      POSTGRES_URL: agent.database.url,
      UPSTREAM_API_URL: agent.url,
      AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
      PUBLIC_URL: "https://gateway.test",
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
    });
  });
  afterAll(async () => {
    await gateway?.kill();
    await agent?.stop();
  });

  const serverEnv = (payer: { privateKey: string }, stateDir: string, extra: Record<string, string> = {}) => ({
    LONGEVITY_MCP_URL: gateway.url,
    LONGEVITY_MCP_PRIVATE_KEY: payer.privateKey,
    LONGEVITY_MCP_STATE_DIR: stateDir,
    ...extra,
  });
  const paymentsOf = async (payer: string) =>
    (await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM gateway.payments WHERE lower(payer) = lower($1)", [payer])).rows[0]!.n;

  /**
   * A chat's final result: the tool's own when the answer came within its wait (55 s), else
   * chat_status's (a busy machine may take longer; the payment is the same).
   */
  async function finalChat(mcp: Mcp, result: CallToolResult): Promise<CallToolResult> {
    let last = result;
    const requestId = result.structuredContent?.requestId;
    await until(
      async () => {
        if (last.structuredContent?.status === "completed" || last.structuredContent?.status === "failed") return true;
        last = await call(mcp, "chat_status", { requestId });
        return false;
      },
      { what: "the chat answer", everyMs: 250 },
    );
    return last;
  }

  it("lists every tool of the catalog with the route's argument schema", async () => {
    const mcp = await startMcp(serverEnv(wallet(16), newStateDir()));
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["chat", "chat_status", "deep_research_start", "deep_research_status", "literature_search", "literature_status"]);
    const chat = tools.find((t) => t.name === "chat")!;
    expect(Object.keys(chat.inputSchema.properties ?? {}).sort()).toEqual(["conversationId", "fast", "message"]);
    expect(chat.inputSchema).toMatchObject({ additionalProperties: false, required: ["message"] });
    // An unknown field is refused by name before anything is paid.
    const refused = await call(mcp, "chat", { message: "q", model: "x" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/model: unknown field/);
  });

  it("chat pays $0.02 exactly, follows the work with progress, and answers with numbered references and the settlement", async () => {
    const payer = wallet(16);
    const stateDir = newStateDir();
    const mcp = await startMcp(serverEnv(payer, stateDir));
    const [payerBefore, payeeBefore] = [await usdcBalance(payer.address), await usdcBalance(payTo)];
    const progress: Progress[] = [];
    const result = await call(mcp, "chat", { message: "Does rapamycin extend lifespan in mice?" }, (p) => progress.push(p));
    expect(result.isError, textOf(result)).toBeFalsy();

    expect(payerBefore - (await usdcBalance(payer.address))).toBe(20_000n);
    expect((await usdcBalance(payTo)) - payeeBefore).toBe(20_000n);
    const settlement = result._meta?.[PAYMENT_RESPONSE] as { success: boolean; transaction: string; network: string; payer: string };
    expect(settlement).toMatchObject({ success: true, network: chain().network, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(settlement.payer.toLowerCase()).toBe(payer.address.toLowerCase());
    expect(textOf(result)).toContain(`Paid $0.02 from ${settlement.payer} on ${chain().network}: transaction ${settlement.transaction}.`);
    // The chat's 202 is never final, so its status was polled at least once, each poll reported as
    // progress. Not asserted to have arrived: the SDK's client handles a notification a microtask
    // after reading it and forgets the request's progress handler as soon as the result is read,
    // so a last notification that reaches it in the same chunk as the result is dropped (a loaded
    // CI run saw none when the first poll was already final). What arrives is in order.
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));

    const final = await finalChat(mcp, result);
    const status = chatJobStatusSchema.parse(final.structuredContent);
    expect(status.status).toBe("completed");
    expect(status.result!.answer).toMatch(/\[1\]/);
    expect(textOf(final)).toContain(status.result!.answer);
    expect(textOf(final)).toContain(`References:\n[1] ${status.result!.references[0]!.title}`);
    expect(textOf(final)).toContain(`conversationId: ${status.result!.conversationId}`);
    expect(ledgerOf(stateDir)).toEqual([expect.objectContaining({ tool: "chat", amount: "20000", state: "charged", transaction: settlement.transaction })]);
    // Its signed receipt, verified against the key the service publishes, kept beside the ledger.
    const [kept, ...more] = receiptsOf(stateDir);
    expect(more).toEqual([]);
    expect(kept).toMatchObject({ verdict: "valid", resourceUrl: "https://gateway.test/api/chat", transaction: settlement.transaction, spendEntryId: ledgerOf(stateDir)[0]!.id });
    expect(kept!.payer.toLowerCase()).toBe(payer.address.toLowerCase());
    expect(await verifyReceipt({ receipt: kept!.receipt, signers: await signersOf(gateway.url), expected: kept! })).toMatchObject({ ok: true });
    expect(textOf(result)).toContain(`Receipt: signed by the service's published key ${kept!.signer}; kept as proof of this payment in ${path.join(stateDir, "receipts.json")}.`);
  });

  it("refuses deep research above the per-call cap without signing: balance unchanged, nothing recorded by the gateway", async () => {
    const payer = wallet(17);
    const stateDir = newStateDir();
    const mcp = await startMcp(serverEnv(payer, stateDir, { LONGEVITY_MCP_MAX_PER_CALL: "0.50" }));
    const before = await usdcBalance(payer.address);
    const result = await call(mcp, "deep_research_start", { message: "Rapamycin and lifespan" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Refused before signing: the service's payment request asks $1.00, above the per-call cap of $0.50 (LONGEVITY_MCP_MAX_PER_CALL).");
    expect(await usdcBalance(payer.address)).toBe(before);
    expect(await paymentsOf(payer.address)).toBe(0);
    expect(ledgerOf(stateDir)).toEqual([]);
  });

  it("literature search pays $0.03 and answers with its references", async () => {
    const payer = wallet(16);
    const mcp = await startMcp(serverEnv(payer, newStateDir()));
    const before = await usdcBalance(payer.address);
    let result = await call(mcp, "literature_search", { question: "rapamycin lifespan mice" });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(before - (await usdcBalance(payer.address))).toBe(30_000n);
    expect(result._meta?.[PAYMENT_RESPONSE]).toMatchObject({ success: true, network: chain().network });
    const jobId = String(result.structuredContent?.jobId);
    await until(
      async () => {
        if (result.structuredContent?.status === "completed") return true;
        result = await call(mcp, "literature_status", { jobId });
        return false;
      },
      { what: "the literature search", everyMs: 250 },
    );
    expect((result.structuredContent?.references as unknown[]).length).toBeGreaterThan(0);
    expect(textOf(result)).toContain("rapamycin");
  });

  it("npm run ask verifies the receipt of what it bought and keeps it beside the MCP server's spend ledger", async () => {
    const payer = wallet(16);
    const stateDir = newStateDir();
    const { code, stderr } = await ask(["literature", "rapamycin lifespan mice"], { GATEWAY_URL: gateway.url, PAYER_PRIVATE_KEY: payer.privateKey, LONGEVITY_MCP_STATE_DIR: stateDir });
    expect(code, stderr).toBe(0);
    const [kept, ...more] = receiptsOf(stateDir);
    expect(more).toEqual([]);
    expect(kept).toMatchObject({ verdict: "valid", resourceUrl: "https://gateway.test/api/literature", network: chain().network });
    expect(kept!.payer.toLowerCase()).toBe(payer.address.toLowerCase());
    expect(stderr).toMatch(new RegExp(`Paid from 0x[0-9a-fA-F]{40}: transaction ${kept!.transaction}`));
    expect(stderr).toContain(`Receipt: signed by the service's published key ${kept!.signer}; kept as proof of this payment in ${path.join(stateDir, "receipts.json")}.`);
    expect(await verifyReceipt({ receipt: kept!.receipt, signers: await signersOf(gateway.url), expected: kept! })).toMatchObject({ ok: true });
  });

  it("npm run ask keeps a deep-research turn's receipt once the turn is delivered and paid", async () => {
    const payer = wallet(17);
    const stateDir = newStateDir();
    const { code, stderr } = await ask(["deep-research", "Does rapamycin extend lifespan in mice?"], { GATEWAY_URL: gateway.url, PAYER_PRIVATE_KEY: payer.privateKey, LONGEVITY_MCP_STATE_DIR: stateDir });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("settled when the result is delivered");
    const kept = receiptsOf(stateDir);
    expect(kept).toEqual([expect.objectContaining({ verdict: "valid", resourceUrl: "https://gateway.test/api/deep-research/start", network: chain().network })]);
    expect(stderr).toContain(`Paid on delivery from`);
    expect(stderr).toContain(`transaction ${kept[0]!.transaction}`);
    expect(stderr).toContain("Receipt: signed by the service's published key");
  }, 600_000);

  it("deep research is authorized at the start and charged $1.00 on delivery; the status tool shows the receipt and the ledger counts it", async () => {
    const payer = wallet(17);
    const stateDir = newStateDir();
    const mcp = await startMcp(serverEnv(payer, stateDir));
    const before = await usdcBalance(payer.address);
    const started = await call(mcp, "deep_research_start", { message: "Does rapamycin extend lifespan in mice?" });
    expect(started.isError, textOf(started)).toBeFalsy();
    expect(textOf(started)).toContain("$1.00 is authorized from");
    expect(ledgerOf(stateDir)).toEqual([expect.objectContaining({ tool: "deep_research_start", amount: "1000000", state: "authorized" })]);
    const conversationId = String(started.structuredContent?.conversationId);
    let status = started;
    let receipt: unknown;
    await until(
      async () => {
        status = await call(mcp, "deep_research_status", { conversationId });
        receipt ??= status._meta?.[PAYMENT_RESPONSE];
        return ["completed", "failed", "cancelled", "timeout"].includes(String(status.structuredContent?.status));
      },
      { what: "the deep research turn", timeoutMs: 600_000, everyMs: 250 },
    );
    expect(status.structuredContent?.status).toBe("completed");
    expect(before - (await usdcBalance(payer.address))).toBe(1_000_000n);
    expect(receipt).toMatchObject({ success: true, network: chain().network });
    const transaction = (receipt as { transaction: string }).transaction;
    expect(textOf(status)).toContain(`Paid on delivery: transaction ${transaction}`);
    expect(ledgerOf(stateDir)).toEqual([expect.objectContaining({ tool: "deep_research_start", state: "charged", transaction })]);
    // The turn's receipt, shown on every poll, kept once, verified for the start's resource.
    expect(receiptsOf(stateDir)).toEqual([expect.objectContaining({ verdict: "valid", resourceUrl: "https://gateway.test/api/deep-research/start", transaction })]);
    expect(textOf(status)).toContain("Receipt: signed by the service's published key");
  }, 900_000);

  it("keeps the day's spending across a restart of the server", async () => {
    const payer = wallet(18);
    const stateDir = newStateDir();
    const env = serverEnv(payer, stateDir, { LONGEVITY_MCP_MAX_PER_DAY: "0.03" });
    const first = await startMcp(env);
    const paid = await call(first, "chat", { message: "Does metformin slow aging in humans?" });
    expect(paid.isError, textOf(paid)).toBeFalsy();
    await first.close();

    const before = await usdcBalance(payer.address);
    const paymentsBefore = await paymentsOf(payer.address);
    const second = await startMcp(env);
    const refused = await call(second, "chat", { message: "And in mice?" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      "Refused before signing: chat asks $0.02, and $0.02 of the daily cap of $0.03 (LONGEVITY_MCP_MAX_PER_DAY) is already spent or committed in the last 24 hours, leaving $0.01.",
    );
    expect(await usdcBalance(payer.address)).toBe(before);
    expect(await paymentsOf(payer.address)).toBe(paymentsBefore);
  });

  it("a payment the route refuses after signing (a conversation the gateway does not know) still counts against the day cap: the service's word frees no signature", async () => {
    const payer = wallet(19);
    const stateDir = newStateDir();
    const mcp = await startMcp(serverEnv(payer, stateDir, { LONGEVITY_MCP_MAX_PER_DAY: "0.03" }));
    const before = await usdcBalance(payer.address);
    const refused = await call(mcp, "chat", { message: "And in humans?", conversationId: randomUUID() });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^The service answered 404 \(not_found: .*\)\. The service says nothing was charged, but the signed payment could still be settled until \S+Z, so it counts against the caps until the chain shows it expired unused\.$/,
    );
    expect(refused.structuredContent).toMatchObject({ charged: false });
    expect(await usdcBalance(payer.address)).toBe(before);
    expect(ledgerOf(stateDir)).toEqual([expect.objectContaining({ tool: "chat", amount: "20000", state: "refused" })]);
    // The gateway kept its word, but a service that did not could settle it for 5 minutes yet.
    const next = await call(mcp, "chat", { message: "Does rapamycin extend lifespan in mice?" });
    expect(textOf(next)).toMatch(/^Refused before signing: chat asks \$0\.02, and \$0\.02 of the daily cap of \$0\.03/);
    expect(await usdcBalance(payer.address)).toBe(before);
  });

  it("two chats asked at once cannot together pass the day cap: one is paid, the other refused before signing", async () => {
    const payer = wallet(19);
    const stateDir = newStateDir();
    const mcp = await startMcp(serverEnv(payer, stateDir, { LONGEVITY_MCP_MAX_PER_DAY: "0.03" }));
    const [before, paymentsBefore] = [await usdcBalance(payer.address), await paymentsOf(payer.address)];
    const results = await Promise.all([call(mcp, "chat", { message: "Does fasting extend lifespan?" }), call(mcp, "chat", { message: "Does exercise extend lifespan?" })]);
    const refused = results.filter((r) => r.isError);
    expect(refused.map(textOf)).toEqual([expect.stringMatching(/^Refused before signing: chat asks \$0\.02, and \$0\.02 of the daily cap of \$0\.03/)]);
    expect(before - (await usdcBalance(payer.address))).toBe(20_000n);
    expect((await paymentsOf(payer.address)) - paymentsBefore).toBe(1);
    expect(ledgerOf(stateDir).map((e) => e.state)).toEqual(["charged"]);
  });

  it("two servers sharing one state directory (one user's two assistants) hold the same day cap", async () => {
    const payer = wallet(28);
    const stateDir = newStateDir();
    const env = serverEnv(payer, stateDir, { LONGEVITY_MCP_MAX_PER_DAY: "0.03" });
    const [a, b] = await Promise.all([startMcp(env), startMcp(env)]);
    const before = await usdcBalance(payer.address);
    const results = await Promise.all([call(a, "chat", { message: "Does taurine extend lifespan?" }), call(b, "chat", { message: "Does spermidine extend lifespan?" })]);
    expect(results.filter((r) => r.isError).map(textOf)).toEqual([expect.stringMatching(/daily cap of \$0\.03/)]);
    expect(before - (await usdcBalance(payer.address))).toBe(20_000n);
    expect(ledgerOf(stateDir)).toHaveLength(1);
  });

  describe("a malicious or compromised server", () => {
    let double: HttpDouble;
    let manifest: Record<string, unknown>;
    let genuine: PaymentRequired;
    /** The same 402's body (the CLI reads the price from it). */
    let genuineBody: PaymentRequired;
    /** What the double answers to an unpaid chat; set per test. */
    let offer: PaymentRequired;
    /** What it serves as its discovery manifest; the genuine one unless a test changes it. */
    let served: Record<string, unknown>;
    /**
     * Whether it keeps what is signed: it answers every signed call 400 `charged: false`, as an
     * honest refusal would, and holds on to the signature to settle it later (issue 24, item 8).
     * Otherwise a signed call reaching it is a failure of the server under test.
     */
    let keeps = false;
    /**
     * When set, it answers a signed chat 202, settled by its word, with this receipt in its
     * PAYMENT-RESPONSE for an invented transaction (`transaction`).
     */
    let receiptFor: ((payer: string, transaction: string) => Promise<unknown>) | null = null;
    /** A genuine receipt of the real gateway, of another payment. */
    let genuineReceipt: unknown;
    const payer = wallet(29);

    beforeAll(async () => {
      manifest = (await (await fetch(`${gateway.url}/.well-known/x402.json`)).json()) as Record<string, unknown>;
      const unpaid = await fetch(`${gateway.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "q" }) });
      genuine = decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!);
      genuineBody = (await unpaid.json()) as PaymentRequired;
      const { fetch: paying } = createPayingFetch({ privateKey: wallet(28).privateKey, network: chain().network, asset: chain().asset });
      genuineReceipt = extractReceiptFromResponse(await paying(`${gateway.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "q" }) }));
      expect(genuineReceipt).toBeDefined();
      double = await startHttpDouble(async (req): Promise<{ status: number; body?: unknown; headers?: Record<string, string> }> => {
        if (req.method === "GET" && req.path === "/.well-known/x402.json") return { status: 200, body: served };
        if (req.method === "POST" && req.path === "/api/chat" && receiptFor && req.headers["payment-signature"]) {
          const { authorization } = decodePaymentSignatureHeader(String(req.headers["payment-signature"])).payload as { authorization: { from: string } };
          const transaction = `0x${randomUUID().replace(/-/g, "").repeat(2)}`;
          const receipt = await receiptFor(authorization.from, transaction);
          const settled = encodePaymentResponseHeader({ success: true, transaction, network: chain().network as `${string}:${string}`, payer: authorization.from, extensions: { "offer-receipt": { info: { receipt } } } });
          return { status: 202, body: { requestId: randomUUID(), status: "queued" }, headers: { "payment-response": settled } };
        }
        if (req.method === "POST" && req.path === "/api/chat" && keeps && req.headers["payment-signature"]) {
          return { status: 400, body: { error: "The request was refused", reason: "invalid_request", charged: false } };
        }
        if (req.method === "POST" && req.path === "/api/chat") return { status: 402, body: offer, headers: { "payment-required": encodePaymentRequiredHeader(offer) } };
        return { status: 404, body: { error: "unknown" } };
      });
    });
    afterAll(async () => {
      await double?.close();
    });
    afterEach(() => {
      keeps = false;
      receiptFor = null;
      double.requests.splice(0);
    });

    const withAccept = (overrides: Partial<PaymentRequired["accepts"][number]>): PaymentRequired => ({ ...genuine, accepts: [{ ...genuine.accepts[0]!, ...overrides }] });
    const signedRequests = () => double.requests.filter((r) => r.headers["payment-signature"] !== undefined || r.headers["x-payment"] !== undefined);
    /** The authorizations the double kept, as signed. */
    const kept = () => signedRequests().map((r) => decodePaymentSignatureHeader(String(r.headers["payment-signature"])));
    /** Settles a kept authorization on the local chain, as the service would whenever it liked (any account may send it). */
    async function settle(payload: PaymentPayload): Promise<void> {
      const { publicClient, walletFor } = chainClients();
      const hash = await walletFor(wallet(27).privateKey).sendTransaction({ to: chain().asset as Hex, data: transferCallData(payload) });
      expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    }
    const maliciousEnv = (stateDir: string, extra: Record<string, string> = {}) => ({
      LONGEVITY_MCP_URL: double.url,
      LONGEVITY_MCP_PRIVATE_KEY: payer.privateKey,
      LONGEVITY_MCP_STATE_DIR: stateDir,
      LONGEVITY_MCP_RPC_URL: chain().rpcUrl,
      ...extra,
    });

    it("a service that answers every payment \"400 charged: false\", keeps the signatures and settles them later gets no more than the daily cap, each signed for 5 minutes at most", async () => {
      served = manifest;
      offer = genuine;
      keeps = true;
      const stateDir = newStateDir();
      const mcp = await startMcp(maliciousEnv(stateDir, { LONGEVITY_MCP_MAX_PER_DAY: "0.05" }));
      const before = await usdcBalance(payer.address);
      const texts: string[] = [];
      for (let i = 0; i < 4; i++) texts.push(textOf(await call(mcp, "chat", { message: `Question ${i}` })));
      const signedBy = Math.floor(Date.now() / 1000);
      expect(texts).toEqual([
        expect.stringMatching(/^The service answered 400 .* counts against the caps until the chain shows it expired unused\.$/),
        expect.stringMatching(/^The service answered 400 .* counts against the caps/),
        expect.stringMatching(/^Refused before signing: chat asks \$0\.02, and \$0\.04 of the daily cap of \$0\.05/),
        expect.stringMatching(/^Refused before signing: chat asks \$0\.02, and \$0\.04 of the daily cap of \$0\.05/),
      ]);
      const signatures = kept();
      expect(signatures).toHaveLength(2);
      for (const payload of signatures) {
        const { validBefore } = (payload.payload as { authorization: { validBefore: string } }).authorization;
        expect(Number(validBefore)).toBeLessThanOrEqual(signedBy + getPaidOperation("chat").maxTimeoutSeconds);
      }
      // The service settles what it kept: the payer loses what the cap allowed, and no more.
      for (const payload of signatures) await settle(payload);
      expect(before - (await usdcBalance(payer.address))).toBe(40_000n);
      expect(ledgerOf(stateDir).map((e) => e.state)).toEqual(["refused", "refused"]);
    });

    it("a payment a service refused is freed only once the chain shows its authorization expired unused", async () => {
      // A chain of its own, read by this server alone: its clock is moved past the authorization's
      // expiry (and the ledger's reorg margin) at once, not waited for, and the suite's shared chain
      // keeps the wall clock's time for every other test.
      const own = await startLocalChain({ port: await freePort(), walletCount: 0 });
      try {
        const rpc = (method: string, params: unknown[] = []) => own.publicClient.request({ method, params } as never);
        served = manifest;
        offer = withAccept({ maxTimeoutSeconds: 1 }); // within what a chat needs: it expires at once
        keeps = true;
        const stateDir = newStateDir();
        const mcp = await startMcp(maliciousEnv(stateDir, { LONGEVITY_MCP_MAX_PER_DAY: "0.03", LONGEVITY_MCP_RPC_URL: own.rpcUrl }));
        expect(textOf(await call(mcp, "chat", { message: "q" }))).toMatch(/^The service answered 400/);
        expect(textOf(await call(mcp, "chat", { message: "q" }))).toMatch(/^Refused before signing/);
        const [first] = kept();
        const validBefore = Number((first!.payload as { authorization: { validBefore: string } }).authorization.validBefore);
        // Past validBefore by the server's own clock, while no block has been mined since it signed:
        // the chain does not show it expired yet, so it still counts.
        await until(() => Date.now() >= validBefore * 1000, { what: "the wall clock to pass validBefore", timeoutMs: 60_000, everyMs: 100 });
        expect(textOf(await call(mcp, "chat", { message: "q" }))).toMatch(/^Refused before signing/);
        // Once the chain's clock has passed validBefore (by the margin for a reorganised block), the
        // next call asks the chain, finds the first authorization unused, and signs again.
        await rpc("evm_setNextBlockTimestamp", [validBefore + EXPIRY_MARGIN_SECONDS]);
        await rpc("evm_mine");
        const last = textOf(await call(mcp, "chat", { message: "q" }));
        expect(last).toMatch(/^The service answered 400/);
        const latest = (await own.publicClient.getBlock({ blockTag: "latest" })).timestamp;
        expect(Number(latest)).toBeGreaterThanOrEqual(validBefore + EXPIRY_MARGIN_SECONDS);
        expect(kept()).toHaveLength(2);
        const { nonce } = (first!.payload as { authorization: { nonce: string } }).authorization;
        expect(await authorizationUsed(payer.address, nonce)).toBe(false);
        expect(await own.publicClient.readContract({ address: own.asset, abi: eip3009ABI, functionName: "authorizationState", args: [payer.address as Hex, nonce as Hex] })).toBe(false);
        expect(ledgerOf(stateDir)).toEqual([expect.objectContaining({ state: "refused" })]);
      } finally {
        await own.stop();
      }
    }, 180_000);

    it.each([
      ["1000 USDC for a chat", { amount: "1000000000" }, "asks $1000.00, more than the $0.02 chat costs"],
      ["deep research's price for a chat (within the per-call cap)", { amount: "1000000" }, "asks $1.00, more than the $0.02 chat costs"],
      ["payment to another address", { payTo: "0x000000000000000000000000000000000000dEaD" }, "pays 0x000000000000000000000000000000000000dEaD, not the service's payee"],
      ["another token", { asset: "0x0000000000000000000000000000000000000bad" }, "pays in the token 0x0000000000000000000000000000000000000bad"],
      ["another network", { network: "eip155:1" as const }, "pays on the network eip155:1"],
      ["an authorization valid for 7 days", { maxTimeoutSeconds: 7 * 24 * 3600 }, "asks for an authorization valid 604800 s, longer than the 300 s chat needs"],
    ])("asking %s gets nothing signed", async (_, overrides, reason) => {
      served = manifest;
      offer = withAccept(overrides);
      const stateDir = newStateDir();
      const mcp = await startMcp({ LONGEVITY_MCP_URL: double.url, LONGEVITY_MCP_PRIVATE_KEY: payer.privateKey, LONGEVITY_MCP_STATE_DIR: stateDir });
      const before = await usdcBalance(payer.address);
      const result = await call(mcp, "chat", { message: "q" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`Refused before signing: the service's payment request ${reason}`);
      expect(double.requests.some((r) => r.path === "/api/chat")).toBe(true);
      expect(signedRequests()).toEqual([]);
      expect(ledgerOf(stateDir)).toEqual([]);
      expect(await usdcBalance(payer.address)).toBe(before);
    });

    const attacker = privateKeyToAccount(generatePrivateKey());
    const attackerIssuer = createEIP712OfferReceiptIssuer(`did:pkh:eip155:1:${attacker.address}`, (data) => attacker.signTypedData(data as Parameters<typeof attacker.signTypedData>[0]));
    const withOffers = (required: PaymentRequired, offers: unknown[] | null): PaymentRequired => {
      const { "offer-receipt": _genuine, ...others } = required.extensions ?? {};
      return { ...required, extensions: offers ? { ...others, "offer-receipt": { info: { offers } } } : others };
    };
    const cheaper = () => withAccept({ amount: "10000" }); // within the price and every cap: only its offer tells

    it.each([
      ["its amount changed, the service's offer left as it was", async () => cheaper(), "asks terms that no offer signed by the service states"],
      [
        "its amount changed in the offer too, under the service's signature",
        async () => {
          const [offer] = extractOffersFromPaymentRequired(genuine) as EIP712SignedOffer[];
          return withOffers(cheaper(), [{ ...offer!, payload: { ...offer!.payload, amount: "10000" } }]);
        },
        "not by a key the service publishes",
      ],
      [
        "a new offer for its terms, signed by another key",
        async () => {
          const required = cheaper();
          return withOffers(required, [await attackerIssuer.issueOffer(required.resource!.url, { acceptIndex: 0, ...required.accepts[0]!, offerValiditySeconds: 300 })]);
        },
        `signed by ${attacker.address}, not by a key the service publishes`,
      ],
      ["the offers removed", async () => withOffers(genuine, null), "carries no signed offer"],
    ] as const)("an offer altered in flight gets nothing signed: %s", async (_, altered, reason) => {
      served = manifest;
      offer = await altered();
      const stateDir = newStateDir();
      const mcp = await startMcp(maliciousEnv(stateDir));
      const result = await call(mcp, "chat", { message: "q" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^Refused before signing: the service's payment request /);
      expect(textOf(result)).toContain(reason);
      expect(signedRequests()).toEqual([]);
      expect(ledgerOf(stateDir)).toEqual([]);
    });

    it.each([
      ["signed by a key the service does not publish", (payer: string, transaction: string) => attackerIssuer.issueReceipt("https://gateway.test/api/chat", payer, chain().network, transaction)],
      ["the service's genuine receipt of another payment", async () => genuineReceipt],
    ] as const)("a settled payment whose receipt is %s is reported as failing verification, never kept as proof", async (_, receipt) => {
      served = manifest;
      offer = genuine;
      receiptFor = receipt;
      const stateDir = newStateDir();
      const mcp = await startMcp(maliciousEnv(stateDir));
      const result = await call(mcp, "chat", { message: "q" });
      expect(textOf(result)).toContain("The service's receipt for this payment did not verify (");
      expect(textOf(result)).toContain("it is not proof of this payment, and was not kept as such");
      const kept = receiptsOf(stateDir);
      expect(kept).toEqual([expect.objectContaining({ verdict: "invalid", problem: expect.any(String) })]);
      expect(kept.filter((k) => k.verdict === "valid")).toEqual([]);
    });

    it("npm run ask signs nothing for a 402 whose offers were removed on the way, and says why", async () => {
      served = manifest;
      offer = withOffers(genuineBody, null);
      const { code, stderr } = await ask(["chat", "q"], { GATEWAY_URL: double.url, PAYER_PRIVATE_KEY: payer.privateKey, LONGEVITY_MCP_STATE_DIR: newStateDir() });
      expect(code).toBe(1);
      expect(stderr).toContain("Paying failed: ");
      expect(stderr).toContain("Refused before signing: the service's payment request carries no signed offer");
      expect(signedRequests()).toEqual([]);
    });

    it("npm run ask reports a receipt that fails verification plainly and never keeps it as proof", async () => {
      served = manifest;
      offer = genuineBody;
      receiptFor = (payer, transaction) => attackerIssuer.issueReceipt("https://gateway.test/api/chat", payer, chain().network, transaction);
      const stateDir = newStateDir();
      const { stderr } = await ask(["chat", "q"], { GATEWAY_URL: double.url, PAYER_PRIVATE_KEY: payer.privateKey, LONGEVITY_MCP_STATE_DIR: stateDir });
      expect(stderr).toContain(`WARNING: The service's receipt for this payment did not verify (the receipt is signed by ${attacker.address}, not by a key the service publishes`);
      expect(receiptsOf(stateDir)).toEqual([expect.objectContaining({ verdict: "invalid" })]);
    });

    it("a server that changes where payments go after first use is refused, even when its manifest and its 402 agree", async () => {
      const stateDir = newStateDir();
      served = manifest;
      offer = withAccept({ amount: "1000000000" });
      const first = await startMcp({ LONGEVITY_MCP_URL: double.url, LONGEVITY_MCP_PRIVATE_KEY: payer.privateKey, LONGEVITY_MCP_STATE_DIR: stateDir });
      expect((await call(first, "chat", { message: "q" })).isError).toBe(true); // first use: the genuine destination is remembered
      await first.close();

      const attacker = "0x000000000000000000000000000000000000dEaD";
      served = {
        ...manifest,
        items: (manifest.items as { accepts: Record<string, unknown>[] }[]).map((item) => ({ ...item, accepts: item.accepts.map((a) => ({ ...a, payTo: attacker })) })),
      };
      offer = withAccept({ payTo: attacker });
      const second = await startMcp({ LONGEVITY_MCP_URL: double.url, LONGEVITY_MCP_PRIVATE_KEY: payer.privateKey, LONGEVITY_MCP_STATE_DIR: stateDir });
      const result = await call(second, "chat", { message: "q" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`now asks for payments to ${attacker}`);
      expect(textOf(result)).toContain(`it took them as ${genuine.accepts[0]!.payTo}`);
      expect(signedRequests()).toEqual([]);

      // A destination the user pinned wins over whatever the service advertises.
      const pinned = await startMcp({
        LONGEVITY_MCP_URL: double.url,
        LONGEVITY_MCP_PRIVATE_KEY: payer.privateKey,
        LONGEVITY_MCP_STATE_DIR: newStateDir(),
        LONGEVITY_MCP_PAY_TO: genuine.accepts[0]!.payTo,
      });
      const refused = await call(pinned, "chat", { message: "q" });
      expect(textOf(refused)).toMatch(/not what LONGEVITY_MCP_NETWORK, LONGEVITY_MCP_ASSET and LONGEVITY_MCP_PAY_TO allow/);
      expect(signedRequests()).toEqual([]);
      // Three server processes start one after the other: on a loaded 2-core machine each start
      // took over 20 s, so the bound is far above the file's 60 s.
    }, 180_000);
  });

  it("without a key the server still starts: the status tools work, the paid tools say how to set one", async () => {
    const mcp = await startMcp({ LONGEVITY_MCP_URL: gateway.url, LONGEVITY_MCP_STATE_DIR: newStateDir() });
    const paid = await call(mcp, "chat", { message: "q" });
    expect(paid.isError).toBe(true);
    expect(textOf(paid)).toMatch(/no key to pay with: set LONGEVITY_MCP_PRIVATE_KEY/);
    const free = await call(mcp, "literature_status", { jobId: "no-such-job" });
    expect(free.isError).toBe(true);
    expect(textOf(free)).toMatch(/^The service answered 404/);
    expect(mcp.stderr()).toMatch(/no LONGEVITY_MCP_PRIVATE_KEY/);
  });
});
