import type { PaymentPayload } from "@x402/core/types";
import { extractAndValidatePaymentIdentifier } from "@x402/extensions/payment-identifier";
import { getAddress } from "viem";
import { ApiError } from "@/lib/shared/http";
import { paidAnswers, replayResponse } from "@/lib/gateway/payments/answers";
import { storeResponse, type PaymentRow } from "@/lib/gateway/payments/ledger";
import { sameSignatureAgain } from "@/lib/gateway/payments/paid-retry";
import { receiptSource, refuse, unavailable, unchargedResponse, type PaidRequest } from "@/lib/gateway/payments/paid-steps";
import { isEoaSignature, type CheckedPayment } from "@/lib/gateway/payments/verify-locally";

/**
 * x402 `payment-identifier` (x402 `specs/extensions/payment_identifier.md`), with the SDK's own
 * helpers: a client may name its payment with an id; the same id with the same request is
 * answered once, whatever the signature (a client that lost its signature signs anew), and the
 * same id with another request is refused 409. It sits beside the same-signature retry, on the
 * same ledger: the id is kept in the payment's own row (ledger.ts), unique per payer, token and
 * network, so concurrent requests with one id claim one row and the claim's statement writes both.
 * Every 402 declares it (lib/gateway/payments/requirements.ts).
 */

/** The refusals of this extension, by `reason`: not payment refusals (402), nothing is charged. */
const REFUSALS = {
  invalid_payment_identifier: "The payment-identifier extension is malformed",
  payment_identifier_conflict: "This payment-identifier already named a payment for another request; use a new id for a new request",
  payment_identifier_expired: "This payment-identifier's payment ended and its answer is no longer kept; nothing more can be given for it: use a new id",
} as const;

/** The payment's id, or null when the client named none; an ApiError (400) for an extension the SDK's validation refuses. */
export function paymentIdentifierOf(payload: PaymentPayload): string | null {
  const { id, validation } = extractAndValidatePaymentIdentifier(payload);
  if (!validation.valid) {
    throw new ApiError("bad_request", REFUSALS.invalid_payment_identifier, { reason: "invalid_payment_identifier", message: (validation.errors ?? []).join("; ") });
  }
  return id;
}

/** A refusal of this extension, answered with `charged: false`: nothing was recorded for this signature. */
function refusal(kind: "conflict", reason: "payment_identifier_conflict" | "payment_identifier_expired"): Promise<Response> {
  return unchargedResponse(new ApiError(kind, REFUSALS[reason], { reason }).toResponse());
}

/** The payment a ledger row holds, as the local checks would have given it when it was first sent. */
function storedPayment(row: PaymentRow): CheckedPayment {
  const { signature, authorization } = row.payload.payload as { signature: string; authorization: CheckedPayment["authorization"] };
  return {
    payload: row.payload,
    authorization,
    payer: getAddress(row.payer),
    nonce: row.nonce,
    validAfter: row.validAfter,
    validBefore: row.validBefore,
    signatureCheckedLocally: isEoaSignature(signature),
  };
}

/**
 * Step 6 for a new signature naming a payment the ledger already holds for this payer. The new
 * signature is never claimed or settled: the payment is the row's. For another request: 409. For
 * the same request: the row's own authorization sent again (paid-retry.ts: the original answer,
 * a resumed payment, a wait for the request holding it) while it can still pay for this work;
 * once it cannot (too little validity left, or expired), only what the payment was answered is
 * given again, and never the work: 409 when that answer is no longer kept.
 */
export async function sameIdentifierAgain<B>(ctx: PaidRequest<B>, checked: CheckedPayment, first: PaymentRow): Promise<Response> {
  // The lookup by id must not answer a payer it has not authenticated: a signature the local
  // checks could not recover (a contract wallet's) is the facilitator's to judge, first.
  if (!checked.signatureCheckedLocally) {
    const verdict = await ctx.timing.measure("verify", () => ctx.deps.facilitator.verify(checked.payload, ctx.requirements));
    if (verdict.kind === "refused") return refuse(ctx, verdict.reason, verdict.message);
    if (verdict.kind !== "valid") unavailable("Payment verification is unavailable right now; nothing was charged", verdict.message);
  }
  if (first.requestDigest !== ctx.digest) return refusal("conflict", "payment_identifier_conflict");
  const stored = storedPayment(first);
  if (first.validBefore - ctx.deps.nowSeconds() >= ctx.op.minRemainingSeconds) return sameSignatureAgain(ctx, stored, first);
  return keptAnswer(ctx, stored, first);
}

/** What a payment that can no longer pay for work was answered, given again (or 503 while it is still being answered). */
async function keptAnswer<B>(ctx: PaidRequest<B>, stored: CheckedPayment, row: PaymentRow): Promise<Response> {
  if (row.response) return replayResponse(row.response);
  if (row.status === "settled" && row.work && row.txHash) {
    const answer = await paidAnswers(row.work, { payer: stored.payer, ...receiptSource(ctx, row.id) })(row.txHash);
    await storeResponse({ db: ctx.db, id: row.id, response: answer });
    return replayResponse(answer);
  }
  if (["received", "verified", "settling", "scheduled"].includes(row.status)) {
    throw new ApiError("unavailable", "This payment is still being processed; retry shortly", { reason: "payment_in_progress", headers: { "retry-after": "2" } });
  }
  return refusal("conflict", "payment_identifier_expired");
}
