import { z } from "zod";
import { componentRef, documentAs, responseRegistry } from "@/lib/shared/contracts/registry";

/**
 * x402 sign-in-with-x (CAIP-122; x402 `specs/extensions/sign-in-with-x.md`) as this service states
 * it. On a paid route's 402 (body only) it names where a payer signs in to list and reopen what it
 * bought (`info.uri`); the 402 of that route (GET /api/history and the routes under it) carries the
 * live challenge, with its `nonce`, `issuedAt` and `expirationTime`, in its body and its header.
 */
export const signInWithXDeclarationSchema = z
  .object({
    info: z.object({
      domain: z.string().describe("the service's host, which the signed message must name"),
      uri: z.url().describe("where to sign in: the history route (on a paid route's 402), or the route this challenge answers"),
      version: z.string().describe("CAIP-122 version: \"1\""),
      statement: z.string().optional().describe("what signing means, shown by the wallet"),
      nonce: z.string().optional().describe("the challenge's nonce, used once (live challenges only)"),
      issuedAt: z.string().optional().describe("when the challenge was made, ISO 8601 (live challenges only); a proof is accepted for 5 minutes from it"),
      expirationTime: z.string().optional().describe("when the challenge expires, ISO 8601 (live challenges only)"),
      resources: z.array(z.url()).optional().describe("the resources the signature is for"),
    }),
    supportedChains: z
      .array(z.object({ chainId: z.string().describe("CAIP-2 chain id"), type: z.enum(["eip191", "ed25519"]).describe("signature type: eip191 for EVM wallets") }))
      .describe("the chains a wallet may sign for: this deployment's payment network"),
    schema: documentAs(z.record(z.string(), z.unknown()).describe("the JSON Schema of the proof a client sends in SIGN-IN-WITH-X"), componentRef("JsonSchema")),
  })
  .register(responseRegistry, {
    id: "SignInWithXExtension",
    description: "The x402 sign-in-with-x extension: a wallet that paid signs a CAIP-122 (SIWE) message to prove it is the same wallet; nothing is paid or spent",
  });
export type SignInWithXDeclaration = z.infer<typeof signInWithXDeclarationSchema>;

/**
 * The 402 of a route read by signing in (GET /api/history and the routes under it): no payment
 * (`accepts` is empty), a fresh sign-in-with-x challenge to sign, and, when a proof was refused,
 * why (`reason`: `invalid_siwx_header`, or one of the SDK's codes such as `invalid_siwx_signature`,
 * `invalid_siwx_nonce`, `invalid_siwx_expired`, `invalid_siwx_domain_mismatch`).
 */
export const signInRequiredSchema = z
  .object({
    x402Version: z.literal(2),
    error: z.string().describe("what to do: sign the challenge with the wallet that paid and send it in SIGN-IN-WITH-X"),
    reason: z.string().describe("`sign_in_required`, or why the proof sent was refused"),
    message: z.string().optional().describe("details of a refused proof"),
    resource: z.object({ url: z.url(), description: z.string(), mimeType: z.string() }),
    accepts: z.array(z.never()).max(0).describe("empty: signing in pays nothing"),
    extensions: z.object({ "sign-in-with-x": signInWithXDeclarationSchema }),
  })
  .register(responseRegistry, {
    id: "SignInRequired",
    description: "The 402 of a route read by signing in: the sign-in-with-x challenge (body, and base64 in PAYMENT-REQUIRED), no payment asked",
  });
export type SignInRequired = z.infer<typeof signInRequiredSchema>;
