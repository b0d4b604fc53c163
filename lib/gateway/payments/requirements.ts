import { encodePaymentRequiredHeader } from "@x402/core/http";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { GatewayConfig } from "@/lib/gateway/config";
import { X402_VERSION } from "@/lib/shared/contracts";
import { signInDeclaration } from "@/lib/gateway/history/sign-in-with-x";
import { cutForHeader } from "@/lib/gateway/payments/header-text";
import { buildBazaarExtension, buildBazaarHeaderExtension, type BazaarExtension } from "@/lib/gateway/discovery/bazaar";
import { jsonResponse } from "@/lib/shared/http";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";
import { paymentReasons, type PaymentReason } from "@/lib/gateway/payments/reasons";

export type PaymentSettings = GatewayConfig["payments"];

/** The one way to pay for `operation` on this deployment (the `accepts[0]` of its 402). */
export function buildRequirements(operation: PaidOperation["id"], settings: PaymentSettings): PaymentRequirements {
  const op = getPaidOperation(operation);
  return {
    scheme: "exact",
    network: settings.network,
    amount: op.amount,
    asset: settings.asset,
    payTo: settings.payTo,
    maxTimeoutSeconds: op.maxTimeoutSeconds,
    extra: { name: settings.assetName, version: settings.assetVersion },
  };
}

/** x402 payment-identifier as every 402 declares it: a client may name its payment (lib/gateway/payments/paid-identifier.ts), and need not. */
const PAYMENT_IDENTIFIER_EXTENSION = { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) };
/**
 * The same declaration in PAYMENT-REQUIRED: `info` alone, all the SDK's client and server helpers
 * read; its JSON Schema stays in the body (the header's room goes to the signed offers).
 */
const PAYMENT_IDENTIFIER_HEADER_EXTENSION = { [PAYMENT_IDENTIFIER]: { info: PAYMENT_IDENTIFIER_EXTENSION[PAYMENT_IDENTIFIER].info } };

/**
 * `bytes`: the body as sent, encoded once (a 402 is answered far more often than it is built);
 * `headerBody`: what PAYMENT-REQUIRED carries, the body's requirements with the lighter extensions
 * (below), and `header` its encoding; `bazaar`: the body's bazaar extension, as typed as it was
 * built (the discovery manifest projects it).
 */
export type BuiltPaymentRequired = { body: PaymentRequired; json: string; bytes: Uint8Array<ArrayBuffer>; headerBody: PaymentRequired; header: string; bazaar: BazaarExtension };
type Built = BuiltPaymentRequired;
const cache = new Map<string, Built>();

/** A 402's body and header body, encoded once for the many answers that give them. */
export function encodeBuilt({ body, headerBody, bazaar }: { body: PaymentRequired; headerBody: PaymentRequired; bazaar: BazaarExtension }): Built {
  const json = JSON.stringify(body);
  return { body, json, bytes: new TextEncoder().encode(json), headerBody, header: encodePaymentRequiredHeader(headerBody), bazaar };
}

/**
 * The payment requirements of section 2.2 for one route, with the bazaar discovery extension
 * (lib/gateway/discovery/bazaar.ts: the route's input and its 202 as JSON Schema generated from their zod
 * schemas, and where to poll) and x402 payment-identifier (lib/gateway/payments/paid-identifier.ts). Built once per route and deployment: the 402 path is the hot path
 * of every price discovery and crawler; /.well-known/x402.json and /llms.txt are read from it.
 * The PAYMENT-REQUIRED header carries the same requirements with a bazaar extension of what a
 * facilitator catalogs, no schemas: the official client echoes the header's extensions in every
 * PAYMENT-SIGNATURE, which proxies and hosted facilitators bound (docs/payments.md, "Headers that fit").
 */
export function buildPaymentRequired({
  operation,
  settings,
  publicUrl,
}: {
  operation: PaidOperation["id"];
  settings: PaymentSettings;
  publicUrl: string;
}): Built {
  const key = `${operation}|${publicUrl}|${settings.network}|${settings.asset}|${settings.payTo}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const op = getPaidOperation(operation);
  const bazaar = buildBazaarExtension({ operation, publicUrl });
  const body: PaymentRequired = {
    x402Version: X402_VERSION,
    error: paymentReasons.payment_required,
    resource: { url: `${publicUrl}${op.path}`, description: `${op.summary} (${op.price})`, mimeType: "application/json" },
    accepts: [buildRequirements(operation, settings)],
    extensions: {
      bazaar,
      ...PAYMENT_IDENTIFIER_EXTENSION,
      // Where a payer signs in to reopen what it bought: the body only, since the official client
      // signs any sign-in-with-x its header carries before it pays (lib/gateway/history/sign-in-with-x.ts).
      [SIGN_IN_WITH_X]: signInDeclaration({ publicUrl, network: settings.network }),
    },
  };
  const headerBody: PaymentRequired = { ...body, extensions: { bazaar: buildBazaarHeaderExtension({ operation }), ...PAYMENT_IDENTIFIER_HEADER_EXTENSION } };
  const built = encodeBuilt({ body, headerBody, bazaar });
  cache.set(key, built);
  return built;
}

/**
 * A 402: the requirements in the body and the PAYMENT-REQUIRED header; for a refused payment,
 * `error`, `reason` and `message` say why.
 */
export function paymentRequiredResponse(
  built: Built,
  refusal?: { reason: PaymentReason; message?: string | undefined },
): Response {
  if (!refusal) {
    return new Response(built.bytes, {
      status: 402,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "payment-required": built.header },
    });
  }
  const said = { error: paymentReasons[refusal.reason], reason: refusal.reason, ...(refusal.message ? { message: refusal.message } : {}) };
  return jsonResponse({ ...built.body, ...said }, { status: 402, headers: { "payment-required": paymentRequiredHeader(built, said) } });
}

/** The longest `error` a paid route's PAYMENT-REQUIRED repeats: the header's room goes to the signed offers. */
const PAID_HEADER_TEXT_MAX = 100;

/**
 * PAYMENT-REQUIRED for a 402 whose body says more than the requirements (`error`, and for a
 * refused payment `reason` and `message`): the header's requirements with the same `error`, cut
 * at PAID_HEADER_TEXT_MAX characters, and `reason`; `message` stays in the body, whole (the
 * header's room goes to the signed offers: docs/payments.md, "Headers that fit").
 */
export function paymentRequiredHeader(built: Built, said: { error: string; reason?: string; message?: string }): string {
  // A PaymentRequired with the refusal's `reason` beside its fields (x402's type names no such field; the header carries it all the same).
  const header = { ...built.headerBody, error: cutForHeader(said.error, PAID_HEADER_TEXT_MAX), ...(said.reason ? { reason: said.reason } : {}) };
  return encodePaymentRequiredHeader(header);
}
