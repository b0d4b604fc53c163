import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { GatewayRoutes, RouteAnswer } from "@/lib/gateway/mcp/gateway-call";
import { errorText } from "@/lib/gateway/mcp/present";
import { completeResult } from "@/lib/gateway/mcp/x402-binding";
import { isRecord } from "@/lib/shared/narrow";

/** What a tool call runs with: the gateway's handlers, and what the MCP request said about its client. */
export type ToolContext = {
  routes: GatewayRoutes;
  publicUrl: string;
  /** The MCP request's HTTP headers (lower-case names), whose client-address headers are carried over. */
  headers: Record<string, string | string[] | undefined>;
  /** Whether the client takes the `org.x402/payment` extension binding. */
  extension: boolean;
  /** Aborted when the client cancels the call or hangs up. */
  signal: AbortSignal;
  /** Sends an MCP progress notification when the client asked for them (a progressToken); otherwise nothing. */
  progress: (message: string) => Promise<void>;
};

/** Seconds in a Retry-After header, when it holds a number. */
function retryAfterOf(answer: RouteAnswer): number | undefined {
  const value = Number(answer.headers.get("retry-after") ?? Number.NaN);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * A route's answer of 400 or more as a tool execution error: `structuredContent` is the route's
 * error body (its `charged: false` included) with `httpStatus` and, when the route named one,
 * `retryAfterSeconds`; the text says the same in words, with what to do next.
 */
export function errorResult(answer: RouteAnswer, { extension, meta }: { extension: boolean; meta?: Record<string, unknown> }): CallToolResult {
  const retryAfterSeconds = retryAfterOf(answer);
  const body = isRecord(answer.body) ? answer.body : { error: String(answer.body) };
  return completeResult(
    {
      isError: true,
      structuredContent: { ...body, httpStatus: answer.status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) },
      content: [{ type: "text", text: errorText(answer, { retryAfterSeconds }) }],
      ...(meta ? { _meta: meta } : {}),
    },
    { extension },
  );
}
