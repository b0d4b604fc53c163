import { decodeBase64, encodeBase64, portablePrimitives as p, type Envelope, type SealedResponse } from "@/lib/shared/sealing";
import { NONCE_BYTES, RESPONSE_INFO, utf8 } from "@/lib/shared/sealing/codec";
import * as scheme from "@/lib/shared/sealing/scheme";

/**
 * What an intermediary standing where the gateway stands can seal to a client: it sees the
 * envelope (so the client's ephemeral public key E) but not the enclave's private key. Each
 * function returns a `SealedResponse` the client must refuse.
 */
export const forgeries = {
  /** The scheme's first response derivation: key from X25519(r, E) alone. */
  oldWay(envelope: Envelope, plaintext: unknown): SealedResponse {
    const r = p.randomBytes(32);
    const R = p.publicKey(r);
    const key = p.hkdf(p.sharedSecret(r, decodeBase64(envelope.hpke_ephemeral_public_key, "E")), R, RESPONSE_INFO);
    const nonce = p.randomBytes(NONCE_BYTES);
    const body = p.seal(key, nonce, utf8.encode(JSON.stringify(plaintext)));
    const out = new Uint8Array(NONCE_BYTES + body.length);
    out.set(nonce);
    out.set(body, NONCE_BYTES);
    return { hpke_response_ciphertext: encodeBase64(out), hpke_response_ephemeral_key: encodeBase64(R) };
  },
  /** The current derivation, with a request secret the forger made up (it cannot know the real one). */
  guessedSecret(envelope: Envelope, plaintext: unknown): SealedResponse {
    return scheme.sealResponse(p, { clientPublicKey: envelope.hpke_ephemeral_public_key, requestSecret: p.randomBytes(32), plaintext });
  },
};

export type ForgeryKind = keyof typeof forgeries;
