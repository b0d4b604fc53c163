import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MCP_TOOLS, type McpTool } from "@/lib/shared/mcp/catalog";
import { runFreeTool } from "@/lib/gateway/mcp/free-tool";
import type { GatewayRoutes } from "@/lib/gateway/mcp/gateway-call";
import { runPaidTool } from "@/lib/gateway/mcp/paid-tool";
import type { ToolContext } from "@/lib/gateway/mcp/tool-context";
import { PAYMENT_EXTENSION, usesPaymentExtension } from "@/lib/gateway/mcp/x402-binding";

const MCP_SERVER_INFO = { name: "longevity-research-agent", version: "1.0.0" };

const INSTRUCTIONS = [
  "Cited answers to aging, longevity and biomedical questions. chat, literature_search and deep_research_start are paid per call with x402 (USDC); their _status tools are free.",
  'Paying (x402 MCP transport): call a paid tool; the result is the PaymentRequired (isError with it in structuredContent, or resultType "payment_required" when your client advertises the org.x402/payment extension). Sign one of its accepts and call again with the PaymentPayload in params._meta["x402/payment"]; the settlement comes back in result._meta["x402/payment-response"].',
  "A call that carried a payment and was not answered can be sent again with the same payment: it is answered once and charged at most once.",
].join("\n");

/** A tool's listing: its arguments as JSON Schema, generated from the zod schema its HTTP route validates with. */
function listing(tool: McpTool): Tool {
  const { $schema: _schema, ...inputSchema } = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" });
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    // zod's JSON Schema type allows `true`/`false` sub-schemas, the MCP SDK's Tool type does not (a z.object emits none): cast for the SDK.
    inputSchema: inputSchema as Tool["inputSchema"],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.kind === "free",
      destructiveHint: false,
      idempotentHint: tool.kind === "free",
      openWorldHint: true,
    },
  };
}

const listings = new WeakMap<readonly McpTool[], Tool[]>();

/** The listings of a tool table, generated once (every request has a server of its own). */
function listingsOf(tools: readonly McpTool[]): Tool[] {
  let listed = listings.get(tools);
  if (!listed) {
    listed = tools.map(listing);
    listings.set(tools, listed);
  }
  return listed;
}

/**
 * One MCP server for one HTTP request (the endpoint is stateless: any gateway process answers any
 * request). It lists the catalog's tools and runs them against the gateway's own route handlers.
 * The low-level Server rather than McpServer: McpServer validates arguments before the handler
 * runs, and a paid tool's arguments must reach its HTTP route unvalidated, so that an unpaid call
 * with a wrong body still gets the route's 402 whose `error` says what is wrong (know before you sign).
 */
export function createMcpServer({ routes, publicUrl, tools = MCP_TOOLS }: { routes: GatewayRoutes; publicUrl: string; tools?: readonly McpTool[] }): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {}, extensions: { [PAYMENT_EXTENSION]: {} } },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listingsOf(tools) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}; tools/list names them`);
    const headers: ToolContext["headers"] = extra.requestInfo?.headers ?? {};
    const meta = request.params._meta;
    const sessionId = headers["mcp-session-id"];
    const progressToken = meta?.progressToken;
    let progress = 0;
    const ctx: ToolContext = {
      routes,
      publicUrl,
      headers,
      extension: usesPaymentExtension({ meta, sessionId: typeof sessionId === "string" ? sessionId : undefined }),
      signal: extra.signal,
      progress: async (message) => {
        if (progressToken === undefined || extra.signal.aborted) return;
        progress += 1;
        // A notification that cannot be sent (the stream closed) must not fail the call it reports on.
        await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, message } }).catch(() => undefined);
      },
    };
    return tool.kind === "paid" ? runPaidTool(tool, request.params.arguments, meta, ctx) : runFreeTool(tool, request.params.arguments, ctx);
  });
  return server;
}
