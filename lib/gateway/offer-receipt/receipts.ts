import { OFFER_RECEIPT, type SignedReceipt } from "@x402/extensions/offer-receipt";
import type { OfferReceiptSigner } from "@/lib/gateway/offer-receipt/signer";

/**
 * The signed receipt of a settled payment (x402 offer-and-receipt §5), by the SDK's issuer: the
 * resource paid for, the payer, the network and the transaction. The spec leaves the transaction
 * out by default, for privacy; here it is in, because a receipt must prove which payment it is
 * for (without it, two payments of one payer for one route have interchangeable receipts), and the
 * payer already holds the transaction: PAYMENT-RESPONSE names it.
 */
export function issueReceipt(
  signer: OfferReceiptSigner,
  { resourceUrl, payer, network, transaction }: { resourceUrl: string; payer: string; network: string; transaction: string },
): Promise<SignedReceipt> {
  return signer.issuer.issueReceipt(resourceUrl, payer, network, transaction);
}

/** A settlement response's `extensions` carrying `receipt`, where the spec places it (§5.1). */
export const receiptExtensions = (receipt: SignedReceipt): Record<string, unknown> => ({ [OFFER_RECEIPT]: { info: { receipt } } });
