import { ApiError, jsonResponse, withApi } from "@/lib/http";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

/** Section 4.4: the status route waits for the answer up to `timeout` seconds, at most 25. */
const MAX_WAIT_SECONDS = 25;

// GET /api/literature/encrypted/status/[requestId]?timeout=N – poll a sealed literature search
// (free). Completed answers stay sealed to the request's key; an unknown or expired id is the
// agent's 404 `{status: not_found, error}`, relayed.
export const GET = withApi<{ requestId: string }>("GET /api/literature/encrypted/status/[requestId]", async ({ request, params }) => {
  const raw = new URL(request.url).searchParams.get("timeout");
  const timeout = raw === null || raw === "" ? 0 : Number(raw);
  if (!Number.isFinite(timeout) || timeout < 0) {
    throw new ApiError("bad_request", "timeout must be a number of seconds from 0 to 25", { reason: "invalid_timeout" });
  }
  const { data } = await getAgentApi().getPrivateLiteratureStatus(params.requestId, Math.min(timeout, MAX_WAIT_SECONDS));
  return jsonResponse(data);
});
