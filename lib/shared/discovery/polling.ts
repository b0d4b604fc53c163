import { z } from "zod";
import { isRecord } from "@/lib/shared/narrow";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";

/**
 * How each paid route's work is followed after payment: every paid route answers 202 and the
 * client polls a free status route until a final status, as each operation's definition says
 * (`polling`, lib/shared/operations), read by the 402's bazaar extension, /.well-known/x402.json,
 * /llms.txt and the status routes' Retry-After. The status words are read from the contract's
 * schemas (the 202's and the status route's), so they cannot drift from what the routes answer.
 */

/** Statuses after which a poll never changes: the work ended, one way or another. */
export const FINAL_STATUSES = ["completed", "failed", "cancelled", "timeout"] as const;

/**
 * The asynchronous pattern of one paid route, as the bazaar extension's `info.output.asyncPolling`
 * carries it (its JSON Schema travels in every 402 header, so the fields are described here and
 * in docs/agents.md rather than in the schema):
 * - `acceptedStatus`: the start's status when the work goes on after the answer (202);
 * - `synchronousStatus`: present (200) when the start may instead answer with the final result;
 * - `pollMethod`, `pollUrlTemplate`: the free status route, an absolute RFC 6570 template filled
 *   from the 202 body's field of the same name; `pollUrlField`: the 202's field that already
 *   holds that URL; `pollBody`: what a POST poll sends; `longPollQuery`: the query that makes one
 *   poll wait for the answer, with its largest value;
 * - `pendingStatuses` (keep polling) and `finalStatuses` (stop: the result or its error is in
 *   that poll's body);
 * - `intervalSeconds` between polls, `typicalSeconds` the work usually takes, `maxSeconds` after
 *   which to stop waiting (the result stays readable for its retention).
 */
export const asyncPollingSchema = z.object({
  acceptedStatus: z.literal(202),
  synchronousStatus: z.literal(200).optional(),
  pollMethod: z.enum(["GET", "POST"]),
  pollUrlTemplate: z.string(),
  pollUrlField: z.string().optional(),
  pollBody: z.string().optional(),
  longPollQuery: z.string().optional(),
  pendingStatuses: z.array(z.string()),
  finalStatuses: z.array(z.string()),
  intervalSeconds: z.number().positive(),
  typicalSeconds: z.number().positive(),
  maxSeconds: z.number().positive(),
});
export type AsyncPolling = z.infer<typeof asyncPollingSchema>;

/** A JSON Schema keyword holding subschemas (anyOf, oneOf, allOf), or none. */
function subschemas(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The values a JSON Schema allows for a string: its `const`, its `enum`, or its variants'. */
function allowedValues(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  if (typeof schema.const === "string") return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum.filter((v): v is string => typeof v === "string");
  return [...subschemas(schema.anyOf), ...subschemas(schema.oneOf)].flatMap(allowedValues);
}

/** Every word a body's top-level `status` may hold, across the variants of a union. */
function statusWords(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const own = allowedValues(isRecord(schema.properties) ? schema.properties.status : undefined);
  const variants = [...subschemas(schema.anyOf), ...subschemas(schema.oneOf), ...subschemas(schema.allOf)].flatMap(statusWords);
  return [...own, ...variants];
}

/** The status words of a route: its 202's, then its status route's, each once. */
export function statusWordsOf(operation: PaidOperation["id"]): string[] {
  const op = getPaidOperation(operation);
  const words = [op.accepted, op.polling.status].flatMap((schema) => statusWords(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" })));
  return [...new Set(words)];
}

/** The asynchronous pattern of `operation` on the deployment at `publicUrl`. */
export function describePolling({ operation, publicUrl }: { operation: PaidOperation["id"]; publicUrl: string }): AsyncPolling {
  const route = getPaidOperation(operation).polling;
  const words = statusWordsOf(operation);
  const final: readonly string[] = FINAL_STATUSES;
  return {
    acceptedStatus: 202,
    ...(route.synchronous ? { synchronousStatus: 200 as const } : {}),
    pollMethod: route.method,
    pollUrlTemplate: `${publicUrl}${route.path}`,
    ...(route.pollUrlField ? { pollUrlField: route.pollUrlField } : {}),
    ...(route.pollBody ? { pollBody: route.pollBody } : {}),
    ...(route.longPollQuery ? { longPollQuery: route.longPollQuery } : {}),
    pendingStatuses: words.filter((w) => !final.includes(w)),
    finalStatuses: words.filter((w) => final.includes(w)),
    intervalSeconds: route.intervalSeconds,
    typicalSeconds: route.typicalSeconds,
    maxSeconds: route.maxSeconds,
  };
}

/** Seconds a client should wait between polls of `operation`'s status route: its interval, a whole number of at least 1. */
export function retryAfterSeconds(operation: PaidOperation["id"]): number {
  return Math.max(1, Math.ceil(getPaidOperation(operation).polling.intervalSeconds));
}

/**
 * The polling headers of one answer of `operation`'s status route: `Retry-After` with the route's
 * interval while `status` is one of its pending words (keep polling), none once it is final or
 * unknown (a body without a status, a 404), so a client that waits for Retry-After to vanish stops
 * at the result.
 */
export function pollingHeaders({ operation, status }: { operation: PaidOperation["id"]; status: string | null | undefined }): Record<string, string> {
  if (typeof status !== "string" || !pendingStatusesOf(operation).includes(status)) return {};
  return { "retry-after": String(retryAfterSeconds(operation)) };
}

const pendingCache = new Map<PaidOperation["id"], readonly string[]>();

/** The words of `operation` that mean "keep polling" (computed once from the contract's schemas). */
function pendingStatusesOf(operation: PaidOperation["id"]): readonly string[] {
  let pending = pendingCache.get(operation);
  if (!pending) {
    const final: readonly string[] = FINAL_STATUSES;
    pending = statusWordsOf(operation).filter((w) => !final.includes(w));
    pendingCache.set(operation, pending);
  }
  return pending;
}
