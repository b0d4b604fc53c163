import { createHash, timingSafeEqual } from "node:crypto";
import { ApiError } from "@/lib/http";

/**
 * Checks `Authorization: Bearer <CRON_SECRET>` in constant time. Both sides are hashed first so
 * the comparison takes the same time whatever the length of the guess. With no secret configured
 * nothing is authorised: an unset secret must never mean an open cron.
 *
 * Throws ApiError 401 when the header is missing, malformed or wrong, or no secret is set.
 */
export function assertCronAuthorized(authorization: string | null, secret: string | undefined): void {
  if (!secret) throw unauthorized("Cron is disabled: CRON_SECRET is not configured");
  if (!authorization) throw unauthorized("Missing Authorization header");
  const match = /^Bearer (.+)$/.exec(authorization);
  if (!match?.[1]) throw unauthorized("Authorization must be a Bearer token");
  if (!timingSafeEqual(digest(match[1]), digest(secret))) throw unauthorized("Invalid cron token");
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

function unauthorized(message: string): ApiError {
  return new ApiError("unauthorized", message, { reason: "unauthorized" });
}
