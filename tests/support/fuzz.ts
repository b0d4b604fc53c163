import fc from "fast-check";
import { z } from "zod";
import { requestRegistry } from "@/lib/shared/contracts";

/**
 * Arbitrary bad (and good) requests for the fuzz suite: bodies generated from the contract's
 * request schemas (their JSON Schema, as the OpenAPI document renders them) and mutated into each
 * class of bad input, raw bodies that are not JSON objects, bad paths and headers.
 */

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** The request contracts as JSON Schema, by id (ChatRequest, LiteratureQueryRequest, ...). */
export const requestSchemas: Record<string, JsonSchema> = z.toJSONSchema(requestRegistry, { io: "input", unrepresentable: "any", uri: (id) => id })
  .schemas as Record<string, JsonSchema>;

/** Values that satisfy `schema` as JSON Schema says (zod refinements beyond it may still refuse some). */
export function valueOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.$ref) return fc.constant(null).chain(() => valueOf(requestSchemas[schema.$ref!] ?? {}));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map(valueOf));
  if (schema.allOf?.[0]) return valueOf(schema.allOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string": {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 10_000));
      return fc.string({ unit: "grapheme", minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    }
    case "integer":
      return fc.integer({ min: Math.max(schema.minimum ?? -1e6, -1e6), max: Math.min(schema.maximum ?? 1e6, 1e6) });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(valueOf(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case "object": {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valueOf(value)]));
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Text no database row may hold, and text it may that is easy to mishandle. */
export const awkwardText = fc.constantFrom("a\u0000b", "\u0000", "\ud800", "x\udc00", "\ud83e", "\u202eevil\u202c", "\u200f\u200e", "🧬", "\ufeff", "%00", "' OR 1=1 --", "\\u0000");

const wrongTypeValue = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }), awkwardText);

/** A body from `schema`, sometimes valid, mostly turned into one class of bad input. */
export function bodyFrom(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  // Mostly the required fields alone: with every optional field drawn at random, nearly every
  // body breaks some rule JSON Schema cannot say (a date that does not exist), and the bad input
  // a body carries would hide behind that.
  const required = Object.fromEntries((schema.required ?? []).filter((k) => k in properties).map((k) => [k, valueOf(properties[k]!)]));
  const valid = fc
    .oneof({ weight: 3, arbitrary: fc.record(required) }, { weight: 1, arbitrary: valueOf(schema) })
    .map((v) => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v }));
  const keys = Object.keys(properties);
  const key = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant("field");
  // The fields that hold text: where NUL, surrogates and bidirectional marks go.
  const textKeys = keys.filter((k) => properties[k]?.type === "string" || properties[k]?.items?.type === "string");
  const textKey = textKeys.length > 0 ? fc.constantFrom(...textKeys) : key;
  const asText = (v: Record<string, unknown>, k: string, t: string) => (properties[k]?.type === "array" ? { ...v, [k]: ["mtor", t] } : { ...v, [k]: t });
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 1, arbitrary: fc.tuple(valid, key).map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([name]) => name !== k))) }, // missing field
    { weight: 1, arbitrary: fc.tuple(valid, fc.oneof(fc.string({ maxLength: 12 }), awkwardText), fc.jsonValue({ maxDepth: 2 })).map(([v, k, x]) => ({ ...v, [k]: x })) }, // unknown field
    { weight: 2, arbitrary: fc.tuple(valid, key, wrongTypeValue).map(([v, k, x]) => ({ ...v, [k]: x })) }, // wrong type
    { weight: 4, arbitrary: fc.tuple(valid, textKey, awkwardText, fc.string({ minLength: 1, maxLength: 8 })).map(([v, k, t, s]) => asText(v, k, `${s}${t}${s}`)) }, // NUL, surrogates, RTL
    { weight: 1, arbitrary: fc.tuple(valid, key).map(([v, k]) => ({ ...v, [k]: [v[k], [v[k]]] })) }, // an array where a scalar is wanted
    { weight: 1, arbitrary: fc.tuple(valid, key, fc.constantFrom(40_000, 70_000)).map(([v, k, n]) => ({ ...v, [k]: "x".repeat(n) })) }, // huge value
    { weight: 1, arbitrary: fc.tuple(valid, key).map(([v, k]) => ({ ...v, [k]: JSON.parse("[".repeat(100) + "]".repeat(100)) as unknown })) }, // nested where a scalar is wanted
  );
}

/** Raw bodies that are not a JSON object: malformed, other JSON, bytes that are not UTF-8, deep. */
export const rawBody: fc.Arbitrary<string | Uint8Array<ArrayBuffer>> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", " ", "{", '{"message":', "[]", "null", "0", '"message"', "true", "{}}", '{"a":1,}', "\u0000", "[".repeat(100_000)),
  // Nesting deeper than a recursive parser or serializer survives, in a field and at the top.
  fc.constantFrom(10_000, 200_000).map((depth) => `{"message":${"[".repeat(depth)}${"]".repeat(depth)},"question":{"a":${'{"a":'.repeat(depth / 10)}1${"}".repeat(depth / 10)}}}`),
  fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v !== "object" || v === null || Array.isArray(v)).map((v) => JSON.stringify(v) ?? "null"),
  fc.constantFrom(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]), new Uint8Array([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22])),
);

/** Bodies over every route's limit: 1 MiB and a byte more, as JSON with one string field. */
export const oversizedBody = fc.constant(JSON.stringify({ message: "x".repeat(1024 * 1024) }));

export const contentType = fc.constantFrom(undefined, "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=latin1");

/** A path parameter: an id, or something that is not one. */
export const pathParam = fc.oneof(
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom("%zz", "%", "%c0%af", "%ed%a0%80", "%ff%fe", "%00", "a%00b", "%E2%80%8F", "..", "%2e%2e", "%2F", "-".repeat(36), "x".repeat(2000)),
);

/** PAYMENT-SIGNATURE values that are not a payment this service could take. */
export const bogusPaymentSignature = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? "null").toString("base64")),
  fc
    .record({
      x402Version: fc.oneof(fc.constant(2), fc.constant("2"), fc.integer()),
      accepted: fc.oneof(fc.constant(null), fc.record({ scheme: fc.constantFrom("exact", "upto", 1), network: fc.string({ maxLength: 12 }), amount: fc.oneof(fc.constant("20000"), fc.constant(20000)) })),
      payload: fc.oneof(fc.constant({}), fc.record({ signature: fc.oneof(fc.constant("0x00"), fc.integer()), authorization: fc.object({ maxDepth: 1 }) })),
    })
    .map((v) => Buffer.from(JSON.stringify(v)).toString("base64")),
  fc.constantFrom("", "   ", "=", "e30=", "bnVsbA==", "W10=", "x".repeat(4000)),
);
