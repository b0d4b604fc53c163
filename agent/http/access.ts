import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";
import { bearerMatches } from "@/lib/shared/http/bearer";
import { clientAddress } from "@/lib/shared/http/client-address";
import type { AgentConfig } from "../config";
import { checkPremiumKey } from "../premium/check-key";
import type { AgentEnv, Caller } from "./context";

/**
 * Who may call what: the gateway's service key, a premium key, or the public (agent/http/context.ts
 * says what each caller is). The middleware here guards the routes that are not open.
 */

/** Throws ApiError 401 for an unknown, expired or revoked key, 403 for a holding lost, 503 when the chain cannot be read. */
export async function identifyCaller(c: Context<AgentEnv>, { config, db }: { config: AgentConfig; db: Queryable }): Promise<Caller> {
  const authorization = c.req.header("authorization");
  if (authorization) {
    if (bearerMatches(authorization, config.serviceKey)) return { kind: "service" };
    const token = /^Bearer (lra_premium_[A-Za-z0-9_-]{43})$/.exec(authorization)?.[1];
    const premium = token ? await checkPremiumKey({ db, config, key: token }) : null;
    if (premium) return { kind: "premium", keyId: premium.id, owner: premium.owner };
    throw new ApiError("unauthorized", "Invalid API key", { reason: "unauthorized" });
  }
  return { kind: "public", address: publicCallerAddress(c, config) };
}

/** Who owns what a keyed caller starts: `service` (the gateway) or the premium key's owner. */
export function ownerOf(caller: Caller): string {
  if (caller.kind === "public") throw new ApiError("unauthorized", "A service or premium key is required", { reason: "unauthorized" });
  return caller.kind === "service" ? "service" : caller.owner;
}

/** The caller requireServiceOrPremium identified for this request. */
export function callerOf(c: Context<AgentEnv>): Caller {
  const caller = c.get("caller");
  if (!caller) throw new Error("callerOf: the route is not behind requireServiceOrPremium");
  return caller;
}

/**
 * Every public caller whose address cannot be trusted (no socket, or a proxy chain shorter than
 * AGENT_TRUSTED_PROXY says): one key for all of them, so none of them escapes a limit.
 */
const UNKNOWN_CLIENT = "unknown";

/**
 * A public caller's address by the gateway's rule (lib/shared/http/client-address.ts): the socket's, or
 * the hop AGENT_TRUSTED_PROXY proxies before it; an IPv6 caller counts as its /64.
 */
export function publicCallerAddress(c: Context<AgentEnv>, config: AgentConfig): string {
  return clientAddress(c.req.raw, config.access.trustedProxy, { socket: socketAddress(c) }) ?? UNKNOWN_CLIENT;
}

function socketAddress(c: Context<AgentEnv>): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // no socket: an in-process request (tests)
  }
}

/** 401 unless `Authorization: Bearer` carries the service key (compared in constant time). */
export function requireServiceKey(serviceKey: string | undefined): MiddlewareHandler<AgentEnv> {
  return async (c, next) => {
    if (!bearerMatches(c.req.header("authorization"), serviceKey)) {
      throw new ApiError("unauthorized", serviceKey ? "A valid service key is required" : "This agent has no AGENT_SERVICE_KEY configured", {
        reason: "unauthorized",
      });
    }
    await next();
  };
}

/** Only the gateway's service key or a live premium key may pass (deep research, private routes); `callerOf` tells which. */
export function requireServiceOrPremium(deps: { config: AgentConfig; db: Queryable }): MiddlewareHandler<AgentEnv> {
  return async (c, next) => {
    if (!c.req.header("authorization")) throw new ApiError("unauthorized", "A service or premium key is required", { reason: "unauthorized" });
    c.set("caller", await identifyCaller(c, deps));
    await next();
  };
}
