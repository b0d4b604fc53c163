import "server-only";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import { forgetEnclaveKey } from "./enclave-key";
import { getAgentApi, UpstreamHttpError } from "@/lib/upstream";

/**
 * Hands a sealed request to the enclave. Its 400 (an envelope it cannot open, or one holding no
 * valid request) and any other status in `relay` are relayed as they are; any other failure is
 * the contract's 500. The paid route answers
 * both before settlement, so neither is charged.
 */
export async function forwardToEnclave<T>(call: () => Promise<T>, { relay = [400] }: { relay?: number[] } = {}): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UpstreamHttpError && relay.includes(err.upstreamStatus)) {
      if (err.upstreamStatus === 400 && err.upstreamReason === "decryption_failed") forgetEnclaveKey();
      throw err;
    }
    throw new ApiError("internal", "The enclave could not take the private request", { reason: "enclave_failed", cause: err });
  }
}

/** An absolute polling URL on this gateway's public origin (PUBLIC_URL). */
export function pollUrl(path: string): string {
  return new URL(path, getConfig().publicUrl).toString();
}

/** The agent's private-mode report, or null when it cannot be read (unreachable, erroring). */
export async function readPrivateStatus() {
  try {
    return (await getAgentApi().getPrivateStatus()).data;
  } catch (err) {
    log.warn("private status unreadable", { error: err });
    return null;
  }
}
