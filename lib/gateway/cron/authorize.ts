import { ApiError } from "@/lib/shared/http";
import { bearerMatches } from "@/lib/shared/http/bearer";

/**
 * Checks `Authorization: Bearer <CRON_SECRET>` in constant time. With no secret configured nothing
 * is authorised: an unset secret must never mean an open cron.
 *
 * Throws ApiError 401 when the header is missing, malformed or wrong, or no secret is set.
 */
export function assertCronAuthorized(authorization: string | null, secret: string | undefined): void {
  if (!secret) throw unauthorized("Cron is disabled: CRON_SECRET is not configured");
  if (!authorization) throw unauthorized("Missing Authorization header");
  if (!/^Bearer .+$/.test(authorization)) throw unauthorized("Authorization must be a Bearer token");
  if (!bearerMatches(authorization, secret)) throw unauthorized("Invalid cron token");
}

function unauthorized(message: string): ApiError {
  return new ApiError("unauthorized", message, { reason: "unauthorized" });
}
