import { z } from "zod";
import { responseRegistry } from "@/lib/shared/contracts/registry";

/** Section 2.1: the one error body of the service. */
export const errorBodySchema = z
  .object({
    error: z.string().describe("message or code"),
    reason: z.string().nullish().describe("machine-readable reason (payment errors)"),
    message: z.string().nullish().describe("human-readable details (payment errors)"),
    charged: z
      .literal(false)
      .optional()
      .describe("on an error answered to a request that carried a payment: nothing was charged"),
  })
  .register(responseRegistry, { id: "Error", description: "The error body of every route: `error` (a message or a code), `reason` (machine-readable) and `message` (details) where known" });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Section 7: a 429 carries how long to wait. */
export const rateLimitedBodySchema = errorBodySchema
  .extend({ retryAfterSeconds: z.int().min(0) })
  .register(responseRegistry, { id: "RateLimited", description: "The body of a 429: the error, and how many seconds to wait" });

/** A calendar date written YYYY-MM-DD that exists (2024-02-30 does not). */
export const isoDateSchema = z.iso.date({ error: "must be a date written YYYY-MM-DD" });

/** Standard base64 with padding, as every `hpke_*` field uses. */
export const base64Schema = z
  .string()
  .min(1)
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, "must be standard base64");

/** Status values with an integer percentage, used by job progress. */
export const percentSchema = z.int().min(0).max(100);
