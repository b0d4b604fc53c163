import { z } from "zod";
import { documentedShapeOf, requestRegistry, responseRegistry } from "@/lib/shared/contracts";
import "@/lib/gateway/openapi/discovery-schemas";

/**
 * The document's component schemas: the contract's registered zod schemas (requests as their
 * input type, responses as their output type), fields read leniently stated as documented
 * (`documentAs`), two schemas whose contents are another format's (below), and nothing a path
 * does not reach.
 */

type Json = Record<string, unknown>;

/**
 * Values whose contents are defined by another format: a JSON Schema (a route's body schema in
 * the discovery documents) and an OpenAPI document (this one). Their keywords are the format's
 * own, so the document names the format rather than repeating it.
 */
const FORMAT_SCHEMAS: Json = {
  JsonSchema: {
    type: ["object", "boolean"],
    description: "A JSON Schema (draft 2020-12, https://json-schema.org/draft/2020-12/schema): its keywords are that format's.",
  },
  OpenApiDocument: {
    type: "object",
    description: "An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0): its fields are that format's.",
    required: ["openapi", "info", "paths"],
  },
};

function registrySchemas(registry: typeof requestRegistry, io: "input" | "output"): Json {
  const { schemas } = z.toJSONSchema(registry, {
    uri: (id: string) => `#/components/schemas/${id}`,
    unrepresentable: "any",
    io,
    override: ({ zodSchema, jsonSchema }) => {
      const shape = documentedShapeOf(zodSchema);
      if (!shape) return;
      const description = jsonSchema.description;
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, shape, description ? { description } : {});
    },
  });
  const out: Json = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

/** The ids of the component schemas `roots` refer to, directly or through other components. */
export function referencedSchemas(roots: unknown, schemas: Json): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value !== "object" || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string" && item.startsWith("#/components/schemas/")) {
        const id = item.slice("#/components/schemas/".length);
        if (!found.has(id)) {
          found.add(id);
          walk(schemas[id]);
        }
      } else walk(item);
    }
  };
  walk(roots);
  return found;
}

/**
 * The component schemas `roots` (the document's paths and its top-level extensions) refer to,
 * among the contract's registries, the format schemas and `extra` (schemas of another protocol's
 * messages, such as MCP's).
 * @throws Error when a reference names no schema
 */
export function componentSchemasFor(roots: unknown, extra: Json = {}): Json {
  const all: Json = { ...registrySchemas(responseRegistry, "output"), ...registrySchemas(requestRegistry, "input"), ...FORMAT_SCHEMAS, ...extra };
  const used = referencedSchemas(roots, all);
  const missing = [...used].filter((id) => !(id in all));
  if (missing.length > 0) throw new Error(`The OpenAPI document refers to schemas that do not exist: ${missing.join(", ")}`);
  return Object.fromEntries(Object.keys(all).filter((id) => used.has(id)).map((id) => [id, all[id]]));
}
