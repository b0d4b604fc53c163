import type { PaymentRequirements } from "@x402/core/types";
import { authorizationTypes } from "@x402/evm";
import { getAddress, type Hex } from "viem";
import { paymentRequirementsSchema } from "@/lib/shared/contracts/payment";

export type AuthorizationFields = { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: Hex };

/** The token's EIP-712 domain, as section 2.2 puts it in `extra` (x402's type leaves `extra` open). */
const tokenDomainSchema = paymentRequirementsSchema.shape.extra;

/**
 * The EIP-712 typed data of an EIP-3009 TransferWithAuthorization for the token of
 * `requirements` on `chainId`: what a payer signs and what the gateway recovers the signer from.
 * Throws a ZodError when `requirements.extra` names no token domain.
 */
export function transferAuthorizationTypedData(requirements: PaymentRequirements, chainId: number, authorization: AuthorizationFields) {
  const { name, version } = tokenDomainSchema.parse(requirements.extra);
  return {
    domain: {
      name,
      version,
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
      nonce: authorization.nonce,
    },
  };
}
