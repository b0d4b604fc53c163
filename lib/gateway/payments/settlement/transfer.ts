import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { eip3009ABI } from "@x402/evm";
import { encodeFunctionData, getAddress, parseErc6492Signature, parseSignature, type Hex } from "viem";
import type { AuthorizationRef } from "@/lib/gateway/payments/chain";
import { exactEvmPayloadSchema } from "@/lib/shared/payments/exact-payload";

/* The EIP-3009 transfer a settlement sends (what its revert means: chain-errors.ts). */

/**
 * The token call that settles an EIP-3009 authorization, as the x402 exact EVM scheme sends it.
 * Throws a ZodError when `payload` is not one verifyPaymentLocally would have passed.
 */
export function transferCallData(payload: PaymentPayload): Hex {
  const { signature, authorization: auth } = exactEvmPayloadSchema.parse(payload.payload);
  // An ERC-6492 wrapper of an already deployed wallet carries the wallet's own signature inside.
  const inner = parseErc6492Signature(signature).signature;
  const base = [getAddress(auth.from), getAddress(auth.to), BigInt(auth.value), BigInt(auth.validAfter), BigInt(auth.validBefore), auth.nonce] as const;
  if (inner.length === 132) {
    const { v, r, s, yParity } = parseSignature(inner);
    return encodeFunctionData({ abi: eip3009ABI, functionName: "transferWithAuthorization", args: [...base, Number(v ?? BigInt(yParity + 27)), r, s] });
  }
  return encodeFunctionData({ abi: eip3009ABI, functionName: "transferWithAuthorization", args: [...base, inner] });
}

/** What identifies a payment's transfer on chain (lib/gateway/payments/chain.ts). Throws a ZodError as transferCallData does. */
export function authorizationRef(payload: PaymentPayload, requirements: PaymentRequirements): AuthorizationRef {
  const auth = exactEvmPayloadSchema.parse(payload.payload).authorization;
  return { asset: requirements.asset, payer: auth.from, payTo: requirements.payTo, value: auth.value, nonce: auth.nonce, validAfter: Number(auth.validAfter) };
}


