import { mcpBodyLimit } from "@/lib/gateway/mcp/body-limit";
import { z } from "zod";
import { errorBodySchema, requestRegistry } from "@/lib/shared/contracts";
import { MCP_TOOLS, type McpTool } from "@/lib/shared/mcp/catalog";

/**
 * POST /api/mcp in the OpenAPI document: an endpoint of another protocol, so the document says
 * what it is, what it answers at the HTTP level, and where the tools are described (tools/list,
 * and docs/mcp.md), rather than describing MCP itself.
 */

type Json = Record<string, unknown>;

/** The component the request body refers to. */
export const MCP_MESSAGE_SCHEMA_ID = "McpJsonRpcMessage";
/** The component of the endpoint's HTTP errors: the service's error body and the JSON-RPC error code. */
export const MCP_ERROR_SCHEMA_ID = "McpHttpError";

export const mcpErrorSchema: Json = z.toJSONSchema(
  errorBodySchema.extend({ code: z.int().optional().describe("the JSON-RPC error code the MCP transport gave (-32700 parse error, -32600 invalid request, -32000 server error)") }),
  { io: "output", target: "draft-2020-12" },
);

const jsonRpcMessage: Json = {
  type: "object",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: { type: ["string", "integer"], description: "present on requests; a notification has none" },
    method: { type: "string", description: "initialize, tools/list, tools/call, …" },
    params: {
      type: "object",
      description: "tools/call: `name`, `arguments`, and `_meta` (`x402/payment`: the PaymentPayload; `progressToken`); initialize: `protocolVersion`, `capabilities`, `clientInfo`",
      properties: {
        name: { type: "string", description: "tools/call: the tool" },
        arguments: {
          description: "tools/call: the tool's arguments: a paid tool's are its HTTP route's body; a free tool's, the id its status route takes",
          anyOf: MCP_TOOLS.map((tool) => toolArguments(tool)),
        },
        _meta: { type: "object", additionalProperties: true, description: "`x402/payment` (the PaymentPayload), `progressToken`, `io.modelcontextprotocol/clientCapabilities`" },
        protocolVersion: { type: "string" },
        capabilities: { type: "object", additionalProperties: true, description: "initialize: the client's capabilities; `extensions[\"org.x402/payment\"]` asks for the extension binding" },
        clientInfo: { type: "object", additionalProperties: true },
      },
    },
  },
};

/** A tool's arguments: its route's body schema by reference (a component), or its own small schema inline. */
function toolArguments(tool: McpTool): Json {
  const id = requestRegistry.get(tool.input)?.id;
  return id ? { $ref: `#/components/schemas/${id}` } : z.toJSONSchema(tool.input, { io: "input" });
}

export const mcpMessageSchema: Json = {
  description: "A JSON-RPC 2.0 message of the Model Context Protocol, or a batch of them",
  oneOf: [jsonRpcMessage, { type: "array", items: jsonRpcMessage, minItems: 1 }],
};

const error = (description: string): Json => ({ description, content: { "application/json": { schema: { $ref: `#/components/schemas/${MCP_ERROR_SCHEMA_ID}` } } } });

/** The path item of /api/mcp for a deployment reading at most `maxBodyBytes` per paid body. */
export function mcpPathItem({ maxBodyBytes }: { maxBodyBytes: number }): Record<string, Json> {
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
        content: {
          "application/json": {
            schema: { $ref: `#/components/schemas/${MCP_MESSAGE_SCHEMA_ID}` },
            example: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "chat", arguments: { message: "Does rapamycin extend lifespan in mice?" } } },
          },
        },
      },
      responses: {
        "200": {
          description: "The JSON-RPC response, as a Server-Sent Events stream: progress notifications while a paid tool waits for its result, then the result",
          headers: { "Mcp-Session-Id": { description: "On the initialize answer of a client that advertised `org.x402/payment`", schema: { type: "string" } } },
          content: {
            "text/event-stream": {
              schema: { type: "string", description: "Server-Sent Events: each `event: message` carries in its `data` line one JSON-RPC message (a progress notification, then the response)" },
            },
          },
        },
        "202": { description: "Accepted: the message held only notifications or responses" },
        "400": error("Not JSON, or not a JSON-RPC message (`reason: invalid_message`, `code` the JSON-RPC error code)"),
        "406": error("`Accept` lists not both application/json and text/event-stream (`reason: not_acceptable`)"),
        "413": error(`Body larger than ${limit} bytes (\`reason: body_too_large\`)`),
        "415": error("`Content-Type` is not application/json (`reason: unsupported_media_type`)"),
        "500": { description: "Internal failure", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    },
  };
}
