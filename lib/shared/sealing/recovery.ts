import { decodeBase64, encodeBase64, NONCE_BYTES, TAG_BYTES, utf8 } from "@/lib/shared/sealing/codec";
import { SealingError } from "@/lib/shared/sealing/errors";
import type { SealingPrimitives } from "@/lib/shared/sealing/primitives";

/**
 * Recovery keys: `longevity_key_v1_` + 32 random bytes in unpadded base64url, created and kept by
 * the client, sent only inside sealed plaintexts. The agent derives from one, with HKDF-SHA256 and
 * distinct info strings, a lookup id (to find the conversation) and a storage key (to encrypt it
 * at rest), so the database holds nothing readable and nothing that leads back to the key.
 */
export const RECOVERY_KEY_PREFIX = "longevity_key_v1_";
/** The whole key: the 43rd character of 32 bytes in base64url carries 2 bits, the other 4 zero. */
export const RECOVERY_KEY = new RegExp(`^${RECOVERY_KEY_PREFIX}([A-Za-z0-9_-]{42}[AEIMQUYcgkosw048])$`);
export const RECOVERY_LOOKUP_INFO = "longevity-recovery-lookup-v1";
export const RECOVERY_STORAGE_INFO = "longevity-recovery-storage-v1";

/** A new recovery key (the client's). */
export function createRecoveryKey(p: SealingPrimitives): string {
  return recoveryKeyOf(p.randomBytes(32));
}

/** The recovery key holding these 32 secret bytes (the served page's example, and createRecoveryKey). */
export function recoveryKeyOf(secret: Uint8Array): string {
  if (secret.length !== 32) throw new SealingError("invalid_key_length", "A recovery key holds 32 bytes");
  return RECOVERY_KEY_PREFIX + base64url(secret);
}

/** The 32 secret bytes of a recovery key. Throws SealingError invalid_base64 for anything else. */
export function parseRecoveryKey(key: string): Uint8Array {
  const match = RECOVERY_KEY.exec(key);
  if (!match) throw new SealingError("invalid_base64", `A recovery key is ${RECOVERY_KEY_PREFIX} followed by 32 bytes in base64url`);
  const standard = match[1]!.replace(/-/g, "+").replace(/_/g, "/") + "=";
  return decodeBase64(standard, "the recovery key");
}

/** The lookup id (hex) and the storage key derived from a recovery key. */
export function deriveRecoveryKeys(p: SealingPrimitives, recoveryKey: string): { lookupId: string; storageKey: Uint8Array } {
  const secret = parseRecoveryKey(recoveryKey);
  const salt = new Uint8Array(0);
  const lookup = p.hkdf(secret, salt, RECOVERY_LOOKUP_INFO);
  return { lookupId: Array.from(lookup, (b) => b.toString(16).padStart(2, "0")).join(""), storageKey: p.hkdf(secret, salt, RECOVERY_STORAGE_INFO) };
}

/** Encrypts a value at rest under a 32-byte key: base64(nonce ‖ XChaCha20-Poly1305). */
export function encryptAtRest(p: SealingPrimitives, key: Uint8Array, value: unknown): string {
  const nonce = p.randomBytes(NONCE_BYTES);
  const sealed = p.seal(key, nonce, utf8.encode(JSON.stringify(value)));
  const out = new Uint8Array(NONCE_BYTES + sealed.length);
  out.set(nonce);
  out.set(sealed, NONCE_BYTES);
  return encodeBase64(out);
}

/** Decrypts what encryptAtRest wrote. Throws SealingError on a wrong key or tampering. */
export function decryptAtRest(p: SealingPrimitives, key: Uint8Array, stored: string): unknown {
  const bytes = decodeBase64(stored, "the stored value");
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SealingError("ciphertext_too_short", "The stored value is too short");
  let plain: Uint8Array;
  try {
    plain = p.open(key, bytes.subarray(0, NONCE_BYTES), bytes.subarray(NONCE_BYTES));
  } catch {
    throw new SealingError("decryption_failed", "The stored value could not be decrypted with this key");
  }
  return JSON.parse(utf8.decode(plain));
}

function base64url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
