import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { eip3009ABI } from "@x402/evm";
import { encodeFunctionData, getAddress, parseErc6492Signature, parseSignature, type Hex } from "viem";
import type { AuthorizationRef } from "../chain";
import type { PaymentReason } from "../reasons";

/* The EIP-3009 transfer a settlement sends, and what its revert means for the payment. */

/** Revert reasons of Circle's FiatToken (and OpenZeppelin-style tokens) → the payment's reason. */
const REVERT_REASONS: [RegExp, PaymentReason][] = [
  [/exceeds balance|insufficient balance/i, "insufficient_funds"],
  [/authorization is used or canceled|authorization is used|nonce already used/i, "payment_already_used"],
  [/authorization is not yet valid/i, "authorization_not_yet_valid"],
  [/authorization is expired/i, "authorization_expired"],
  [/invalid signature|ECRecover/i, "invalid_signature"],
];

export function reasonForRevert(text: string): PaymentReason {
  return REVERT_REASONS.find(([pattern]) => pattern.test(text))?.[1] ?? "payment_simulation_failed";
}

/** The token call that settles an EIP-3009 authorization, as the x402 exact EVM scheme sends it. */
export function transferCallData(payload: PaymentPayload): Hex {
  const { signature, authorization: auth } = payload.payload as { signature: Hex; authorization: Record<string, string> };
  // An ERC-6492 wrapper of an already deployed wallet carries the wallet's own signature inside.
  const inner = parseErc6492Signature(signature).signature;
  const base = [getAddress(auth.from!), getAddress(auth.to!), BigInt(auth.value!), BigInt(auth.validAfter!), BigInt(auth.validBefore!), auth.nonce as Hex] as const;
  if (inner.length === 132) {
    const { v, r, s, yParity } = parseSignature(inner);
    return encodeFunctionData({ abi: eip3009ABI, functionName: "transferWithAuthorization", args: [...base, Number(v ?? BigInt(yParity + 27)), r, s] });
  }
  return encodeFunctionData({ abi: eip3009ABI, functionName: "transferWithAuthorization", args: [...base, inner] });
}

/** What identifies a payment's transfer on chain (lib/payments/chain.ts). */
export function authorizationRef(payload: PaymentPayload, requirements: PaymentRequirements): AuthorizationRef {
  const auth = (payload.payload as { authorization: Record<string, string> }).authorization;
  return { asset: requirements.asset, payer: auth.from!, payTo: requirements.payTo, value: auth.value!, nonce: auth.nonce!, validAfter: Number(auth.validAfter) };
}


