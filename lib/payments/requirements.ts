import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { z } from "zod";
import type { GatewayConfig } from "@/lib/config";
import {
  chatAcceptedSchema,
  chatRequestSchema,
  deepResearchAcceptedSchema,
  deepResearchStartRequestSchema,
  encryptedChatAcceptedSchema,
  encryptedDeepResearchAcceptedSchema,
  encryptedEnvelopeSchema,
  encryptedLiteratureAcceptedSchema,
  literatureAcceptedSchema,
  literatureQueryRequestSchema,
  X402_VERSION,
} from "@/lib/contracts";
import { jsonResponse } from "@/lib/http";
import { getPaidOperation, type PaidOperation } from "./prices";
import { paymentReasons, type PaymentReason } from "./reasons";

export type PaymentSettings = GatewayConfig["payments"];

const ENVELOPE_EXAMPLE = { hpke_ciphertext: "<base64 nonce || ciphertext>", hpke_ephemeral_public_key: "<base64 X25519 key>" };

/** What each paid route takes and answers, for the bazaar discovery extension. */
const DISCOVERY: Record<PaidOperation["id"], { input: z.ZodType; example: unknown; output: z.ZodType }> = {
  deepResearch: {
    input: deepResearchStartRequestSchema,
    example: { message: "What is the evidence that rapamycin extends healthy lifespan in mammals?" },
    output: deepResearchAcceptedSchema,
  },
  deepResearchEncrypted: { input: encryptedEnvelopeSchema, example: ENVELOPE_EXAMPLE, output: encryptedDeepResearchAcceptedSchema },
  chat: { input: chatRequestSchema, example: { message: "Does metformin slow aging in humans?" }, output: chatAcceptedSchema },
  chatEncrypted: { input: encryptedEnvelopeSchema, example: ENVELOPE_EXAMPLE, output: encryptedChatAcceptedSchema },
  literature: {
    input: literatureQueryRequestSchema,
    example: { question: "senolytics and frailty in older adults", mode: "fast" },
    output: literatureAcceptedSchema,
  },
  literatureEncrypted: { input: encryptedEnvelopeSchema, example: ENVELOPE_EXAMPLE, output: encryptedLiteratureAcceptedSchema },
};

/** The one way to pay for `operation` on this deployment (the `accepts[0]` of its 402). */
export function buildRequirements(operation: PaidOperation["id"], settings: PaymentSettings): PaymentRequirements {
  const op = getPaidOperation(operation);
  return {
    scheme: "exact",
    network: settings.network as PaymentRequirements["network"],
    amount: op.amount,
    asset: settings.asset,
    payTo: settings.payTo,
    maxTimeoutSeconds: op.maxTimeoutSeconds,
    extra: { name: settings.assetName, version: settings.assetVersion },
  };
}

type Built = { body: PaymentRequired; json: string; header: string };
const cache = new Map<string, Built>();

/**
 * The payment requirements of section 2.2 for one route, with the bazaar discovery extension
 * (the route's input as JSON Schema generated from its zod schema). Built once per route and
 * deployment: the 402 path is the hot path of every price discovery and crawler.
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
  const discovery = DISCOVERY[operation];
  const extensions = declareDiscoveryExtension({
    bodyType: "json",
    input: discovery.example as Record<string, unknown>,
    inputSchema: z.toJSONSchema(discovery.input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
    output: { schema: z.toJSONSchema(discovery.output, { io: "output", unrepresentable: "any" }) as Record<string, unknown> },
  });
  const bazaar = extensions.bazaar as { info: { input: Record<string, unknown> } } | undefined;
  if (bazaar) bazaar.info.input = { ...bazaar.info.input, method: op.method };
  const body: PaymentRequired = {
    x402Version: X402_VERSION,
    error: paymentReasons.payment_required,
    resource: { url: `${publicUrl}${op.path}`, description: `${op.summary} (${op.price})`, mimeType: "application/json" },
    accepts: [buildRequirements(operation, settings)],
    extensions,
  };
  const built = { body, json: JSON.stringify(body), header: encodePaymentRequiredHeader(body) };
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
    return new Response(built.json, {
      status: 402,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "payment-required": built.header },
    });
  }
  const body = {
    ...built.body,
    error: paymentReasons[refusal.reason],
    reason: refusal.reason,
    ...(refusal.message ? { message: refusal.message } : {}),
  };
  return jsonResponse(body, { status: 402, headers: { "payment-required": encodePaymentRequiredHeader(body) } });
}
