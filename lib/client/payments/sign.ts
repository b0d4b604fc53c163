import { randomBytes } from "node:crypto";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { bytesToHex, getAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { transferAuthorizationTypedData } from "@/lib/shared/payments/typed-data";

export type AuthorizationOverrides = Partial<{ to: string; value: string; validAfter: number; validBefore: number; nonce: Hex; from: string }>;

/**
 * Signs an EIP-3009 TransferWithAuthorization for `requirements` as the official exact-EVM client
 * does (valid from ten minutes ago until `maxTimeoutSeconds` from now, a random 32-byte nonce).
 * Overrides build deliberately wrong payments for tests; the benchmarks use it to seed payments.
 */
export async function signExactPayment({
  privateKey,
  requirements,
  chainId,
  accepted = requirements,
  resource,
  overrides = {},
}: {
  privateKey: Hex;
  requirements: PaymentRequirements;
  chainId: number;
  accepted?: PaymentRequirements;
  resource?: PaymentRequired["resource"];
  overrides?: AuthorizationOverrides;
}): Promise<{ payload: PaymentPayload; header: string; nonce: Hex; payer: string }> {
  const account = privateKeyToAccount(privateKey);
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: getAddress(overrides.from ?? account.address),
    to: getAddress(overrides.to ?? requirements.payTo),
    value: overrides.value ?? requirements.amount,
    validAfter: String(overrides.validAfter ?? now - 600),
    validBefore: String(overrides.validBefore ?? now + requirements.maxTimeoutSeconds),
    nonce: overrides.nonce ?? bytesToHex(randomBytes(32)),
  };
  const signature = await account.signTypedData(transferAuthorizationTypedData(requirements, chainId, authorization));
  const payload: PaymentPayload = { x402Version: 2, ...(resource ? { resource } : {}), accepted, payload: { signature, authorization } };
  return { payload, header: encodePaymentSignatureHeader(payload), nonce: authorization.nonce, payer: authorization.from };
}
