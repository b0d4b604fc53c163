/**
 * The page's requests to the gateway's /api routes (the same ones agents use), with every failure
 * turned into a plain sentence and a way forward. Kept free of heavy imports: it is in the first
 * page load; the paying fetch comes from lib/web/wallet.ts, loaded on demand.
 */
import { listInWords, sourceLabel } from "@/lib/contracts/source-words";
import type { PrivateModeError } from "@/lib/sealing/client";
import type { Payer } from "./types";

/** A failure said so a person can act on it: what happened, and what to do next. */
export class UserFacingError extends Error {
  readonly action: string | null;
  readonly status: number | null;
  constructor(message: string, { action = null, status = null }: { action?: string | null; status?: number | null } = {}) {
    super(message);
    this.name = "UserFacingError";
    this.action = action;
    this.status = status;
  }
}

type Body = Record<string, unknown>;

const PAYMENT_REASONS: Record<string, { message: string; action: string }> = {
  insufficient_funds: { message: "This wallet does not hold enough USDC for this request.", action: "Add USDC to the wallet, or use another one, then try again." },
  authorization_expired: { message: "The payment authorization expired before it was used.", action: "Try again: you will be asked to sign a fresh one." },
  authorization_not_yet_valid: { message: "The payment authorization is not valid yet (check your device's clock).", action: "Correct the clock, then try again." },
  network_mismatch: { message: "The wallet signed for another network.", action: "Switch the wallet to the payment network, then try again." },
  invalid_token_domain: { message: "The wallet signed for another token.", action: "Try again; if it persists, use another wallet." },
  invalid_signature: { message: "The payment signature was not valid.", action: "Try again; if it persists, use another wallet." },
  payment_already_used: { message: "That payment authorization was already used.", action: "Try again: a new one will be signed." },
  too_many_invalid_payments: { message: "Too many refused payments from this address.", action: "Wait a few minutes, then try again." },
};

/** The failure a response stands for, in words; null for a success. */
export function describeResponse(status: number, body: Body, headers?: Headers): UserFacingError | null {
  if (status < 400) return null;
  const reason = typeof body.reason === "string" ? body.reason : null;
  const error = typeof body.error === "string" ? body.error : null;
  if (status === 402) {
    const known = reason ? PAYMENT_REASONS[reason] : undefined;
    if (known) return new UserFacingError(known.message, { action: known.action, status });
    return new UserFacingError(`The payment was refused${reason ? ` (${reason})` : ""}.`, { action: "Nothing was charged. Try again.", status });
  }
  if (status === 429) {
    const retry = Number(headers?.get("retry-after") ?? body.retryAfterSeconds ?? NaN);
    return new UserFacingError("Too many requests right now.", { action: Number.isFinite(retry) ? `Try again in ${Math.ceil(retry)} s.` : "Try again in a minute.", status });
  }
  if (status === 502 || status === 504) {
    return new UserFacingError("The research agent cannot be reached right now.", { action: "Nothing was charged. Try again shortly.", status });
  }
  if (status === 503 && (reason === "settlement_unavailable" || reason === "payment_in_progress")) {
    return new UserFacingError("The payment could not be settled right now, so nothing was delivered or charged.", { action: "Try again in a minute.", status });
  }
  if (status === 503 && error === "literature_unavailable") return literatureUnavailable(body, headers);
  if (status === 503 && (error === "private_chat_unavailable" || error === "private_literature_unavailable")) {
    return new UserFacingError("Private mode is not available right now: the enclave is not ready.", { action: "Nothing was charged. Try again later, or switch private mode off.", status });
  }
  if (status === 403 && error === "private_literature_disabled") {
    return new UserFacingError("Private literature search is switched off on this service.", { action: "Switch private mode off to search in the open.", status });
  }
  if (status === 413) return new UserFacingError("The request is too large.", { action: "Shorten it, then try again.", status });
  if (status === 400) return new UserFacingError(error ?? "The request was not valid.", { action: "Correct it, then try again. Nothing was charged.", status });
  if (status === 404) return new UserFacingError(error ?? "Not found (it may have expired).", { status });
  return new UserFacingError(error ?? `The service answered ${status}.`, { action: "Nothing was charged. Try again.", status });
}

/**
 * 503 literature_unavailable: no literature source can answer (typed `failedSources`), so the
 * service asked for nothing, or charged nothing for a search that reached no source.
 */
function literatureUnavailable(body: Body, headers?: Headers): UserFacingError {
  const failed = Array.isArray(body.failedSources) ? body.failedSources.flatMap((f: { source?: unknown }) => (typeof f?.source === "string" ? [sourceLabel(f.source)] : [])) : [];
  const retry = Number(headers?.get("retry-after") ?? body.retryAfterSeconds ?? NaN);
  const which = failed.length > 0 ? `: ${listInWords(failed)} ${failed.length === 1 ? "is" : "are"} failing and the local library has nothing to offer` : "";
  return new UserFacingError(`No literature source can answer right now${which}.`, {
    action: `Nothing was charged. ${Number.isFinite(retry) ? `Try again in ${Math.ceil(retry)} s.` : "Try again shortly."}`,
    status: 503,
  });
}

