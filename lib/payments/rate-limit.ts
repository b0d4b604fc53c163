import type { Queryable } from "@/lib/db";
import { ApiError } from "@/lib/http";

/**
 * Invalid payment attempts per client address, counted in fixed windows in Postgres so every
 * gateway instance shares them. Over the limit the client gets 429 before any payment work, so
 * a flood of forged signatures costs one indexed query each, never a facilitator call.
 */

/** The client's address: the first X-Forwarded-For hop (set by Vercel and most proxies), else X-Real-IP. */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip")?.trim() || "unknown";
}

function windowStart(nowMs: number, windowSeconds: number): Date {
  return new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
}

/** Throws ApiError 429 (with retryAfterSeconds) when `client` has used up its invalid attempts. */
export async function assertNotRateLimited({
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
    "SELECT count FROM gateway.rate_limits WHERE key = $1 AND window_start = $2",
    [`invalid-payment:${client}`, start],
  );
  if ((rows[0]?.count ?? 0) < limit) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((start.getTime() + windowSeconds * 1000 - nowMs) / 1000));
  throw new RateLimitedError(retryAfterSeconds);
}

/** Counts one invalid payment attempt of `client`. */
export async function recordInvalidAttempt({
  db,
  client,
  windowSeconds,
  nowMs = Date.now(),
}: {
  db: Queryable;
  client: string;
  windowSeconds: number;
  nowMs?: number;
}): Promise<void> {
  await db.query(
    `INSERT INTO gateway.rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = gateway.rate_limits.count + 1`,
    [`invalid-payment:${client}`, windowStart(nowMs, windowSeconds)],
  );
}

export class RateLimitedError extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super("rate_limited", "Too many invalid payment attempts; wait before trying again", {
      reason: "too_many_invalid_payments",
      headers: { "retry-after": String(retryAfterSeconds) },
    });
    this.name = "RateLimitedError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
  override toBody() {
    return { ...super.toBody(), retryAfterSeconds: this.retryAfterSeconds };
  }
}
