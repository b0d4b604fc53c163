/**
 * The client half of private mode, for the browser and for Node (`npm run ask -- --private`):
 * fetch and check the enclave key (verifying its attestation against the enclave this client
 * trusts, which is the client's configuration, never the server's answer),
 * seal a request, start it on a paid encrypted route, follow it to its end, and open the answer
 * with the key only this client holds. Payment is the caller's: it passes the fetch that pays
 * (the official x402 client in Node, the wallet in the browser).
 */
import {
  chatResultSchema,
  enclaveKeyResponseSchema,
  encryptedChatAcceptedSchema,
  encryptedChatStatusSchema,
  encryptedChatSyncResponseSchema,
  encryptedDeepResearchAcceptedSchema,
  encryptedDeepResearchReceiptSchema,
  encryptedDeepResearchStatusSchema,
  encryptedLiteratureAcceptedSchema,
  encryptedLiteratureStatusSchema,
  literatureJobResultSchema,
  type ChatResult,
  type LiteratureJobResult,
  type TinfoilAttestation,
} from "@/lib/shared/contracts";
import { poll, sleep } from "@/lib/client/poll";
import { decodeKey } from "@/lib/shared/sealing/codec";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";
import type { AnswerKey, SealedResponse } from "@/lib/shared/sealing/scheme";
import { sameRepo, type EnclaveTrust } from "@/lib/shared/sealing/trust";
import { openResponseFast, sealRequestFast, type SealingPath } from "@/lib/shared/sealing/webcrypto";
import { errorCode, isRecord } from "@/lib/shared/narrow";

/**
 * What a verifier is given of the served attestation: the material, without the `configRepo`
 * label the server put on it, so the server's choice of repository cannot reach the verifier.
 */
type AttestationMaterial = Omit<TinfoilAttestation, "configRepo">;

/**
 * Checks attestation material against the client's trust anchor (`trust.repo`: the repository
 * whose signed release the enclave must run) and returns the HPKE public key it binds, in hex, with
 * the measurement it proved (lowercase hex fingerprints: `measurement` what the hardware reports
 * the enclave runs, `releaseMeasurement` what the signed release says, which the verifier found to
 * match). Throws when the material does not verify against `trust.repo`.
 */
export type AttestationVerifier = (
  material: AttestationMaterial,
  trust: EnclaveTrust,
) => Promise<{ hpkePublicKey: string; measurement?: string; releaseMeasurement?: string }>;

/**
 * Tinfoil's verifier: the AMD SEV-SNP report and its VCEK chain, the release's Sigstore
 * provenance from the client's trusted repository (never the one the server names), the
 * measurements compared, the enclave certificate binding the HPKE key. Loaded only when a client
 * that trusts a repository is served attestation material (it is not small).
 */
export const tinfoilVerifier: AttestationVerifier = async (material, trust) => {
  const { Verifier, measurementFingerprint } = await import("@tinfoilsh/verifier");
  const verifier = new Verifier({ configRepo: trust.repo });
  // The served bundle is JSON the verifier checks; its parameter is typed as the bundle's shape: cast for the SDK.
  const result = await verifier.verifyBundle(material.bundle as Parameters<typeof verifier.verifyBundle>[0]);
  if (!result.hpkePublicKey) throw new Error("the attestation binds no HPKE key");
  const releaseMeasurement = verifier.getVerificationDocument()?.codeFingerprint;
  return {
    hpkePublicKey: result.hpkePublicKey,
    measurement: (await measurementFingerprint(result.measurement)).toLowerCase(),
    ...(releaseMeasurement ? { releaseMeasurement: releaseMeasurement.toLowerCase() } : {}),
  };
};

export type EnclaveKeyInfo = {
  /** base64 X25519 public key to seal to. */
  publicKey: string;
  /** Attestation material was served, verified against the client's trusted repository (and measurement), and binds this key. */
  attested: boolean;
  /** When attested: the client's trusted repository it was verified against. */
  repo?: string;
  /** When attested: the measurement the enclave proved (lowercase hex). */
  measurement?: string;
  /** Not attested although material was served: the client trusts no repository, so it could not verify it. */
  unverifiedAttestation?: boolean;
};

