import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { x25519 } from "@noble/curves/ed25519.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { SealingPrimitives } from "@/lib/shared/sealing/primitives";

/** The portable path (@noble): runs in browsers and in Node, audited pure JavaScript. */
export const portablePrimitives: SealingPrimitives = {
  name: "noble",
  publicKey: (privateKey) => x25519.getPublicKey(privateKey),
  sharedSecret: (privateKey, publicKey) => {
    try {
      return x25519.getSharedSecret(privateKey, publicKey);
    } catch {
      // @noble refuses low-order points itself; report them as the all-zero secret they give.
      return new Uint8Array(32);
    }
  },
  hkdf: (ikm, salt, info) => hkdf(sha256, ikm, salt, new TextEncoder().encode(info), 32),
  seal: (key, nonce, plaintext) => xchacha20poly1305(key, nonce).encrypt(plaintext),
  open: (key, nonce, sealed) => xchacha20poly1305(key, nonce).decrypt(sealed),
  randomBytes: (n) => crypto.getRandomValues(new Uint8Array(n)),
};
