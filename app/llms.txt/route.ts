import { getConfig } from "@/lib/gateway/config";
import { buildLlmsTxt } from "@/lib/gateway/discovery/llms-txt";
import { withApi } from "@/lib/shared/http";

export const dynamic = "force-dynamic";

// GET /llms.txt – the service for language models: prices, pay then poll, free routes, private mode (free)
export const GET = withApi("GET /llms.txt", async () => {
  const config = getConfig();
  const text = buildLlmsTxt({ settings: config.payments, publicUrl: config.publicUrl, maxBodyBytes: config.maxBodyBytes });
  return new Response(text, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff",
    },
  });
});
