import { getConfig } from "@/lib/gateway/config";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";

export const dynamic = "force-dynamic";

let cached: Record<string, unknown> | undefined;

// GET /api/openapi.json – the OpenAPI 3.1 description of every route, with prices
export const GET = withApi("GET /api/openapi.json", async () => {
  cached ??= buildOpenApiDocument({ publicUrl: getConfig().publicUrl, maxBodyBytes: getConfig().maxBodyBytes });
  return jsonResponse(cached, {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
});
