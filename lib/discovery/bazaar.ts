import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { z } from "zod";
import { chatRequestSchema, deepResearchStartRequestSchema, encryptedEnvelopeSchema, literatureQueryRequestSchema } from "@/lib/contracts";
import { getPaidOperation, type PaidOperation } from "@/lib/payments/prices";
import sealingVectors from "@/lib/sealing/vectors.json";
import { asyncPollingSchema, describePolling, POLLING_ROUTES, type AsyncPolling } from "./polling";

/**
 * The bazaar discovery extension of each paid route's 402 (x402 `specs/extensions/bazaar.md`):
 * `info.input` (method, JSON body example) with its JSON Schema, and `info.output` (`type`,
 * `example`: a real 202 body) with the 202's JSON Schema under `schema.properties.output`, where
 * the spec's validator checks the example against it. The spec has no field for an asynchronous
 * route; `info.output.asyncPolling` (declared in the schema, which leaves `output` open) says where
 * and how to poll, and which statuses are final.
 */

/**
 * An envelope as the contract's sealing scheme makes it: the request test vector of the sealing
 * documentation (`{"message": …}` sealed to the vector's enclave key), valid base64 as the schema
 * requires; a real request seals to the key of GET /api/enclave-key.
 */
const ENVELOPE_EXAMPLE = sealingVectors.envelope;
/** A sealed answer's fields, in the same way: the response test vector (a real receipt seals `{messageId, status}`). */
const SEALED_ANSWER_EXAMPLE = sealingVectors.response;

const EXAMPLE_ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const EXAMPLE_CONVERSATION_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

/** What each paid route takes, with an example body, and an example of its 202 on the deployment at `publicUrl`. */
export const BAZAAR_ROUTES: Record<
  PaidOperation["id"],
  { input: z.ZodType; inputExample: Record<string, unknown>; acceptedExample: (publicUrl: string) => Record<string, unknown> }
> = {
  deepResearch: {
    input: deepResearchStartRequestSchema,
    inputExample: { message: "What is the evidence that rapamycin extends healthy lifespan in mammals?" },
    acceptedExample: () => ({ messageId: EXAMPLE_ID, conversationId: EXAMPLE_CONVERSATION_ID, status: "queued" }),
  },
  deepResearchEncrypted: {
    input: encryptedEnvelopeSchema,
    inputExample: ENVELOPE_EXAMPLE,
    acceptedExample: (publicUrl) => ({ messageId: EXAMPLE_ID, status: "queued", pollUrl: `${publicUrl}/api/deep-research/encrypted/status/${EXAMPLE_ID}`, ...SEALED_ANSWER_EXAMPLE }),
  },
  chat: {
    input: chatRequestSchema,
    inputExample: { message: "Does metformin slow aging in humans?" },
    acceptedExample: () => ({ requestId: EXAMPLE_ID, status: "queued" }),
  },
  chatEncrypted: {
    input: encryptedEnvelopeSchema,
    inputExample: ENVELOPE_EXAMPLE,
    acceptedExample: (publicUrl) => ({ requestId: EXAMPLE_ID, status: "queued", pollUrl: `${publicUrl}/api/chat/encrypted/status/${EXAMPLE_ID}` }),
  },
  literature: {
    input: literatureQueryRequestSchema,
    inputExample: { question: "senolytics and frailty in older adults", mode: "fast" },
    acceptedExample: () => ({ jobId: EXAMPLE_ID, status: "queued" }),
  },
  literatureEncrypted: {
    input: encryptedEnvelopeSchema,
    inputExample: ENVELOPE_EXAMPLE,
    acceptedExample: (publicUrl) => ({ requestId: EXAMPLE_ID, status: "pending", pollUrl: `${publicUrl}/api/literature/encrypted/status/${EXAMPLE_ID}` }),
  },
};

/** The bazaar extension as this service declares it: the body variant of the spec, with output. */
export type BazaarExtension = {
  info: {
    input: { type: "http"; method: PaidOperation["method"]; bodyType: "json"; body: Record<string, unknown> };
    output: { type: "json"; example: Record<string, unknown>; asyncPolling: AsyncPolling };
  };
  schema: {
    $schema: string;
    type: "object";
    properties: {
      input: { type: "object"; properties: { body: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;
      output: { type: "object"; properties: { example: Record<string, unknown>; asyncPolling: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;
    };
    required: string[];
  };
};

/** A zod schema as a JSON Schema to nest in another (no `$schema` of its own). */
function nestedJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

/** The `bazaar` entry of `operation`'s 402 `extensions` on the deployment at `publicUrl`. */
export function buildBazaarExtension({ operation, publicUrl }: { operation: PaidOperation["id"]; publicUrl: string }): BazaarExtension {
  const op = getPaidOperation(operation);
  const route = BAZAAR_ROUTES[operation];
  const declared = declareDiscoveryExtension({
    bodyType: "json",
    input: route.inputExample,
    inputSchema: nestedJsonSchema(route.input, "input"),
    output: { example: route.acceptedExample(publicUrl), schema: nestedJsonSchema(POLLING_ROUTES[operation].accepted, "output") },
  }).bazaar as unknown as BazaarExtension;
  // The method is set by the x402 resource server's enrichment, which this gateway does not run.
  declared.info.input.method = op.method;
  declared.info.output.asyncPolling = describePolling({ operation, publicUrl });
  declared.schema.properties.output.properties.asyncPolling = nestedJsonSchema(asyncPollingSchema, "output");
  return declared;
}
