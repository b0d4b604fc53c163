/**
 * What a gateway answer of 400 or more means for the person, in words, with what to do next: the
 * contract's error body (`error`, `reason`, `retryAfterSeconds`, `failedSources`) and status read
 * into a UserFacingError.
 */
import { failuresInWords, listInWords, sourceLabel } from "@/lib/shared/contracts/source-words";
import { NOTHING_IN_LIBRARY, unavailableReasonOf } from "@/lib/shared/contracts/unavailable-reasons";
import { UserFacingError } from "@/lib/web/user-facing-error";

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
 * 503 literature_unavailable, by its typed reason: no literature source can answer (the service
 * asked for nothing, or charged nothing), or the live sources failed and the local library has
 * nothing on the question, when asking again helps only once a live source is back, and other
 * words or a wider question are what may help now.
 */
function literatureUnavailable(body: Body, headers?: Headers): UserFacingError {
  const failures = Array.isArray(body.failedSources)
    ? body.failedSources.flatMap((f: { source?: unknown; kind?: unknown }) => (typeof f?.source === "string" ? [{ source: f.source, kind: typeof f.kind === "string" ? f.kind : "failed" }] : []))
    : [];
  const retry = Number(headers?.get("retry-after") ?? body.retryAfterSeconds ?? NaN);
  if (unavailableReasonOf(body.reason) === NOTHING_IN_LIBRARY) {
    const what = failures.length > 0 ? failuresInWords(failures) : "the live literature sources could not be searched";
    const live = failures.length === 1 ? sourceLabel(failures[0]!.source) : failures.length > 1 ? "one of them" : "a live source";
    return new UserFacingError(`${what.charAt(0).toUpperCase()}${what.slice(1)}, and the local library has nothing on this question.`, {
      action: `Nothing was charged. Asking the same again helps only once ${live} can be searched again (see Service status). What may help now: other words for it (another name for the drug, the exposure or the outcome, as studies write them), or a wider question (without its population or species).`,
      status: 503,
    });
  }
  const failed = failures.map((f) => sourceLabel(f.source));
  const which = failed.length > 0 ? `: ${listInWords(failed)} ${failed.length === 1 ? "is" : "are"} failing and the local library has nothing to offer` : "";
  return new UserFacingError(`No literature source can answer right now${which}.`, {
    action: `Nothing was charged. ${Number.isFinite(retry) ? `Try again in ${Math.ceil(retry)} s.` : "Try again shortly."}`,
    status: 503,
  });
}
