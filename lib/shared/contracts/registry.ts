import { z } from "zod";

/**
 * Named contract schemas, for the OpenAPI document (`lib/gateway/openapi`). Request schemas are rendered
 * as their input type (fields with defaults are optional), response schemas as their output type,
 * so the two kinds live in separate registries.
 */
export type ContractMeta = { id: string; description?: string };

export const requestRegistry = z.registry<ContractMeta>();
export const responseRegistry = z.registry<ContractMeta>();

/** A JSON Schema fragment as the document states it. */
export type DocumentedShape = Record<string, unknown>;

const documentedShapes = new WeakMap<object, DocumentedShape>();

/** A reference to the document's component schema `id`. */
export const componentRef = (id: string): DocumentedShape => ({ $ref: `#/components/schemas/${id}` });

/**
 * Marks `schema`, read leniently, as documented by `shape`: the fields the shared API shape leaves
 * open (a deep-research citation, a world state, a chat answer's metadata) are read as open
 * objects, so an answer that fills them otherwise is still read and relayed, while the OpenAPI
 * document states what this service's agent puts there (`shape`, usually a `componentRef`). The
 * test that holds real answers to the document (tests/integration/openapi-accuracy.test.ts) keeps
 * the two from drifting. Mark the schema as it is used: `.describe()` or `.optional()` return a
 * new schema, so call this on the result, or on the inner schema before wrapping it.
 */
export function documentAs<T extends z.ZodType>(schema: T, shape: DocumentedShape): T {
  documentedShapes.set(schema, shape);
  return schema;
}

/** The documented shape of `schema`, when it has one. */
export function documentedShapeOf(schema: unknown): DocumentedShape | undefined {
  return typeof schema === "object" && schema !== null ? documentedShapes.get(schema) : undefined;
}
