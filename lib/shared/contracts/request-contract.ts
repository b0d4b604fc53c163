import { z } from "zod";
import { requestRegistry, type ContractMeta } from "@/lib/shared/contracts/registry";
import { unstorableTextProblem } from "@/lib/shared/contracts/storable-text";

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

/** How many unknown fields a refusal names, and how much of each name it repeats. */
const NAMED_FIELDS = 5;
const NAME_CHARS = 64;

/**
 * A request body's object that refuses fields it does not define, naming each (`model: unknown
 * field`) and the fields it takes: a misspelt or invented field is an error the client sees
 * before paying (the 402 says so) and after (400), never silently dropped while the request is
 * answered without it. The JSON Schema says `additionalProperties: false`.
 */
export function requestObject<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      // The schema that refused: an extension of this one (a sealed plaintext) takes more fields.
      const takes = Object.keys(issue.inst instanceof z.ZodObject ? issue.inst.shape : shape).join(", ");
      const named = issue.keys.slice(0, NAMED_FIELDS).map((key) => `${key.length > NAME_CHARS ? `${key.slice(0, NAME_CHARS)}…` : key}: unknown field`);
      const more = issue.keys.length > NAMED_FIELDS ? ` (and ${issue.keys.length - NAMED_FIELDS} more)` : "";
      return `${named.join("; ")}${more}; this request takes only ${takes}`;
    },
  });
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
