import { getAddress } from "viem";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";
import type { AgentConfig } from "../config";
import { balanceAt, readChain, sendersTo, type ServiceTokenChain } from "./holding";
import { consumeChallenge } from "./challenge";
import { earliestFreshHoldingBlock, expireHoldingChecks, issueHolderKey } from "./keys";

/**
 * Issues a holder's key to `wallet` (whose signature was checked) when it holds the minimum of the
 * service token now. The wallet's previous key is revoked (one live key per holding), and so that
 * tokens just moved here cannot keep backing another wallet's key until its next re-check, every
 * live key whose wallet sent tokens here since its holding was last read is made to read it again
 * on its next use. Throws ApiError 403 (too little) or 503 (the chain cannot be read).
 */
async function issueKeyToHolder({
  db,
  config,
  chain,
  wallet,
  nowMs = Date.now(),
}: {
  db: Queryable;
  config: AgentConfig;
  chain: ServiceTokenChain;
  wallet: string;
  nowMs?: number;
}): Promise<{ id: string; key: string; expiresAt: Date }> {
  const { minBalance } = chain.token;
  const { block, balance } = await readChain({ wallet }, async () => {
    const block = await chain.client.getBlockNumber({ cacheTime: 0 });
    return { block, balance: await balanceAt(chain, wallet, block) };
  });
  if (balance < minBalance) {
    throw new ApiError("forbidden", "The wallet holds too little of the service token", {
      reason: "insufficient_service_token",
      message: `holds ${balance}, needs ${minBalance}`,
    });
  }
  const since = await earliestFreshHoldingBlock({ db, recheckSeconds: config.access.premium.recheckSeconds, nowMs });
  if (since !== null && since < block) {
    const senders = (await readChain({ wallet }, () => sendersTo(chain, { wallet, after: since, upTo: block }))).filter((s) => s !== wallet.toLowerCase());
    await expireHoldingChecks({ db, wallets: senders });
  }
  return issueHolderKey({ db, termDays: config.access.premium.termDays, wallet: getAddress(wallet), checkedBlock: block, nowMs });
}

/**
 * Trades a signed challenge for a key (POST /api/premium/keys): the challenge is used up first,
 * then the signature must be its wallet's, then the wallet must hold the minimum (issueKeyToHolder).
 * Throws ApiError 403 `invalid_challenge` (unknown, expired or used), 403 `invalid_signature`, and
 * what issueKeyToHolder throws.
 */
export async function tradeChallengeForKey({
  db,
  config,
  chain,
  challengeId,
  signature,
}: {
  db: Queryable;
  config: AgentConfig;
  chain: ServiceTokenChain;
  challengeId: string;
  signature: `0x${string}`;
}): Promise<{ id: string; key: string; wallet: string; expiresAt: Date }> {
  const challenge = await consumeChallenge({ db, challengeId });
  if (!challenge) throw new ApiError("forbidden", "Unknown, expired or already used challenge", { reason: "invalid_challenge" });
  const wallet = getAddress(challenge.wallet);
  const signed = await chain.client.verifyMessage({ address: wallet, message: challenge.message, signature }).catch(() => false);
  if (!signed) throw new ApiError("forbidden", "The signature is not the wallet's", { reason: "invalid_signature" });
  return { ...(await issueKeyToHolder({ db, config, chain, wallet })), wallet };
}
