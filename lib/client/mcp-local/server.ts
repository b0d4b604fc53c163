import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { SettleResponse } from "@x402/core/types";
import { privateKeyToAccount } from "viem/accounts";
import { MCP_TOOLS, statusPath, type McpTool } from "@/lib/shared/mcp/catalog";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";
import { authorizationChain, rpcUrlFor, type AuthorizationChain } from "@/lib/client/mcp-local/chain-check";
import type { LocalMcpConfig } from "@/lib/client/mcp-local/config";
import { formatUsd } from "@/lib/shared/contracts/money";
import { LocalToolError, payForOperation, type PaidAnswer } from "@/lib/client/mcp-local/pay";
import { PaymentTerms } from "@/lib/client/mcp-local/payment-terms";
import { pollGuidance, pollUntilFinal, readStatus } from "@/lib/client/mcp-local/poll";
import { chatText, deepResearchText, literatureText, settlementText } from "@/lib/client/mcp-local/render";
import { ReceiptBook, receiptWords } from "@/lib/client/mcp-local/receipt-book";
import { ServiceSigners } from "@/lib/client/offer-receipt/verify";
import { SpendLedger } from "@/lib/client/mcp-local/spend-ledger";
import type { ExpectedReceipt } from "@/lib/client/offer-receipt/verify";
import { isRecord } from "@/lib/shared/narrow";

/**
 * The local MCP server (issue 16): every tool of lib/shared/mcp/catalog.ts, with the catalog's argument
 * schemas, over the user's own key. A paid tool pays its HTTP route (lib/client/mcp-local/pay.ts), then
 * follows the work on its free status route up to the tool's `waitSeconds`, reporting progress
 * when the client asked for it; a free tool reads its status route once. Results carry the
 * route's body as `structuredContent`, readable text as `content`, and the settlement in
 * `_meta["x402/payment-response"]` (the x402 MCP transport's field) and in words. When the service
 * publishes the keys that sign its offers and receipts (x402 offer-and-receipt), nothing is signed
 * but the terms of an offer they signed, and each settled payment's receipt is verified and kept
 * beside the spend ledger (receipt-book.ts), or reported as failing verification.
 */

type Extra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>;
};
type Json = Record<string, unknown>;
type PaidTool = Extract<McpTool, { kind: "paid" }>;
type FreeTool = Extract<McpTool, { kind: "free" }>;

const PAYMENT_RESPONSE_META = "x402/payment-response";

function result({ text, body, settlement, isError = false }: { text: string; body?: Json; settlement?: SettleResponse | null; isError?: boolean }): CallToolResult {
  return {
    content: [{ type: "text", text }],
    ...(body ? { structuredContent: body } : {}),
    ...(settlement ? { _meta: { [PAYMENT_RESPONSE_META]: settlement } } : {}),
    ...(isError ? { isError: true } : {}),
  };
}

/** The text of a route's answer for the operation behind a tool. */
function describeAnswer(operation: PaidOperation["id"], body: Json, id: string): string {
  if (operation === "chat") return chatText(body, id);
  if (operation === "literature") return literatureText(body, id);
  return deepResearchText(body);
}

/** The status route's argument (`requestId`, `jobId`, `conversationId`), named by its path. */
const statusParameter = (tool: FreeTool) => /\{(\w+)\}/.exec(tool.path)![1]!;

/** An error answer of a route, in words: its status, reason and message. */
function routeErrorText(status: number, body: Json): string {
  const what = [body.reason, body.error, body.message].filter((v) => typeof v === "string" && v !== "").join(": ");
  return `The service answered ${status}${what ? ` (${what})` : ""}.`;
}

/** What became of a payment whose request ended in an error, in words. */
function outcomeWords({ outcome, validBefore }: Pick<PaidAnswer, "outcome" | "validBefore">): string {
  const until = validBefore ? ` until ${new Date(validBefore * 1000).toISOString()}` : "";
  if (outcome === "none") return "Nothing was paid.";
  if (outcome === "refused") {
    return `The service says nothing was charged, but the signed payment could still be settled${until}, so it counts against the caps until the chain shows it expired unused.`;
  }
  if (outcome === "uncertain") return `The payment was signed and may yet be settled${until}, so it counts against the caps.`;
  return "";
}

