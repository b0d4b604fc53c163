import { encodeBase64, KEY_BYTES, NONCE_BYTES, REQUEST_INFO, RESPONSE_INFO, TAG_BYTES } from "@/lib/shared/sealing/codec";
import { describeSealingSuite, SEALING_PAGE_PATH } from "@/lib/shared/sealing/descriptor";
import type { SealingErrorCode } from "@/lib/shared/sealing/errors";
import { portablePrimitives } from "@/lib/shared/sealing/portable";
import { deriveRecoveryKeys, RECOVERY_KEY, RECOVERY_KEY_PREFIX, RECOVERY_LOOKUP_INFO, RECOVERY_STORAGE_INFO, recoveryKeyOf } from "@/lib/shared/sealing/recovery";
import vectors from "@/lib/shared/sealing/vectors.json";

/**
 * GET /api/sealing: everything a client needs to seal a request and open the answer without this
 * repository, for programs first (JSON): the suite (descriptor.ts), the algorithm step by step, the
 * test vectors of docs/sealing.md (vectors.json, the file tests/unit/sealing.test.ts checks, served
 * as it is), the errors, and the recovery-key format with an example derived here by the code that
 * derives real ones. Nothing in it is a second copy of a constant.
 */

/** What each failed opening means (every code of SealingErrorCode, checked by the compiler). */
const ERRORS: Record<SealingErrorCode, string> = {
  invalid_base64: "a key or ciphertext is not standard base64 with padding",
  invalid_key_length: `a key is not ${KEY_BYTES} bytes`,
  low_order_key: "hpke_ephemeral_public_key is a low-order point (the X25519 shared secret is all zeros)",
  ciphertext_too_short: `hpke_ciphertext is shorter than a nonce and a tag (${NONCE_BYTES + TAG_BYTES} bytes)`,
  decryption_failed:
    "the tag did not verify: the envelope was not sealed to the enclave key GET /api/enclave-key serves with this suite (compare your intermediate values with the test vectors), or it was altered. The error's message names the key the enclave holds",
  invalid_plaintext: "it opened, but the plaintext is not UTF-8 JSON, or not the route's plaintext schema (the message names the fields, never their values)",
};

/** Fixed recovery-key bytes for the example (0xc1 … 0xe0), continuing the vectors' pattern. */
const RECOVERY_EXAMPLE_SECRET = Uint8Array.from({ length: 32 }, (_, i) => 0xc1 + i);

function recoveryKeySection() {
  const key = recoveryKeyOf(RECOVERY_EXAMPLE_SECRET);
  const { lookupId, storageKey } = deriveRecoveryKeys(portablePrimitives, key);
  return {
    format: `"${RECOVERY_KEY_PREFIX}" followed by 32 random bytes in unpadded base64url (RFC 4648 section 5): 43 characters, the last carrying no stray bits`,
    prefix: RECOVERY_KEY_PREFIX,
    pattern: RECOVERY_KEY.source,
    use: "Created and kept by the client; sent only inside sealed plaintexts (`recoveryKey`): it continues a private chat conversation and is required by private deep research (start and every poll). Whoever holds it reads the conversation: keep it like a password.",
    derivation: {
      secret: "the 32 bytes the base64url part decodes to",
      lookupId: { kdf: "HKDF-SHA256", ikm: "secret", salt: "empty", info: RECOVERY_LOOKUP_INFO, outputBytes: KEY_BYTES, encoding: "lowercase hex (64 digits)" },
      storageKey: { kdf: "HKDF-SHA256", ikm: "secret", salt: "empty", info: RECOVERY_STORAGE_INFO, outputBytes: KEY_BYTES, encoding: "raw (used by the enclave only)" },
      note: "The enclave derives these; a client never needs them. They are given so an implementation can check its parsing of a key.",
    },
    example: { secret: encodeBase64(RECOVERY_EXAMPLE_SECRET), recoveryKey: key, lookupId, storageKey: encodeBase64(storageKey) },
  };
}

const VECTOR_LEGEND = {
  enclavePrivateKey: "the enclave's private key (here only: it never leaves the enclave)",
  enclavePublicKey: "P, what GET /api/enclave-key serves as hpke_public_key",
  clientEphemeralPrivateKey: "e",
  requestNonce: `the request's ${NONCE_BYTES}-byte nonce`,
  requestPlaintext: "the request's plaintext; serialized as JSON without spaces in key order, as written here",
  envelope: "the request body: hpke_ciphertext (nonce ‖ ciphertext ‖ tag) and hpke_ephemeral_public_key (E)",
  requestSharedSecret: "X25519(e, P)",
  requestKey: `HKDF-SHA256(X25519(e, P), salt = E, info = "${REQUEST_INFO}")`,
  responseEphemeralPrivateKey: "r (the enclave's, for this answer)",
  responseNonce: `the answer's ${NONCE_BYTES}-byte nonce`,
  responsePlaintext: "the answer's plaintext, serialized as JSON without spaces",
  response: "the sealed answer: hpke_response_ciphertext and hpke_response_ephemeral_key (R)",
  responseSharedSecret: "X25519(e, R) = X25519(r, E)",
  responseKey: `HKDF-SHA256(X25519(e, R) ‖ X25519(e, P), salt = R, info = "${RESPONSE_INFO}")`,
  forgedResponse:
    "the same answer sealed under HKDF-SHA256(X25519(e, R), salt = R, info) alone, as anyone who saw the envelope could: a correct client must FAIL to open it",
} satisfies Record<keyof typeof vectors, string>;

