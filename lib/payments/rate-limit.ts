import type { Queryable } from "@/lib/db";
import { RateLimitedError } from "@/lib/http";
import { countInWindow } from "@/lib/rate-limit/fixed-window";

/**
 * Invalid payment attempts per client address, counted in fixed windows in Postgres so every
 * gateway instance shares them. Only invalid attempts touch the counter: a valid payment costs no
 * rate-limit query. The attempt that goes over the limit is answered 429, and this instance then
 * refuses that address at once, without any query or payment work, until the window ends; other
 * instances do the same from their first invalid attempt of that address. Only the payer's faults
 * count: a failure that is the service's (a facilitator or chain that cannot be reached, a nonce
 * clash of our own facilitator account) never does. Who the client is: lib/http/client-address.ts.
 * The window itself is the shared fixed-window counter (lib/rate-limit/fixed-window.ts).
 */

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
  const { count, endsAtMs, retryAfterSeconds } = await countInWindow({ db, table: "gateway.rate_limits", key: `invalid-payment:${client}`, windowSeconds, nowMs });
  if (count <= limit) return;
  blockedUntil.set(client, endsAtMs);
  if (blockedUntil.size > 10_000) blockedUntil.delete(blockedUntil.keys().next().value!);
  throw tooManyInvalidAttempts(retryAfterSeconds);
}

/** Too many invalid payment attempts from one address. */
function tooManyInvalidAttempts(retryAfterSeconds: number): RateLimitedError {
  return new RateLimitedError("Too many invalid payment attempts; wait before trying again", retryAfterSeconds, "too_many_invalid_payments");
}
