/**
 * The browser's fast path: X25519 through WebCrypto where the platform has it (Chromium 133+,
 * Firefox, Safari 17+, Node), @noble otherwise; HKDF and XChaCha20-Poly1305 stay @noble's (WebCrypto
 * has no ChaCha). WebCrypto is asynchronous and the scheme is not: the two X25519 results a call
 * needs (our public key, the shared secret) are computed first, then the very same scheme code
 * runs over them, so this path cannot drift from the others (tests cross-check it on the vectors).
 */
import { decodeKey, KEY_BYTES, NONCE_BYTES, PKCS8_X25519_PREFIX } from "@/lib/shared/sealing/codec";
import { portablePrimitives } from "@/lib/shared/sealing/portable";
import type { SealingPrimitives } from "@/lib/shared/sealing/primitives";
import * as scheme from "@/lib/shared/sealing/scheme";

export type SealingPath = "webcrypto" | "noble";

let available: Promise<boolean> | undefined;

/** Whether this platform's WebCrypto does X25519 (checked once). */
export function webCryptoX25519(): Promise<boolean> {
  available ??= (async () => {
    try {
      const subtle = globalThis.crypto?.subtle;
      if (!subtle) return false;
      const probe = await subtle.generateKey({ name: "X25519" }, true, ["deriveBits"]);
      return "privateKey" in probe;
    } catch {
      return false;
    }
  })();
  return available;
}

async function importPrivate(raw: Uint8Array): Promise<CryptoKey> {
  const der = new Uint8Array(PKCS8_X25519_PREFIX.length + KEY_BYTES);
  der.set(PKCS8_X25519_PREFIX, 0);
  der.set(raw, PKCS8_X25519_PREFIX.length);
  return crypto.subtle.importKey("pkcs8", der, { name: "X25519" }, true, ["deriveBits"]);
}

/** X25519 of `privateKey` with `peer` via WebCrypto; all zeros when it refuses a low-order point. */
async function sharedSecret(privateKey: CryptoKey, peer: Uint8Array): Promise<Uint8Array> {
  try {
    const publicKey = await crypto.subtle.importKey("raw", new Uint8Array(peer), { name: "X25519" }, false, []);
    return new Uint8Array(await crypto.subtle.deriveBits({ name: "X25519", public: publicKey }, privateKey, 256));
  } catch {
    return new Uint8Array(KEY_BYTES);
  }
}

/** The portable primitives, with the X25519 results already computed by WebCrypto. */
function precomputed(publicKey: Uint8Array | null, shared: Uint8Array): SealingPrimitives {
  return {
    ...portablePrimitives,
    name: "webcrypto",
    publicKey: (privateKey) => publicKey ?? portablePrimitives.publicKey(privateKey),
    sharedSecret: () => shared,
  };
}

function base64UrlToBytes(value: string): Uint8Array {
  const base64 = value.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(value.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Seals a request (section 4.3) with the fastest X25519 available. Keep the AnswerKey it returns. */
export async function sealRequestFast({
  enclavePublicKey,
  plaintext,
  ephemeralPrivateKey = portablePrimitives.randomBytes(KEY_BYTES),
  nonce = portablePrimitives.randomBytes(NONCE_BYTES),
}: {
  enclavePublicKey: string;
  plaintext: unknown;
  ephemeralPrivateKey?: Uint8Array;
  nonce?: Uint8Array;
}): Promise<{ envelope: scheme.Envelope; path: SealingPath } & scheme.AnswerKey> {
  if (!(await webCryptoX25519())) {
    return { ...scheme.sealRequest(portablePrimitives, { enclavePublicKey, plaintext, ephemeralPrivateKey, nonce }), path: "noble" };
  }
  const enclave = decodeKey(enclavePublicKey, "the enclave public key");
  const privateKey = await importPrivate(ephemeralPrivateKey);
  const { x } = await crypto.subtle.exportKey("jwk", privateKey);
  const publicKey = x ? base64UrlToBytes(x) : null;
  const shared = await sharedSecret(privateKey, enclave);
  return { ...scheme.sealRequest(precomputed(publicKey, shared), { enclavePublicKey, plaintext, ephemeralPrivateKey, nonce }), path: "webcrypto" };
}

/** Opens an answer with the AnswerKey of the request it answers, with the fastest X25519 available. */
export async function openResponseFast({ ephemeralPrivateKey, requestSecret, response }: scheme.AnswerKey & { response: scheme.SealedResponse }): Promise<unknown> {
  if (!(await webCryptoX25519())) return scheme.openResponse(portablePrimitives, { ephemeralPrivateKey, requestSecret, response });
  const responsePublic = decodeKey(response.hpke_response_ephemeral_key, "hpke_response_ephemeral_key");
  const shared = await sharedSecret(await importPrivate(ephemeralPrivateKey), responsePublic);
  return scheme.openResponse(precomputed(null, shared), { ephemeralPrivateKey, requestSecret, response });
}
