import { createOfferReceiptExtension, declareOfferReceiptExtension, OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { encodeBuilt, type BuiltPaymentRequired } from "@/lib/gateway/payments/requirements";
import type { OfferReceiptSigner } from "@/lib/gateway/offer-receipt/signer";
import { isRecord } from "@/lib/shared/narrow";

/**
 * The signed offers of a 402 (x402 offer-and-receipt §4): one per `accepts[]` entry, each the
 * terms of that entry for the route's resource, signed by the SDK's offer-receipt server extension
 * with this deployment's key and valid for the entry's `maxTimeoutSeconds` (the SDK's default).
 * The body carries them with the SDK's JSON Schema, PAYMENT-REQUIRED with `info` alone (its size is
 * bounded: docs/payments.md, "Headers that fit").
 *
 * A 402 is the hot path of every price discovery, so offers are not signed per request: a route's
 * signed 402 is kept, and signed anew once half its offers' validity has passed, so every offer
 * served holds at least half its window.
 */

type Kept = { refreshAt: number; built: Promise<BuiltPaymentRequired> };
const kept = new WeakMap<BuiltPaymentRequired, Map<string, Kept>>();

/** `built` (the route's static 402, lib/gateway/payments/requirements.ts) with its offers signed by `signer`. */
export function withSignedOffers(built: BuiltPaymentRequired, signer: OfferReceiptSigner, nowMs = Date.now()): Promise<BuiltPaymentRequired> {
  let bySigner = kept.get(built);
  if (!bySigner) kept.set(built, (bySigner = new Map()));
  const current = bySigner.get(signer.address);
  if (current && nowMs < current.refreshAt) return current.built;
  const windowSeconds = Math.min(...built.body.accepts.map((a) => a.maxTimeoutSeconds));
  const fresh: Kept = { refreshAt: nowMs + windowSeconds * 500, built: sign(built, signer) };
  // A signature that failed is not kept: the next request tries again.
  fresh.built.catch(() => bySigner.get(signer.address) === fresh && bySigner.delete(signer.address));
  bySigner.set(signer.address, fresh);
  return fresh.built;
}

async function sign(built: BuiltPaymentRequired, signer: OfferReceiptSigner): Promise<BuiltPaymentRequired> {
  const extension = createOfferReceiptExtension(signer.issuer);
  const required = built.body;
  const offers = await extension.enrichPaymentRequiredResponse!(declareOfferReceiptExtension({ includeTxHash: true })[OFFER_RECEIPT], {
    requirements: required.accepts,
    resourceInfo: required.resource,
    paymentRequiredResponse: required,
  });
  // The extension as the SDK wrote it (`info.offers`, its `schema`): one signed offer per requirement.
  const info = isRecord(offers) && isRecord(offers.info) ? offers.info : null;
  if (!info || !Array.isArray(info.offers) || info.offers.length !== required.accepts.length) throw new Error(`the offers of ${required.resource.url} could not be signed`);
  return encodeBuilt({
    body: { ...built.body, extensions: { ...built.body.extensions, [OFFER_RECEIPT]: offers } },
    headerBody: { ...built.headerBody, extensions: { ...built.headerBody.extensions, [OFFER_RECEIPT]: { info } } },
    bazaar: built.bazaar,
  });
}
