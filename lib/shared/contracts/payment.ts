import { z } from "zod";
import { CAIP2_NETWORK } from "@/lib/shared/payments/network";
import { offersExtensionSchema } from "@/lib/shared/contracts/offer-receipt";
import { componentRef, documentAs, responseRegistry } from "@/lib/shared/contracts/registry";
import { signInWithXDeclarationSchema } from "@/lib/shared/contracts/sign-in";

/** Section 2.2: one accepted way to pay (`accepts[]`). */
export const paymentRequirementsSchema = z
  .object({
    scheme: z.string().min(1).describe("payment scheme id (`exact`)"),
    network: z
      .string()
      .regex(CAIP2_NETWORK, "must be a CAIP-2 chain id")
      .describe("chain id, CAIP-2 format"),
    amount: z.string().regex(/^[0-9]+$/, "must be an integer in token base units").describe("token base units (6 decimals)"),
    asset: z.string().min(1).describe("token contract address"),
    payTo: z.string().min(1).describe("receiving wallet address"),
    maxTimeoutSeconds: z.int().positive().describe("seconds before the payment authorization expires"),
    extra: z
      .looseObject({ name: z.string().describe("token name"), version: z.string().describe("token contract version") })
      .describe("EIP-712 domain of the token"),
  })
  .register(responseRegistry, { id: "PaymentRequirements" });

/**
 * x402 payment-identifier as a 402 declares it (x402 `specs/extensions/payment_identifier.md`): a
 * client may name its payment with an id in its PAYMENT-SIGNATURE's `extensions`, `info.id`; the
 * same id with the same request is answered once whatever the signature, with another request 409.
 */
export const paymentIdentifierDeclarationSchema = z
  .object({
    info: z.object({ required: z.boolean().describe("whether every payment must carry an id (false here)") }),
    schema: documentAs(z.record(z.string(), z.unknown()).describe("the JSON Schema of `info` with the client's `id`: 16 to 128 letters, digits, `-` or `_`"), componentRef("JsonSchema")),
  })
  .register(responseRegistry, { id: "PaymentIdentifierExtension", description: "The x402 payment-identifier extension as a 402 declares it" });

/** Section 2.2: the body of every 402 (plus the error fields of section 2.1 on payment errors). */
export const paymentRequiredBodySchema = z
  .object({
    x402Version: z.literal(2),
    error: z.string().optional().describe("why payment is required, or why the payment was refused"),
    reason: z.string().nullish().describe("machine-readable reason of a refused payment"),
    message: z.string().nullish().describe("human-readable details of a refused payment"),
    resource: z.object({
      url: z.url(),
      description: z.string(),
      mimeType: z.string(),
    }),
    accepts: z.array(paymentRequirementsSchema).min(1),
    extensions: z
      .looseObject({
        bazaar: documentAs(
          z.looseObject({
            info: z.record(z.string(), z.unknown()),
            schema: z.record(z.string(), z.unknown()),
          }),
          componentRef("BazaarExtension"),
        ).optional(),
        "payment-identifier": paymentIdentifierDeclarationSchema.optional(),
        "offer-receipt": offersExtensionSchema.optional(),
        "sign-in-with-x": signInWithXDeclarationSchema.optional(),
      })
      .optional()
      .describe(
        "`bazaar`, the route's input and output and how its work is followed; `payment-identifier`, how a client names its payment so a retry signed anew is answered once; `offer-receipt`, the terms of each `accepts[]` entry signed by the key /.well-known/x402.json publishes (x402 offer-and-receipt)",
      ),
  })
  .register(responseRegistry, { id: "PaymentRequired", description: "The body of every 402: what to pay, where and how (x402 v2); the same requirements, base64, with lighter extensions, are the PAYMENT-REQUIRED header" });
export type PaymentRequiredBody = z.infer<typeof paymentRequiredBodySchema>;
