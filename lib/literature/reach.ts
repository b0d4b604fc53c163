import "server-only";
import { getConfig } from "@/lib/config";
import { failedSourceSchema } from "@/lib/contracts";
import { parseJsonObject } from "@/lib/http";
import { log } from "@/lib/log";
import { getAgentApi, UpstreamHttpError } from "@/lib/upstream";
import { LiteratureUnavailableError, NO_SOURCE_REACHABLE } from "./unavailable";

/**
 * The gateway's side of honest reach (docs/literature.md): paid chat and literature answer 503
 * `literature_unavailable` before payment when the agent says no source can answer, and relay the
 * agent's own 503 when a started search reached none (answered before settlement: not charged).
 */

/** The check before payment waits this long for the agent at most (or UPSTREAM_TIMEOUT_MS if shorter); past it, the request goes on. */
const REACH_TIMEOUT_MS = 2_000;

/**
 * Throws LiteratureUnavailableError (503, Retry-After) when the agent reports that no literature
 * source can answer now. An agent that cannot say (unreachable, an older agent without the route)
 * does not block payment: the agent refuses the work itself if it cannot be done, before the
 * gateway settles, so failing open here charges nobody for nothing.
 */
export async function requireLiteratureReach({ mode }: { mode?: "fast" } = {}): Promise<void> {
  let reach;
  try {
    reach = (await getAgentApi().getLiteratureReach({ mode, timeoutMs: Math.min(REACH_TIMEOUT_MS, getConfig().upstream.timeoutMs) })).data;
  } catch (err) {
    log.warn("literature reach unreadable; the agent will judge the request itself", { error: err });
    return;
  }
  if (reach.available) return;
  throw new LiteratureUnavailableError({
    message: `${reach.message ?? "No literature source can answer right now."} Nothing was charged; try again after Retry-After.`,
    retryAfterSeconds: reach.retryAfterSeconds ?? 30,
    failedSources: reach.sources.filter((s) => s.circuit !== "closed" && s.source !== "local").map((s) => ({ source: s.source, kind: "circuit_open" as const })),
  });
}

/**
 * Runs a start call to the agent; its 503 `no_source_reachable` becomes the same 503 here (the
 * generic relay would make any 5xx a 502 without its body). Anything else is rethrown.
 */
export async function relayLiteratureUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof UpstreamHttpError) || err.upstreamStatus !== 503 || err.upstreamReason !== NO_SOURCE_REACHABLE) throw err;
    const body = parseJsonObject(err.body) ?? {};
    const failed = failedSourceSchema.array().safeParse(body.failedSources);
    const retryAfter = typeof body.retryAfterSeconds === "number" ? body.retryAfterSeconds : Number(err.upstreamHeaders.get("retry-after") ?? 30);
    throw new LiteratureUnavailableError({
      message: typeof body.message === "string" ? body.message : "No literature source could answer; nothing was charged.",
      retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : 30,
      failedSources: failed.success ? failed.data : [],
    });
  }
}
