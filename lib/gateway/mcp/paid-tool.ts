import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, SettleResponse } from "@x402/core/types";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getPaidOperation } from "@/lib/shared/operations";
import type { McpTool } from "@/lib/shared/mcp/catalog";
import { callRoute, type RouteAnswer } from "@/lib/gateway/mcp/gateway-call";
import { statusText } from "@/lib/gateway/mcp/present";
import { errorResult, type ToolContext } from "@/lib/gateway/mcp/tool-context";
import { waitForFinal } from "@/lib/gateway/mcp/wait";
import { completeResult, paymentOf, paymentRequiredResult, settlementMeta } from "@/lib/gateway/mcp/x402-binding";
import { isRecord } from "@/lib/shared/narrow";

type PaidTool = Extract<McpTool, { kind: "paid" }>;
type Json = Record<string, unknown>;

/**
 * A paid tool call: the tool's arguments are POSTed as the body of its paid HTTP route, with the
 * PaymentPayload of `_meta["x402/payment"]` as PAYMENT-SIGNATURE, and the route's answer becomes
 * the result (docs/mcp.md):
 * - 402 → payment required, in the binding the client takes (the route's PaymentRequired, whose
 *   `error` says why a body would be refused, or why a payment was);
 * - any other answer of 400 or more → a tool error with the route's body (`charged: false`);
 * - 200 or 202 → paid: the settlement (PAYMENT-RESPONSE) in `_meta["x402/payment-response"]`, then
 *   for chat and literature the final result once the status route has it, within the tool's
 *   `waitSeconds`, or else the 202 and the free status tool to call next.
 * The ledger is the route's: a retry with the same payment gets the same answer, charged once.
 */
export async function runPaidTool(tool: PaidTool, args: Json | undefined, meta: Json | undefined, ctx: ToolContext): Promise<CallToolResult> {
  const op = getPaidOperation(tool.operation);
  const payment = paymentOf(meta);
  const started = Date.now();
  const answer = await callRoute({
    routes: ctx.routes,
    publicUrl: ctx.publicUrl,
    method: "POST",
    path: op.path,
    body: args ?? {},
    // Sent as the client gave it, for the route to judge: the SDK's encoder is typed for a PaymentPayload but encodes any JSON.
    headers: payment === undefined ? {} : { "payment-signature": encodePaymentSignatureHeader(payment as PaymentPayload) },
    from: ctx.headers,
  });
  if (answer.status === 402 && isRecord(answer.body)) return paymentRequiredResult(answer.body, { extension: ctx.extension });
  if (answer.status >= 400) return errorResult(answer, { extension: ctx.extension });

  const settlement = settlementOf(answer);
  const paid = { meta: settlementMeta(settlement), tool, extension: ctx.extension };
  // 200: the final result at once (literature may answer so).
  if (answer.status === 200) return finalResult(paid, {}, answer);
  const accepted = isRecord(answer.body) ? answer.body : {};
  const params = statusParams(tool, accepted);
  if (tool.waitSeconds === 0) return pendingResult(paid, accepted, params, undefined);

  await ctx.progress(`paid${settlement ? ` (transaction ${settlement.transaction})` : ""}; waiting for the result`);
  const { final, last } = await waitForFinal({ ctx, operation: tool.operation, params, deadlineMs: started + tool.waitSeconds * 1000 });
  if (final && last) return finalResult(paid, accepted, last);
  return pendingResult(paid, accepted, params, last);
}

type Paid = { meta: { _meta?: Json }; tool: PaidTool; extension: boolean };

/** The settlement of PAYMENT-RESPONSE, when the route sent one. */
function settlementOf(answer: RouteAnswer): SettleResponse | undefined {
  const header = answer.headers.get("payment-response");
  return header ? decodePaymentResponseHeader(header) : undefined;
}

/** The status tool's arguments, read from the 202's fields of the same names (`requestId`, `jobId`, `conversationId`). */
function statusParams(tool: PaidTool, accepted: Json): Record<string, string> {
  const path = getPaidOperation(tool.operation).polling.path;
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return Object.fromEntries(names.map((name) => [name, String(accepted[name] ?? "")]));
}

/** The work's final answer: the status body (with the 202's ids) and its text; a status other than completed is a tool error, still charged. */
function finalResult({ meta, tool, extension }: Paid, accepted: Json, last: RouteAnswer): CallToolResult {
  if (last.status >= 400) return errorResult(last, { extension, ...(meta._meta ? { meta: meta._meta } : {}) });
  const body = { ...accepted, ...(isRecord(last.body) ? last.body : {}) };
  return completeResult(
    {
      ...(body.status === "completed" ? {} : { isError: true }),
      structuredContent: body,
      content: [{ type: "text", text: statusText(tool.operation, last.body) }],
      ...meta,
    },
    { extension },
  );
}

/** Paid, not final yet: the 202 (and the last status read), and the free tool that reads it. */
function pendingResult({ meta, tool, extension }: Paid, accepted: Json, params: Record<string, string>, last: RouteAnswer | undefined): CallToolResult {
  const polling = getPaidOperation(tool.operation).polling;
  const latest = last?.status === 200 && isRecord(last.body) ? last.body : {};
  const body: Json = { ...accepted, ...latest, next: { tool: tool.statusTool, arguments: params } };
  const settled = meta._meta ? "Paid" : `Accepted; ${getPaidOperation(tool.operation).price} is settled when the result is delivered`;
  const waited = tool.waitSeconds > 0 ? ` Not finished after ${tool.waitSeconds} s (status: ${String(body.status)}).` : "";
  const text = `${settled}.${waited} Call ${tool.statusTool} with ${JSON.stringify(params)} (free) about every ${polling.intervalSeconds} s; it usually takes ${polling.typicalSeconds} s.`;
  return completeResult({ structuredContent: body, content: [{ type: "text", text }], ...meta }, { extension });
}
