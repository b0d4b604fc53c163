import { OFFER_RECEIPT } from "@x402/extensions/offer-receipt";

/**
 * x402 offer-and-receipt as /llms.txt tells an agent that has not read this repository: where the
 * signed offers and receipts are, and how to check them with the SDK's helpers.
 */
export function offerReceiptLines(publicUrl: string): string[] {
  return [
    `Every 402 carries signed offers (x402 offer-and-receipt): \`extensions["${OFFER_RECEIPT}"].info.offers\`, one per \`accepts[]\` entry, in the body and in PAYMENT-REQUIRED: the entry's terms (scheme, network, asset, payTo, amount) for the 402's \`resource.url\`, valid until \`validUntil\`, EIP-712-signed. Every settled payment gets a signed receipt in its PAYMENT-RESPONSE, \`extensions["${OFFER_RECEIPT}"].info.receipt\`: the resource, payer, network and transaction of that payment and no other (deep research: on the poll that delivers the turn, and in the turn's \`settlement.receipt\` on every poll after).`,
    `The signing keys are the addresses listed under \`"${OFFER_RECEIPT}".signers\` of ${publicUrl}/.well-known/x402.json (\`current\` signs now; \`previous\` no longer signs and stays listed for the receipts it signed). A signature recovering to any other address is not this service's. Check them with \`@x402/extensions/offer-receipt\`: \`verifyOfferSignatureEIP712\` / \`verifyReceiptSignatureEIP712\` give the signer, which must be listed; the offer's payload must be the terms you sign (\`findAcceptsObjectFromSignedOffer\`), the receipt's the payment you made. Keep the receipt: it proves what you bought.`,
  ];
}
