import type { z } from "zod";
import type { PaidOperationDefinition } from "@/lib/shared/operations/types";

/** A definition with its id and body schema kept as their own types: the registry's ids form a union, and a route's body is typed. */
export const definePaidOperation = <const Id extends string, Body extends z.ZodType>(definition: PaidOperationDefinition<Id, Body>): PaidOperationDefinition<Id, Body> => definition;
