import { Hono } from "hono";
import { isAddress } from "viem";
import { z } from "zod";
import { ApiError, readJsonObject, validateBody } from "@/lib/shared/http";
import { publicCallerAddress } from "../http/access";
import { issueChallenge } from "../premium/challenge";
import { serviceTokenChain } from "../premium/holding";
import { tradeChallengeForKey } from "../premium/issue-key";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";

/**
 * Premium keys without anyone's help: a holder of the service token asks for a one-time
 * challenge, signs it with the wallet, and gets a key if the signature is the wallet's and its
 * balance of the token reaches the configured minimum. A challenge is used once, signed or not.
 * The key expires after PREMIUM_KEY_TTL_DAYS and lives only while the holding does (see
 * ../premium/issue-key.ts and ../premium/check-key.ts). Anyone may ask for challenges, so how many
 * wait unsigned is bounded per client address and in all (../premium/challenge.ts).
 */
export function premiumRoutes({ config, db }: RouteDeps): Hono<AgentEnv> {
  const routes = new Hono<AgentEnv>();
  const token = config.access.serviceToken;
  const available = () => {
    if (!token) throw new ApiError("unavailable", "Premium keys are not offered here: no SERVICE_TOKEN_ADDRESS is configured", { reason: "premium_unavailable" });
    return serviceTokenChain(token);
  };

  // POST /api/premium/challenge – a one-time message for a wallet to sign
  routes.post("/challenge", async (c) => {
    available();
    const { wallet } = validateBody(z.object({ wallet: z.string().refine((w) => isAddress(w), "wallet must be an address") }), await readJsonObject(c.req.raw, { maxBytes: 4096 }));
    const { challengesPerClient: perClient, challengesMax: max } = config.access.premium;
    return c.json(await issueChallenge({ db, wallet, client: publicCallerAddress(c, config), perClient, max }));
  });

  // POST /api/premium/keys – trade a signed challenge for a key (shown once)
  routes.post("/keys", async (c) => {
    const chain = available();
    const body = validateBody(
      z.object({ challengeId: z.uuid(), signature: z.string().regex(/^0x[0-9a-fA-F]+$/, "signature must be hex").pipe(z.templateLiteral(["0x", z.string()])) }),
      await readJsonObject(c.req.raw, { maxBytes: 8192 }),
    );
    const { id, key, wallet, expiresAt } = await tradeChallengeForKey({ db, config, chain, challengeId: body.challengeId, signature: body.signature });
    return c.json(
      {
        keyId: id,
        key,
        wallet,
        expiresAt: expiresAt.toISOString(),
        note: "Store this key now: it is shown once. It replaces any earlier key of this wallet, and stops working if the wallet's holding falls below the minimum.",
      },
      201,
    );
  });

  return routes;
}
