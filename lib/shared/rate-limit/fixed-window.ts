import type { Queryable } from "@/lib/shared/db";

/**
 * The one fixed-window counter of both services: the agent's free-chat and premium limits
 * (agent/http/rate-limit.ts) and the gateway's invalid-payment limit (lib/gateway/payments/rate-limit.ts). A window
 * is a row per key and window start, counted in Postgres so every process shares it; each row
 * carries the moment its window ends, so sweepRateLimits deletes finished windows whatever their
 * length.
 */

/** The two tables holding windows: one per schema, so each service keeps to its own. */
export type RateLimitTable = "agent.rate_limits" | "gateway.rate_limits";

export type WindowCount = {
  /** Requests counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends (at least 1): what a 429's Retry-After says. */
  retryAfterSeconds: number;
  /** When the window ends, epoch milliseconds. */
  endsAtMs: number;
};

/**
 * Counts one request of `key` in its current window of `windowSeconds` and returns the count.
 *
 * Windows are the clock's (a day's limit resets at midnight UTC, as the agent's free tier says)
 * unless `anchored`: then a key's window starts at its first request and ends `windowSeconds`
 * later, so "at most N per ten minutes" never lets 2N through across a clock boundary, and a burst
 * is judged the same whatever the minute it arrives in. An anchored key keeps one row (its
 * `window_start` the epoch), restarted when the request finds it ended.
 */
export async function countInWindow({
  db,
  table,
  key,
  windowSeconds,
  nowMs = Date.now(),
  anchored = false,
}: {
  db: Queryable;
  table: RateLimitTable;
  key: string;
  windowSeconds: number;
  nowMs?: number;
  anchored?: boolean;
}): Promise<WindowCount> {
  if (anchored) return countAnchored({ db, table, key, windowSeconds, nowMs });
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(nowMs / windowMs) * windowMs;
  const endsAtMs = start + windowMs;
  const { rows } = await db.query<{ count: number }>(
    `INSERT INTO ${table} AS t (key, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (key, window_start) DO UPDATE SET count = t.count + 1
     RETURNING count`,
    [key, new Date(start), new Date(endsAtMs)],
  );
  return { count: rows[0]?.count ?? 0, retryAfterSeconds: Math.max(1, Math.ceil((endsAtMs - nowMs) / 1000)), endsAtMs };
}

async function countAnchored({ db, table, key, windowSeconds, nowMs }: { db: Queryable; table: RateLimitTable; key: string; windowSeconds: number; nowMs: number }): Promise<WindowCount> {
  const now = new Date(nowMs);
  const end = new Date(nowMs + windowSeconds * 1000);
  const { rows } = await db.query<{ count: number; expires_at: Date }>(
    `INSERT INTO ${table} AS t (key, window_start, count, expires_at) VALUES ($1, to_timestamp(0), 1, $3)
     ON CONFLICT (key, window_start) DO UPDATE SET
       count = CASE WHEN t.expires_at <= $2 THEN 1 ELSE t.count + 1 END,
       expires_at = CASE WHEN t.expires_at <= $2 THEN $3 ELSE t.expires_at END
     RETURNING count, expires_at`,
    [`anchored:${key}`, now, end],
  );
  const endsAtMs = new Date(rows[0]?.expires_at ?? end).getTime();
  return { count: rows[0]?.count ?? 0, retryAfterSeconds: Math.max(1, Math.ceil((endsAtMs - nowMs) / 1000)), endsAtMs };
}

/** Deletes the windows that ended before `nowMs`: a finished window limits nothing. Returns how many went. */
export async function sweepRateLimits({ db, table, nowMs = Date.now() }: { db: Queryable; table: RateLimitTable; nowMs?: number }): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM ${table} WHERE expires_at <= $1`, [new Date(nowMs)]);
  return rowCount ?? 0;
}

/**
 * The migration that gives an existing table of windows their end (agent 11, gateway 6). Windows
 * counted before it end a day after they began, longer than any default window. Never change its
 * text: the migrations' checksums include it.
 */
export function addWindowEndSql(table: RateLimitTable): string {
  return `
      ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS expires_at timestamptz;
      UPDATE ${table} SET expires_at = window_start + interval '1 day' WHERE expires_at IS NULL;
      ALTER TABLE ${table} ALTER COLUMN expires_at SET NOT NULL;
      CREATE INDEX IF NOT EXISTS rate_limits_expires ON ${table} (expires_at);
  `;
}
