import "server-only";
import { getConfig } from "@/lib/gateway/config";
import { ApiError, parseJsonObject } from "@/lib/shared/http";
import { enclaveKeyReported } from "@/lib/gateway/private/enclave-key";
import { ENCLAVE_KEY_HEADER } from "@/lib/shared/sealing/enclave-key-header";
import { UpstreamHttpError } from "@/lib/gateway/upstream";
import { readAgentPrivateStatus } from "@/lib/gateway/upstream/agent-status";

/**
 * Hands a sealed request to the enclave. Its 400 (an envelope it cannot open, or one holding no
 * valid request) and any other status in `relay` are relayed (body only); any other failure is
 * the contract's 500. A 400 `decryption_failed` names the enclave's current key, and the cached
 * key is dropped only when that one differs (a rotation). The paid route answers
 * both before settlement, so neither is charged.
 */
export async function forwardToEnclave<T>(call: () => Promise<T>, { relay = [400] }: { relay?: number[] } = {}): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UpstreamHttpError && relay.includes(err.upstreamStatus)) {
      // Only the enclave's report of a key other than the cached one drops the cache (the header is
      // not relayed: the client gets the contract's {error, reason}).
      if (err.upstreamStatus === 400 && err.upstreamReason === "decryption_failed" && enclaveKeyReported(err.upstreamHeaders.get(ENCLAVE_KEY_HEADER))) {
        throw withKeyChanged(err);
      }
      throw err;
    }
    throw new ApiError("internal", "The enclave could not take the private request", { reason: "enclave_failed", cause: err });
  }
}

/**
 * The enclave's 400 with one sentence more when the key this gateway served is the one that
 * changed: only then is "seal again with the new key" the advice (a wrong cipher gets none).
 */
function withKeyChanged(err: UpstreamHttpError): UpstreamHttpError {
  const body = parseJsonObject(err.body);
  if (!body) return err;
  const rotated = "The enclave key changed since this gateway last served it: fetch GET /api/enclave-key again and seal anew.";
  const message = typeof body.message === "string" ? `${rotated} ${body.message}` : rotated;
  const bytes = new TextEncoder().encode(JSON.stringify({ ...body, message }));
  return new UpstreamHttpError({ status: err.upstreamStatus, body: bytes, headers: err.upstreamHeaders });
}

/** An absolute polling URL on this gateway's public origin (PUBLIC_URL). */
export function pollUrl(path: string): string {
  return new URL(path, getConfig().publicUrl).toString();
}

/**
 * The agent's private-mode report, or null when it cannot be read (unreachable, erroring). Read
 * before payment, so from the short-lived cache of lib/gateway/upstream/agent-status.ts: an unpaid request
 * costs the agent nothing.
 */
export async function readPrivateStatus() {
  return (await readAgentPrivateStatus()).value;
}
