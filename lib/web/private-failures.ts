/** What to do after a private-mode failure (PrivateModeError, from the sealing client). */
import { PrivateModeError } from "@/lib/sealing/private-mode-error";

/** The way forward for a private-mode failure whose code says more than "try again"; null for the others. */
export function privateFailureAction(err: unknown): string | null {
  const code = err instanceof PrivateModeError ? err.code : undefined;
  if (code === "answer_not_genuine") {
    return "Nothing from it is shown. The server between you and the enclave may be tampering with answers: do not trust private answers through it until this stops.";
  }
  if (code === "attestation_untrusted_repo" || code === "attestation_unexpected_measurement" || code === "attestation_mismatch" || code === "attestation_failed") {
    return "Private mode stays off and nothing was sealed or paid: this server does not prove it runs the enclave this page trusts.";
  }
  if (code === "not_attested") return "Private mode stays off and nothing was sealed or paid: this page only seals to an attested enclave, and this one is not.";
  return null;
}
