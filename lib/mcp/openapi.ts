import { mcpBodyLimit } from "./body-limit";
import { MCP_TOOLS } from "./catalog";

/**
 * POST /api/mcp in the OpenAPI document: an endpoint of another protocol, so the document says
 * what it is, what it answers at the HTTP level, and where the tools are described (tools/list,
 * and docs/mcp.md), rather than describing MCP itself.
 */

type Json = Record<string, unknown>;

/** The component the request body refers to. */
export const MCP_MESSAGE_SCHEMA_ID = "McpJsonRpcMessage";

const jsonRpcMessage: Json = {
  type: "object",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: { type: ["string", "integer"], description: "present on requests; a notification has none" },
    method: { type: "string", description: "initialize, tools/list, tools/call, …" },
    params: { type: "object", description: "tools/call: `name`, `arguments`, and `_meta` (`x402/payment`: the PaymentPayload; `progressToken`)" },
  },
};

export const mcpMessageSchema: Json = {
  description: "A JSON-RPC 2.0 message of the Model Context Protocol, or a batch of them",
  oneOf: [jsonRpcMessage, { type: "array", items: jsonRpcMessage, minItems: 1 }],
};

const error = (description: string): Json => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

/** The path item of /api/mcp for a deployment reading at most `maxBodyBytes` per paid body. */
export function mcpPathItem({ maxBodyBytes }: { maxBodyBytes: number }): Json {
  const limit = mcpBodyLimit(maxBodyBytes);
  const paid = MCP_TOOLS.filter((t) => t.kind === "paid").map((t) => t.name);
  const free = MCP_TOOLS.filter((t) => t.kind === "free").map((t) => t.name);
  return {
    post: {
      operationId: "mcp",
      summary: "Model Context Protocol endpoint (free; Streamable HTTP, stateless): the service's tools, the paid ones paid with x402 over MCP",
      description:
        `Tools (tools/list gives their input schemas, the paid routes' body schemas): paid ${paid.join(", ")}; free ${free.join(", ")}. ` +
        'A paid tool costs its HTTP route\'s price and is paid per the x402 MCP transport: unpaid, its result is the route\'s PaymentRequired (`isError: true` with it in `structuredContent`, or `resultType: "payment_required"` for a client advertising the `org.x402/payment` extension); the PaymentPayload goes in `params._meta["x402/payment"]`, the settlement comes back in `result._meta["x402/payment-response"]`. ' +
        "Send `Accept: application/json, text/event-stream`. GET and DELETE are 405: no server-initiated stream, no session to end.",
      tags: ["system"],
      parameters: [
        { name: "Mcp-Protocol-Version", in: "header", required: false, description: "The MCP revision negotiated at initialize", schema: { type: "string" } },
        {
          name: "Mcp-Session-Id",
          in: "header",
          required: false,
          description: "The id the initialize answer gave, if any (only to a client that advertised `org.x402/payment`): it records that, nothing more",
          schema: { type: "string" },
        },
      ],
      requestBody: {
        required: true,
        description: `At most ${limit} bytes`,
        content: { "application/json": { schema: { $ref: `#/components/schemas/${MCP_MESSAGE_SCHEMA_ID}` } } },
      },
      responses: {
        "200": {
          description: "The JSON-RPC response, as a Server-Sent Events stream: progress notifications while a paid tool waits for its result, then the result",
          headers: { "Mcp-Session-Id": { description: "On the initialize answer of a client that advertised `org.x402/payment`", schema: { type: "string" } } },
          content: { "text/event-stream": {} },
        },
        "202": { description: "Accepted: the message held only notifications or responses" },
        "400": error("Not JSON, or not a JSON-RPC message (`reason: invalid_message`, `code` the JSON-RPC error code)"),
        "406": error("`Accept` lists not both application/json and text/event-stream (`reason: not_acceptable`)"),
        "413": error(`Body larger than ${limit} bytes (\`reason: body_too_large\`)`),
        "415": error("`Content-Type` is not application/json (`reason: unsupported_media_type`)"),
        "500": error("Internal failure"),
      },
    },
  };
}
