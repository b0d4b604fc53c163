import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeBase64, encodeBase64, portablePrimitives, REQUEST_INFO, RESPONSE_INFO, SealingError, type SealingPrimitives } from "@/lib/shared/sealing";
import { nativePrimitives } from "@/lib/shared/sealing/native";
import * as scheme from "@/lib/shared/sealing/scheme";
import { openResponseFast, sealRequestFast, webCryptoX25519 } from "@/lib/shared/sealing/webcrypto";

const vectors = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../lib/shared/sealing/vectors.json"), "utf8"));
const b = (s: string) => decodeBase64(s, "vector");
const implementations: [string, SealingPrimitives][] = [
  ["@noble (portable)", portablePrimitives],
  ["node:crypto (native)", nativePrimitives],
];

const answerKey = () => ({ ephemeralPrivateKey: b(vectors.clientEphemeralPrivateKey), requestSecret: b(vectors.requestSharedSecret) });

function failure(fn: () => unknown): SealingError {
  try {
    fn();
  } catch (err) {
    if (err instanceof SealingError) return err;
    throw err;
  }
  throw new Error("expected a SealingError");
}

describe.each(implementations)("sealing with %s", (_name, p) => {
  it("reproduces the request and response vectors of docs/sealing.md byte for byte", () => {
    expect(encodeBase64(p.publicKey(b(vectors.enclavePrivateKey)))).toBe(vectors.enclavePublicKey);
    const { envelope } = scheme.sealRequest(p, {
      enclavePublicKey: vectors.enclavePublicKey,
      plaintext: vectors.requestPlaintext,
      ephemeralPrivateKey: b(vectors.clientEphemeralPrivateKey),
      nonce: b(vectors.requestNonce),
    });
    expect(envelope).toEqual(vectors.envelope);
    const response = scheme.sealResponse(p, {
      clientPublicKey: vectors.envelope.hpke_ephemeral_public_key,
      requestSecret: b(vectors.requestSharedSecret),
      plaintext: vectors.responsePlaintext,
      responsePrivateKey: b(vectors.responseEphemeralPrivateKey),
      nonce: b(vectors.responseNonce),
    });
    expect(response).toEqual(vectors.response);
  });

  it("reproduces the intermediate values of the vectors: both shared secrets and both keys", () => {
    const E = b(vectors.envelope.hpke_ephemeral_public_key);
    const R = b(vectors.response.hpke_response_ephemeral_key);
    const requestSecret = p.sharedSecret(b(vectors.clientEphemeralPrivateKey), b(vectors.enclavePublicKey));
    expect(encodeBase64(requestSecret)).toBe(vectors.requestSharedSecret);
    // The enclave reaches the same secret from its side.
    expect(encodeBase64(p.sharedSecret(b(vectors.enclavePrivateKey), E))).toBe(vectors.requestSharedSecret);
    expect(encodeBase64(p.hkdf(requestSecret, E, REQUEST_INFO))).toBe(vectors.requestKey);
    const responseSecret = p.sharedSecret(b(vectors.responseEphemeralPrivateKey), E);
    expect(encodeBase64(responseSecret)).toBe(vectors.responseSharedSecret);
    expect(encodeBase64(p.sharedSecret(b(vectors.clientEphemeralPrivateKey), R))).toBe(vectors.responseSharedSecret);
    // ikm = the response's agreement followed by the request's: 64 bytes.
    expect(encodeBase64(p.hkdf(new Uint8Array([...responseSecret, ...requestSecret]), R, RESPONSE_INFO))).toBe(vectors.responseKey);
  });

  it("opens the vectors: the enclave the request, the client the answer", () => {
    const opened = scheme.openRequest(p, { enclavePrivateKey: b(vectors.enclavePrivateKey), envelope: vectors.envelope });
    expect(opened.plaintext).toEqual(vectors.requestPlaintext);
    expect(opened.replyTo.clientPublicKey).toBe(vectors.envelope.hpke_ephemeral_public_key);
    expect(encodeBase64(opened.replyTo.requestSecret)).toBe(vectors.requestSharedSecret);
    expect(scheme.openResponse(p, { ...answerKey(), response: vectors.response })).toEqual(vectors.responsePlaintext);
  });

  it("refuses the vectors' forged answer: the same plaintext sealed the old way, from the envelope alone", () => {
    expect(failure(() => scheme.openResponse(p, { ...answerKey(), response: vectors.forgedResponse })).code).toBe("decryption_failed");
  });

  it("refuses an answer opened with another ephemeral key or another request's secret, and tampered bytes", () => {
    expect(failure(() => scheme.openResponse(p, { ...answerKey(), ephemeralPrivateKey: p.randomBytes(32), response: vectors.response })).code).toBe("decryption_failed");
    expect(failure(() => scheme.openResponse(p, { ...answerKey(), requestSecret: p.randomBytes(32), response: vectors.response })).code).toBe("decryption_failed");
    const bytes = b(vectors.envelope.hpke_ciphertext);
    for (const index of [0, 23, 24, bytes.length - 1]) {
      const tampered = Uint8Array.from(bytes);
      tampered[index]! ^= 1; // nonce, first ciphertext byte, tag
      const envelope = { ...vectors.envelope, hpke_ciphertext: encodeBase64(tampered) };
      expect(failure(() => scheme.openRequest(p, { enclavePrivateKey: b(vectors.enclavePrivateKey), envelope })).code).toBe("decryption_failed");
    }
    const otherKey = { ...vectors.envelope, hpke_ephemeral_public_key: encodeBase64(p.publicKey(p.randomBytes(32))) };
    expect(failure(() => scheme.openRequest(p, { enclavePrivateKey: b(vectors.enclavePrivateKey), envelope: otherKey })).code).toBe("decryption_failed");
  });

  it("names each malformed input", () => {
    const open = (envelope: Record<string, string>) => failure(() => scheme.openRequest(p, { enclavePrivateKey: b(vectors.enclavePrivateKey), envelope: envelope as never }));
    expect(open({ ...vectors.envelope, hpke_ciphertext: "not base64!" }).code).toBe("invalid_base64");
    expect(open({ ...vectors.envelope, hpke_ephemeral_public_key: encodeBase64(new Uint8Array(31)) }).code).toBe("invalid_key_length");
    expect(open({ ...vectors.envelope, hpke_ciphertext: encodeBase64(new Uint8Array(39)) }).code).toBe("ciphertext_too_short");
    // Low-order public keys (0 and 1, among others) give an all-zero shared secret: refused.
    for (const low of [new Uint8Array(32), Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0))]) {
      expect(open({ ...vectors.envelope, hpke_ephemeral_public_key: encodeBase64(low) }).code).toBe("low_order_key");
      expect(failure(() => scheme.sealRequest(p, { enclavePublicKey: encodeBase64(low), plaintext: {} })).code).toBe("low_order_key");
    }
  });
});

