import { declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { z } from "zod";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";
import { asyncPollingSchema, describePolling, type AsyncPolling } from "@/lib/shared/discovery/polling";

/**
 * The bazaar discovery extension of each paid route's 402 (x402 `specs/extensions/bazaar.md`):
 * `info.input` (method, JSON body example) with its JSON Schema, and `info.output` (`type`,
 * `example`: a real 202 body) with the 202's JSON Schema under `schema.properties.output`, where
 * the spec's validator checks the example against it. The spec has no field for an asynchronous
 * route; `info.output.asyncPolling` (declared in the schema, which leaves `output` open) says where
 * and how to poll, and which statuses are final. Everything is read from the operation's definition
 * (lib/shared/operations).
 */

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
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
}

/** The `bazaar` entry of `operation`'s 402 body `extensions` on the deployment at `publicUrl`: every schema. */
export function buildBazaarExtension({ operation, publicUrl }: { operation: PaidOperation["id"]; publicUrl: string }): BazaarExtension {
  const op = getPaidOperation(operation);
  // The SDK types what it declares as any variant (query, body, MCP) with no output schema; this config
  // is the body variant with one, which BazaarExtension states: cast for the SDK.
  const declared = declareDiscoveryExtension({
    bodyType: "json",
    input: op.bodyExample,
    inputSchema: nestedJsonSchema(op.body, "input"),
    output: { example: op.acceptedExample(publicUrl), schema: nestedJsonSchema(op.accepted, "output") },
  }).bazaar as unknown as BazaarExtension;
  // The method is set by the x402 resource server's enrichment, which this gateway does not run.
  declared.info.input.method = op.method;
  declared.info.output.asyncPolling = describePolling({ operation, publicUrl });
  declared.schema.properties.output.properties.asyncPolling = nestedJsonSchema(asyncPollingSchema, "output");
  return declared;
}

/**
 * The `bazaar` entry of `operation`'s PAYMENT-REQUIRED header, which the official client echoes in
 * every PAYMENT-SIGNATURE: what a facilitator catalogs (method, body type, an example body) under
 * the SDK's own schema, and no more. The body's JSON Schemas, the 202 and where to poll stay in
 * the 402 body, /.well-known/x402.json and the OpenAPI document (docs/payments.md, "Headers that fit").
 */
export function buildBazaarHeaderExtension({ operation }: { operation: PaidOperation["id"] }): Record<string, unknown> {
  const op = getPaidOperation(operation);
  const declared = declareDiscoveryExtension({ bodyType: "json", input: op.bodyExample }).bazaar;
  const input = declared?.info.input;
  if (!declared || !input || !("bodyType" in input)) throw new Error(`the SDK declared no body bazaar extension for ${operation}`);
  input.method = op.method;
  return { ...declared };
}
