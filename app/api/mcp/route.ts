import { withApi } from "@/lib/shared/http";
import { handleMcpRequest } from "@/lib/gateway/mcp/endpoint";
import { GATEWAY_ROUTES } from "./gateway-routes";

export const dynamic = "force-dynamic";

// POST /api/mcp – the Model Context Protocol endpoint (Streamable HTTP, stateless; free): the
// catalog's tools, the paid ones paid per the x402 MCP transport through their HTTP routes
export const POST = withApi("POST /api/mcp", ({ request }) => handleMcpRequest({ request, routes: GATEWAY_ROUTES }));
