import { randomUUID } from "node:crypto";
import { getAddress } from "viem";
import type { Queryable } from "@/lib/shared/db";
import { withTransaction } from "@/lib/shared/db/transaction";
import { RateLimitedError } from "@/lib/shared/http";

/** How long a challenge may be signed and traded for a key. */
const CHALLENGE_TTL_SECONDS = 600;

/**
 * Issues a one-time challenge for `wallet` to sign. Anyone may ask, so what they can store is
 * bounded: at most `perClient` unused, unexpired challenges per client address and `max` in all,
 * exactly, at any concurrency: issuing is serialized by a transaction lock (a cheap insert, rarely
 * asked for), so requests arriving together cannot each see room that only one of them has.
 * Expired challenges are deleted by the premium sweep (agent/premium/retention.ts).
 * Throws RateLimitedError (429 `too_many_challenges`, Retry-After until one of them expires).
 */
export async function issueChallenge({
  db,
  wallet,
  client,
  perClient,
  max,
  nowMs = Date.now(),
}: {
  db: Queryable;
  wallet: string;
  client: string;
  perClient: number;
  max: number;
  nowMs?: number;
}): Promise<{ challengeId: string; message: string; expiresAt: string }> {
  const id = randomUUID();
  const expiresAt = new Date(nowMs + CHALLENGE_TTL_SECONDS * 1000);
  const message = `Longevity Research Agent: request a premium API key\nWallet: ${getAddress(wallet)}\nChallenge: ${id}\nExpires: ${expiresAt.toISOString()}`;
  const open = "used_at IS NULL AND expires_at > $6";
  const rowCount = await withTransaction(db, async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('agent.premium_challenges'))");
    const inserted = await tx.query(
      `INSERT INTO agent.premium_challenges (id, wallet, message, expires_at, client)
       SELECT $1, $2, $3, $4, $5
        WHERE (SELECT count(*) FROM agent.premium_challenges WHERE client = $5 AND ${open}) < $7
          AND (SELECT count(*) FROM agent.premium_challenges WHERE ${open}) < $8`,
      [id, wallet.toLowerCase(), message, expiresAt, client, new Date(nowMs), perClient, max],
    );
    return inserted.rowCount;
  });
  if (!rowCount) throw await tooManyChallenges({ db, client, perClient, nowMs });
  return { challengeId: id, message, expiresAt: expiresAt.toISOString() };
}

/** The refusal: the client's own bound, or everyone's, with the time until a challenge that frees a place expires. */
async function tooManyChallenges({ db, client, perClient, nowMs }: { db: Queryable; client: string; perClient: number; nowMs: number }): Promise<RateLimitedError> {
  const { rows } = await db.query<{ own: string; own_frees: Date | null; any_frees: Date | null }>(
    `SELECT count(*) FILTER (WHERE client = $1)::text AS own, min(expires_at) FILTER (WHERE client = $1) AS own_frees, min(expires_at) AS any_frees
       FROM agent.premium_challenges WHERE used_at IS NULL AND expires_at > $2`,
    [client, new Date(nowMs)],
  );
  const row = rows[0];
  const mine = Number(row?.own ?? 0) >= perClient;
  const frees = (mine ? row?.own_frees : row?.any_frees) ?? new Date(nowMs + 1000);
  return new RateLimitedError(
    mine ? `At most ${perClient} unused challenges per client: sign one, or wait for one to expire` : "Too many challenges are waiting to be signed: try again later",
    Math.max(1, Math.ceil((frees.getTime() - nowMs) / 1000)),
    "too_many_challenges",
  );
}

/**
 * Uses up a challenge: the wallet it was issued for and the message to be signed, or null when it
 * is unknown, expired or used already. It is used up whether or not the signature then checks, so
 * a replay finds it used whatever happens next.
 */
export async function consumeChallenge({ db, challengeId }: { db: Queryable; challengeId: string }): Promise<{ wallet: string; message: string } | null> {
  const { rows } = await db.query<{ wallet: string; message: string }>(
    "UPDATE agent.premium_challenges SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now() RETURNING wallet, message",
    [challengeId],
  );
  return rows[0] ?? null;
}
