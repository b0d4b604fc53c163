import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { getAddress, isAddressEqual, isErc6492Signature, parseErc6492Signature, recoverTypedDataAddress } from "viem";
import { z } from "zod";
import { PaymentError } from "@/lib/gateway/payments/reasons";
import { exactEvmPayloadSchema } from "@/lib/shared/payments/exact-payload";
import { transferAuthorizationTypedData } from "@/lib/shared/payments/typed-data";
import { isRecord } from "@/lib/shared/narrow";

type Authorization = z.infer<typeof exactEvmPayloadSchema>["authorization"];

export type CheckedPayment = {
  payload: PaymentPayload;
  authorization: Authorization;
  /** Checksummed payer address. */
  payer: `0x${string}`;
  /** Lower-case nonce, the ledger's key with network, asset and payer. */
  nonce: string;
  validAfter: number;
  validBefore: number;
  /**
   * Whether the signature was checked here (a 65-byte EOA signature recovered to the payer).
   * When false (a contract wallet's ERC-1271 or ERC-6492 signature), only the facilitator can
   * judge it, and it must before any work starts.
   */
  signatureCheckedLocally: boolean;
};

/**
 * The longest validity window any caller may accept: short enough that every value fits the
 * ledger (a `validBefore` of 2^63 would not). A paid route accepts far less: its own
 * `maxTimeoutSeconds` plus a leeway (`maxValiditySeconds`).
 */
const MAX_VALIDITY_SECONDS = 30 * 24 * 3600;

