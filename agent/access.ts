import { createHash, randomBytes, randomUUID } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { Queryable } from "@/lib/db";
import { ApiError, RateLimitedError } from "@/lib/http";
import { bearerMatches } from "@/lib/http/bearer";
import type { AgentConfig } from "./config";

/**
 * Who is calling the agent: the gateway (service key), a premium key holder, or the public.
 * Premium keys are `lra_premium_` + 32 random bytes (base64url); only their SHA-256 is stored, so
 * the database cannot give them away. A bearer token that is neither is refused, never downgraded
 * to public access.
 */
export type Caller = { kind: "service" } | { kind: "premium"; keyId: string } | { kind: "public"; address: string };

export const PREMIUM_KEY_PREFIX = "lra_premium_";

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Creates a premium key; the key is returned once and only its hash is kept. */
export async function createPremiumKey({ db, wallet = null, label = null }: { db: Queryable; wallet?: string | null; label?: string | null }): Promise<{ id: string; key: string }> {
  const key = PREMIUM_KEY_PREFIX + randomBytes(32).toString("base64url");
  const id = randomUUID();
  await db.query("INSERT INTO agent.premium_keys (id, key_hash, wallet, label) VALUES ($1, $2, $3, $4)", [id, hashKey(key), wallet?.toLowerCase() ?? null, label]);
  return { id, key };
}

export async function identifyCaller(c: Context, { config, db }: { config: AgentConfig; db: Queryable }): Promise<Caller> {
  const authorization = c.req.header("authorization");
  if (authorization) {
    if (bearerMatches(authorization, config.serviceKey)) return { kind: "service" };
    const token = /^Bearer (lra_premium_[A-Za-z0-9_-]{43})$/.exec(authorization)?.[1];
    if (token) {
      const { rows } = await db.query<{ id: string }>("SELECT id FROM agent.premium_keys WHERE key_hash = $1 AND revoked_at IS NULL", [hashKey(token)]);
      if (rows[0]) return { kind: "premium", keyId: rows[0].id };
    }
    throw new ApiError("unauthorized", "Invalid API key", { reason: "unauthorized" });
  }
  return { kind: "public", address: clientAddress(c, config.access.trustProxy) };
}

function clientAddress(c: Context, trustProxy: boolean): string {
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
  const { windowSeconds } = config.access;
  const limit = caller.kind === "premium" ? config.access.premiumChatLimit : config.access.chatLimit;
  const key = caller.kind === "premium" ? `chat:premium:${caller.keyId}` : `chat:ip:${caller.address}`;
  const start = new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
  const { rows } = await db.query<{ count: number }>(
    `INSERT INTO agent.rate_limits (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET count = agent.rate_limits.count + 1 RETURNING count`,
    [key, start],
  );
  if ((rows[0]?.count ?? 0) <= limit) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((start.getTime() + windowSeconds * 1000 - nowMs) / 1000));
  throw new RateLimitedError(`Rate limit exceeded: ${limit} requests per ${windowSeconds} s`, retryAfterSeconds);
}

/** Only the gateway's service key or a premium key may pass (deep research). */
export function requireServiceOrPremium(deps: { config: AgentConfig; db: Queryable }): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.header("authorization")) throw new ApiError("unauthorized", "A service or premium key is required", { reason: "unauthorized" });
    await identifyCaller(c, deps);
    await next();
  };
}
