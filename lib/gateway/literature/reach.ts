import "server-only";
import { failedSourceSchema } from "@/lib/shared/contracts";
import { parseJsonObject } from "@/lib/shared/http";
import { UpstreamHttpError } from "@/lib/gateway/upstream";
import { forgetLiteratureReach, readLiteratureReach } from "@/lib/gateway/upstream/agent-status";
import { LITERATURE_UNAVAILABLE_REASONS, unavailableReasonOf } from "@/lib/shared/contracts/unavailable-reasons";
import { LiteratureUnavailableError } from "@/lib/shared/literature/unavailable";

/**
 * The gateway's side of honest reach (docs/literature.md): paid chat and literature answer 503
 * `literature_unavailable` before payment when the agent says no source can answer, and relay the
 * agent's own 503 when a started search reached none (answered before settlement: not charged).
 */

/**
 * Throws LiteratureUnavailableError (503, Retry-After) when the agent reports that no literature
 * source can answer. What it reports is read from a short-lived cache shared by the gateway's
 * processes (lib/gateway/upstream/status-cache.ts: asked once per AGENT_STATUS_CACHE_MS, 2 s, and never
 * used more than 5 s after the agent said it), so an unpaid request costs the agent nothing. An
 * answer that went stale, and an agent that cannot say (unreachable, an older agent without the
 * route), do not block payment: the agent refuses the work itself if it cannot be done, before
 * the gateway settles, so failing open here charges nobody for nothing.
 */
export async function requireLiteratureReach({ mode }: { mode?: "fast" } = {}): Promise<void> {
  const { value: reach, readAtMs, recheckAtMs } = await readLiteratureReach(mode ?? "all");
  if (!reach || reach.available) return;
  // Until the agent expects a source back, and at least until this answer is asked again.
  const retryAtMs = Math.max(readAtMs + (reach.retryAfterSeconds ?? 30) * 1000, recheckAtMs);
  throw new LiteratureUnavailableError({
    message: `${reach.message ?? "No literature source can answer right now."} Nothing was charged; try again after Retry-After.`,
    retryAfterSeconds: Math.max(1, Math.ceil((retryAtMs - Date.now()) / 1000)),
    failedSources: reach.sources.filter((s) => s.circuit !== "closed" && s.source !== "local").map((s) => ({ source: s.source, kind: "circuit_open" as const })),
  });
}

/**
 * Runs a start call to the agent; its 503 `literature_unavailable` (either reason) becomes the same 503 here (the
 * generic relay would make any 5xx a 502 without its body). Anything else is rethrown.
 */
export async function relayLiteratureUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof UpstreamHttpError) || err.upstreamStatus !== 503 || !LITERATURE_UNAVAILABLE_REASONS.some((reason) => reason === err.upstreamReason)) throw err;
    // The reach the gateway had cached said otherwise (or is about to): the next request asks again.
    void forgetLiteratureReach();
    const body = parseJsonObject(err.body) ?? {};
    const failed = failedSourceSchema.array().safeParse(body.failedSources);
    const retryAfter = typeof body.retryAfterSeconds === "number" ? body.retryAfterSeconds : Number(err.upstreamHeaders.get("retry-after") ?? 30);
    throw new LiteratureUnavailableError({
      message: typeof body.message === "string" ? body.message : "No literature source could answer; nothing was charged.",
      retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : 30,
      failedSources: failed.success ? failed.data : [],
      reason: unavailableReasonOf(body.reason),
    });
  }
}