export type ClientOptions = {
  /** The gateway's origin, e.g. http://localhost:3000. */
  gateway: string;
  /** Used for the free calls (enclave key, polls); defaults to globalThis.fetch. */
  fetch?: typeof fetch;
};

export type EnclaveKeyOptions = {
  /**
   * The enclave this client trusts (its own configuration: a CLI flag or variable, the page's
   * build). Set, the key must come with attestation that verifies against this repository (and
   * measurement) and binds it: a server cannot downgrade the client by withholding the material.
   * Unset (null), the client cannot verify anything and every key is unattested.
   */
  trust?: EnclaveTrust | null;
  /**
   * Refuse an unattested key. With `trust` set every key must be attested anyway; without it
   * nothing can be verified, so requiring attestation is a configuration error (`no_trusted_repo`).
   */
  requireAttestation?: boolean;
  verify?: AttestationVerifier;
};

/**
 * The enclave's key from GET /api/enclave-key, checked against the client's trust anchor.
 *
 * - Trusting a repository: the served attestation must name that repository (else
 *   `attestation_untrusted_repo`), verify against it, never against the name served
 *   (`attestation_failed`), bind the served key (`attestation_mismatch`) and, when the client pins a
 *   measurement, prove that one (`attestation_unexpected_measurement`); a key without material is
 *   refused (`not_attested`).
 * - Trusting none: the key is returned unattested, whatever material comes with it (there is
 *   nothing to verify it against), or refused before asking the gateway when attestation is
 *   required (`no_trusted_repo`).
 */