/** A thrown error (wallet, network) in words. */
export function describeThrown(err: unknown): UserFacingError {
  if (err instanceof UserFacingError) return err;
  const e = err as { name?: string; code?: number; message?: string; shortMessage?: string; cause?: unknown };
  const text = `${e?.name ?? ""} ${e?.shortMessage ?? ""} ${e?.message ?? ""}`;
  if (e?.name === "WrongNetworkError") {
    return new UserFacingError(`${e.message}, so nothing was paid.`, { action: "Switch the wallet to that network (accept its request to switch), then try again." });
  }
  if (e?.code === 4001 || /UserRejected|user rejected|denied|rejected the request/i.test(text)) {
    return new UserFacingError("You declined the signature, so nothing was paid.", { action: "Press the button again when you are ready to sign." });
  }
  if (/chain|network/i.test(text) && /switch|mismatch|unsupported|wrong|must match/i.test(text)) {
    return new UserFacingError("The wallet is on another network.", { action: "Switch it to the payment network (the wallet may ask), then try again." });
  }
  if (/Failed to fetch|NetworkError|fetch failed/i.test(text)) {
    return new UserFacingError("The service cannot be reached from this browser.", { action: "Check your connection, then try again." });
  }
  return new UserFacingError(e?.shortMessage ?? e?.message ?? "Something went wrong.", { action: "Try again." });
}

export type PaidResult = { status: number; body: Body; transaction: string | null };

/** POSTs `body` to a paid route with the payer's fetch (which answers the 402 by signing). */
export async function paidPost(payer: Payer, path: string, body: unknown): Promise<PaidResult> {
  let response: Response;
  try {
    response = await payer.payFetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    throw describeThrown(err);
  }
  const parsed = (await response.json().catch(() => ({}))) as Body;
  const failure = describeResponse(response.status, parsed, response.headers);
  if (failure) throw failure;
  return { status: response.status, body: parsed, transaction: transactionOf(response.headers.get("payment-response")) };
}

/** The settled transaction hash from a PAYMENT-RESPONSE header (base64 JSON), if any. */
export function transactionOf(header: string | null): string | null {
  if (!header) return null;
  try {
    const value = JSON.parse(atob(header)) as { transaction?: unknown };
    return typeof value.transaction === "string" && value.transaction ? value.transaction : null;
  } catch {
    return null;
  }
}

/** GETs (or POSTs) a free route and returns its JSON, or throws its failure in words. */
export async function freeJson(path: string, init?: RequestInit): Promise<Body> {
  let response: Response;
  try {
    response = await fetch(path, { cache: "no-store", ...init });
  } catch (err) {
    throw describeThrown(err);
  }
  const body = (await response.json().catch(() => ({}))) as Body;
  const failure = describeResponse(response.status, body, response.headers);
  if (failure) throw failure;
  return body;
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Polls `read` until `done` says so, every `intervalMs` (the contract's 750 ms to 2 s), giving up
 * after `limitMs` with a retryable error. Each result goes to `onUpdate`.
 */
export async function pollUntil<T>({
  read,
  done,
  onUpdate,
  intervalMs = 1_000,
  limitMs = 60_000,
  signal,
}: {
  read: () => Promise<T>;
  done: (value: T) => boolean;
  onUpdate?: (value: T) => void;
  intervalMs?: number;
  limitMs?: number;
  signal?: AbortSignal;
}): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    onUpdate?.(value);
    if (done(value)) return value;
    if (signal?.aborted) throw new UserFacingError("Stopped.", {});
    if (Date.now() > deadline) {
      throw new UserFacingError(`No answer after ${Math.round(limitMs / 1000)} s.`, { action: "Retry to keep waiting: it was paid, and the answer is kept for an hour." });
    }
    await sleep(intervalMs, signal);
  }
}

/** The sealing client's PrivateModeError, recognised by name: the client (and its class) is loaded only on demand. */
export function isPrivateModeError(err: unknown): err is PrivateModeError {
  return err instanceof Error && err.name === "PrivateModeError";
}

/** The way forward for a private-mode failure whose code says more than "try again"; null for the others. */
export function privateFailureAction(err: unknown): string | null {
  const code = isPrivateModeError(err) ? err.code : undefined;
  if (code === "answer_not_genuine") {
    return "Nothing from it is shown. The server between you and the enclave may be tampering with answers: do not trust private answers through it until this stops.";
  }
  if (code === "attestation_untrusted_repo" || code === "attestation_unexpected_measurement" || code === "attestation_mismatch" || code === "attestation_failed") {
    return "Private mode stays off and nothing was sealed or paid: this server does not prove it runs the enclave this page trusts.";
  }
  if (code === "not_attested") return "Private mode stays off and nothing was sealed or paid: this page only seals to an attested enclave, and this one is not.";
  return null;
}
