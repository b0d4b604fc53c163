import { SealingError } from "@/lib/shared/sealing/errors";

export const REQUEST_INFO = "chat-private-request-v1";
export const RESPONSE_INFO = "chat-private-response-v1";
export const KEY_BYTES = 32;
export const NONCE_BYTES = 24;
export const TAG_BYTES = 16;
/** The DER prefix of a PKCS#8 X25519 private key; the raw 32 bytes follow it (RFC 8410). */
export const PKCS8_X25519_PREFIX = new Uint8Array([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20]);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Node's Buffer when present (the server: native and fast on megabyte envelopes); otherwise the
// browser's atob/btoa. Both only after the strict check above, so both accept exactly one spelling.
const NodeBuffer: typeof Buffer | undefined = globalThis.Buffer;

/** Standard base64 with padding, decoded strictly (browser and Node alike). Throws SealingError invalid_base64. */
export function decodeBase64(value: string, what: string): Uint8Array {
  if (typeof value !== "string" || value.length === 0 || !BASE64.test(value)) {
    throw new SealingError("invalid_base64", `${what} is not standard base64`);
  }
  if (NodeBuffer) return new Uint8Array(NodeBuffer.from(value, "base64"));
  const binary = atob(value);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function encodeBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A 32-byte X25519 key from base64. Throws SealingError invalid_base64 or invalid_key_length. */
export function decodeKey(value: string, what: string): Uint8Array {
  const key = decodeBase64(value, what);
  if (key.length !== KEY_BYTES) throw new SealingError("invalid_key_length", `${what} must be ${KEY_BYTES} bytes, got ${key.length}`);
  return key;
}

export const utf8 = { encode: (s: string) => new TextEncoder().encode(s), decode: (b: Uint8Array) => new TextDecoder("utf-8", { fatal: true }).decode(b) };
