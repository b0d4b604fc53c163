/**
 * Private mode's failures (PrivateModeError, from the sealing client) in words, with what to do,
 * and which of them end a sealed job for good.
 */
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";
import { describeResponse } from "@/lib/web/describe-response";
import { UserFacingError } from "@/lib/web/user-facing-error";

/**
 * A private-mode failure in words. A refused start is described like any refused request (403
 * private literature off, 503 enclave not ready, 402 …); the others keep the client's message,
 * with the way forward their code calls for.
 */
export function describePrivateFailure(err: PrivateModeError): UserFacingError {
  if (err.code === "request_refused" && err.status) {
    const described = describeResponse(err.status, err.response ?? {});
    if (described) return described;
  }
  if (err.code === "payment_expired") {
    return new UserFacingError("The payment authorization expired before the research finished, so nothing was charged.", { action: "Start again: you will be asked to sign a new payment." });
  }
  if (err.code === "key_rotated") return new UserFacingError(err.message, { action: "Switch private mode off and on to fetch the new key, then try again. Nothing was charged." });
  if (err.code === "gave_up") return new UserFacingError(err.message, { action: "Retry to keep waiting: it was paid, and the sealed answer is kept for an hour." });
  return new UserFacingError(err.message, { action: privateFailureAction(err.code) ?? "Try again." });
}

/** The way forward for a private-mode failure whose code says more than "try again"; null for the others. */
function privateFailureAction(code: PrivateModeError["code"]): string | null {
  if (code === "answer_not_genuine") {
    return "Nothing from it is shown. The server between you and the enclave may be tampering with answers: do not trust private answers through it until this stops.";
  }
  if (code === "attestation_untrusted_repo" || code === "attestation_unexpected_measurement" || code === "attestation_mismatch" || code === "attestation_failed") {
    return "Private mode stays off and nothing was sealed or paid: this server does not prove it runs the enclave this page trusts.";
  }
  if (code === "not_attested") return "Private mode stays off and nothing was sealed or paid: this page only seals to an attested enclave, and this one is not.";
  return null;
}

/**
 * Whether a failure while following a sealed job ends it for good, so no Retry is offered: never
 * when the follow only gave up waiting; always when the answer came with the start (there is
 * nothing to poll again); else when the answer did not open (polling again brings the same
 * forgery), the run failed or its payment expired, or the service no longer knows it (404).
 */
export function endsSealedJob(err: unknown, { answeredWhenAccepted }: { answeredWhenAccepted: boolean }): boolean {
  if (err instanceof PrivateModeError && err.code === "gave_up") return false;
  if (answeredWhenAccepted) return true;
  if (!(err instanceof PrivateModeError)) return false;
  return err.code === "answer_not_genuine" || err.code === "payment_expired" || (err.code === "request_failed" && (err.status === undefined || err.status === 404));
}
