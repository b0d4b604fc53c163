import { SealingError } from "./errors";

export const REQUEST_INFO = "chat-private-request-v1";
export const RESPONSE_INFO = "chat-private-response-v1";
export const KEY_BYTES = 32;
export const NONCE_BYTES = 24;
export const TAG_BYTES = 16;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 with padding, decoded strictly (browser and Node alike). Throws SealingError invalid_base64. */
export function decodeBase64(value: string, what: string): Uint8Array {
  if (typeof value !== "string" || value.length === 0 || !BASE64.test(value)) {
    throw new SealingError("invalid_base64", `${what} is not standard base64`);
  }
  const padding = value.endsWith("==") ? 2 : value.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((value.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < value.length; i += 4) {
    const n = [0, 1, 2, 3].map((j) => (value[i + j] === "=" ? 0 : ALPHABET.indexOf(value[i + j]!)));
    const triple = (n[0]! << 18) | (n[1]! << 12) | (n[2]! << 6) | n[3]!;
    if (o < out.length) out[o++] = (triple >> 16) & 255;
    if (o < out.length) out[o++] = (triple >> 8) & 255;
    if (o < out.length) out[o++] = triple & 255;
  }
  return out;
}

export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const triple = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET[(triple >> 18) & 63]! + ALPHABET[(triple >> 12) & 63]!;
    out += b === undefined ? "=" : ALPHABET[(triple >> 6) & 63]!;
    out += c === undefined ? "=" : ALPHABET[triple & 63]!;
  }
  return out;
}

/** A 32-byte X25519 key from base64. Throws SealingError invalid_base64 or invalid_key_length. */
export function decodeKey(value: string, what: string): Uint8Array {
  const key = decodeBase64(value, what);
  if (key.length !== KEY_BYTES) throw new SealingError("invalid_key_length", `${what} must be ${KEY_BYTES} bytes, got ${key.length}`);
  return key;
}

export const utf8 = { encode: (s: string) => new TextEncoder().encode(s), decode: (b: Uint8Array) => new TextDecoder("utf-8", { fatal: true }).decode(b) };
