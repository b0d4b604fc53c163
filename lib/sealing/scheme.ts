import { decodeBase64, decodeKey, encodeBase64, KEY_BYTES, NONCE_BYTES, REQUEST_INFO, RESPONSE_INFO, TAG_BYTES, utf8 } from "./codec";
import { SealingError } from "./errors";
import type { SealingPrimitives } from "./primitives";

/**
 * The sealing scheme of section 4.3 (not standard HPKE), request and response halves
 * (docs/sealing.md):
 * - request: key = HKDF-SHA256(X25519(client ephemeral private, enclave public), salt = client
 *   ephemeral public, info "chat-private-request-v1"); ciphertext = nonce(24) ‖ XChaCha20-Poly1305;
 * - response: key = HKDF-SHA256(X25519(response ephemeral private, client ephemeral public),
 *   salt = response ephemeral public, info "chat-private-response-v1"); same layout.
 * Everything on the wire is standard base64.
 */

export type Envelope = { hpke_ciphertext: string; hpke_ephemeral_public_key: string };
export type SealedResponse = { hpke_response_ciphertext: string; hpke_response_ephemeral_key: string };

function deriveKey(p: SealingPrimitives, privateKey: Uint8Array, peerPublic: Uint8Array, salt: Uint8Array, info: string): Uint8Array {
  const shared = p.sharedSecret(privateKey, peerPublic);
  if (shared.every((b) => b === 0)) throw new SealingError("low_order_key", "The public key is of low order (an all-zero shared secret)");
  return p.hkdf(shared, salt, info);
}

function sealWith(p: SealingPrimitives, key: Uint8Array, plaintext: unknown, nonce: Uint8Array): string {
  const message = utf8.encode(JSON.stringify(plaintext));
  if (p.sealPrefixed) return encodeBase64(p.sealPrefixed(key, nonce, message));
  const sealed = p.seal(key, nonce, message);
  const out = new Uint8Array(NONCE_BYTES + sealed.length);
  out.set(nonce, 0);
  out.set(sealed, NONCE_BYTES);
  return encodeBase64(out);
}

function openWith(p: SealingPrimitives, key: Uint8Array, ciphertext: string, what: string): unknown {
  const bytes = decodeBase64(ciphertext, what);
  if (bytes.length < NONCE_BYTES + TAG_BYTES) {
    throw new SealingError("ciphertext_too_short", `${what} is shorter than a nonce and a tag (${NONCE_BYTES + TAG_BYTES} bytes)`);
  }
  let plain: Uint8Array;
  try {
    plain = p.open(key, bytes.subarray(0, NONCE_BYTES), bytes.subarray(NONCE_BYTES));
  } catch {
    throw new SealingError("decryption_failed", "The message could not be opened: wrong key, or tampered with");
  }
  try {
    return JSON.parse(utf8.decode(plain)) as unknown;
  } catch {
    throw new SealingError("invalid_plaintext", "The opened message is not UTF-8 JSON");
  }
}

/** Seals a request to the enclave's public key. Keep `ephemeralPrivateKey` to open the answer. */
export function sealRequest(
  p: SealingPrimitives,
  { enclavePublicKey, plaintext, ephemeralPrivateKey = p.randomBytes(KEY_BYTES), nonce = p.randomBytes(NONCE_BYTES) }: {
    enclavePublicKey: string;
    plaintext: unknown;
    ephemeralPrivateKey?: Uint8Array;
    nonce?: Uint8Array;
  },
): { envelope: Envelope; ephemeralPrivateKey: Uint8Array } {
  const enclave = decodeKey(enclavePublicKey, "the enclave public key");
  const ephemeralPublic = p.publicKey(ephemeralPrivateKey);
  const key = deriveKey(p, ephemeralPrivateKey, enclave, ephemeralPublic, REQUEST_INFO);
  return {
    envelope: { hpke_ciphertext: sealWith(p, key, plaintext, nonce), hpke_ephemeral_public_key: encodeBase64(ephemeralPublic) },
    ephemeralPrivateKey,
  };
}

/** Opens a request in the enclave. Returns the plaintext and the client's ephemeral public key (to seal the answer to). */
export function openRequest(p: SealingPrimitives, { enclavePrivateKey, envelope }: { enclavePrivateKey: Uint8Array; envelope: Envelope }): { plaintext: unknown; clientPublicKey: string } {
  const clientPublic = decodeKey(envelope.hpke_ephemeral_public_key, "hpke_ephemeral_public_key");
  const key = deriveKey(p, enclavePrivateKey, clientPublic, clientPublic, REQUEST_INFO);
  return { plaintext: openWith(p, key, envelope.hpke_ciphertext, "hpke_ciphertext"), clientPublicKey: envelope.hpke_ephemeral_public_key };
}

/** Seals an answer to the ephemeral public key of the request it answers, with a fresh key pair. */
export function sealResponse(
  p: SealingPrimitives,
  { clientPublicKey, plaintext, responsePrivateKey = p.randomBytes(KEY_BYTES), nonce = p.randomBytes(NONCE_BYTES) }: {
    clientPublicKey: string;
    plaintext: unknown;
    responsePrivateKey?: Uint8Array;
    nonce?: Uint8Array;
  },
): SealedResponse {
  const client = decodeKey(clientPublicKey, "the client's ephemeral public key");
  const responsePublic = p.publicKey(responsePrivateKey);
  const key = deriveKey(p, responsePrivateKey, client, responsePublic, RESPONSE_INFO);
  return { hpke_response_ciphertext: sealWith(p, key, plaintext, nonce), hpke_response_ephemeral_key: encodeBase64(responsePublic) };
}

/** Opens an answer with the ephemeral private key of the request it answers. */
export function openResponse(p: SealingPrimitives, { ephemeralPrivateKey, response }: { ephemeralPrivateKey: Uint8Array; response: SealedResponse }): unknown {
  const responsePublic = decodeKey(response.hpke_response_ephemeral_key, "hpke_response_ephemeral_key");
  const key = deriveKey(p, ephemeralPrivateKey, responsePublic, responsePublic, RESPONSE_INFO);
  return openWith(p, key, response.hpke_response_ciphertext, "hpke_response_ciphertext");
}
