import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getConfig } from "@/lib/gateway/config";
import { ApiError, jsonResponse, readBodyText } from "@/lib/shared/http";
import { mcpBodyLimit } from "@/lib/gateway/mcp/body-limit";
import type { McpTool } from "@/lib/shared/mcp/catalog";
import type { GatewayRoutes } from "@/lib/gateway/mcp/gateway-call";
import { createMcpServer } from "@/lib/gateway/mcp/server";
import { sessionIdForInitialize } from "@/lib/gateway/mcp/x402-binding";
import { isRecord } from "@/lib/shared/narrow";

/** The service's reason for each status the MCP transport refuses a request with. */
const TRANSPORT_REASONS: Record<number, string> = {
  400: "invalid_message",
  404: "not_found",
  406: "not_acceptable",
  409: "conflict",
  415: "unsupported_media_type",
};

/**
 * POST /api/mcp: one JSON-RPC message (or batch) of the Model Context Protocol over Streamable
 * HTTP, answered by a server and transport made for this request alone. Stateless by design: the
 * gateway runs as several processes behind one URL and keeps nothing between requests (a paid
 * call's state is the payment ledger's, in Postgres). The one thing a client declares once, at
 * initialize, and that later requests depend on (that it takes the `org.x402/payment` extension
 * binding) travels in the session id this answer gives it (lib/gateway/mcp/x402-binding.ts). GET and
 * DELETE are not served: the API edge answers them 405, which MCP clients read as "no
 * server-initiated stream" and "no session to end".
 */
export async function handleMcpRequest({ request, routes, tools }: { request: Request; routes: GatewayRoutes; tools?: readonly McpTool[] }): Promise<Response> {
  const config = getConfig();
  let message: unknown;
  try {
    message = JSON.parse(await readBodyText(request, { maxBytes: mcpBodyLimit(config.maxBodyBytes) }));
  } catch (err) {
    if (err instanceof ApiError) return err.toResponse();
    if (err instanceof SyntaxError) return transportError(400, `Parse error: the body is not JSON (${err.message})`, -32700);
    throw err;
  }

  const server = createMcpServer({ routes, publicUrl: config.publicUrl, ...(tools ? { tools } : {}) });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  // A client that hangs up ends the calls it was waiting for (their polling, not their payments).
  request.signal.addEventListener("abort", () => void server.close(), { once: true });
  const response = await transport.handleRequest(request, { parsedBody: message });
  if (response.status >= 400) return inServiceShape(response);
  const sessionId = sessionIdForInitialize(message);
  if (!sessionId) return response;
  const headers = new Headers(response.headers);
  headers.set("mcp-session-id", sessionId);
  return new Response(response.body, { status: response.status, headers });
}

/**
 * The transport's refusal of a request (wrong Accept or Content-Type, not JSON-RPC) in the
 * service's error shape, as every 4xx of the gateway is: `error` the transport's message,
 * `reason`, and the JSON-RPC `code` it gave. MCP leaves the body of these HTTP errors open.
 */
async function inServiceShape(response: Response): Promise<Response> {
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  const refusal = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : {};
  const message = typeof refusal.message === "string" ? refusal.message : `The MCP transport refused the request (${response.status})`;
  const code = typeof refusal.code === "number" ? refusal.code : undefined;
  return transportError(response.status, message, code);
}

function transportError(status: number, error: string, code: number | undefined): Response {
  return jsonResponse({ error, reason: TRANSPORT_REASONS[status] ?? "invalid_request", ...(code !== undefined ? { code } : {}) }, { status });
}
