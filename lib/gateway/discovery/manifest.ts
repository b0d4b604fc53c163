import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import { X402_VERSION } from "@/lib/shared/contracts";
import { PAID_OPERATIONS } from "@/lib/shared/operations";
import { buildPaymentRequired, type BuiltPaymentRequired, type PaymentSettings } from "@/lib/gateway/payments/requirements";
import type { AsyncPolling } from "@/lib/shared/discovery/polling";

/**
 * The per-origin discovery manifest of the x402 well-known discovery draft
 * (`specs/extensions/well-known-discovery.md`, served at /.well-known/x402.json): one item per
 * paid route, each a projection of that route's live 402 (lib/gateway/payments/requirements.ts), so the
 * manifest cannot say anything the 402 does not. As the draft does, the bazaar contract is lifted
 * to top-level `input` (method, body type, the body's JSON Schema) and `output` (MIME type, the
 * 202's example and JSON Schema); `output.asyncPolling` carries the bazaar extension's own field
 * of that name (where and how to poll). `extensions` repeats the 402's declarations of the
 * extensions a client may use as it pays (payment-identifier) or after (sign-in-with-x: where the
 * payer signs in to reopen what it bought): static ones only, as the draft
 * leaves a runtime challenge to the live 402; none is required, so there is no `requires`.
 */
export type DiscoveryManifestItem = {
  resource: PaymentRequired["resource"];
  type: "http";
  accepts: PaymentRequirements[];
  input: { method: string; bodyType: string; body: Record<string, unknown> };
  output: { mimeType?: string; example: Record<string, unknown>; schema: Record<string, unknown>; asyncPolling: AsyncPolling };
  extensions: Record<string, unknown>;
};

/** The 402's extensions an item repeats as they are (the bazaar is lifted into `input` and `output`). */
const DECLARED_EXTENSIONS = [PAYMENT_IDENTIFIER, SIGN_IN_WITH_X];

export type DiscoveryManifest = { x402Version: number; lastUpdated: number; items: DiscoveryManifestItem[] };

/** One route's item, read from its 402 (`body`, whose bazaar extension is `bazaar`). */
function manifestItemOf({ body: required, bazaar }: BuiltPaymentRequired): DiscoveryManifestItem {
  const { input, output } = bazaar.info;
  return {
    resource: required.resource,
    type: input.type,
    accepts: required.accepts,
    input: { method: input.method, bodyType: input.bodyType, body: bazaar.schema.properties.input.properties.body },
    output: {
      ...(required.resource.mimeType ? { mimeType: required.resource.mimeType } : {}),
      example: output.example,
      schema: bazaar.schema.properties.output.properties.example,
      asyncPolling: output.asyncPolling,
    },
    extensions: Object.fromEntries(DECLARED_EXTENSIONS.filter((key) => required.extensions?.[key]).map((key) => [key, required.extensions![key]])),
  };
}

const cache = new Map<string, DiscoveryManifest>();

/**
 * The manifest of the deployment at `publicUrl` taking `settings`' payments. Resolved once per
 * deployment, as the draft suggests (the route table changes only with a new build): `lastUpdated`
 * is when this process resolved it.
 */
export function buildDiscoveryManifest({ settings, publicUrl }: { settings: PaymentSettings; publicUrl: string }): DiscoveryManifest {
  const key = `${publicUrl}|${settings.network}|${settings.asset}|${settings.payTo}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const manifest: DiscoveryManifest = {
    x402Version: X402_VERSION,
    lastUpdated: Math.floor(Date.now() / 1000),
    items: PAID_OPERATIONS.map((op) => manifestItemOf(buildPaymentRequired({ operation: op.id, settings, publicUrl }))),
  };
  cache.set(key, manifest);
  return manifest;
}
