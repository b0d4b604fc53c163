import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { deepResearchConversationSchema } from "@/lib/shared/contracts";
import { receiptExtensions } from "@/lib/gateway/offer-receipt/receipts";
import { MCP_TOOLS, type McpTool } from "@/lib/shared/mcp/catalog";
import { isRecord } from "@/lib/shared/narrow";
import { isCaip2Network } from "@/lib/shared/payments/network";
import { callRoute } from "@/lib/gateway/mcp/gateway-call";
import { statusText } from "@/lib/gateway/mcp/present";
import { errorResult, type ToolContext } from "@/lib/gateway/mcp/tool-context";
import { completeResult, settlementMeta } from "@/lib/gateway/mcp/x402-binding";

type FreeTool = Extract<McpTool, { kind: "free" }>;

/**
 * A free tool call: its status route, called in this process with the same rules as over HTTP
 * (whoever holds the id reads it; an unknown id is the route's 404). A deep-research
 * conversation whose latest turn has settled also carries that settlement, its signed receipt
 * included, in `_meta["x402/payment-response"]`, as a paid tool's result does.
 */
export async function runFreeTool(tool: FreeTool, args: Record<string, unknown> | undefined, ctx: ToolContext): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => (i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message)).join("; ");
    return completeResult(
      {
        isError: true,
        structuredContent: { error: `Invalid arguments: ${problems}`, reason: "invalid_arguments" },
        content: [{ type: "text", text: `Invalid arguments: ${problems}.` }],
      },
      { extension: ctx.extension },
    );
  }
  const answer = await callRoute({ routes: ctx.routes, publicUrl: ctx.publicUrl, method: tool.method, path: tool.path, params: parsed.data, from: ctx.headers });
  if (answer.status >= 400) return errorResult(answer, { extension: ctx.extension });
  const operation = operationReadBy(tool);
  return completeResult(
    {
      structuredContent: isRecord(answer.body) ? answer.body : {},
      content: [{ type: "text", text: statusText(operation, answer.body) }],
      ...(operation === "deepResearch" ? settlementMeta(latestSettlement(answer.body)) : {}),
    },
    { extension: ctx.extension },
  );
}

/** The paid operation whose work a status tool reads. */
function operationReadBy(tool: FreeTool) {
  const paid = MCP_TOOLS.find((t): t is Extract<McpTool, { kind: "paid" }> => t.kind === "paid" && t.statusTool === tool.name);
  if (!paid) throw new Error(`no paid tool names ${tool.name} as its status tool`);
  return paid.operation;
}

/** The settlement of a conversation's latest turn, once it has one (lib/gateway/deep-research/receipts.ts). */
function latestSettlement(body: unknown) {
  const parsed = deepResearchConversationSchema.safeParse(body);
  const settlement = parsed.success ? parsed.data.turns?.at(-1)?.settlement : undefined;
  // The gateway writes the networks of its settlements from its configuration: always CAIP-2.
  if (!settlement || !isCaip2Network(settlement.network)) return undefined;
  const { transaction, network, payer, receipt } = settlement;
  return { success: true, transaction, network, payer, ...(receipt ? { extensions: receiptExtensions(receipt) } : {}) };
}
