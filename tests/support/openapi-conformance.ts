import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import openApi31Schema from "@seriousme/openapi-schema-validator/schemas/v3.1/schema.json" with { type: "json" };

/**
 * Holds real responses to the OpenAPI document that describes them, strictly: each status must be
 * declared for its operation, the body must match the schema declared for its content type with
 * every object closed (a field the schema does not name fails, even where the document leaves an
 * object open), required fields must be there, and every header the document marks `required`
 * must be sent and match its schema. Records which (operation, status) pairs were seen, so a test
 * can demand that every declared one was.
 */

type Json = Record<string, unknown>;
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
  "x-unserved-requests"?: Record<string, ResponseSpec>;
};
type Operation = { responses: Record<string, ResponseSpec> };
type ResponseSpec = { description: string; headers?: Record<string, { required?: boolean; schema?: Json }>; content?: Record<string, { schema?: Json }> };

const OPENAPI_31_SCHEMA_ID = "https://spec.openapis.org/oas/3.1/schema";
const JSON_SCHEMA_2020_12_ID = "https://json-schema.org/draft/2020-12/schema";

/**
 * Components whose contents are another format's, which the document names rather than repeats:
 * held to that format's own published schema instead (not closed: its keywords are the format's).
 */
const FORMAT_COMPONENTS: Record<string, string> = {
  JsonSchema: JSON_SCHEMA_2020_12_ID,
  OpenApiDocument: OPENAPI_31_SCHEMA_ID,
};
const SCHEMA_BASE = "https://openapi.test/components/schemas/";

/** Keywords whose value is a schema, or a list or map of schemas (JSON Schema 2020-12). */
const SUBSCHEMA = ["additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema"];
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];

/** Whether a schema constrains its value at all (`{}` or a bare description accepts anything). */
function constrains(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return schema === false;
  return Object.keys(schema).some((k) => !["description", "title", "examples", "example", "default", "deprecated", "readOnly", "writeOnly"].includes(k));
}

/**
 * The schema with every object closed: `additionalProperties: false` wherever an object's other
 * fields are open (absent, `true` or `{}`); a map whose values have a schema of their own keeps it.
 * `#/components/schemas/X` references point at X's own id, so each component compiles alone.
 */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Json = { ...(schema as Json) };
  if (typeof out.$ref === "string" && out.$ref.startsWith("#/components/schemas/")) out.$ref = SCHEMA_BASE + out.$ref.slice("#/components/schemas/".length);
  for (const key of SUBSCHEMA) if (key in out) out[key] = closeObjects(out[key]);
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(closeObjects);
  for (const key of SUBSCHEMA_MAPS) {
    if (out[key] && typeof out[key] === "object") out[key] = Object.fromEntries(Object.entries(out[key] as Json).map(([k, v]) => [k, closeObjects(v)]));
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  const isObject = types.includes("object") || "properties" in out;
  if (isObject && !constrains(out.additionalProperties)) out.additionalProperties = false;
  return out;
}

export type Seen = { operation: string; status: string };

export function createConformance(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...(openApi31Schema as Json), $id: OPENAPI_31_SCHEMA_ID });
  for (const [id, schema] of Object.entries(document.components.schemas)) {
    const format = FORMAT_COMPONENTS[id];
    ajv.addSchema(format ? { $id: SCHEMA_BASE + id, $ref: format } : { ...(closeObjects(schema) as Json), $id: SCHEMA_BASE + id });
  }
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (schema: Json) => {
    const key = JSON.stringify(schema);
    if (!compiled.has(key)) compiled.set(key, ajv.compile(closeObjects(schema) as Json));
    return compiled.get(key)!;
  };
  const seen: Seen[] = [];

  /** The operation `METHOD /path/template` of the document, or an Error naming what is missing. */
  function operationOf(operation: string): Operation {
    const [method, path] = operation.split(" ") as [string, string];
    const found = document.paths[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`The document has no operation ${operation}`);
    return found;
  }

  /**
   * Checks `response` against what the document declares for `operation` (`POST /api/chat`) and
   * its status, and returns the parsed body. Throws an Error that names each difference.
   */
  async function check(operation: string, response: Response): Promise<unknown> {
    const declared = operationOf(operation).responses[String(response.status)];
    return checkAgainst(`${operation} ${response.status}`, declared, response, { operation, status: String(response.status) });
  }

  /** The same for the answers the document declares outside any operation (`x-unserved-requests`). */
  async function checkUnserved(what: string, response: Response): Promise<unknown> {
    const declared = document["x-unserved-requests"]?.[String(response.status)];
    return checkAgainst(`${what} ${response.status}`, declared, response, { operation: `unserved ${what}`, status: String(response.status) });
  }

  /** A body against `schema` alone (a sealed answer's plaintext against the schema the document names for it). */
  async function checkSchema(label: string, schema: Json, response: Response): Promise<unknown> {
    return checkAgainst(label, { description: label, content: { "application/json": { schema } } }, response, null);
  }

  async function checkAgainst(label: string, declared: ResponseSpec | undefined, response: Response, record: Seen | null): Promise<unknown> {
    const text = await response.text();
    if (!declared) throw new Error(`${label}: status not in the document; body ${text.slice(0, 300)}`);
    const problems: string[] = [];
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is declared required but absent`);
        continue;
      }
      if (header.schema) {
        const typed = header.schema.type === "integer" || header.schema.type === "number" ? Number(value) : value;
        const validate = validatorOf(header.schema);
        if (!validate(typed)) problems.push(`header ${name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    let body: unknown = text;
    const contentType = response.headers.get("content-type")?.split(";")[0]?.trim() ?? null;
    const content = declared.content;
    if (!content || Object.keys(content).length === 0) {
      if (text !== "") problems.push(`no body is declared but one came: ${text.slice(0, 200)}`);
    } else if (!contentType || !content[contentType]) {
      problems.push(`content type ${contentType} is not declared (declared: ${Object.keys(content).join(", ")})`);
    } else {
      const schema = content[contentType]!.schema;
      if (contentType.endsWith("json")) body = JSON.parse(text);
      if (!schema) problems.push(`${contentType} is declared without a schema`);
      else {
        const validate = validatorOf(schema);
        if (!validate(body)) problems.push(...(validate.errors ?? []).map((e) => `${e.instancePath.replace(/\/\d+(?=\/|$)/g, "/*") || "(body)"} ${e.message}${e.params && "additionalProperty" in e.params ? `: ${String(e.params.additionalProperty)}` : ""}`));
      }
    }
    if (problems.length > 0) throw new Error(`${label} differs from the document:\n- ${[...new Set(problems)].join("\n- ")}`);
    if (record) seen.push(record);
    return body;
  }

  /** Every (operation, status) the document declares, as `METHOD /path status`. */
  function declared(): string[] {
    return Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => Object.keys(op.responses).map((status) => `${method.toUpperCase()} ${path} ${status}`)),
    );
  }

  return { check, checkUnserved, checkSchema, operationOf, declared, seen: () => seen.map((s) => `${s.operation} ${s.status}`) };
}
