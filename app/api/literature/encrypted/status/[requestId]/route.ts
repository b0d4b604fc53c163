import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { pollingHeaders } from "@/lib/shared/discovery/polling";
import { ApiError, jsonResponse, RateLimitedError, withApi } from "@/lib/shared/http";
import { clientAddress } from "@/lib/shared/http/client-address";
import { log } from "@/lib/shared/log";
import { holdLongPoll } from "@/lib/gateway/private/long-polls";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

/** Section 4.4: the status route waits for the answer up to `timeout` seconds, at most 25. */
const MAX_WAIT_SECONDS = 25;

// GET /api/literature/encrypted/status/[requestId]?timeout=N – poll a sealed literature search
// (free). Completed answers stay sealed to the request's key; an unknown or expired id is the
// agent's 404 `{status: not_found, error}`, relayed. A wait (timeout > 0) takes one of the
// LONG_POLL_MAX_PER_CLIENT long-polls its client address may hold at once, or is 429
// `too_many_long_polls` with Retry-After; the agent waits on the job's notification.
export const GET = withApi<{ requestId: string }>("GET /api/literature/encrypted/status/[requestId]", async ({ request, params }) => {
  const raw = new URL(request.url).searchParams.get("timeout");
  const timeout = raw === null || raw === "" ? 0 : Number(raw);
  if (!Number.isFinite(timeout) || timeout < 0) {
    throw new ApiError("bad_request", "timeout must be a number of seconds from 0 to 25", { reason: "invalid_timeout" });
  }
  let wait = Math.min(timeout, MAX_WAIT_SECONDS);
  let release: (() => Promise<void>) | undefined;
  if (wait > 0) {
    const config = getConfig();
    // Behind a misconfigured proxy chain there is no address to trust: the request's id stands in.
    const client = clientAddress(request, config.payments.trustedProxy) ?? `request:${params.requestId}`;
    try {
      release = await holdLongPoll({ db: await getDb(), client, limit: config.longPollsPerClient, waitSeconds: wait });
    } catch (err) {
      if (err instanceof RateLimitedError) throw err;
      // Holds cannot be counted (the database is unreachable): answer at once rather than hold a wait uncounted.
      log.warn("long-poll holds unavailable; answering without waiting", { error: err });
      wait = 0;
    }
  }
  try {
    const { data } = await getAgentApi().getPrivateLiteratureStatus(params.requestId, wait);
    return jsonResponse(data, { headers: pollingHeaders({ operation: "literatureEncrypted", status: data.status }) });
  } finally {
    await release?.();
  }
});
