import type { Queryable } from "@/lib/db";
import { RateLimitedError } from "@/lib/http";

/**
 * Invalid payment attempts per client address, counted in fixed windows in Postgres so every
 * gateway instance shares them. Only invalid attempts touch the counter: a valid payment costs no
 * rate-limit query. The attempt that goes over the limit is answered 429, and this instance then
 * refuses that address at once, without any query or payment work, until the window ends; other
 * instances do the same from their first invalid attempt of that address. Only the payer's faults
 * count: a failure that is the service's (a facilitator or chain that cannot be reached, a nonce
 * clash of our own facilitator account) never does. Who the client is: lib/http/client-address.ts.
 */

function windowStart(nowMs: number, windowSeconds: number): Date {
  return new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
}

const blockedUntil = new Map<string, number>();

/** Throws RateLimitedError when this instance has seen `client` go over its limit in this window. */
export function assertNotBlocked(client: string, nowMs = Date.now()): void {
  const until = blockedUntil.get(client);
  if (until === undefined) return;
  if (until <= nowMs) {
    blockedUntil.delete(client);
    return;
  }
  throw tooManyInvalidAttempts(Math.max(1, Math.ceil((until - nowMs) / 1000)));
}

/**
 * Counts one invalid payment attempt of `client`. Throws RateLimitedError when the attempt is over
 * the limit (and remembers the block for this window).
 */
export async function recordInvalidAttempt({
  db,
  client,
  limit,
  windowSeconds,
  nowMs = Date.now(),
}: {
  db: Queryable;
  client: string;
  limit: number;
  windowSeconds: number;
  nowMs?: number;
}): Promise<void> {
  const start = windowStart(nowMs, windowSeconds);
  const { rows } = await db.query<{ count: number }>(
    `INSERT INTO gateway.rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = gateway.rate_limits.count + 1
     RETURNING count`,
    [`invalid-payment:${client}`, start],
  );
  if ((rows[0]?.count ?? 0) <= limit) return;
  const until = start.getTime() + windowSeconds * 1000;
  blockedUntil.set(client, until);
  if (blockedUntil.size > 10_000) blockedUntil.delete(blockedUntil.keys().next().value!);
  throw tooManyInvalidAttempts(Math.max(1, Math.ceil((until - nowMs) / 1000)));
}

/** Too many invalid payment attempts from one address. */
function tooManyInvalidAttempts(retryAfterSeconds: number): RateLimitedError {
  return new RateLimitedError("Too many invalid payment attempts; wait before trying again", retryAfterSeconds, "too_many_invalid_payments");
}
