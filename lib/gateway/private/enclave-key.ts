import { ApiError } from "@/lib/shared/http";
import { log } from "@/lib/shared/log";
import type { TinfoilAttestation } from "@/lib/shared/contracts";
import type { AgentApi } from "@/lib/gateway/upstream";

/** The contract's cache time of the enclave key (section 4.2). */
const ENCLAVE_KEY_TTL_MS = 60_000;

type EnclaveKeyAnswer = { hpke_public_key: string; attested: boolean; attestation: TinfoilAttestation | null };
/** A 32-byte key in standard base64 with padding. */
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=$/;
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
 * The enclave's own word on which key it holds, carried by its 400 for an envelope it could not
 * open (the ENCLAVE_KEY_HEADER of the agent's answer, over the service-key-authenticated hop). The
 * cached key is dropped only when that key differs from it: a real rotation is picked up by the
 * next GET /api/enclave-key, while an undecryptable envelope sealed to the current key (which
 * anyone can send to a free route) changes nothing. Without a report (an older agent) nothing is
 * dropped, and a rotation shows within the cache time. Returns whether the cache was dropped.
 */
export function enclaveKeyReported(reported: string | null | undefined): boolean {
  if (!cached || !reported || !BASE64_KEY.test(reported) || reported === cached.value.hpke_public_key) return false;
  log.info("enclave key rotated: the cached key is dropped");
  cached = undefined;
  return true;
}

/** Drops the cached key unconditionally (tests, and an operator's restart). */
export function forgetEnclaveKey(): void {
  cached = undefined;
}
