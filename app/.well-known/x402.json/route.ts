import { getConfig } from "@/lib/gateway/config";
import { buildDiscoveryManifest } from "@/lib/gateway/discovery/manifest";
import { OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { publishedSigners } from "@/lib/gateway/offer-receipt/signer";

export const dynamic = "force-dynamic";

// GET /.well-known/x402.json – the x402 discovery manifest: every paid route as its live 402 states it,
// and the keys that sign its offers and receipts (free)
export const GET = withApi("GET /.well-known/x402.json", async () => {
  const config = getConfig();
  // Beside the draft's fields, the keys that sign this service's offers and receipts (x402 offer-and-receipt).
  const manifest = { ...buildDiscoveryManifest({ settings: config.payments, publicUrl: config.publicUrl }), [OFFER_RECEIPT]: publishedSigners(config.offerReceipt) };
  return jsonResponse(manifest, {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*", "x-content-type-options": "nosniff" },
  });
});
