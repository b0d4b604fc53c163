import { getConfig } from "@/lib/config";
import { buildDiscoveryManifest } from "@/lib/discovery/manifest";
import { jsonResponse, withApi } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /.well-known/x402.json – the x402 discovery manifest: every paid route as its live 402 states it (free)
export const GET = withApi("GET /.well-known/x402.json", async () => {
  const config = getConfig();
  return jsonResponse(buildDiscoveryManifest({ settings: config.payments, publicUrl: config.publicUrl }), {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*", "x-content-type-options": "nosniff" },
  });
});
