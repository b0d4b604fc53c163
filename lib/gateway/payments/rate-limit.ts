import type { Queryable } from "@/lib/shared/db";
import { RateLimitedError } from "@/lib/shared/http";
import { countInWindow } from "@/lib/shared/rate-limit/fixed-window";

/**
 * Invalid payment attempts per client address, counted in fixed windows in Postgres so every
 * gateway instance shares them. A payment that passed the local checks reserves its attempt
 * before any work starts, in the same statement that claims it in the ledger (ledger.ts): the
 * window row counts it at once, atomically across processes, so a burst of any size starts at
 * most the limit's worth of work. The write that judges the payment settles the reservation in
 * the same statement: released when it is valid (settled, broadcast, scheduled) or failed for the
 * service's reason, kept as the counted attempt when it was the payer's fault. A valid payment
 * thus costs no query of its own. A refusal before the claim (the local checks) is counted by
 * `recordInvalidAttempt`. Once the counted attempts fill the window, this instance refuses that
 * address at once, without any query or payment work, until the window ends; other instances do
 * the same from their first refusal. While the window is full of attempts still being judged, a
 * new one waits for a place (`withAttemptSlot`), nothing counted. Who the client is:
 * lib/shared/http/client-address.ts. The window itself is the shared fixed-window counter
 * (lib/shared/rate-limit/fixed-window.ts).
 */

const blockedUntil = new Map<string, number>();

/** How long a request whose client's window is full of payments still being judged waits for a place. */
const IN_FLIGHT_WAIT_MS = 30_000;
/** What it is told to wait when none freed in that time. */
const IN_FLIGHT_RETRY_SECONDS = 2;

/** The window row an attempt of `client` reserves a place in. */
export type AttemptSlot = { key: string; windowStart: Date; windowEnd: Date; limit: number };

function attemptSlot({ client, limit, windowSeconds, nowMs = Date.now() }: { client: string; limit: number; windowSeconds: number; nowMs?: number }): AttemptSlot {
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(nowMs / windowMs) * windowMs;
  return { key: invalidAttemptKey(client), windowStart: new Date(start), windowEnd: new Date(start + windowMs), limit };
}

function invalidAttemptKey(client: string): string {
  return `invalid-payment:${client}`;
}

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
 * Counts one invalid payment attempt of `client` that reserved nothing (refused before its claim).
 * Throws RateLimitedError when the attempts it made are over the limit (and remembers the block
 * for this window); attempts of its still being judged do not make it so.
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
  const { count, endsAtMs, retryAfterSeconds } = await countInWindow({ db, table: "gateway.rate_limits", key: invalidAttemptKey(client), windowSeconds, nowMs });
  if (count <= limit) return;
  const { rows } = await db.query<{ held: number }>("SELECT held FROM gateway.rate_limits WHERE key = $1 AND window_start = $2", [
    invalidAttemptKey(client),
    new Date(endsAtMs - windowSeconds * 1000),
  ]);
  if (count - (rows[0]?.held ?? 0) <= limit) return;
  block(client, endsAtMs);
  throw tooManyInvalidAttempts(retryAfterSeconds);
}

/**
 * Runs `attempt` (a claim or a reopen that reserves in `slot`'s window) until it finds room. When
 * the attempts already judged invalid fill the window, the client is over its limit until the
 * window ends (429, and this instance blocks it). Otherwise some are still being judged (payments
 * in flight, most of them valid, one client's many requests at once): this one waits for a place,
 * each judged attempt freeing one or counting, and is answered 429 with a short Retry-After only
 * when none frees within IN_FLIGHT_WAIT_MS. Nothing is counted for a request that found no room.
 */
export async function withAttemptSlot<T>({
  db,
  client,
  limits,
  attempt,
}: {
  db: Queryable;
  client: string;
  limits: { limit: number; windowSeconds: number };
  attempt: (slot: AttemptSlot) => Promise<T | "full">;
}): Promise<T> {
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  for (let delay = 25; ; delay = Math.min(delay * 2, 400)) {
    const slot = attemptSlot({ client, ...limits });
    const result = await attempt(slot);
    if (result !== "full") return result;
    const { rows } = await db.query<{ count: number; held: number }>("SELECT count, held FROM gateway.rate_limits WHERE key = $1 AND window_start = $2", [slot.key, slot.windowStart]);
    if ((rows[0]?.count ?? 0) - (rows[0]?.held ?? 0) >= slot.limit) {
      block(client, slot.windowEnd.getTime());
      throw tooManyInvalidAttempts(Math.max(1, Math.ceil((slot.windowEnd.getTime() - Date.now()) / 1000)));
    }
    if (Date.now() >= deadline) {
      throw new RateLimitedError(
        "Too many payments from this address are being checked at once; send the same request with the same PAYMENT-SIGNATURE again after Retry-After (nothing was recorded or charged)",
        IN_FLIGHT_RETRY_SECONDS,
        "too_many_payments_in_flight",
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

function block(client: string, untilMs: number): void {
  blockedUntil.set(client, untilMs);
  if (blockedUntil.size > 10_000) blockedUntil.delete(blockedUntil.keys().next().value!);
}

/** Too many invalid payment attempts from one address. */
function tooManyInvalidAttempts(retryAfterSeconds: number): RateLimitedError {
  return new RateLimitedError("Too many invalid payment attempts; wait before trying again", retryAfterSeconds, "too_many_invalid_payments");
}
