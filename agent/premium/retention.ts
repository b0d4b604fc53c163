import type { Queryable } from "@/lib/shared/db";

/**
 * Deletes premium challenges once they expired (used or not: an expired challenge is refused
 * anyway), and premium keys `keyRetentionSeconds` after their term ended (PREMIUM_KEY_RETENTION_DAYS,
 * 30 by default; until then a caller with the key is told it expired rather than that it is
 * unknown). Only keys' hashes are stored. Returns how many rows went.
 */
export async function sweepPremium({ db, keyRetentionSeconds }: { db: Queryable; keyRetentionSeconds: number }): Promise<number> {
  const challenges = await db.query("DELETE FROM agent.premium_challenges WHERE expires_at <= now()");
  const keys = await db.query("DELETE FROM agent.premium_keys WHERE expires_at < now() - make_interval(secs => $1)", [keyRetentionSeconds]);
  return (challenges.rowCount ?? 0) + (keys.rowCount ?? 0);
}
