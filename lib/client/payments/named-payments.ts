import type { x402Client } from "@x402/core/client";
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { appendPaymentIdentifierToExtensions, generatePaymentId, isPaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { wrapFetchWithPayment } from "@x402/fetch";
import { resendOnUnavailable } from "@/lib/client/payments/resend";

/**
 * The paying fetch of this project's own clients (the CLI, the local MCP server, the web page):
 * the official client (`wrapFetchWithPayment`), whose payments are named (x402
 * `payment-identifier`, with the SDK's helpers): each call names every payment it signs with one
 * id of its own, wherever the 402 declares the extension and the payment names none yet. So a
 * call whose paid request was sent and whose answer was lost (a dropped connection: the official
 * client forgets the signature it made) asks again, signing anew under the same id, and the
 * service answers the first payment, once, charged once (docs/payments.md, "Naming a payment").
 * A 503 the service could not settle is resent with the same signature (resend.ts). Browser-safe.
 */

/** How many times a call asks again after losing the answer to a paid request. */
const LOST_ANSWER_RETRIES = 2;

export function namedPayingFetch(
  client: x402Client,
  fetchImpl: typeof fetch,
  { retries = LOST_ANSWER_RETRIES, pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) }: { retries?: number; pause?: (ms: number) => Promise<void> } = {},
): typeof fetch {
  const resending = resendOnUnavailable(fetchImpl);
  return async (input, init) => {
    const request = new Request(input, init);
    const id = generatePaymentId();
    // Set when a paid request named by `id` was sent and its answer never came.
    let lost = false;
    const naming: typeof fetch = async (input, init) => {
      const outgoing = new Request(input, init);
      const header = outgoing.headers.get("payment-signature");
      const named = header ? nameIt(outgoing, header, id) : false;
      try {
        return await resending(outgoing);
      } catch (err) {
        lost ||= named;
        throw err;
      }
    };
    const pay = wrapFetchWithPayment(naming, client);
    for (let attempt = 0; ; attempt++) {
      lost = false;
      try {
        return await pay(request.clone());
      } catch (err) {
        // Only a named payment is asked again: unnamed, a second signature could be a second charge.
        if (!lost || attempt >= retries) throw err;
        await pause(500 * (attempt + 1));
      }
    }
  };
}

/** Names the payment of `request` `id` when its 402 declared payment-identifier and it names none yet; whether it is named so. */
function nameIt(request: Request, header: string, id: string): boolean {
  const payload = decodePaymentSignatureHeader(header);
  // A copy: the SDK's helper writes into the declaration it is given.
  const extensions = structuredClone(payload.extensions ?? {});
  const declared = extensions[PAYMENT_IDENTIFIER];
  if (!isPaymentIdentifierExtension(declared)) return false;
  if ("id" in declared.info && typeof declared.info.id === "string") return true;
  request.headers.set("payment-signature", encodePaymentSignatureHeader({ ...payload, extensions: appendPaymentIdentifierToExtensions(extensions, id) }));
  return true;
}
