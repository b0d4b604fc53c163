import { randomUUID } from "node:crypto";
import type { Queryable } from "@/lib/shared/db";
import { RateLimitedError } from "@/lib/shared/http";
import { log } from "@/lib/shared/log";

/** What a client over its bound is told to wait: about one poll interval of the contract (750 ms to 2 s). */
const LONG_POLL_RETRY_AFTER_SECONDS = 2;

/** A hold outlives its wait by this much before it frees itself (a gateway that died mid-poll). */
const HOLD_MARGIN_SECONDS = 10;

/**
 * Takes one of the `limit` long-polls `client` may hold open at once, for a wait of up to
 * `waitSeconds`, and returns the function that gives it back. Throws RateLimitedError (429
 * `too_many_long_polls`, Retry-After) when the client holds them all.
 *
 * The holds live in the gateway's database, so every gateway instance counts the same ones: one
 * row per client address, its holders a JSON object of hold id → the epoch second at which the
 * hold lapses. Taking one is a single INSERT … ON CONFLICT DO UPDATE, which runs on the row
 * locked and current, so concurrent takers never exceed the limit; lapsed holds (an instance that
 * died before giving one back) are dropped by the same statement. Two queries per long-poll.
 */
export async function holdLongPoll({
  db,
  client,
  limit,
  waitSeconds,
}: {
  db: Queryable;
  client: string;
  limit: number;
  waitSeconds: number;
}): Promise<() => Promise<void>> {
  const holder = randomUUID();
  const { rows } = await db.query(
    `INSERT INTO gateway.long_polls AS t (client, holders)
     VALUES ($1, jsonb_build_object($2::text, floor(extract(epoch FROM now())) + $4::int))
     ON CONFLICT (client) DO UPDATE
        SET holders = (SELECT coalesce(jsonb_object_agg(h.key, h.value), '{}'::jsonb)
                         FROM jsonb_each(t.holders) h WHERE (h.value)::numeric > extract(epoch FROM now()))
                      || jsonb_build_object($2::text, floor(extract(epoch FROM now())) + $4::int)
      WHERE (SELECT count(*) FROM jsonb_each(t.holders) h WHERE (h.value)::numeric > extract(epoch FROM now())) < $3::int
     RETURNING 1`,
    [client, holder, limit, Math.ceil(waitSeconds) + HOLD_MARGIN_SECONDS],
  );
  if (rows.length === 0) {
    throw new RateLimitedError(
      `At most ${limit} long-polls per client at once: wait for one to answer, or poll without timeout`,
      LONG_POLL_RETRY_AFTER_SECONDS,
      "too_many_long_polls",
    );
  }
  return async () => {
    try {
      await db.query("UPDATE gateway.long_polls SET holders = holders - $2::text WHERE client = $1", [client, holder]);
    } catch (err) {
      // The hold lapses by itself within the wait and its margin.
      log.warn("could not give back a long-poll hold", { error: err });
    }
  };
}