export function createLocalMcpServer({ config, version }: { config: LocalMcpConfig; version: string }): McpServer {
  const ledger = new SpendLedger({ stateDir: config.stateDir, maxPerCall: config.maxPerCall, maxPerDay: config.maxPerDay });
  const terms = new PaymentTerms({ baseUrl: config.baseUrl, pins: config.pins, stateDir: config.stateDir });
  const chains = new Map<string, AuthorizationChain>();
  const chainFor = (network: string) => {
    const url = rpcUrlFor(config, network);
    if (!url) return null;
    if (!chains.has(url)) chains.set(url, authorizationChain(url));
    return chains.get(url)!;
  };
  const payer = config.privateKey ? privateKeyToAccount(config.privateKey).address : null;
  const signers = new ServiceSigners(config.baseUrl);
  const receipts = new ReceiptBook({ stateDir: config.stateDir });

  /**
   * Verifies and keeps a settled payment's receipt; the verdict in words, or null when the service
   * signs no receipts (it publishes no key).
   */
  async function keepReceipt({ receipt, expected, spendEntryId }: { receipt: unknown; expected: ExpectedReceipt; spendEntryId?: string }): Promise<string | null> {
    let keys: string[];
    try {
      keys = await signers.current();
    } catch (err) {
      return `The receipt could not be verified now: the service's published keys could not be read (${err instanceof Error ? err.message : String(err)}); it was not kept.`;
    }
    if (keys.length === 0) return null;
    const verdict = await receipts.keep({ receipt, expected, signers, ...(spendEntryId ? { spendEntryId } : {}) });
    return receiptWords(verdict, receipts.file);
  }
  const caps = `at most ${formatUsd(config.maxPerCall)} per call and ${formatUsd(config.maxPerDay)} in any 24 hours`;
  const server = new McpServer(
    { name: "longevity-research-agent", title: "Longevity Research Agent (local)", version },
    {
      instructions: `Cited answers on aging and longevity research from ${config.baseUrl}. Paid tools pay in USDC with x402 from ${payer ? `the local wallet ${payer}` : "a local wallet (none configured: set LONGEVITY_MCP_PRIVATE_KEY)"}, ${caps}; status tools are free.`,
    },
  );

  async function callPaid(tool: PaidTool, args: Json, extra: Extra): Promise<CallToolResult> {
    const operation = getPaidOperation(tool.operation);
    const offerSigners = config.privateKey ? await signers.current().catch(() => null) : null;
    const paid = await payForOperation({ config, ledger, terms, chainFor, offerSigners, tool: tool.name, operation, body: args, signal: extra.signal });
    const price = formatUsd(paid.amount);
    const settled = paid.settlement?.success ? paid.settlement : null;
    const receiptSaid =
      settled && paid.resourceUrl
        ? await keepReceipt({
            receipt: paid.receipt,
            expected: { resourceUrl: paid.resourceUrl, payer: paid.payer, network: settled.network, transaction: settled.transaction },
            ...(paid.spendEntryId ? { spendEntryId: paid.spendEntryId } : {}),
          })
        : null;
    const paidWords = settled ? [settlementText({ ...settled, payer: settled.payer ?? paid.payer }, price), receiptSaid].filter(Boolean).join(" ") : null;
    if (paid.status >= 300) {
      return result({ text: [routeErrorText(paid.status, paid.body), outcomeWords(paid), paidWords].filter(Boolean).join(" "), body: paid.body, settlement: paid.settlement, isError: true });
    }

    const statusTool = MCP_TOOLS.find((t): t is FreeTool => t.name === tool.statusTool && t.kind === "free")!;
    const parameter = statusParameter(statusTool);
    const id = String(paid.body[parameter] ?? "");
    const guidance = pollGuidance(operation.id, paid.polling);
    if (operation.settlement === "deferred") {
      const text = [
        `Started deep research: conversationId ${id}, messageId ${String(paid.body.messageId ?? "")}.`,
        `${price} is authorized from ${paid.payer} and settled only when the turn is delivered (nothing is charged if it fails).`,
        `Read it with deep_research_status {"conversationId": "${id}"} (free) about every ${guidance.intervalSeconds} seconds; it usually takes ${Math.round((paid.polling?.typicalSeconds ?? 300) / 60)} minutes, at most ${Math.round(guidance.maxSeconds / 60)}.`,
      ].join(" ");
      return result({ text, body: paid.body, settlement: paid.settlement });
    }

    let body = paid.body;
    if (!(typeof body.status === "string" && guidance.finalStatuses.includes(body.status)) && tool.waitSeconds > 0) {
      const token = extra._meta?.progressToken;
      let last = -1;
      const { read } = await pollUntilFinal({
        url: `${config.baseUrl}${statusPath(statusTool, { [parameter]: id })}`,
        guidance,
        waitSeconds: tool.waitSeconds,
        signal: extra.signal,
        onPoll: async (read, elapsed) => {
          if (token === undefined) return;
          last = Math.max(Math.round(elapsed * 1000) / 1000, last + 0.001);
          const progress = isRecord(read.body.progress) ? read.body.progress : undefined;
          const message = progress ? `${String(progress.stage)} (${String(progress.percent)}%)` : String(read.body.status ?? read.status);
          await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: last, total: tool.waitSeconds, message } });
        },
      });
      if (read.status >= 400) return result({ text: [routeErrorText(read.status, read.body), paidWords].filter(Boolean).join(" "), body: { ...paid.body, ...read.body }, settlement: paid.settlement, isError: true });
      body = { ...paid.body, ...read.body };
    }
    const failed = body.status === "failed";
    return result({ text: [describeAnswer(operation.id, body, id), paidWords].filter(Boolean).join("\n\n"), body, settlement: paid.settlement, isError: failed });
  }

  async function callFree(tool: FreeTool, args: Json, extra: Extra): Promise<CallToolResult> {
    const parameter = statusParameter(tool);
    const id = String(args[parameter] ?? "");
    const read = await readStatus(`${config.baseUrl}${statusPath(tool, { [parameter]: id })}`, extra.signal).catch((err: Error) => {
      throw new LocalToolError(`Could not reach the service at ${config.baseUrl}: ${err.message}.`);
    });
    if (read.status >= 400) {
      const unknown = read.status === 404 ? ` No ${parameter} ${id} is known there (never started, or expired).` : "";
      return result({ text: `${routeErrorText(read.status, read.body)}${unknown}`, body: read.body, isError: true });
    }
    const operation = MCP_TOOLS.find((t): t is PaidTool => t.kind === "paid" && t.statusTool === tool.name)!.operation;
    const header = read.headers.get("payment-response");
    const settlement = header ? decodePaymentResponseHeader(header) : null;
    const receiptSaid = operation === "deepResearch" ? await reconcileDeepResearch(read.body) : null;
    return result({ text: [describeAnswer(operation, read.body, id), receiptSaid].filter(Boolean).join("\n\n"), body: read.body, settlement, isError: read.body.status === "failed" });
  }

  /**
   * Tells the spend ledger which deep-research turns it paid on delivery were charged, and which
   * never will be; keeps the receipt of each charged turn this server paid for (the status shows
   * it on every poll: kept once). The latest turn's receipt verdict in words, if it has one.
   */
  async function reconcileDeepResearch(body: Json): Promise<string | null> {
    const turns = Array.isArray(body.turns) ? body.turns.filter(isRecord) : [];
    const before = ledger.entries();
    await ledger.reconcileDeferred(
      turns.map((turn) => {
        const settlement = isRecord(turn.settlement) ? turn.settlement : undefined;
        return {
          messageId: String(turn.messageId ?? ""),
          settled: typeof settlement?.transaction === "string" ? { transaction: settlement.transaction, network: String(settlement.network ?? "") } : null,
          // A delivered turn always shows its settlement; these statuses end a turn that was never charged.
          ended: ["failed", "cancelled", "timeout"].includes(String(turn.status)),
        };
      }),
    );
    let said: string | null = null;
    for (const turn of turns) {
      const settlement = isRecord(turn.settlement) ? turn.settlement : undefined;
      const paidHere = before.find((e) => e.messageId !== undefined && e.messageId === turn.messageId && e.resourceUrl && e.payer);
      if (typeof settlement?.transaction !== "string" || !paidHere) continue;
      said = await keepReceipt({
        receipt: settlement.receipt,
        expected: { resourceUrl: paidHere.resourceUrl!, payer: paidHere.payer!, network: String(settlement.network ?? ""), transaction: settlement.transaction },
        spendEntryId: paidHere.id,
      });
    }
    return said;
  }

  for (const tool of MCP_TOOLS) {
    const description =
      tool.kind === "paid" ? `${tool.description} Paid from this computer's wallet by the local MCP server, ${caps}.` : tool.description;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description,
        inputSchema: tool.input,
        annotations: tool.kind === "paid" ? { readOnlyHint: false, idempotentHint: false, openWorldHint: true } : { readOnlyHint: true, openWorldHint: true },
      },
      async (args: unknown, extra: Extra) => {
        try {
          // The SDK checked `args` against the tool's input schema, an object's.
          const given = isRecord(args) ? args : {};
          return tool.kind === "paid" ? await callPaid(tool, given, extra) : await callFree(tool, given, extra);
        } catch (err) {
          if (err instanceof LocalToolError) return result({ text: err.message, isError: true });
          throw err;
        }
      },
    );
  }
  return server;
}
