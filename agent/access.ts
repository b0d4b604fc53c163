import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { Queryable } from "@/lib/db";
import { ApiError, RateLimitedError } from "@/lib/http";
import { bearerMatches } from "@/lib/http/bearer";
import { countInWindow } from "@/lib/rate-limit/fixed-window";
import type { AgentConfig } from "./config";
import { checkPremiumKey } from "./premium/check-key";

/**
 * Who is calling the agent: the gateway (service key), a premium key holder, or the public.
 * A premium caller speaks for its `owner`: `wallet:0x…` for a holder's key (so a holder's new key
 * keeps its conversations and its limits), `key:<id>` for an operator's. A bearer token that is
 * neither key, or a premium key no longer good, is refused, never downgraded to public access.
 */
export type Caller = { kind: "service" } | { kind: "premium"; keyId: string; owner: string } | { kind: "public"; address: string };

declare module "hono" {
  interface ContextVariableMap {
    /** Set by requireServiceOrPremium. */
    caller: Caller;
  }
}

/** Throws ApiError 401 for an unknown, expired or revoked key, 403 for a holding lost, 503 when the chain cannot be read. */
export async function identifyCaller(c: Context, { config, db }: { config: AgentConfig; db: Queryable }): Promise<Caller> {
  const authorization = c.req.header("authorization");
  if (authorization) {
    if (bearerMatches(authorization, config.serviceKey)) return { kind: "service" };
    const token = /^Bearer (lra_premium_[A-Za-z0-9_-]{43})$/.exec(authorization)?.[1];
    const premium = token ? await checkPremiumKey({ db, config, key: token }) : null;
    if (premium) return { kind: "premium", keyId: premium.id, owner: premium.owner };
    throw new ApiError("unauthorized", "Invalid API key", { reason: "unauthorized" });
  }
  return { kind: "public", address: clientAddress(c, config.access.trustProxy) };
}

/** Who owns what a keyed caller starts: `service` (the gateway) or the premium key's owner. */
export function ownerOf(caller: Caller): string {
  if (caller.kind === "public") throw new ApiError("unauthorized", "A service or premium key is required", { reason: "unauthorized" });
  return caller.kind === "service" ? "service" : caller.owner;
}

/** The caller requireServiceOrPremium identified for this request. */
export function callerOf(c: Context): Caller {
  const caller = c.get("caller");
  if (!caller) throw new Error("callerOf: the route is not behind requireServiceOrPremium");
  return caller;
}

/** The caller's address: the socket's, or X-Forwarded-For's first entry behind a trusted proxy. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // no socket: an in-process request (tests)
  }
}

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
  use: "deepResearch" | "private";
  nowMs?: number;
}): Promise<void> {
  if (caller.kind !== "premium") return;
  const { deepResearchLimit, privateLimit, windowSeconds } = config.access.premium;
  const limit = use === "deepResearch" ? deepResearchLimit : privateLimit;
  await consumeAllowance({ db, key: `${use === "deepResearch" ? "deep_research" : "private"}:premium:${caller.owner}`, limit, windowSeconds, nowMs });
}

async function consumeAllowance({ db, key, limit, windowSeconds, nowMs }: { db: Queryable; key: string; limit: number; windowSeconds: number; nowMs: number }): Promise<void> {
  const { count, retryAfterSeconds } = await countInWindow({ db, table: "agent.rate_limits", key, windowSeconds, nowMs });
  if (count <= limit) return;
  throw new RateLimitedError(`Rate limit exceeded: ${limit} requests per ${windowSeconds} s`, retryAfterSeconds);
}

/** Only the gateway's service key or a live premium key may pass (deep research, private routes); `callerOf` tells which. */
export function requireServiceOrPremium(deps: { config: AgentConfig; db: Queryable }): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.header("authorization")) throw new ApiError("unauthorized", "A service or premium key is required", { reason: "unauthorized" });
    c.set("caller", await identifyCaller(c, deps));
    await next();
  };
}