/** The page for the gateway at `publicUrl`. */
export function buildSealingPage({ publicUrl }: { publicUrl: string }) {
  const enclaveKeyUrl = `${publicUrl}/api/enclave-key`;
  return {
    title: "Sealing private requests: the scheme, step by step, with test vectors",
    url: `${publicUrl}${SEALING_PAGE_PATH}`,
    summary:
      "The routes ending in /encrypted (and POST /api/deep-research/encrypted/status/{messageId}) take a JSON body sealed to the enclave's X25519 key; the gateway relays it without reading it, and the answer comes back sealed to the request. The scheme is this service's, not standard HPKE (the hpke_ field names are kept for compatibility). Payment is as for every paid route (x402); sealing adds confidentiality only.",
    enclaveKey: enclaveKeyUrl,
    suite: describeSealingSuite({ pageUrl: `${publicUrl}${SEALING_PAGE_PATH}` }),
    sealRequest: [
      `GET ${enclaveKeyUrl}; base64-decode hpke_public_key: P, ${KEY_BYTES} bytes. (If you trust an attested enclave, verify \`attestation\` against your own trusted repository before sealing; the \`attested\` flag alone proves nothing.)`,
      `Pick e, ${KEY_BYTES} random bytes (an X25519 private key; X25519 clamps it). E = X25519(e, 9), the base point: E is e's public key.`,
      "s = X25519(e, P). If s is all zeros, stop (P is a low-order point).",
      `k = HKDF-SHA256(ikm = s, salt = E, info = "${REQUEST_INFO}", length ${KEY_BYTES}), RFC 5869 extract then expand.`,
      `Pick n, ${NONCE_BYTES} random bytes. c = XChaCha20-Poly1305 encryption of the plaintext's UTF-8 JSON under key k and nonce n, with no associated data; c ends in the ${TAG_BYTES}-byte tag.`,
      'POST {"hpke_ciphertext": base64(n ‖ c), "hpke_ephemeral_public_key": base64(E)} with Content-Type application/json to the encrypted route, paying as usual. Keep e and s until the answer is opened; use a fresh e for every request, a sealed poll included.',
    ],
    openResponse: [
      "Take the sealed answer (the 200 of POST /api/chat/encrypted, or a completed poll): R = base64-decode(hpke_response_ephemeral_key), and b = base64-decode(hpke_response_ciphertext).",
      `n' = the first ${NONCE_BYTES} bytes of b; the rest is ciphertext ‖ ${TAG_BYTES}-byte tag.`,
      "t = X25519(e, R), with the e of the request this answers (of this very poll, for a sealed poll). If t is all zeros, refuse the answer.",
      `k' = HKDF-SHA256(ikm = t ‖ s (${2 * KEY_BYTES} bytes: t first), salt = R, info = "${RESPONSE_INFO}", length ${KEY_BYTES}), s being the request's X25519(e, P).`,
      "Decrypt the rest of b with XChaCha20-Poly1305 under k' and n', no associated data, then parse the UTF-8 JSON. A tag that does not verify means the answer was not sealed by the enclave for this request (forged, altered, or another request's): refuse it and show nothing of it.",
    ],
    plaintexts: {
      "POST /api/chat/encrypted": { request: "EncryptedChatPlaintext", answer: "ChatResult" },
      "POST /api/literature/encrypted": { request: "EncryptedLiteraturePlaintext", answer: "LiteratureJobResult (in the completed poll of GET /api/literature/encrypted/status/{requestId})" },
      "POST /api/deep-research/encrypted": {
        request: "EncryptedDeepResearchStartPlaintext",
        answer:
          "202 {messageId, status, pollUrl, hpke_response_ciphertext, hpke_response_ephemeral_key}: the last two are the receipt, an EncryptedDeepResearchReceipt {messageId, status} sealed to the start's e. Open it as any answer and go on only if its messageId is the 202's: that is the run the enclave started for this request, and the only one to poll",
      },
      "POST /api/deep-research/encrypted/status/{messageId}": {
        request:
          "EncryptedDeepResearchPollPlaintext {recoveryKey, messageId}, messageId being the run the receipt named: a poll naming another run than the URL's is answered 404, as an unknown run. (A poll without messageId, the contract's first form, is still answered by the URL, unchecked.)",
        answer:
          "PrivateDeepResearchResult {messageId, status, reply, citations, worldState, quality, sessionStatus}, sealed to this poll's e: refuse it, as not genuine, unless its messageId is the run the receipt named",
      },
      schemas: `${publicUrl}/api/openapi.json (components.schemas)`,
    },
    errors: {
      shape: '400 {"error", "reason", "message"?}, before payment is settled: nothing is charged. `reason` is one of these codes:',
      codes: ERRORS,
    },
    testVectors: {
      note: "Keys and nonces are fixed byte sequences (0x01…0x20 and so on), not random, so every value can be rebuilt. Reproduce envelope and response byte for byte from the inputs, open both, and fail to open forgedResponse.",
      legend: VECTOR_LEGEND,
      ...vectors,
    },
    recoveryKey: recoveryKeySection(),
  };
}

export type SealingPage = ReturnType<typeof buildSealingPage>;
