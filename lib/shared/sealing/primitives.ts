/**
 * The three primitives of the scheme, behind one interface so the browser-safe @noble path and
 * Node's native path can both serve (and be cross-checked byte for byte).
 */
export type SealingPrimitives = {
  name: string;
  /** X25519 public key of a 32-byte private key. */
  publicKey(privateKey: Uint8Array): Uint8Array;
  /** X25519 shared secret (all zeros for a low-order public key: callers refuse it). */
  sharedSecret(privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
  /** HKDF-SHA256 to 32 bytes. */
  hkdf(ikm: Uint8Array, salt: Uint8Array, info: string): Uint8Array;
  /** XChaCha20-Poly1305 without associated data: ciphertext || tag. */
  seal(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Uint8Array;
  /** Optional: nonce || ciphertext || tag in one buffer (saves a copy of a large message). */
  sealPrefixed?(key: Uint8Array, nonce: Uint8Array, plaintext: Uint8Array): Uint8Array;
  /** Throws when the tag does not verify. */
  open(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array): Uint8Array;
  randomBytes(n: number): Uint8Array;
};
