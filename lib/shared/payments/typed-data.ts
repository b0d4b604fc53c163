import type { PaymentRequirements } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { getAddress, type Hex } from "viem";

export type AuthorizationFields = { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };

/**
 * The EIP-712 typed data of an EIP-3009 TransferWithAuthorization for the token of
 * `requirements` on `chainId`: what a payer signs and what the gateway recovers the signer from.
 */
export function transferAuthorizationTypedData(requirements: PaymentRequirements, chainId: number, authorization: AuthorizationFields) {
  return {
    domain: {
      name: requirements.extra.name as string,
      version: requirements.extra.version as string,
      chainId,
      verifyingContract: getAddress(requirements.asset),
    },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization" as const,
    message: {
      from: getAddress(authorization.from),
      to: getAddress(authorization.to),
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as Hex,
    },
  };
}
