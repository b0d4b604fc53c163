/** Why a sealed message could not be made or opened: each failure its own code, none revealing content. */
export type SealingErrorCode =
  | "invalid_base64"
  | "invalid_key_length"
  | "low_order_key"
  | "ciphertext_too_short"
  | "decryption_failed"
  | "invalid_plaintext";

export class SealingError extends Error {
  readonly code: SealingErrorCode;
  constructor(code: SealingErrorCode, message: string) {
    super(message);
    this.name = "SealingError";
    this.code = code;
  }
}
