import { createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, diffieHellman, hkdfSync, randomBytes } from "node:crypto";
import { hchacha } from "@noble/ciphers/chacha.js";
import type { SealingPrimitives } from "@/lib/shared/sealing/primitives";
import { PKCS8_X25519_PREFIX } from "@/lib/shared/sealing/codec";

/**
 * The fast server path: X25519 and HKDF from node:crypto, and XChaCha20-Poly1305 built the
 * standard way from an HChaCha20 subkey (computed with @noble's hchacha) and Node's native
 * ChaCha20-Poly1305 with the nonce's last 8 bytes behind 4 zero bytes.
 */
const PKCS8_X25519 = Buffer.from(PKCS8_X25519_PREFIX);
const SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);

const b64url = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");

function privateKeyFromDer(raw: Uint8Array) {
  return createPrivateKey({ key: Buffer.concat([PKCS8_X25519, raw]), format: "der", type: "pkcs8" });
}

/**
 * Importing a raw private key as PKCS#8 DER costs ~0.37 ms in OpenSSL 3's decoder; as a JWK it
 * costs ~0.04 ms. Node builds a JWK private key from `d` alone and only checks that `x` is a
 * string, so a placeholder `x` is given. That is Node's behaviour, not a promise: it is checked
 * once, at load, against the DER route on a fixed key, and the DER route is used if they differ.
 */
function privateKeyFromJwk(raw: Uint8Array) {
  return createPrivateKey({ key: { kty: "OKP", crv: "X25519", d: b64url(raw), x: "" }, format: "jwk" });
}

const jwkImportIsExact = (() => {
  try {
    const probe = new Uint8Array(32).fill(0x42);
    const viaJwk = createPublicKey(privateKeyFromJwk(probe)).export({ format: "jwk" }).x;
    return viaJwk === createPublicKey(privateKeyFromDer(probe)).export({ format: "jwk" }).x;
  } catch {
    return false;
  }
})();

const importPrivateKey = jwkImportIsExact ? privateKeyFromJwk : privateKeyFromDer;

// The enclave opens every request with the same key bytes (one Uint8Array, from the memoised
// loader): keep its imported KeyObject. Keyed by identity, so a fresh array is imported afresh.
const imported = new WeakMap<Uint8Array, ReturnType<typeof createPrivateKey>>();
function privateKeyObject(raw: Uint8Array) {
  let key = imported.get(raw);
  if (!key) imported.set(raw, (key = importPrivateKey(raw)));
  return key;
}

function words(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(i * 4, true));
}

function subkey(key: Uint8Array, nonce: Uint8Array): Buffer {
  const out = new Uint32Array(8);
  hchacha(SIGMA, words(key), words(nonce.subarray(0, 16)), out);
  const bytes = Buffer.alloc(32);
  out.forEach((w, i) => bytes.writeUInt32LE(w, i * 4));
  return bytes;
}

function chachaNonce(nonce: Uint8Array): Buffer {
  return Buffer.concat([Buffer.alloc(4), Buffer.from(nonce.subarray(16, 24))]);
}

export const nativePrimitives: SealingPrimitives = {
  name: "node",
  publicKey: (privateKey) => {
    const x = createPublicKey(privateKeyObject(privateKey)).export({ format: "jwk" }).x;
    return new Uint8Array(Buffer.from(x ?? "", "base64url"));
  },
  sharedSecret: (privateKey, publicKey) => {
    try {
      const pub = createPublicKey({ key: { kty: "OKP", crv: "X25519", x: b64url(publicKey) }, format: "jwk" });
      return new Uint8Array(diffieHellman({ privateKey: privateKeyObject(privateKey), publicKey: pub }));
    } catch {
      // OpenSSL refuses an all-zero result (a low-order point): report it as such.
      return new Uint8Array(32);
    }
  },
  hkdf: (ikm, salt, info) => new Uint8Array(hkdfSync("sha256", ikm, salt, info, 32)),
  seal: (key, nonce, plaintext) => sealParts(key, nonce, plaintext, []),
  sealPrefixed: (key, nonce, plaintext) => sealParts(key, nonce, plaintext, [nonce]),
  open: (key, nonce, sealed) => {
    if (sealed.length < 16) throw new Error("too short");
    const decipher = createDecipheriv("chacha20-poly1305", subkey(key, nonce), chachaNonce(nonce), { authTagLength: 16 });
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return view(Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]));
  },
  randomBytes: (n) => new Uint8Array(randomBytes(n)),
};

/** A plain Uint8Array over a Buffer's bytes, without copying them (megabyte messages). */
function view(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

function sealParts(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array, prefix: Uint8Array[]): Uint8Array {
  const cipher = createCipheriv("chacha20-poly1305", subkey(key, nonce), chachaNonce(nonce), { authTagLength: 16 });
  return view(Buffer.concat([...prefix, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]));
}
