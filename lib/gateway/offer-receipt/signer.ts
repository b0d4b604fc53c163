import { createEIP712OfferReceiptIssuer, type OfferReceiptIssuer, type SignTypedDataFn } from "@x402/extensions/offer-receipt";
import { getAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { GatewayConfig } from "@/lib/gateway/config";
import type { PublishedSigners } from "@/lib/shared/contracts/offer-receipt";
import { readSigningKey } from "@/lib/gateway/offer-receipt/signing-key";

/**
 * This deployment's signer of x402 offers and receipts: the SDK's EIP-712 issuer
 * (`createEIP712OfferReceiptIssuer`) over the signing key (signing-key.ts). EIP-712 because its
 * signature is the smallest the spec allows (the offers ride in PAYMENT-REQUIRED, whose size is
 * bounded) and a verifier recovers the signer's address from it, to compare with the published ones.
 */
export type OfferReceiptSigner = { address: `0x${string}`; kid: string; issuer: OfferReceiptIssuer };

/** The key as a DID: CAIP-10 on chain 1, the chain id every offer-receipt EIP-712 domain names. */
const kidOf = (address: string) => `did:pkh:eip155:1:${address}`;

declare global {
  // Module state on globalThis survives hot reload (a `var` is how a global is declared).
  var offerReceiptSigner: { source: string; signer: OfferReceiptSigner } | undefined;
}
const globalForSigner = globalThis;

/** The signer of `settings` (one per process and key source: reading or generating the key happens once). */
export function offerReceiptSigner(settings: GatewayConfig["offerReceipt"]): OfferReceiptSigner {
  const source = settings.signingKey ?? `file:${settings.keyFile}`;
  const cached = globalForSigner.offerReceiptSigner;
  if (cached?.source === source) return cached.signer;
  const account = privateKeyToAccount(readSigningKey(settings));
  // The SDK hands typed data as loose Records, which viem's typed signTypedData cannot take: cast for the SDK.
  const signTypedData: SignTypedDataFn = (data) => account.signTypedData(data as Parameters<typeof account.signTypedData>[0]);
  const signer = { address: account.address, kid: kidOf(account.address), issuer: createEIP712OfferReceiptIssuer(kidOf(account.address), signTypedData) };
  globalForSigner.offerReceiptSigner = { source, signer };
  return signer;
}

/**
 * What /.well-known/x402.json publishes: the current key, and the earlier ones still listed so
 * the receipts they signed keep verifying (OFFER_RECEIPT_PREVIOUS_SIGNERS). A verifier trusts
 * these and no other key (x402 offer-and-receipt §4.5.1, signer authorization).
 */
export function publishedSigners(settings: GatewayConfig["offerReceipt"]): PublishedSigners {
  const current = offerReceiptSigner(settings).address;
  const previous = [...new Set(settings.previousSigners.map((a) => getAddress(a)))].filter((a) => a !== current);
  return {
    format: "eip712",
    signers: [
      { address: current, kid: kidOf(current), status: "current" as const },
      ...previous.map((address) => ({ address, kid: kidOf(address), status: "previous" as const })),
    ],
  };
}
