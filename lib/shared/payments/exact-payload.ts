import type { Hex } from "viem";
import { z } from "zod";

// Each message says what the field must be; a refusal adds what it was (describe).
const hexMatching = (pattern: RegExp, what: string) => z.custom<Hex>((value) => typeof value === "string" && pattern.test(value), what);
const hex = (bytes: number) => hexMatching(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`), `0x and ${bytes * 2} hex digits`);
const uint = z.string("a string of decimal digits").regex(/^[0-9]{1,78}$/, "a string of decimal digits");

/**
 * The EIP-3009 payload of the exact EVM scheme, as the official client signs it: what the gateway
 * checks (lib/gateway/payments/verify-locally.ts) and our paying clients record before sending.
 */
export const exactEvmPayloadSchema = z.object({
  signature: hexMatching(/^0x[0-9a-fA-F]+$/, "0x and hex digits"),
  authorization: z.object({
    from: hex(20),
    to: hex(20),
    value: uint,
    validAfter: uint,
    validBefore: uint,
    nonce: hex(32),
  }, "an object"),
}, "an object");
