import { z } from "zod";
import { componentRef, documentAs, responseRegistry } from "@/lib/shared/contracts/registry";

/**
 * x402 offer-and-receipt (x402 `specs/extensions/extension-offer-and-receipt.md`), as this service
 * speaks it: EIP-712 signatures by a key it publishes at /.well-known/x402.json (lib/gateway/offer-receipt).
 * The shapes are the spec's; the SDK's helpers (`@x402/extensions/offer-receipt`) sign and verify.
 */

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
const signature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature").describe("EIP-712 signature (r, s, v) of `payload`");

/** A signed offer (spec §4): the terms of one `accepts[]` entry, signed. */
const signedOfferSchema = z
  .object({
    format: z.literal("eip712"),
    acceptIndex: z.int().min(0).optional().describe("the `accepts[]` entry it signs (unsigned; match by the payload's fields)"),
    payload: z.object({
      version: z.literal(1),
      resourceUrl: z.url().describe("the paid resource, as the 402's `resource.url`"),
      scheme: z.string(),
      network: z.string(),
      asset: z.string(),
      payTo: z.string(),
      amount: z.string(),
      validUntil: z.int().min(0).describe("the service holds these terms at least until then (seconds since 1970)"),
    }),
    signature,
  })
  .register(responseRegistry, { id: "SignedOffer", description: "x402 offer-and-receipt: the terms of an `accepts[]` entry, signed by the service's published key" });

/** A signed receipt (spec §5): a settled payment, signed. */
export const signedReceiptSchema = z
  .object({
    format: z.literal("eip712"),
    payload: z.object({
      version: z.literal(1),
      network: z.string(),
      resourceUrl: z.url().describe("the paid resource, as its 402's `resource.url`"),
      payer: z.string().describe("the paying address"),
      issuedAt: z.int().min(0).describe("when the receipt was signed (seconds since 1970)"),
      transaction: z.string().describe("the settled transfer's hash: this receipt is for that payment and no other"),
    }),
    signature,
  })
  .register(responseRegistry, { id: "SignedReceipt", description: "x402 offer-and-receipt: a settled payment, signed by the service's published key" });

/** `extensions["offer-receipt"]` of a 402's body: the signed offers, with the SDK's JSON Schema of `info`. */
export const offersExtensionSchema = z
  .object({
    info: z.object({ offers: z.array(signedOfferSchema) }),
    schema: documentAs(z.record(z.string(), z.unknown()).optional().describe("the JSON Schema of `info` (in the body; the header leaves it out)"), componentRef("JsonSchema")),
  })
  .register(responseRegistry, { id: "OfferReceiptExtension", description: "x402 offer-and-receipt in a 402: one signed offer per `accepts[]` entry" });

/** What /.well-known/x402.json publishes: the keys whose signatures on offers and receipts are this service's. */
export const publishedSignersSchema = z
  .object({
    format: z.literal("eip712").describe("the signature format of every offer and receipt"),
    signers: z
      .array(
        z.object({
          address: address.describe("the signing key's address, as EIP-712 recovery gives it"),
          kid: z.string().describe("the same key as a DID (did:pkh, CAIP-10 on the EIP-712 domain's chain id 1)"),
          status: z.enum(["current", "previous"]).describe("`current` signs now; `previous` no longer signs and stays listed so the receipts it signed keep verifying"),
        }),
      )
      .min(1),
  })
  .register(responseRegistry, { id: "OfferReceiptSigners", description: "The keys that sign this service's x402 offers and receipts" });
export type PublishedSigners = z.infer<typeof publishedSignersSchema>;
