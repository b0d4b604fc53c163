import { decodeBase64, decodeKey, encodeBase64, KEY_BYTES, NONCE_BYTES, REQUEST_INFO, RESPONSE_INFO, TAG_BYTES, utf8 } from "@/lib/shared/sealing/codec";
import { SealingError } from "@/lib/shared/sealing/errors";
import type { SealingPrimitives } from "@/lib/shared/sealing/primitives";

/**
 * The sealing scheme of section 4.3 (not standard HPKE), request and response halves
 * (docs/sealing.md):
 * - request: key = HKDF-SHA256(X25519(client ephemeral private, enclave public), salt = client
 *   ephemeral public, info "chat-private-request-v1"); ciphertext = nonce(24) ‖ XChaCha20-Poly1305;
 * - response: key = HKDF-SHA256(X25519(response ephemeral private, client ephemeral public) ‖
 *   the request's shared secret, salt = response ephemeral public, info "chat-private-response-v1");
 *   same layout. The request's shared secret (X25519 of the enclave's key and the client's
 *   ephemeral key) is known to the client and the enclave only: binding it is what makes an answer
 *   the enclave's. Without it, anyone who saw the envelope's ephemeral public key (the gateway, a
 *   CDN, a TLS terminator) could seal an answer the client would accept.
 * Everything on the wire is standard base64.
 */

export type Envelope = { hpke_ciphertext: string; hpke_ephemeral_public_key: string };
export type SealedResponse = { hpke_response_ciphertext: string; hpke_response_ephemeral_key: string };

/** What the enclave needs to answer a request it opened: where to seal, and the secret to bind. */
export type ReplyTo = { clientPublicKey: string; requestSecret: Uint8Array };
/** What the client keeps to open the answer: its ephemeral private key and the request's secret. */
export type AnswerKey = { ephemeralPrivateKey: Uint8Array; requestSecret: Uint8Array };

function agree(p: SealingPrimitives, privateKey: Uint8Array, peerPublic: Uint8Array): Uint8Array {
  const shared = p.sharedSecret(privateKey, peerPublic);
  if (isZero(shared)) throw new SealingError("low_order_key", "The public key is of low order (an all-zero shared secret)");
  return shared;
}

const isZero = (bytes: Uint8Array) => bytes.every((b) => b === 0);

/** The response key: the response's own agreement, then the request's shared secret (docs/sealing.md). */
function responseKey(p: SealingPrimitives, privateKey: Uint8Array, peerPublic: Uint8Array, salt: Uint8Array, requestSecret: Uint8Array): Uint8Array {
  if (!(requestSecret instanceof Uint8Array) || requestSecret.length !== KEY_BYTES || isZero(requestSecret)) {
    throw new SealingError("invalid_key_length", `The request's shared secret must be ${KEY_BYTES} non-zero bytes`);
  }
  const shared = agree(p, privateKey, peerPublic);
  const ikm = new Uint8Array(2 * KEY_BYTES);
  ikm.set(shared, 0);
  ikm.set(requestSecret, KEY_BYTES);
  return p.hkdf(ikm, salt, RESPONSE_INFO);
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
    return JSON.parse(utf8.decode(plain));
  } catch {
    throw new SealingError("invalid_plaintext", "The opened message is not UTF-8 JSON");
  }
}

/**
 * Seals a request to the enclave's public key. Keep `ephemeralPrivateKey` and `requestSecret` (the
 * AnswerKey) until the answer is opened: they are what opens it, and they must stay with the client.
 */
export function sealRequest(
  p: SealingPrimitives,
  { enclavePublicKey, plaintext, ephemeralPrivateKey = p.randomBytes(KEY_BYTES), nonce = p.randomBytes(NONCE_BYTES) }: {
    enclavePublicKey: string;
    plaintext: unknown;
    ephemeralPrivateKey?: Uint8Array;
    nonce?: Uint8Array;
  },
): { envelope: Envelope } & AnswerKey {
  const enclave = decodeKey(enclavePublicKey, "the enclave public key");
  const ephemeralPublic = p.publicKey(ephemeralPrivateKey);
  const requestSecret = agree(p, ephemeralPrivateKey, enclave);
  const key = p.hkdf(requestSecret, ephemeralPublic, REQUEST_INFO);
  return {
    envelope: { hpke_ciphertext: sealWith(p, key, plaintext, nonce), hpke_ephemeral_public_key: encodeBase64(ephemeralPublic) },
    ephemeralPrivateKey,
    requestSecret,
  };
}

/**
 * Opens a request in the enclave. Returns the plaintext and `replyTo`: the client's ephemeral
 * public key and the request's shared secret, which sealing the answer needs.
 */
export function openRequest(p: SealingPrimitives, { enclavePrivateKey, envelope }: { enclavePrivateKey: Uint8Array; envelope: Envelope }): { plaintext: unknown; replyTo: ReplyTo } {
  const clientPublic = decodeKey(envelope.hpke_ephemeral_public_key, "hpke_ephemeral_public_key");
  const requestSecret = agree(p, enclavePrivateKey, clientPublic);
  const key = p.hkdf(requestSecret, clientPublic, REQUEST_INFO);
  return {
    plaintext: openWith(p, key, envelope.hpke_ciphertext, "hpke_ciphertext"),
    replyTo: { clientPublicKey: envelope.hpke_ephemeral_public_key, requestSecret },
  };
}

/** Seals an answer to the request it answers (its `replyTo`), with a fresh key pair. */
export function sealResponse(
  p: SealingPrimitives,
  { clientPublicKey, requestSecret, plaintext, responsePrivateKey = p.randomBytes(KEY_BYTES), nonce = p.randomBytes(NONCE_BYTES) }: ReplyTo & {
    plaintext: unknown;
    responsePrivateKey?: Uint8Array;
    nonce?: Uint8Array;
  },
): SealedResponse {
  const client = decodeKey(clientPublicKey, "the client's ephemeral public key");
  const responsePublic = p.publicKey(responsePrivateKey);
  const key = responseKey(p, responsePrivateKey, client, responsePublic, requestSecret);
  return { hpke_response_ciphertext: sealWith(p, key, plaintext, nonce), hpke_response_ephemeral_key: encodeBase64(responsePublic) };
}

/**
 * Opens an answer with the AnswerKey of the request it answers. An answer sealed by anyone without
 * the request's shared secret (the envelope alone is not enough) fails as `decryption_failed`.
 */
export function openResponse(p: SealingPrimitives, { ephemeralPrivateKey, requestSecret, response }: AnswerKey & { response: SealedResponse }): unknown {
  const responsePublic = decodeKey(response.hpke_response_ephemeral_key, "hpke_response_ephemeral_key");
  const key = responseKey(p, ephemeralPrivateKey, responsePublic, responsePublic, requestSecret);
  return openWith(p, key, response.hpke_response_ciphertext, "hpke_response_ciphertext");
}
