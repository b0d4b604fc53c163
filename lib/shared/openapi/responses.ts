import { componentRef } from "@/lib/shared/contracts";

/**
 * The pieces the OpenAPI document's operations share: JSON responses, the error answers every
 * route can give, the x402 headers, and the answers of the API edge to a request no operation
 * serves. Headers marked `required` are sent on every answer of their status (the accuracy test
 * checks it).
 */

export type Json = Record<string, unknown>;

export const ref = componentRef;

/** A JSON response of schema `schemaId`, with an example and what a sealed answer opens to where given. */
export function json(schemaId: string, description: string, { example, sealedAnswer, headers }: { example?: unknown; sealedAnswer?: { schemaId: string; description: string }; headers?: Json } = {}): Json {
  const media: Json = { schema: ref(schemaId) };
  if (example !== undefined) media.example = example;
  if (sealedAnswer) media["x-sealed-answer"] = { description: sealedAnswer.description, schema: ref(sealedAnswer.schemaId) };
  return { description, ...(headers ? { headers } : {}), content: { "application/json": media } };
}

export const error = (description: string, headers?: Json): Json => json("Error", description, headers ? { headers } : {});

/** 256 KiB, 1 MiB, or a number of bytes. */
export function bytesInWords(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

export const retryAfter = (description: string, required = false): Json => ({ description, required, schema: { type: "integer", minimum: 0 } });

export const paymentSignatureHeader = {
  name: "PAYMENT-SIGNATURE",
  in: "header",
  required: false,
  description:
    "x402 v2 payment payload, standard base64 of UTF-8 JSON. Without it the route answers 402 with the payment requirements. A payment named with an id (`extensions[\"payment-identifier\"].info.id`, as the 402 declares) is answered once for this request whatever the signature: a retry signed anew gets the first answer, charged once.",
  schema: { type: "string" },
};

export const pathParam = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string" } });

export const paymentRequired: Json = {
  description:
    "Payment absent or invalid: the payment requirements (`accepts`: scheme, network, amount in the token's base units, asset, payee, validity), and for a refused payment its `reason` and `message`. Without a payment, a body the route would refuse still gets the requirements, and `error` says what the 400 (or 413) after payment would: status, reason, each field and its problem.",
  headers: {
    "PAYMENT-REQUIRED": {
      description:
        "The same payment requirements, standard base64 of UTF-8 JSON, kept small for proxies and facilitators: its `extensions` carry what a client echoes when it pays (the bazaar extension's method, body type and example body, without the schemas, the 202 or the polling the body's carries; payment-identifier's and offer-receipt's `info`, the signed offers included, without their schemas); a refusal's `error` is cut short and its `message` left to the body.",
      required: true,
      schema: { type: "string" },
    },
  },
  content: { "application/json": { schema: ref("PaymentRequired") } },
};

/** The headers of a paid route's 2xx: its receipt is required where the payment settles before the answer. */
export const paidAnswerHeaders = (settledWithAnswer: boolean): Json => ({
  "x-payment-replayed": {
    description: "true when this is the stored answer to a retried request with the same payment",
    schema: { type: "string", enum: ["true"] },
  },
  "PAYMENT-RESPONSE": {
    description: settledWithAnswer
      ? "The x402 settlement response (standard base64 of UTF-8 JSON: success, transaction, network, payer), with the service's signed receipt of this payment in `extensions[\"offer-receipt\"].info.receipt` (x402 offer-and-receipt; EIP-712, verified against the keys /.well-known/x402.json publishes): the payment was settled before this answer."
      : "Absent: this payment is settled when the work is delivered, and its receipt comes with the status route's answer that delivers it.",
    required: settledWithAnswer,
    schema: { type: "string" },
  },
});

export const rateLimited: Json = json("RateLimited", "`too_many_invalid_payments`: too many invalid payment attempts from this client address; wait `retryAfterSeconds`. `too_many_payments_in_flight`: as many payments from this address as the limit are still being checked; send the same request with the same PAYMENT-SIGNATURE again after `retryAfterSeconds` (nothing was recorded or charged)", {
  headers: { "Retry-After": retryAfter("Seconds to wait", true) },
});

/** Deep research's 429: its bound of unsettled turns per payer and per client address, or the invalid-attempt limit. */
export const unsettledTurns: Json = json(
  "RateLimited",
  "`too_many_unsettled_turns`: the payer, or this client address, has as many deep-research turns not yet settled as it may (DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER, _PER_CLIENT); nothing was started, `charged: false`, and the same PAYMENT-SIGNATURE is accepted once a turn has finished. Or `too_many_invalid_payments`: too many invalid payment attempts from this client address. Wait `retryAfterSeconds`",
  { headers: { "Retry-After": retryAfter("Seconds to wait", true) } },
);

/** The body errors of a route that reads at most `maxBytes`: the limit the route itself enforces. */
export const bodyErrors = (maxBytes: number, { paid }: { paid: boolean }): Json => ({
  "400": error(
    "Invalid body (malformed JSON, not an object, or failing the schema, a field the schema does not define included; text PostgreSQL cannot store, NUL or an unpaired surrogate, in any string), or a path that does not decode." +
      (paid
        ? " With a payment, `charged: false`: nothing was recorded, and the same PAYMENT-SIGNATURE pays for the corrected request. `invalid_payment_identifier`: the payment's `payment-identifier` extension is malformed (its id 16 to 128 letters, digits, `-` or `_`), nothing recorded."
        : ""),
  ),
  "413": error(`Body larger than this route's limit, ${bytesInWords(maxBytes)} (${maxBytes} bytes); refused before it is read whole`),
});

/** A paid route's 409: x402 payment-identifier (lib/gateway/payments/paid-identifier.ts). */
export const paymentIdentifierConflict = error(
  "`payment_identifier_conflict`: the `payment-identifier` id this payment names already named a payment of this payer for another request; `payment_identifier_expired`: it named one for this request whose answer is no longer kept. `charged: false`: this signature was neither recorded nor settled; name a new request's payment with a new id.",
);

export const settlementUnavailable =
  "`settlement_unavailable`: the payment could not be settled now (facilitator or chain unreachable); nothing was delivered or charged. Send the same request with the same PAYMENT-SIGNATURE again after Retry-After. `payment_in_progress`: the same payment is still being answered. `database_unavailable`: the service's database cannot be reached now.";

/** What a route that reads the gateway's database answers while it cannot be reached. */
export const databaseUnavailable = error("`database_unavailable`: the service's database cannot be reached now; try again after Retry-After", {
  "Retry-After": retryAfter("Seconds to wait", true),
});

/** What a route read by signing in answers while its database, or the chain that judges a contract wallet's proof, cannot be reached. */
export const signedInUnavailable = error(
  "`database_unavailable`: the service's database cannot be reached now. `chain_unavailable`: a SIGN-IN-WITH-X proof not signed by the address's own key (a contract wallet: EIP-1271, EIP-6492) could not be checked on chain now. Either way, try again after Retry-After",
  { "Retry-After": retryAfter("Seconds to wait", true) },
);

/** What a free route that asks the agent answers when the agent cannot answer. */
export const agentUnavailable = error("`upstream_unreachable`, `upstream_timeout` or `upstream_error`: the research agent could not be reached, timed out or failed");

/** 503 `literature_unavailable`, or another reason given as an Error. */
export const literatureUnavailable = (others: string): Json => ({
  description:
    "`literature_unavailable` (a LiteratureUnavailable body): reason `no_source_reachable`, no literature source can answer, every live source failing and the local library empty; answered before the 402 when known, or after payment when the started search reached no source; or reason `nothing_in_library`, after payment: every live source failed and the local library, searched, has nothing on the question (asking again helps once a live source is back, after Retry-After; other words may find something now). Either way nothing is charged. Or, as an Error: " +
    others,
  headers: { "Retry-After": retryAfter("Seconds to wait before trying again") },
  content: { "application/json": { schema: { oneOf: [ref("LiteratureUnavailable"), ref("Error")] } } },
});

/**
 * What the API edge answers, before any operation, to a request none serves: the document's
 * top-level `x-unserved-requests`.
 */
export const unservedRequests: Json = {
  "404": error("No operation serves this path (`reason: not_found`)"),
  "405": error("The path is served, but not with this method (`reason: method_not_allowed`); `Allow` lists its methods", {
    Allow: { description: "The methods the path serves, with HEAD wherever GET is, and OPTIONS", required: true, schema: { type: "string" } },
  }),
};