/** Decodes PAYMENT-SIGNATURE. Throws PaymentError `invalid_payment_header`. */
export function decodePaymentHeader(header: string): PaymentPayload {
  try {
    const payload = decodePaymentSignatureHeader(header.trim());
    if (typeof payload !== "object" || payload === null) throw new Error("not an object");
    return payload;
  } catch (err) {
    throw new PaymentError("invalid_payment_header", `Could not decode PAYMENT-SIGNATURE: ${err instanceof Error ? err.message : String(err)}`);
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
  maxValiditySeconds = MAX_VALIDITY_SECONDS,
}: {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  chainId: number;
  nowSeconds: number;
  minRemainingSeconds: number;
  /**
   * How long from now the authorization may stay valid at most: what the route needs. A longer
   * one would keep its payment open (a deferred turn `scheduled`, a 503'd one retryable) that long.
   */
  maxValiditySeconds?: number;
}): Promise<CheckedPayment> {
  if (payload.x402Version !== 2) throw new PaymentError("unsupported_x402_version", `x402Version must be the number 2, got ${describe(payload.x402Version)}`);
  const accepted = payload.accepted;
  if (!accepted || typeof accepted !== "object") throw new PaymentError("invalid_payment_header", "The payment has no accepted requirements");
  if (accepted.scheme !== requirements.scheme) throw new PaymentError("unsupported_scheme", `scheme must be "${requirements.scheme}", got ${describe(accepted.scheme)}`);
  if (accepted.network !== requirements.network) {
    throw new PaymentError("network_mismatch", `expected "${requirements.network}", got ${describe(accepted.network)}`);
  }
  if (!sameAddress(accepted.asset, requirements.asset)) {
    throw new PaymentError("asset_mismatch", `expected ${requirements.asset}, got ${describe(accepted.asset)}`);
  }
  if (!sameAddress(accepted.payTo, requirements.payTo)) {
    throw new PaymentError("pay_to_mismatch", `expected ${requirements.payTo}, got ${describe(accepted.payTo)}`);
  }
  if (accepted.amount !== requirements.amount) {
    throw new PaymentError("amount_mismatch", `amount must be the string "${requirements.amount}", got ${describe(accepted.amount)}`);
  }
  const extra: Record<string, unknown> = accepted.extra ?? {};
  if (extra.name !== requirements.extra.name || extra.version !== requirements.extra.version) {
    throw new PaymentError(
      "invalid_token_domain",
      `extra must be {name: ${JSON.stringify(requirements.extra.name)}, version: ${JSON.stringify(requirements.extra.version)}}, got name ${describe(extra.name)}, version ${describe(extra.version)}`,
    );
  }
  if (accepted.maxTimeoutSeconds !== requirements.maxTimeoutSeconds) {
    throw new PaymentError("requirements_mismatch", `maxTimeoutSeconds must be the number ${requirements.maxTimeoutSeconds}, got ${describe(accepted.maxTimeoutSeconds)}`);
  }

  const parsed = exactEvmPayloadSchema.safeParse(payload.payload);
  if (!parsed.success) throw new PaymentError("unsupported_payload", describeIssue(parsed.error.issues[0], payload.payload));
  const { signature, authorization } = parsed.data;
  if (!sameAddress(authorization.to, requirements.payTo)) {
    throw new PaymentError("pay_to_mismatch", `authorization pays ${authorization.to}`);
  }
  if (authorization.value !== requirements.amount) {
    throw new PaymentError("amount_mismatch", `authorization.value must be the string "${requirements.amount}" (the price), got ${describe(authorization.value)}`);
  }

  const validAfter = Number(authorization.validAfter);
  const validBefore = Number(authorization.validBefore);
  if (validAfter > nowSeconds) throw new PaymentError("authorization_not_yet_valid", `valid after ${validAfter}, now ${nowSeconds}`);
  if (validBefore <= nowSeconds) throw new PaymentError("authorization_expired", `valid before ${validBefore}, now ${nowSeconds}`);
  const longest = Math.min(maxValiditySeconds, MAX_VALIDITY_SECONDS);
  if (validBefore - nowSeconds > longest) {
    throw new PaymentError("authorization_window_too_long", `validBefore ${authorization.validBefore} is more than ${longest} s from now (${nowSeconds}); this operation needs at most ${longest} s`);
  }
  if (validBefore - nowSeconds < minRemainingSeconds) {
    throw new PaymentError(
      "authorization_window_too_short",
      `the authorization expires in ${validBefore - nowSeconds} s; this operation needs at least ${minRemainingSeconds} s`,
    );
  }

  const payer = getAddress(authorization.from);
  if (isErc6492Signature(signature)) {
    // A counterfactual wallet's signature: only the chain can judge it, but its wrapper must parse.
    try {
      parseErc6492Signature(signature);
    } catch (err) {
      throw new PaymentError("invalid_signature", `malformed ERC-6492 signature: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`);
    }
  }
  const signatureCheckedLocally = isEoaSignature(signature);
  if (signatureCheckedLocally) {
    let signer: `0x${string}`;
    try {
      signer = await recoverTypedDataAddress({
        ...transferAuthorizationTypedData(requirements, chainId, authorization),
        signature,
      });
    } catch (err) {
      throw new PaymentError("invalid_signature", `signature does not recover: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!isAddressEqual(signer, payer)) throw new PaymentError("invalid_signature", `signed by ${signer}, not by ${payer}`);
  }

  return { payload, authorization, payer, nonce: authorization.nonce.toLowerCase(), validAfter, validBefore, signatureCheckedLocally };
}

/** A value as a message can name it: its JSON type and value, so `"2"` and `2` read differently. */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`;
  if (typeof value === "number" || typeof value === "boolean") return `the ${typeof value} ${String(value)}`;
  return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
}

/** The first thing wrong with an EIP-3009 payload: the field, what it must be, and what it was. */
function describeIssue(issue: z.core.$ZodIssue | undefined, payload: unknown): string {
  if (!issue) return "payload must be {signature, authorization} (EIP-3009)";
  let value: unknown = payload;
  for (const key of issue.path) value = isRecord(value) ? value[String(key)] : undefined;
  return `${["payload", ...issue.path.map(String)].join(".")} must be ${issue.message}, got ${describe(value)}`;
}

function sameAddress(a: unknown, b: string): boolean {
  return typeof a === "string" && /^0x[0-9a-fA-F]{40}$/.test(a) && a.toLowerCase() === b.toLowerCase();
}

/**
 * A plain 65-byte EOA signature: the only kind the local checks recover and compare with the
 * payer themselves (ERC-1271 and ERC-6492 signatures need the chain, so the facilitator judges them).
 */
export function isEoaSignature(signature: unknown): boolean {
  return typeof signature === "string" && /^0x[0-9a-fA-F]{130}$/.test(signature);
}