describe("the two implementations agree", () => {
  it("on 50 random round trips, each opening what the other sealed", () => {
    for (let i = 0; i < 50; i++) {
      const [sealer, opener] = i % 2 === 0 ? [portablePrimitives, nativePrimitives] : [nativePrimitives, portablePrimitives];
      const enclavePrivate = sealer.randomBytes(32);
      const plaintext = { message: `question ${i} ${"x".repeat(i * 37)}` };
      const sealed = scheme.sealRequest(sealer, { enclavePublicKey: encodeBase64(opener.publicKey(enclavePrivate)), plaintext });
      const opened = scheme.openRequest(opener, { enclavePrivateKey: enclavePrivate, envelope: sealed.envelope });
      expect(opened.plaintext).toEqual(plaintext);
      expect(encodeBase64(opened.replyTo.requestSecret)).toBe(encodeBase64(sealed.requestSecret));
      const response = scheme.sealResponse(opener, { ...opened.replyTo, plaintext: { answer: i } });
      expect(scheme.openResponse(sealer, { ...sealed, response })).toEqual({ answer: i });
    }
  });

  it("encode base64 exactly as Node does", () => {
    for (let n = 0; n < 40; n++) {
      const bytes = portablePrimitives.randomBytes(n);
      expect(encodeBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
      expect(Buffer.from(decodeBase64(Buffer.from(bytes).toString("base64") || "AA==", "x")).toString("base64")).toBe(Buffer.from(bytes).toString("base64") || "AA==");
    }
  });
});

describe("recovery keys", () => {
  it("are created in the one valid spelling the contract's schema accepts", async () => {
    const { recoveryKeySchema } = await import("@/lib/shared/contracts");
    const { createRecoveryKey, parseRecoveryKey } = await import("@/lib/shared/sealing/recovery");
    for (let i = 0; i < 50; i++) {
      const key = createRecoveryKey(portablePrimitives);
      expect(recoveryKeySchema.safeParse(key).success).toBe(true);
      expect(parseRecoveryKey(key)).toHaveLength(32);
    }
    expect(() => parseRecoveryKey("longevity_key_v1_short")).toThrow(SealingError);
  });

  it("derive a lookup id and a storage key that differ, agree across implementations, and encrypt at rest", async () => {
    const { createRecoveryKey, deriveRecoveryKeys, encryptAtRest, decryptAtRest } = await import("@/lib/shared/sealing/recovery");
    const key = createRecoveryKey(portablePrimitives);
    const a = deriveRecoveryKeys(portablePrimitives, key);
    const n = deriveRecoveryKeys(nativePrimitives, key);
    expect(a.lookupId).toBe(n.lookupId);
    expect(encodeBase64(a.storageKey)).toBe(encodeBase64(n.storageKey));
    expect(a.lookupId).not.toContain(Buffer.from(a.storageKey).toString("hex").slice(0, 16));
    expect(a.lookupId).toMatch(/^[0-9a-f]{64}$/);
    const stored = encryptAtRest(nativePrimitives, a.storageKey, { turns: ["a private question"] });
    expect(stored).not.toContain("private");
    expect(decryptAtRest(portablePrimitives, a.storageKey, stored)).toEqual({ turns: ["a private question"] });
    const other = deriveRecoveryKeys(portablePrimitives, createRecoveryKey(portablePrimitives));
    expect(() => decryptAtRest(portablePrimitives, other.storageKey, stored)).toThrow(SealingError);
  });
});

describe("the browser's WebCrypto path (lib/shared/sealing/webcrypto)", () => {
  it("is available here (Node has WebCrypto X25519), so the checks below exercise it", async () => {
    expect(await webCryptoX25519()).toBe(true);
  });

  it("reproduces the request vector and opens the response vector byte for byte", async () => {
    const sealed = await sealRequestFast({
      enclavePublicKey: vectors.enclavePublicKey,
      plaintext: vectors.requestPlaintext,
      ephemeralPrivateKey: b(vectors.clientEphemeralPrivateKey),
      nonce: b(vectors.requestNonce),
    });
    expect(sealed.path).toBe("webcrypto");
    expect(sealed.envelope).toEqual(vectors.envelope);
    expect(encodeBase64(sealed.requestSecret)).toBe(vectors.requestSharedSecret);
    expect(await openResponseFast({ ...answerKey(), response: vectors.response })).toEqual(vectors.responsePlaintext);
    await expect(openResponseFast({ ...answerKey(), response: vectors.forgedResponse })).rejects.toMatchObject({ code: "decryption_failed" });
  });

  it("round-trips with the server path, and refuses another key, a low-order key and tampering", async () => {
    const enclavePrivate = nativePrimitives.randomBytes(32);
    const sealed = await sealRequestFast({ enclavePublicKey: encodeBase64(nativePrimitives.publicKey(enclavePrivate)), plaintext: { message: "q" } });
    const opened = scheme.openRequest(nativePrimitives, { enclavePrivateKey: enclavePrivate, envelope: sealed.envelope });
    const response = scheme.sealResponse(nativePrimitives, { ...opened.replyTo, plaintext: { answer: "a" } });
    expect(await openResponseFast({ ...sealed, response })).toEqual({ answer: "a" });

    const rejects = async (promise: Promise<unknown>) => ((await promise.then(() => null, (e: unknown) => e)) as SealingError).code;
    expect(await rejects(openResponseFast({ ...sealed, ephemeralPrivateKey: nativePrimitives.randomBytes(32), response }))).toBe("decryption_failed");
    expect(await rejects(sealRequestFast({ enclavePublicKey: encodeBase64(new Uint8Array(32)), plaintext: {} }))).toBe("low_order_key");
    const bytes = b(response.hpke_response_ciphertext);
    bytes[bytes.length - 1]! ^= 1;
    expect(await rejects(openResponseFast({ ...sealed, response: { ...response, hpke_response_ciphertext: encodeBase64(bytes) } }))).toBe("decryption_failed");
  });
});
