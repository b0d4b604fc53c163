import { createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, diffieHellman, hkdfSync, randomBytes } from "node:crypto";
import { hchacha } from "@noble/ciphers/chacha.js";
import type { SealingPrimitives } from "./primitives";

/**
 * The fast server path: X25519 and HKDF from node:crypto, and XChaCha20-Poly1305 built the
 * standard way from an HChaCha20 subkey (computed with @noble's hchacha) and Node's native
 * ChaCha20-Poly1305 with the nonce's last 8 bytes behind 4 zero bytes.
 */
const PKCS8_X25519 = Buffer.from("302e020100300506032b656e04220420", "hex");
const SPKI_X25519 = Buffer.from("302a300506032b656e032100", "hex");
const SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);

function privateKeyObject(raw: Uint8Array) {
  return createPrivateKey({ key: Buffer.concat([PKCS8_X25519, raw]), format: "der", type: "pkcs8" });
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
    const der = createPublicKey(privateKeyObject(privateKey)).export({ format: "der", type: "spki" });
    return new Uint8Array(der.subarray(der.length - 32));
  },
  sharedSecret: (privateKey, publicKey) => {
    try {
      const pub = createPublicKey({ key: Buffer.concat([SPKI_X25519, publicKey]), format: "der", type: "spki" });
      return new Uint8Array(diffieHellman({ privateKey: privateKeyObject(privateKey), publicKey: pub }));
    } catch {
      // OpenSSL refuses an all-zero result (a low-order point): report it as such.
      return new Uint8Array(32);
    }
  },
  hkdf: (ikm, salt, info) => new Uint8Array(hkdfSync("sha256", ikm, salt, info, 32)),
  seal: (key, nonce, plaintext) => {
    const cipher = createCipheriv("chacha20-poly1305", subkey(key, nonce), chachaNonce(nonce), { authTagLength: 16 });
    return new Uint8Array(Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]));
  },
  open: (key, nonce, sealed) => {
    if (sealed.length < 16) throw new Error("too short");
    const decipher = createDecipheriv("chacha20-poly1305", subkey(key, nonce), chachaNonce(nonce), { authTagLength: 16 });
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]));
  },
  randomBytes: (n) => new Uint8Array(randomBytes(n)),
};
