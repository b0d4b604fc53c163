import type { z } from "zod";
import { requestRegistry, type ContractMeta } from "./registry";
import { unstorableTextProblem } from "./storable-text";

/** Adds an issue at the path of every string (or object key) in `value` that is not storable text. */
function checkStorableText(value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (typeof value === "string") {
    const problem = unstorableTextProblem(value);
    if (problem) ctx.addIssue({ code: "custom", path, message: problem });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkStorableText(item, ctx, [...path, i]));
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const problem = unstorableTextProblem(key);
      if (problem) ctx.addIssue({ code: "custom", path: [...path, key], message: `field name ${problem}` });
      checkStorableText(item, ctx, [...path, key]);
    }
  }
}

/**
 * Registers a request schema (a body, or the plaintext of a sealed one) for the OpenAPI document,
 * and refuses any string in it that is not storable text, whichever field it is in: every
 * request both services accept is one of these, so the rule holds in one place for all of them.
 */
export function requestContract<T extends z.ZodType>(schema: T, meta: ContractMeta): T {
  const checked = schema.superRefine((value, ctx) => checkStorableText(value, ctx));
  requestRegistry.add(checked, meta);
  return checked;
}
