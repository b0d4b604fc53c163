import type { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { appendPaymentIdentifierToExtensions, declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";

/**
 * Makes the official client name every payment it signs with `id()` (x402 `payment-identifier`),
 * with the SDK's own helpers: the 402's declaration, or the SDK's where a 402 lacks one (to show
 * what a server that ignores the id does), with the id appended.
 */
export function namePayments(client: x402Client, id: () => string): x402Client {
  return client.registerExtension({
    key: PAYMENT_IDENTIFIER,
    enrichPaymentPayload: async (payload) => {
      // The helper writes into the declaration it is given: a copy, so the 402 stays as it came.
      const extensions = structuredClone(payload.extensions ?? {});
      extensions[PAYMENT_IDENTIFIER] ??= declarePaymentIdentifierExtension();
      return { ...payload, extensions: appendPaymentIdentifierToExtensions(extensions, id()) };
    },
  });
}

/** PAYMENT-SIGNATURE for `payload` naming its payment `id`, with the SDK's helpers (the SDK's declaration, the id appended). */
export function namedPaymentHeader(payload: PaymentPayload, id: string): string {
  const extensions = appendPaymentIdentifierToExtensions({ [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension() }, id);
  return encodePaymentSignatureHeader({ ...payload, extensions });
}
