import { describe, expect, it } from "vitest";
import { decodeBase64, encodeBase64, portablePrimitives, SealingError, type SealingPrimitives } from "@/lib/shared/sealing";
import { NONCE_BYTES, RESPONSE_INFO, utf8 } from "@/lib/shared/sealing/codec";
import { nativePrimitives } from "@/lib/shared/sealing/native";
import * as scheme from "@/lib/shared/sealing/scheme";
import { openResponseFast, sealRequestFast } from "@/lib/shared/sealing/webcrypto";

/**
 * The attack of issue 12, point 1: whoever sees an envelope (the gateway, a CDN, a TLS terminator)
 * knows the client's ephemeral public key E. If the response key depended on X25519(r, E) alone,
 * that party could pick its own r and seal any answer the client would take for the enclave's.
 * Each forgery below is made from what crosses the wire only; every one must be refused.
 */
const implementations: [string, SealingPrimitives][] = [
  ["@noble (portable)", portablePrimitives],
  ["node:crypto (native)", nativePrimitives],
];

/** The response half as it was before: key from X25519(r, E) alone. What an intermediary can compute. */
function forgeOldWay(p: SealingPrimitives, clientPublicKey: string, plaintext: unknown) {
  const r = p.randomBytes(32);
  const R = p.publicKey(r);
  const key = p.hkdf(p.sharedSecret(r, decodeBase64(clientPublicKey, "E")), R, RESPONSE_INFO);
  const nonce = p.randomBytes(NONCE_BYTES);
  const sealed = p.seal(key, nonce, utf8.encode(JSON.stringify(plaintext)));
  const out = new Uint8Array(NONCE_BYTES + sealed.length);
  out.set(nonce);
  out.set(sealed, NONCE_BYTES);
  return { hpke_response_ciphertext: encodeBase64(out), hpke_response_ephemeral_key: encodeBase64(R) };
}

const forged = { answer: "Take ten times the dose [1].", references: [{ ordinal: 1, pmid: "19587680" }] };

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof SealingError) return err.code;
    throw err;
  }
  return "accepted";
}

describe.each(implementations)("an answer sealed without the enclave's secret (%s)", (_name, p) => {
  const enclavePrivate = p.randomBytes(32);
  const enclavePublicKey = encodeBase64(p.publicKey(enclavePrivate));

  it("is refused when sealed the old way, to the envelope's ephemeral key alone", () => {
    const sealed = scheme.sealRequest(p, { enclavePublicKey, plaintext: { message: "What dose?" } });
    const forgery = forgeOldWay(p, sealed.envelope.hpke_ephemeral_public_key, forged);
    expect(code(() => scheme.openResponse(p, { ...sealed, response: forgery }))).toBe("decryption_failed");
  });

  it("is refused when sealed the new way with a request secret the sealer made up", () => {
    const sealed = scheme.sealRequest(p, { enclavePublicKey, plaintext: { message: "What dose?" } });
    // The intermediary knows E but not X25519(enclave private, E): any stand-in it picks fails.
    for (const guess of [new Uint8Array(32).fill(7), p.randomBytes(32), p.sharedSecret(p.randomBytes(32), decodeBase64(sealed.envelope.hpke_ephemeral_public_key, "E"))]) {
      const forgery = scheme.sealResponse(p, { clientPublicKey: sealed.envelope.hpke_ephemeral_public_key, requestSecret: guess, plaintext: forged });
      expect(code(() => scheme.openResponse(p, { ...sealed, response: forgery }))).toBe("decryption_failed");
    }
  });

  it("is refused when it is a genuine answer to another request (replayed)", () => {
    const first = scheme.sealRequest(p, { enclavePublicKey, plaintext: { message: "first" } });
    const second = scheme.sealRequest(p, { enclavePublicKey, plaintext: { message: "second" } });
    const answerToFirst = scheme.sealResponse(p, { ...scheme.openRequest(p, { enclavePrivateKey: enclavePrivate, envelope: first.envelope }).replyTo, plaintext: forged });
    expect(code(() => scheme.openResponse(p, { ...second, response: answerToFirst }))).toBe("decryption_failed");
  });

  it("while the enclave's genuine answer still opens", () => {
    const sealed = scheme.sealRequest(p, { enclavePublicKey, plaintext: { message: "What dose?" } });
    const { replyTo } = scheme.openRequest(p, { enclavePrivateKey: enclavePrivate, envelope: sealed.envelope });
    const answer = scheme.sealResponse(p, { ...replyTo, plaintext: { answer: "genuine" } });
    expect(scheme.openResponse(p, { ...sealed, response: answer })).toEqual({ answer: "genuine" });
  });
});

describe("the browser's WebCrypto path", () => {
  it("refuses the old-way forgery and opens the genuine answer", async () => {
    const enclavePrivate = nativePrimitives.randomBytes(32);
    const sealed = await sealRequestFast({ enclavePublicKey: encodeBase64(nativePrimitives.publicKey(enclavePrivate)), plaintext: { message: "q" } });
    const forgery = forgeOldWay(nativePrimitives, sealed.envelope.hpke_ephemeral_public_key, forged);
    await expect(openResponseFast({ ...sealed, response: forgery })).rejects.toMatchObject({ code: "decryption_failed" });
    const { replyTo } = scheme.openRequest(nativePrimitives, { enclavePrivateKey: enclavePrivate, envelope: sealed.envelope });
    expect(await openResponseFast({ ...sealed, response: scheme.sealResponse(nativePrimitives, { ...replyTo, plaintext: { answer: "a" } }) })).toEqual({ answer: "a" });
  });
});
