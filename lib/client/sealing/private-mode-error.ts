export type PrivateErrorCode =
  | "not_attested"
  | "no_trusted_repo"
  | "attestation_untrusted_repo"
  | "attestation_failed"
  | "attestation_mismatch"
  | "attestation_unexpected_measurement"
  | "key_rotated"
  | "enclave_key_unavailable"
  | "request_refused"
  | "request_failed"
  | "gave_up"
  | "answer_not_genuine"
  | "payment_expired";

/**
 * A private-mode failure the client can act on; `code` says which. Never carries plaintext: a
 * refused start keeps the gateway's own JSON error body (`response`: error, reason…), which seals nothing.
 * Apart from the sealing client (./client.ts) so the page, which loads that client only on demand,
 * recognises it by its class.
 */
export class PrivateModeError extends Error {
  readonly code: PrivateErrorCode;
  readonly status: number | undefined;
  readonly response: Record<string, unknown> | undefined;
  constructor(code: PrivateErrorCode, message: string, status?: number, response?: Record<string, unknown>) {
    super(message);
    this.name = "PrivateModeError";
    this.code = code;
    this.status = status;
    this.response = response;
  }
}
