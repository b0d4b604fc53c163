import { getConfig } from "@/lib/gateway/config";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { buildSealingPage, type SealingPage } from "@/lib/shared/sealing/page";

export const dynamic = "force-dynamic";

let cached: SealingPage | undefined;

// GET /api/sealing – how to seal a private request and open its answer, with test vectors (free)
export const GET = withApi("GET /api/sealing", async () => {
  cached ??= buildSealingPage({ publicUrl: getConfig().publicUrl });
  return jsonResponse(cached, { headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" } });
});
