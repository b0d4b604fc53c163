import type { MiddlewareHandler } from "hono";
import type { Queryable } from "@/lib/shared/db";
import { RateLimitedError } from "@/lib/shared/http";
import { countInWindow } from "@/lib/shared/rate-limit/fixed-window";
import type { AgentConfig } from "../config";
import { callerOf } from "./access";
import type { AgentEnv, Caller } from "./context";

/**
 * Counts one chat request against the caller's window (shared by every agent process through
 * Postgres). The service key is never limited. Throws RateLimitedError (429) past the limit.
 */
export async function consumeChatAllowance({ db, config, caller, nowMs = Date.now() }: { db: Queryable; config: AgentConfig; caller: Caller; nowMs?: number }): Promise<void> {
  if (caller.kind === "service") return;
  const limit = caller.kind === "premium" ? config.access.premiumChatLimit : config.access.chatLimit;
  const key = caller.kind === "premium" ? `chat:premium:${caller.owner}` : `chat:ip:${caller.address}`;
  await consumeAllowance({ db, key, limit, windowSeconds: config.access.windowSeconds, nowMs });
}

/** What a premium key's allowances count apart: deep-research starts, and private-route requests. */
export type PremiumUse = "deepResearch" | "private";

/**
 * Counts one deep-research start or one private-route request of a premium caller against its
 * owner's window (a holder's new key does not start a new count). The service key is never
 * limited: the gateway sells these. Throws RateLimitedError (429) past the limit.
 */
export async function consumePremiumAllowance({
  db,
  config,
  caller,
  use,
  nowMs = Date.now(),
}: {
  db: Queryable;
  config: AgentConfig;
  caller: Caller;
  use: PremiumUse;
  nowMs?: number;
}): Promise<void> {
  if (caller.kind !== "premium") return;
  const { deepResearchLimit, privateLimit, windowSeconds } = config.access.premium;
  const limit = use === "deepResearch" ? deepResearchLimit : privateLimit;
  await consumeAllowance({ db, key: `${use === "deepResearch" ? "deep_research" : "private"}:premium:${caller.owner}`, limit, windowSeconds, nowMs });
}

/** Middleware: consumePremiumAllowance for the caller requireServiceOrPremium identified, before the handler reads anything. */
export function countPremiumUse({ db, config }: { db: Queryable; config: AgentConfig }, use: PremiumUse): MiddlewareHandler<AgentEnv> {
  return async (c, next) => {
    await consumePremiumAllowance({ db, config, caller: callerOf(c), use });
    await next();
  };
}

async function consumeAllowance({ db, key, limit, windowSeconds, nowMs }: { db: Queryable; key: string; limit: number; windowSeconds: number; nowMs: number }): Promise<void> {
  const { count, retryAfterSeconds } = await countInWindow({ db, table: "agent.rate_limits", key, windowSeconds, nowMs });
  if (count <= limit) return;
  throw new RateLimitedError(`Rate limit exceeded: ${limit} requests per ${windowSeconds} s`, retryAfterSeconds);
}
