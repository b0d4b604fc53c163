import { KEY_BYTES, NONCE_BYTES, REQUEST_INFO, RESPONSE_INFO, TAG_BYTES } from "@/lib/shared/sealing/codec";

/** Where the gateway serves the sealing page (app/api/sealing). */
export const SEALING_PAGE_PATH = "/api/sealing";

/**
 * The sealing suite as the service serves it (GET /api/enclave-key's `sealing`, GET /api/sealing's
 * `suite`, and what a failed opening says was expected): every name, size and info string read
 * from the constants the scheme itself uses (codec.ts, scheme.ts), so what is served cannot drift
 * from what opens. Symbols: `e`/`E` the client's ephemeral key pair, `P` the enclave's public key,
 * `r`/`R` the enclave's per-response key pair; `‖` is concatenation.
 */
export function describeSealingSuite({ pageUrl }: { pageUrl: string }) {
  return {
    name: "X25519-HKDF-SHA256-XChaCha20Poly1305 (this service's scheme, not standard HPKE: a standard HPKE library will not interoperate)",
    keyAgreement: {
      algorithm: "X25519",
      publicKeyBytes: KEY_BYTES,
      privateKeyBytes: KEY_BYTES,
      refuse: "an all-zero shared secret (a low-order public key)",
    },
    kdf: {
      algorithm: "HKDF-SHA256",
      outputBytes: KEY_BYTES,
      request: {
        ikm: `X25519(e, P): the request's shared secret, ${KEY_BYTES} bytes`,
        salt: `E = X25519(e, 9), the raw ${KEY_BYTES} bytes sent as hpke_ephemeral_public_key`,
        info: REQUEST_INFO,
      },
      response: {
        ikm: `X25519(e, R) ‖ X25519(e, P): the response's shared secret, then the request's, ${2 * KEY_BYTES} bytes (the enclave computes them as X25519(r, E) ‖ X25519(enclave private key, E))`,
        salt: `R, the raw ${KEY_BYTES} bytes sent as hpke_response_ephemeral_key`,
        info: RESPONSE_INFO,
      },
      infoEncoding: "UTF-8 (ASCII) bytes of the string, no terminator",
    },
    aead: {
      algorithm: "XChaCha20-Poly1305",
      keyBytes: KEY_BYTES,
      nonceBytes: NONCE_BYTES,
      tagBytes: TAG_BYTES,
      associatedData: "none (empty)",
    },
    ciphertextLayout: `nonce (${NONCE_BYTES} random bytes) ‖ AEAD ciphertext ‖ tag (${TAG_BYTES} bytes), then standard base64`,
    plaintextEncoding: "UTF-8 JSON (any valid JSON text; no canonical form is required)",
    binaryEncoding: "standard base64 with padding (RFC 4648 section 4), for keys and ciphertexts alike",
    request: {
      hpke_ciphertext: `base64(nonce ‖ XChaCha20-Poly1305(request key, nonce) of the plaintext)`,
      hpke_ephemeral_public_key: "base64(E)",
    },
    response: {
      hpke_response_ciphertext: `base64(nonce ‖ XChaCha20-Poly1305(response key, nonce) of the answer)`,
      hpke_response_ephemeral_key: "base64(R), fresh for every answer",
      keep: "e and X25519(e, P) until the answer is opened; every request (a sealed poll too) has its own e",
    },
    page: pageUrl,
  };
}


/**
 * What the enclave says when it cannot open an envelope (the 400's `error` and `message`): what it
 * expected, with the public key it holds, and where the scheme is served. Public values only; it
 * suggests no rotation, since the enclave cannot tell a stale key from a wrong cipher (the gateway
 * says so when its served key is the one that changed: lib/gateway/private/forward.ts).
 */
export function describeFailedOpening({ code, enclavePublicKey }: { code: string; enclavePublicKey: string }): { error: string; message: string } {
  const page = `The scheme step by step, with test vectors for every intermediate value: GET ${SEALING_PAGE_PATH}.`;
  if (code !== "decryption_failed") return { error: `The envelope could not be opened (${code})`, message: page };
  return {
    error: `The envelope could not be opened (decryption_failed): it was not sealed to the enclave key ${enclavePublicKey} with the scheme below, or it was altered`,
    message:
      `The enclave expects: s = X25519(e, P) with P = ${enclavePublicKey} (hpke_public_key of GET /api/enclave-key); ` +
      `key = HKDF-SHA256(ikm = s, salt = E (the ${KEY_BYTES} bytes of hpke_ephemeral_public_key), info = "${REQUEST_INFO}", ${KEY_BYTES} bytes); ` +
      `hpke_ciphertext = base64(${NONCE_BYTES}-byte nonce ‖ XChaCha20-Poly1305 ciphertext ‖ ${TAG_BYTES}-byte tag) of the UTF-8 JSON plaintext, no associated data. ` +
      `Not standard HPKE. ${page}`,
  };
}