export async function fetchEnclaveKey(
  { gateway, fetch: fetchImpl = globalThis.fetch }: ClientOptions,
  { trust = null, requireAttestation = false, verify = tinfoilVerifier }: EnclaveKeyOptions = {},
): Promise<EnclaveKeyInfo> {
  if (!trust && requireAttestation) {
    throw new PrivateModeError(
      "no_trusted_repo",
      "Attestation is required, but this client trusts no enclave repository, so there is nothing to verify it against. Set the repository whose signed release the enclave must run: --enclave-repo owner/name or TRUSTED_ENCLAVE_REPO for npm run ask, NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO when building the web app.",
    );
  }
  let body: unknown;
  try {
    const response = await fetchImpl(`${gateway}/api/enclave-key`, { cache: "no-store" });
    body = await response.json();
    if (!response.ok) throw new Error(`answered ${response.status}`);
  } catch (err) {
    throw new PrivateModeError("enclave_key_unavailable", `The enclave key is unavailable: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = enclaveKeyResponseSchema.safeParse(body);
  if (!parsed.success) throw new PrivateModeError("enclave_key_unavailable", "The enclave key response is malformed");
  const { hpke_public_key: publicKey, attestation } = parsed.data;
  const keyHex = hex(decodeKey(publicKey, "the enclave public key"));
  if (!trust) return attestation ? { publicKey, attested: false, unverifiedAttestation: true } : { publicKey, attested: false };

  if (!attestation) {
    throw new PrivateModeError("not_attested", `The enclave key comes without attestation, and this client trusts only an enclave running ${trust.repo}; refusing to seal`);
  }
  if (!sameRepo(attestation.configRepo, trust.repo)) {
    throw new PrivateModeError(
      "attestation_untrusted_repo",
      `The server offers an enclave running ${attestation.configRepo}, but this client trusts only ${trust.repo}; refusing to seal to it`,
    );
  }
  let verified: Awaited<ReturnType<AttestationVerifier>>;
  try {
    verified = await verify({ provider: attestation.provider, bundle: attestation.bundle }, trust);
  } catch (err) {
    throw new PrivateModeError("attestation_failed", `The enclave's attestation did not verify against ${trust.repo}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (verified.hpkePublicKey.toLowerCase() !== keyHex) throw new PrivateModeError("attestation_mismatch", "The served key is not the key the attestation binds; refusing to seal to it");
  const proved = [verified.measurement, verified.releaseMeasurement].filter((m): m is string => Boolean(m)).map((m) => m.toLowerCase());
  if (trust.measurement && !proved.includes(trust.measurement.toLowerCase())) {
    throw new PrivateModeError(
      "attestation_unexpected_measurement",
      `The enclave runs a release of ${trust.repo} at measurement ${proved[0] ?? "(none reported)"}, but this client expects ${trust.measurement}; refusing to seal to it`,
    );
  }
  const measurement = trust.measurement?.toLowerCase() ?? proved[0];
  return { publicKey, attested: true, repo: trust.repo, ...(measurement ? { measurement } : {}) };
}

export type PrivateKind = "chat" | "literature" | "deep-research";
export const START_PATHS: Record<PrivateKind, string> = {
  chat: "/api/chat/encrypted",
  literature: "/api/literature/encrypted",
  "deep-research": "/api/deep-research/encrypted",
};

export type Started<K extends PrivateKind> = {
  kind: K;
  /**
   * Keep until the answer is opened: the request's ephemeral private key and shared secret, the
   * only key that opens the answer and the proof that the enclave sealed it (docs/sealing.md).
   */
  answerKey: AnswerKey;
  body: Record<string, unknown>;
  response: Response;
  /** Which X25519 sealed it: WebCrypto's where the platform has it, else @noble's. */
  path: SealingPath;
};

/**
 * Seals `plaintext` to `enclave` and POSTs it with `payFetch` (which handles the 402). A 400 the
 * enclave could not open is checked against a fresh enclave key: if the key changed since it was
 * fetched, the error says so (`key_rotated`: fetch the key again and seal anew).
 */
export async function startPrivate<K extends PrivateKind>(
  kind: K,
  { gateway, fetch: fetchImpl = globalThis.fetch, payFetch, enclave, plaintext }: ClientOptions & { payFetch: typeof fetch; enclave: EnclaveKeyInfo; plaintext: unknown },
): Promise<Started<K>> {
  const sealed = await sealRequestFast({ enclavePublicKey: enclave.publicKey, plaintext });
  const response = await payFetch(`${gateway}${START_PATHS[kind]}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(sealed.envelope),
  });
  const parsed: unknown = await response.json().catch(() => ({}));
  const body = isRecord(parsed) ? parsed : {};
  if (response.status >= 300) {
    if (response.status === 400 && body.reason === "decryption_failed") {
      const current = await fetchEnclaveKey({ gateway, fetch: fetchImpl }).catch(() => null);
      if (current && current.publicKey !== enclave.publicKey) {
        throw new PrivateModeError("key_rotated", "The enclave key has changed since it was fetched; seal the request again with the new key", 400);
      }
    }
    throw new PrivateModeError("request_refused", `${START_PATHS[kind]} answered ${response.status}: ${String(body.error ?? "")}`, response.status, body);
  }
  return { kind, answerKey: { ephemeralPrivateKey: sealed.ephemeralPrivateKey, requestSecret: sealed.requestSecret }, body, response, path: sealed.path };
}

/** A deep-research answer that is not (or not shown to be) the enclave's for this client's own run. */
const notThisRun = (what: string) =>
  new PrivateModeError(
    "answer_not_genuine",
    `${what}: it may be another research run of the same recovery key passed off as this one, so it is refused; nothing from it is shown.`,
  );

/**
 * The run a deep-research start's 202 names, once the enclave's receipt (sealed to this start's
 * key, so no one else could have made it) names the same run, and `pollUrl` polls it. A gateway
 * that names an older run of the same recovery key, or drops the receipt, is refused.
 */
async function runOfReceipt({ answerKey, body }: Started<"deep-research">): Promise<{ messageId: string; pollUrl: string }> {
  const accepted = encryptedDeepResearchAcceptedSchema.safeParse(body);
  if (!accepted.success) throw notThisRun("The start's answer carries no receipt sealed by the enclave");
  const { messageId, pollUrl } = accepted.data;
  const receipt = encryptedDeepResearchReceiptSchema.safeParse(await openAnswer(answerKey, accepted.data));
  if (!receipt.success || receipt.data.messageId !== messageId) throw notThisRun("The service names a research run other than the one the enclave started for this request");
  if (!new URL(pollUrl).pathname.endsWith(`/${encodeURIComponent(messageId)}`)) throw notThisRun("The service's pollUrl polls a research run other than this request's");
  return { messageId, pollUrl };
}

type Follow = ClientOptions & {
  onStatus?: (status: string) => void;
  /** Give up after this long (chat: 60 s, as the contract's guidance says). */
  limitMs?: number;
  intervalMs?: number;
  signal?: AbortSignal;
};

/** Longest a 429's Retry-After is honoured before the poll is tried again (seconds). */
const MAX_RETRY_AFTER_S = 30;

/**
 * A free GET or POST of a poll. A 429 (too many long-polls from this address at once) is waited
 * out as its Retry-After says (at most 30 s) and tried again, within the caller's deadline.
 */
async function getJson(fetchImpl: typeof fetch, url: string, init?: RequestInit & { deadline?: number }): Promise<unknown> {
  for (;;) {
    const response = await fetchImpl(url, { cache: "no-store", ...init });
    const body: unknown = await response.json().catch(() => ({}));
    const said = isRecord(body) ? body : {};
    if (response.status === 429) {
      const seconds = Math.min(MAX_RETRY_AFTER_S, Math.max(1, Number(response.headers.get("retry-after")) || 1));
      if (Date.now() + seconds * 1000 <= (init?.deadline ?? 0)) {
        await sleep(seconds * 1000, init?.signal ?? undefined);
        continue;
      }
    }
    if (!response.ok) throw new PrivateModeError("request_failed", `${url} answered ${response.status}: ${String(said.error ?? said.status ?? "")}`, response.status);
    return body;
  }
}

/** Follows a private chat (its 200 already holds the answer) and opens the ChatResult. */
export async function awaitPrivateChat(started: Started<"chat">, { fetch: fetchImpl = globalThis.fetch, onStatus, limitMs = 60_000, intervalMs = 1_000, signal }: Follow): Promise<ChatResult> {
  const sync = encryptedChatSyncResponseSchema.safeParse(started.body);
  let sealed: SealedResponse | undefined = sync.success ? sync.data : undefined;
  if (!sealed) {
    const { pollUrl } = encryptedChatAcceptedSchema.parse(started.body);
    const gaveUp = () => new PrivateModeError("gave_up", `No answer after ${Math.round(limitMs / 1000)} s; poll ${pollUrl} to see it later`);
    if (signal?.aborted) throw gaveUp();
    // The start has just said it is not done: the first read waits one interval.
    await sleep(intervalMs, signal);
    const polled = await poll({
      read: async () => encryptedChatStatusSchema.parse(await getJson(fetchImpl, pollUrl)),
      isFinal: (status) => status.status === "completed" || status.status === "failed",
      onRead: (status) => onStatus?.(status.status),
      pauseMs: intervalMs,
      limitMs,
      signal,
    });
    if (!polled.final) throw gaveUp();
    const status = polled.value;
    if (status.status === "failed") throw new PrivateModeError("request_failed", `The private chat failed: ${status.error}`);
    if (status.status !== "completed") throw gaveUp();
    sealed = status;
  }
  return chatResultSchema.parse(await openAnswer(started.answerKey, sealed));
}

/** Follows a private literature search with the status route's own wait (up to 25 s a call). */
export async function awaitPrivateLiterature(
  started: Started<"literature">,
  { fetch: fetchImpl = globalThis.fetch, onStatus, limitMs = 300_000, signal }: Follow,
): Promise<LiteratureJobResult> {
  const { pollUrl } = encryptedLiteratureAcceptedSchema.parse(started.body);
  const gaveUp = () => new PrivateModeError("gave_up", `No answer after ${Math.round(limitMs / 1000)} s; poll ${pollUrl} to see it later`);
  if (signal?.aborted) throw gaveUp();
  const deadline = Date.now() + limitMs;
  // No pause between reads: each one waits at the status route until the answer or 25 s.
  const polled = await poll({
    read: async () => {
      const wait = Math.max(0, Math.min(25, Math.floor((deadline - Date.now()) / 1000)));
      return encryptedLiteratureStatusSchema.parse(await getJson(fetchImpl, `${pollUrl}?timeout=${wait}`, { deadline, ...(signal ? { signal } : {}) }));
    },
    isFinal: (status) => status.status === "completed" || status.status === "failed",
    onRead: (status) => onStatus?.(status.status),
    pauseMs: 0,
    limitMs,
    signal,
  });
  if (!polled.final) throw gaveUp();
  const status = polled.value;
  if (status.status === "failed") throw new PrivateModeError("request_failed", `The private literature search failed: ${status.error}`);
  if (status.status !== "completed") throw gaveUp();
  return literatureJobResultSchema.parse(await openAnswer(started.answerKey, status));
}

/** The sealed result of a private deep-research run (section 4.1: reply, citations, worldState, …). */
export type PrivateResearchResult = { reply: string; citations: ChatResult["references"]; worldState: Record<string, unknown>; [field: string]: unknown };

/**
 * Follows a private deep-research run: the one the start's receipt names (checked first, before
 * any poll: the payment was made, so the caller has recorded it, but nothing is followed or shown
 * for a run the enclave did not start for this request). Each poll is a sealed request of its own
 * carrying the recovery key and that run's id (the enclave answers no other run to it); the
 * completed result is sealed to that poll's fresh key, opened here, and accepted only when it
 * names the same run.
 */
export async function awaitPrivateDeepResearch(
  started: Started<"deep-research">,
  { fetch: fetchImpl = globalThis.fetch, onStatus, limitMs = 3_600_000, intervalMs = 2_000, signal, enclave, recoveryKey }: Follow & { enclave: EnclaveKeyInfo; recoveryKey: string },
): Promise<PrivateResearchResult> {
  const { messageId, pollUrl } = await runOfReceipt(started);
  const gaveUp = () => new PrivateModeError("gave_up", `No result after ${Math.round(limitMs / 1000)} s; poll again later with the same recovery key`);
  if (signal?.aborted) throw gaveUp();
  const polled = await poll({
    // Each read is sealed anew: its answer opens only with that read's own key.
    read: async () => {
      const sealedPoll = await sealRequestFast({ enclavePublicKey: enclave.publicKey, plaintext: { recoveryKey, messageId } });
      const body = await getJson(fetchImpl, pollUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sealedPoll.envelope) });
      return { answerKey: sealedPoll, status: encryptedDeepResearchStatusSchema.parse(body) };
    },
    isFinal: ({ status }) => status.status === "completed" || status.status === "failed",
    onRead: ({ status }) => onStatus?.(status.status),
    pauseMs: intervalMs,
    limitMs,
    signal,
  });
  if (!polled.final) throw gaveUp();
  const { answerKey, status } = polled.value;
  if (status.status === "failed") {
    // The gateway says why a run's payment failed in `reason`: an expired authorization is the payer's to sign again.
    const code = status.reason === "authorization_expired" ? "payment_expired" : "request_failed";
    throw new PrivateModeError(code, `The private research run failed: ${status.error ?? ""}`);
  }
  if (status.status !== "completed") throw gaveUp();
  const result = (await openAnswer(answerKey, status)) as PrivateResearchResult;
  if (result.messageId !== messageId) throw notThisRun("The answer is the enclave's, but for another research run than this request's");
  return result;
}

/**
 * Opens a sealed answer. One that does not open was not sealed by the enclave for this request
 * (an intermediary's forgery, a replayed answer to another request, or damage on the way): it is
 * refused, and the message says so rather than suggesting a key rotation.
 */
async function openAnswer(answerKey: AnswerKey, response: SealedResponse): Promise<unknown> {
  try {
    return await openResponseFast({ ...answerKey, response });
  } catch (err) {
    const code = errorCode(err) ?? "unknown";
    throw new PrivateModeError(
      "answer_not_genuine",
      `The answer could not be opened (${code}): it was not sealed by the enclave for this request, so it was forged or altered on the way. It is refused; nothing from it is shown.`,
    );
  }
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
