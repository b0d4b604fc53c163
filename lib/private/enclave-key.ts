import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import type { TinfoilAttestation } from "@/lib/contracts";
import type { AgentApi } from "@/lib/upstream";

/** The contract's cache time of the enclave key (section 4.2). */
export const ENCLAVE_KEY_TTL_MS = 60_000;

type EnclaveKeyAnswer = { hpke_public_key: string; attested: boolean; attestation: TinfoilAttestation | null };
let cached: { value: EnclaveKeyAnswer; expiresAt: number } | undefined;

/**
 * The enclave's public key, asked of the agent at most once a minute. Throws ApiError 500 when the
 * agent cannot give it (the contract's only error for this route).
 */
export async function getEnclaveKey(agent: AgentApi, nowMs = Date.now()): Promise<EnclaveKeyAnswer> {
  if (cached && cached.expiresAt > nowMs) return cached.value;
  try {
    const { data } = await agent.getEnclaveKey();
    const value = { hpke_public_key: data.hpke_public_key, attested: data.attested ?? false, attestation: data.attestation ?? null };
    cached = { value, expiresAt: nowMs + ENCLAVE_KEY_TTL_MS };
    return cached.value;
  } catch (err) {
    log.error("enclave key unavailable", { error: err });
    throw new ApiError("internal", "The enclave key is unavailable", { reason: "private_mode_not_ready" });
  }
}

/**
 * Drops the cached key: the enclave could not open an envelope, which is what a rotated key looks
 * like from here, so the next GET /api/enclave-key asks the agent again instead of serving the old
 * key for up to a minute.
 */
export function forgetEnclaveKey(): void {
  cached = undefined;
}
