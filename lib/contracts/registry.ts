import { z } from "zod";

/**
 * Named contract schemas, for the OpenAPI document (`lib/openapi`). Request schemas are rendered
 * as their input type (fields with defaults are optional), response schemas as their output type,
 * so the two kinds live in separate registries.
 */
export type ContractMeta = { id: string; description?: string };

export const requestRegistry = z.registry<ContractMeta>();
export const responseRegistry = z.registry<ContractMeta>();
