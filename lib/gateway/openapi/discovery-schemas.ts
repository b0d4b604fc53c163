import { z } from "zod";
import { componentRef, documentAs, paymentIdentifierDeclarationSchema, paymentRequirementsSchema, publishedSignersSchema, responseRegistry, signInWithXDeclarationSchema, X402_VERSION } from "@/lib/shared/contracts";
import { asyncPollingSchema } from "@/lib/shared/discovery/polling";

/**
 * The discovery data's schemas, for the OpenAPI document: the 402's bazaar extension and the
 * manifest of GET /.well-known/x402.json (both built in lib/gateway/discovery). Registered here, beside
 * the document, because they read lib/gateway/discovery's polling table, which reads the contract.
 */

/** Any paid route's example body: one of the request bodies. */
const EXAMPLE_BODY = {
  anyOf: ["ChatRequest", "LiteratureQueryRequest", "DeepResearchStartRequest", "EncryptedEnvelope"].map(componentRef),
};
/** Any paid route's example 202. */
const EXAMPLE_ACCEPTED = {
  anyOf: ["ChatAccepted", "LiteratureAccepted", "DeepResearchAccepted", "EncryptedChatAccepted", "EncryptedLiteratureAccepted", "EncryptedDeepResearchAccepted"].map(componentRef),
};
const jsonSchema = (description: string) => documentAs(z.record(z.string(), z.unknown()).describe(description), componentRef("JsonSchema"));

responseRegistry.add(asyncPollingSchema, {
  id: "AsyncPolling",
  description:
    "How a paid route's work is followed: the status the start answers while the work goes on (`acceptedStatus`, and `synchronousStatus` where it may instead answer the result), the free status route (`pollMethod`, `pollUrlTemplate`, an absolute RFC 6570 template filled from the 202's field of the same name, or `pollUrlField`, the 202's field holding the URL; `pollBody`, what a POST poll sends; `longPollQuery`, the query that makes a poll wait), `pendingStatuses` (keep polling) and `finalStatuses` (stop), and the timings in seconds: `intervalSeconds` between polls, `typicalSeconds`, `maxSeconds` after which to stop waiting.",
});

/**
 * The `bazaar` entry of a 402's `extensions` (the x402 bazaar discovery extension), with `output`
 * and `asyncPolling`. Registered for the OpenAPI document, which names it by id; no module parses it.
 */
z
  .object({
    info: z.object({
      input: z.object({
        type: z.literal("http"),
        method: z.enum(["GET", "POST"]),
        bodyType: z.literal("json"),
        body: documentAs(z.unknown().describe("an example body of this route"), EXAMPLE_BODY),
      }),
      output: z.object({
        type: z.literal("json"),
        example: documentAs(z.unknown().describe("an example of this route's 202"), EXAMPLE_ACCEPTED),
        asyncPolling: asyncPollingSchema,
      }),
    }),
    schema: jsonSchema("the JSON Schema of `info`: properties.input.properties.body is the body's, properties.output.properties.example the 202's"),
  })
  .register(responseRegistry, { id: "BazaarExtension", description: "The x402 bazaar discovery extension of a paid route's 402: its input and its output" });

/** One paid route in GET /.well-known/x402.json, lifted from its 402. */
const discoveryManifestItemSchema = z
  .object({
    resource: z.object({ url: z.url(), description: z.string(), mimeType: z.string() }),
    type: z.literal("http"),
    accepts: z.array(paymentRequirementsSchema).min(1),
    input: z.object({ method: z.enum(["GET", "POST"]), bodyType: z.literal("json"), body: jsonSchema("the JSON Schema of the route's body") }),
    output: z.object({
      mimeType: z.string().optional(),
      example: documentAs(z.unknown().describe("an example of this route's 202"), EXAMPLE_ACCEPTED),
      schema: jsonSchema("the JSON Schema of the route's 202"),
      asyncPolling: asyncPollingSchema,
    }),
    extensions: z
      .object({ "payment-identifier": paymentIdentifierDeclarationSchema, "sign-in-with-x": signInWithXDeclarationSchema })
      .describe("the 402's declarations of the extensions a client may use as it pays, as the 402 states them"),
  })
  .register(responseRegistry, { id: "DiscoveryManifestItem" });

/**
 * GET /.well-known/x402.json: the x402 well-known discovery manifest.
 * Registered for the OpenAPI document, which names it by id; no module parses it.
 */
z
  .object({
    x402Version: z.literal(X402_VERSION),
    lastUpdated: z.int().min(0).describe("when this process resolved the manifest, in seconds since 1970"),
    items: z.array(discoveryManifestItemSchema),
    "offer-receipt": publishedSignersSchema.describe(
      "x402 offer-and-receipt: the keys whose EIP-712 signatures on this service's offers (every 402) and receipts (every settled payment) are the service's; a signature recovering to any other address is not",
    ),
  })
  .register(responseRegistry, { id: "DiscoveryManifest" });
