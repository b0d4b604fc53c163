import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";
import type { AgentConfig } from "../config";
import { balanceAt, lowestBalanceSince, readChain, serviceTokenChain } from "./holding";
import { findPremiumKey, recordHoldingCheck, revokePremiumKey, type PremiumKey } from "./keys";

/** A premium key that may be used now, and who it speaks for (see `ownerOf`). */
export type LivePremiumKey = { id: string; owner: string };

const holdingLost = () =>
  new ApiError("forbidden", "The key's wallet has not kept the minimum of the service token since the key was issued", {
    reason: "insufficient_service_token",
    message: "Request a new key while the wallet holds enough (POST /api/premium/challenge)",
  });

/**
 * Checks a presented premium key: issued, not revoked, within its term, and for a holder's key
 * the holding still intact, read from the chain at most once per `recheckSeconds` (every agent
 * process shares the last reading through Postgres). Returns null for a key never issued.
 * Throws ApiError: 401 expired or superseded, 403 holding lost (the key is revoked for good), 503
 * when the chain cannot be read.
 */
export async function checkPremiumKey({ db, config, key, nowMs = Date.now() }: { db: Queryable; config: AgentConfig; key: string; nowMs?: number }): Promise<LivePremiumKey | null> {
  const stored = await findPremiumKey({ db, key });
  if (!stored) return null;
  if (stored.revoked) {
    if (stored.revokedReason === "holding_lost") throw holdingLost();
    throw new ApiError("unauthorized", "This premium key was revoked", {
      reason: "premium_key_revoked",
      ...(stored.revokedReason === "superseded" ? { message: "A newer key was issued for the same wallet" } : {}),
    });
  }
  if (stored.expiresAt.getTime() <= nowMs) {
    throw new ApiError("unauthorized", "This premium key has expired", { reason: "premium_key_expired", message: `It expired at ${stored.expiresAt.toISOString()}` });
  }
  if (stored.kind === "holder") await recheckHolding({ db, config, stored, nowMs });
  return { id: stored.id, owner: stored.kind === "holder" ? `wallet:${stored.wallet}` : `key:${stored.id}` };
}

async function recheckHolding({ db, config, stored, nowMs }: { db: Queryable; config: AgentConfig; stored: PremiumKey; nowMs: number }): Promise<void> {
  const { recheckSeconds } = config.access.premium;
  if (stored.holdingCheckedAt && nowMs - stored.holdingCheckedAt.getTime() < recheckSeconds * 1000) return;
  const token = config.access.serviceToken;
  if (!token || !stored.wallet) {
    throw new ApiError("forbidden", "Holder keys cannot be checked here: no SERVICE_TOKEN_ADDRESS is configured", { reason: "premium_unavailable" });
  }
  const chain = serviceTokenChain(token);
  const wallet = stored.wallet;
  const after = stored.holdingCheckedBlock;
  const { block, lowest } = await readChain({ keyId: stored.id }, async () => {
    const block = await chain.client.getBlockNumber({ cacheTime: 0 });
    // A key from before holdings were followed has no checked block: its balance now starts it.
    const lowest = after === null ? await balanceAt(chain, wallet, block) : await lowestBalanceSince(chain, { wallet, after, upTo: block });
    return { block, lowest };
  });
  if (lowest < token.minBalance) {
    await revokePremiumKey({ db, id: stored.id, reason: "holding_lost", nowMs });
    throw holdingLost();
  }
  await recordHoldingCheck({ db, id: stored.id, block, nowMs });
}
