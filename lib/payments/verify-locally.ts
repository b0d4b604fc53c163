import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { getAddress, isAddressEqual, recoverTypedDataAddress, type Hex } from "viem";
import { z } from "zod";
import { PaymentError } from "./reasons";
import { transferAuthorizationTypedData } from "./typed-data";

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`));
const uint = z.string().regex(/^[0-9]{1,78}$/);

/** The EIP-3009 payload of the exact EVM scheme, as the official client signs it. */
const exactEvmPayloadSchema = z.object({
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
  authorization: z.object({
    from: hex(20),
    to: hex(20),
    value: uint,
    validAfter: uint,
    validBefore: uint,
    nonce: hex(32),
  }),
});

export type Authorization = z.infer<typeof exactEvmPayloadSchema>["authorization"];

export type CheckedPayment = {
  payload: PaymentPayload;
  authorization: Authorization;
  /** Checksummed payer address. */
  payer: `0x${string}`;
  /** Lower-case nonce, the ledger's key with network, asset and payer. */
  nonce: string;
  validAfter: number;
  validBefore: number;
};

/** Decodes PAYMENT-SIGNATURE. Throws PaymentError `invalid_payment_header`. */
export function decodePaymentHeader(header: string): PaymentPayload {
  try {
    const payload = decodePaymentSignatureHeader(header.trim());
    if (typeof payload !== "object" || payload === null) throw new Error("not an object");
    return payload;
  } catch (err) {
    throw new PaymentError("invalid_payment_header", `Could not decode PAYMENT-SIGNATURE: ${(err as Error).message}`);
  }
}

/**
 * Everything that can be checked without a facilitator or an RPC call: protocol version, scheme,
 * that the accepted requirements are this route's (network, asset, payTo, amount, timeout, token
 * domain), the authorization matching them, its validity window against `nowSeconds`, and the
 * EIP-712 signer. Throws PaymentError with the first reason found.
 *
 * A 65-byte signature must recover to the payer. Longer signatures (ERC-1271 contract wallets,
 * ERC-6492 wrapped ones) cannot be checked offline and are left to the facilitator, which checks
 * them through the token.
 */
export async function verifyPaymentLocally({
  payload,
  requirements,
  chainId,
  nowSeconds,
  minRemainingSeconds,
}: {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  chainId: number;
  nowSeconds: number;
  minRemainingSeconds: number;
}): Promise<CheckedPayment> {
  if (payload.x402Version !== 2) throw new PaymentError("unsupported_x402_version", `x402Version is ${String(payload.x402Version)}`);
  const accepted = payload.accepted;
  if (!accepted || typeof accepted !== "object") throw new PaymentError("invalid_payment_header", "The payment has no accepted requirements");
  if (accepted.scheme !== requirements.scheme) throw new PaymentError("unsupported_scheme", `scheme ${String(accepted.scheme)}`);
  if (accepted.network !== requirements.network) {
    throw new PaymentError("network_mismatch", `expected ${requirements.network}, got ${String(accepted.network)}`);
  }
  if (!sameAddress(accepted.asset, requirements.asset)) {
    throw new PaymentError("asset_mismatch", `expected ${requirements.asset}, got ${String(accepted.asset)}`);
  }
  if (!sameAddress(accepted.payTo, requirements.payTo)) {
    throw new PaymentError("pay_to_mismatch", `expected ${requirements.payTo}, got ${String(accepted.payTo)}`);
  }
  if (accepted.amount !== requirements.amount) {
    throw new PaymentError("amount_mismatch", `expected ${requirements.amount}, got ${String(accepted.amount)}`);
  }
  const extra = (accepted.extra ?? {}) as Record<string, unknown>;
  if (extra.name !== requirements.extra.name || extra.version !== requirements.extra.version) {
    throw new PaymentError("invalid_token_domain", `expected ${String(requirements.extra.name)} version ${String(requirements.extra.version)}`);
  }
  if (accepted.maxTimeoutSeconds !== requirements.maxTimeoutSeconds) {
    throw new PaymentError("requirements_mismatch", `maxTimeoutSeconds must be ${requirements.maxTimeoutSeconds}`);
  }

  const parsed = exactEvmPayloadSchema.safeParse(payload.payload);
  if (!parsed.success) throw new PaymentError("unsupported_payload", "payload must be {signature, authorization} (EIP-3009)");
  const { signature, authorization } = parsed.data;
  if (!sameAddress(authorization.to, requirements.payTo)) {
    throw new PaymentError("pay_to_mismatch", `authorization pays ${authorization.to}`);
  }
  if (authorization.value !== requirements.amount) {
    throw new PaymentError("amount_mismatch", `authorization value ${authorization.value}, price ${requirements.amount}`);
  }

  const validAfter = Number(authorization.validAfter);
  const validBefore = Number(authorization.validBefore);
  if (validAfter > nowSeconds) throw new PaymentError("authorization_not_yet_valid", `valid after ${validAfter}, now ${nowSeconds}`);
  if (validBefore <= nowSeconds) throw new PaymentError("authorization_expired", `valid before ${validBefore}, now ${nowSeconds}`);
  if (validBefore - nowSeconds < minRemainingSeconds) {
    throw new PaymentError(
      "authorization_window_too_short",
      `the authorization expires in ${validBefore - nowSeconds} s; this operation needs at least ${minRemainingSeconds} s`,
    );
  }

  const payer = getAddress(authorization.from);
  if ((signature.length - 2) / 2 === 65) {
    let signer: `0x${string}`;
    try {
      signer = await recoverTypedDataAddress({
        ...transferAuthorizationTypedData(requirements, chainId, authorization),
        signature: signature as Hex,
      });
    } catch (err) {
      throw new PaymentError("invalid_signature", `signature does not recover: ${(err as Error).message}`);
    }
    if (!isAddressEqual(signer, payer)) throw new PaymentError("invalid_signature", `signed by ${signer}, not by ${payer}`);
  }

  return { payload, authorization, payer, nonce: authorization.nonce.toLowerCase(), validAfter, validBefore };
}

function sameAddress(a: unknown, b: string): boolean {
  return typeof a === "string" && /^0x[0-9a-fA-F]{40}$/.test(a) && a.toLowerCase() === b.toLowerCase();
}
