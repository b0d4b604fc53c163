import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Queryable } from "@/lib/shared/db";
import { errorCode } from "@/lib/shared/narrow";

/**
 * Premium keys as stored: `lra_premium_` + 32 random bytes (base64url), of which only the SHA-256
 * is kept, so the database cannot give them away. A `holder` key rests on a wallet's holding of the
 * service token (at most one live key per wallet, enforced by a unique index); an `operator` key
 * was made by `npm run premium-key`. Every key expires.
 */

const PREMIUM_KEY_PREFIX = "lra_premium_";
const DAY_MS = 24 * 60 * 60 * 1000;

type PremiumKeyKind = "operator" | "holder";
export type RevokedReason = "superseded" | "holding_lost" | "operator";

export type PremiumKey = {
  id: string;
  kind: PremiumKeyKind;
  wallet: string | null;
  expiresAt: Date;
  revokedReason: RevokedReason | null;
  revoked: boolean;
  holdingCheckedAt: Date | null;
  holdingCheckedBlock: bigint | null;
};

function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function newKey(): { id: string; key: string } {
  return { id: randomUUID(), key: PREMIUM_KEY_PREFIX + randomBytes(32).toString("base64url") };
}

/** An operator's key (not backed by any holding), expiring `termDays` from `nowMs`; the key is returned once. */
export async function createOperatorKey({
  db,
  termDays,
  wallet = null,
  label = null,
  nowMs = Date.now(),
}: {
  db: Queryable;
  termDays: number;
  wallet?: string | null;
  label?: string | null;
  nowMs?: number;
}): Promise<{ id: string; key: string; expiresAt: Date }> {
  const { id, key } = newKey();
  const expiresAt = new Date(nowMs + termDays * DAY_MS);
  await db.query("INSERT INTO agent.premium_keys (id, key_hash, kind, wallet, label, created_at, expires_at) VALUES ($1, $2, 'operator', $3, $4, $5, $6)", [
    id,
    hashKey(key),
    wallet?.toLowerCase() ?? null,
    label,
    new Date(nowMs),
    expiresAt,
  ]);
  return { id, key, expiresAt };
}

/**
 * A holder's key for `wallet`, whose holding was read at `checkedBlock`. Revokes the wallet's
 * previous key in the same statement: one live key per holding. Issues for one wallet at the same
 * moment meet on the unique index; each loser tries again and supersedes the winner (each round
 * has one winner, so five attempts settle five at once; more than that fails the rest with the
 * database's error).
 */
export async function issueHolderKey({
  db,
  termDays,
  wallet,
  checkedBlock,
  nowMs = Date.now(),
}: {
  db: Queryable;
  termDays: number;
  wallet: string;
  checkedBlock: bigint;
  nowMs?: number;
}): Promise<{ id: string; key: string; expiresAt: Date }> {
  const now = new Date(nowMs);
  const expiresAt = new Date(nowMs + termDays * DAY_MS);
  for (let attempt = 1; ; attempt++) {
    const { id, key } = newKey();
    try {
      await db.query(
        // The INSERT reads the UPDATE's output so that it runs after it (an unread data-modifying
        // WITH runs last, and the new row would meet the old one on the unique index).
        `WITH superseded AS (
           UPDATE agent.premium_keys SET revoked_at = $5, revoked_reason = 'superseded'
            WHERE kind = 'holder' AND wallet = $3 AND revoked_at IS NULL
            RETURNING id)
         INSERT INTO agent.premium_keys (id, key_hash, kind, wallet, label, created_at, expires_at, holding_checked_at, holding_checked_block)
         SELECT $1, $2, 'holder', $3, 'service token holder', $5, $4, $5, $6 FROM (SELECT count(*) FROM superseded) AS s`,
        [id, hashKey(key), wallet.toLowerCase(), expiresAt, now, checkedBlock.toString()],
      );
      return { id, key, expiresAt };
    } catch (err) {
      if (errorCode(err) !== "23505" || attempt >= 5) throw err;
    }
  }
}

/** The stored key for a presented one, live or not; null when it was never issued. */
export async function findPremiumKey({ db, key }: { db: Queryable; key: string }): Promise<PremiumKey | null> {
  const { rows } = await db.query<{
    id: string;
    kind: PremiumKeyKind;
    wallet: string | null;
    expires_at: Date;
    revoked_at: Date | null;
    revoked_reason: RevokedReason | null;
    holding_checked_at: Date | null;
    holding_checked_block: string | null;
  }>("SELECT id, kind, wallet, expires_at, revoked_at, revoked_reason, holding_checked_at, holding_checked_block FROM agent.premium_keys WHERE key_hash = $1", [
    hashKey(key),
  ]);
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    kind: r.kind,
    wallet: r.wallet,
    expiresAt: r.expires_at,
    revoked: r.revoked_at !== null,
    revokedReason: r.revoked_reason,
    holdingCheckedAt: r.holding_checked_at,
    holdingCheckedBlock: r.holding_checked_block === null ? null : BigInt(r.holding_checked_block),
  };
}

/**
 * Records that a key's holding stayed at the minimum up to `block`. Two processes checking at once
 * may leave the lower block: the next check then reads a few blocks again, which is harmless.
 */
export async function recordHoldingCheck({ db, id, block, nowMs = Date.now() }: { db: Queryable; id: string; block: bigint; nowMs?: number }): Promise<void> {
  await db.query("UPDATE agent.premium_keys SET holding_checked_at = $2, holding_checked_block = $3 WHERE id = $1", [id, new Date(nowMs), block.toString()]);
}

export async function revokePremiumKey({ db, id, reason, nowMs = Date.now() }: { db: Queryable; id: string; reason: RevokedReason; nowMs?: number }): Promise<void> {
  await db.query("UPDATE agent.premium_keys SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL", [id, new Date(nowMs), reason]);
}

/**
 * The earliest block up to which a live holder key's holding was read within the last
 * `recheckSeconds`: tokens that moved after it may back a key that has not been asked again yet.
 * Null when no holder key was checked that recently (every one will be read on its next use).
 */
export async function earliestFreshHoldingBlock({ db, recheckSeconds, nowMs = Date.now() }: { db: Queryable; recheckSeconds: number; nowMs?: number }): Promise<bigint | null> {
  const { rows } = await db.query<{ block: string | null }>(
    `SELECT min(holding_checked_block) AS block FROM agent.premium_keys
      WHERE kind = 'holder' AND revoked_at IS NULL AND expires_at > $1 AND holding_checked_at > $2`,
    [new Date(nowMs), new Date(nowMs - recheckSeconds * 1000)],
  );
  return rows[0]?.block ? BigInt(rows[0].block) : null;
}

/** Makes the live holder keys of `wallets` read their holding again on their next use. */
export async function expireHoldingChecks({ db, wallets }: { db: Queryable; wallets: string[] }): Promise<void> {
  if (wallets.length === 0) return;
  await db.query("UPDATE agent.premium_keys SET holding_checked_at = NULL WHERE kind = 'holder' AND revoked_at IS NULL AND wallet = ANY($1::text[])", [
    wallets.map((w) => w.toLowerCase()),
  ]);
}
