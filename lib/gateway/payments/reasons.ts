/**
 * The stable `reason` values of refused payments (the 402's `reason` field; `message` carries the
 * details, including the facilitator's own reason when it decided). Documented in docs/payments.md.
 */
export const paymentReasons = {
  payment_required: "Payment required",
  invalid_payment_header: "PAYMENT-SIGNATURE is not a valid x402 payment",
  unsupported_x402_version: "Only x402 version 2 is accepted",
  unsupported_scheme: "Only the exact scheme is accepted",
  unsupported_payload: "Only EIP-3009 transferWithAuthorization payloads are accepted",
  network_mismatch: "The payment is for another network",
  asset_mismatch: "The payment is in another token",
  pay_to_mismatch: "The payment is to another address",
  amount_mismatch: "The payment amount is not this operation's price",
  requirements_mismatch: "The accepted requirements are not this route's",
  authorization_not_yet_valid: "The authorization is not valid yet",
  authorization_expired: "The authorization has expired",
  authorization_window_too_short: "The authorization expires before this operation can be settled",
  authorization_window_too_long: "The authorization's validity window is out of range",
  authorization_cancelled: "The payer cancelled this authorization",
  invalid_signature: "The payment signature does not match the payer",
  invalid_token_domain: "The authorization was signed for another token domain",
  insufficient_funds: "The payer's balance is below the price",
  payment_already_used: "This payment has already been used for another request",
  payment_simulation_failed: "The transfer would fail on chain",
  payment_invalid: "The facilitator refused the payment",
  settlement_failed: "The payment could not be settled",
  settlement_unavailable: "The payment could not be settled: the facilitator was unavailable",
} as const;
export type PaymentReason = keyof typeof paymentReasons;

/**
 * Refusals that are the service's side (its facilitator or the chain could not settle), never the
 * payer's doing: they are not counted against the payer's address as invalid attempts.
 */
const SERVICE_SIDE_REASONS: ReadonlySet<PaymentReason> = new Set(["settlement_failed", "settlement_unavailable"]);

export function isPayersFault(reason: PaymentReason): boolean {
  return !SERVICE_SIDE_REASONS.has(reason);
}

/** Maps what the x402 EVM facilitator returns to our stable reasons. */
const FACILITATOR_REASONS: Record<string, PaymentReason> = {
  invalid_exact_evm_insufficient_balance: "insufficient_funds",
  insufficient_funds: "insufficient_funds",
  invalid_exact_evm_signature: "invalid_signature",
  invalid_exact_evm_nonce_already_used: "payment_already_used",
  invalid_exact_evm_payload_authorization_valid_before: "authorization_expired",
  invalid_exact_evm_payload_authorization_valid_after: "authorization_not_yet_valid",
  invalid_exact_evm_payload_authorization_value_mismatch: "amount_mismatch",
  invalid_exact_evm_authorization_value: "amount_mismatch",
  invalid_exact_evm_recipient_mismatch: "pay_to_mismatch",
  invalid_exact_evm_network_mismatch: "network_mismatch",
  invalid_exact_evm_scheme: "unsupported_scheme",
  invalid_exact_evm_token_name_mismatch: "invalid_token_domain",
  invalid_exact_evm_token_version_mismatch: "invalid_token_domain",
  invalid_exact_evm_missing_eip712_domain: "invalid_token_domain",
  invalid_exact_evm_eip3009_not_supported: "unsupported_payload",
  invalid_exact_evm_transaction_simulation_failed: "payment_simulation_failed",
  invalid_exact_evm_transaction_failed: "settlement_failed",
  invalid_exact_evm_transfer_event_mismatch: "settlement_failed",
};

export function mapFacilitatorReason(reason: string | undefined, fallback: PaymentReason): PaymentReason {
  return (reason && FACILITATOR_REASONS[reason]) || fallback;
}

/** A refused payment: answered 402 with the requirements, `reason` and `message`. */
export class PaymentError extends Error {
  readonly reason: PaymentReason;
  readonly detail: string | undefined;
  constructor(reason: PaymentReason, detail?: string) {
    super(paymentReasons[reason]);
    this.name = "PaymentError";
    this.reason = reason;
    this.detail = detail;
  }
}

