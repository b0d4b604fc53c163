import { ApiError, jsonResponse } from "@/lib/shared/http/errors";
import { isRecord } from "@/lib/shared/narrow";

/** Used when an upstream 429 names no wait. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

/**
 * Relays a non-success upstream answer the way the contract says: a 4xx keeps its original status
 * and body, a 429 keeps `retryAfterSeconds` (and a `Retry-After` header), and anything else
 * (5xx, 3xx, 1xx) is an upstream failure, answered 502 without its body.
 */
export function relayUpstreamError({ status, body, headers }: { status: number; body: Uint8Array<ArrayBuffer>; headers: Headers }): Response {
  if (status === 429) {
    const parsed = parseJsonObject(body);
    const retryAfterSeconds = retryAfterFrom(parsed, headers);
    const error = typeof parsed?.error === "string" ? parsed.error : "Rate limit exceeded";
    return jsonResponse(
      { ...(parsed ?? {}), error, retryAfterSeconds },
      { status: 429, headers: { "retry-after": String(retryAfterSeconds) } },
    );
  }
  if (status >= 400 && status < 500) {
    return new Response(body.byteLength > 0 ? body : null, {
      status,
      headers: {
        "content-type": headers.get("content-type") ?? "application/json; charset=utf-8",
        "cache-control": "no-store",
      },
    });
  }
  return new ApiError("bad_gateway", "Upstream API failed", {
    reason: "upstream_error",
    message: `The upstream API answered ${status}`,
  }).toResponse();
}

/** A JSON object body, or null when the body is not one. */
export function parseJsonObject(body: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(body));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function retryAfterFrom(body: Record<string, unknown> | null, headers: Headers): number {
  const fromBody = body?.retryAfterSeconds;
  if (typeof fromBody === "number" && Number.isFinite(fromBody) && fromBody >= 0) return Math.ceil(fromBody);
  const header = headers.get("retry-after");
  if (header) {
    if (/^\d+$/.test(header.trim())) return Number(header.trim());
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  return DEFAULT_RETRY_AFTER_SECONDS;
}
