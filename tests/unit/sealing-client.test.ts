import { describe, expect, it } from "vitest";
import type { TinfoilAttestation } from "@/lib/shared/contracts";
import { encodeBase64, portablePrimitives } from "@/lib/shared/sealing";
import { fetchEnclaveKey, startPrivate, tinfoilVerifier, type AttestationVerifier } from "@/lib/client/sealing/client";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";

const enclavePrivate = portablePrimitives.randomBytes(32);
const enclavePublic = portablePrimitives.publicKey(enclavePrivate);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

const attestation: TinfoilAttestation = {
  provider: "tinfoil",
  configRepo: "example/enclave",
  bundle: {
    domain: "enclave.example.com",
    enclaveAttestationReport: { format: "https://tinfoil.sh/predicate/sev-snp-guest/v2", body: "AAAA" },
    digest: "00".repeat(32),
    sigstoreBundle: {},
    vcek: "AAAA",
    enclaveCert: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
  },
};

/** A gateway that serves `body` on GET /api/enclave-key. */
function serving(body: unknown, status = 200): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    expect(String(input)).toBe("http://gateway.test/api/enclave-key");
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
}

async function refusal(promise: Promise<unknown>): Promise<PrivateModeError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PrivateModeError);
  return err as PrivateModeError;
}

describe("the client's enclave key check", () => {
  const gateway = "http://gateway.test";
  const key = encodeBase64(enclavePublic);
  /** The client's own trust anchor (sealing-client-trust.test.ts attacks it). */
  const trust = { repo: "example/enclave" };

  it("returns an unattested key as such, and refuses it when the client trusts an enclave repository", async () => {
    expect(await fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key, attested: false, attestation: null }) })).toEqual({ publicKey: key, attested: false });
    const err = await refusal(fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key }) }, { trust, requireAttestation: true }));
    expect(err.code).toBe("not_attested");
  });

  it("does not take the server's word: `attested: true` without material is still unattested", async () => {
    expect(await fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key, attested: true }) })).toEqual({ publicKey: key, attested: false });
    const err = await refusal(fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key, attested: true }) }, { trust }));
    expect(err.code).toBe("not_attested");
  });

  it("accepts attestation that verifies and binds the served key", async () => {
    const verify: AttestationVerifier = async (material, anchor) => {
      expect(material).toEqual({ provider: "tinfoil", bundle: attestation.bundle });
      expect(anchor).toEqual(trust);
      return { hpkePublicKey: hex(enclavePublic).toUpperCase() };
    };
    const info = await fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key, attested: true, attestation }) }, { trust, requireAttestation: true, verify });
    expect(info).toEqual({ publicKey: key, attested: true, repo: "example/enclave" });
  });

  it("refuses attestation that binds another key, or that does not verify, required or not", async () => {
    const other: AttestationVerifier = async () => ({ hpkePublicKey: hex(portablePrimitives.publicKey(portablePrimitives.randomBytes(32))) });
    const mismatch = await refusal(fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key, attestation }) }, { trust, verify: other }));
    expect(mismatch.code).toBe("attestation_mismatch");
    const broken: AttestationVerifier = async () => {
      throw new Error("VCEK chain invalid");
    };
    const failed = await refusal(fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key, attestation }) }, { trust, verify: broken }));
    expect(failed.code).toBe("attestation_failed");
    expect(failed.message).toContain("VCEK chain invalid");
  });

  it("runs Tinfoil's real verifier on served material, and refuses material it rejects", async () => {
    const failed = await refusal(fetchEnclaveKey({ gateway, fetch: serving({ hpke_public_key: key, attestation }) }, { trust, verify: tinfoilVerifier }));
    expect(failed.code).toBe("attestation_failed");
  });

  it("says the enclave key is unavailable when the gateway cannot give it", async () => {
    const err = await refusal(fetchEnclaveKey({ gateway, fetch: serving({ error: "boom" }, 500) }));
    expect(err.code).toBe("enclave_key_unavailable");
  });
});

describe("a request sealed to a rotated enclave key", () => {
  it("is reported as key_rotated when the enclave cannot open it and the served key has changed", async () => {
    const oldKey = encodeBase64(enclavePublic);
    const newKey = encodeBase64(portablePrimitives.publicKey(portablePrimitives.randomBytes(32)));
    const fetchImpl = serving({ hpke_public_key: newKey });
    const payFetch = (async () =>
      new Response(JSON.stringify({ error: "The envelope could not be opened", reason: "decryption_failed" }), { status: 400 })) as unknown as typeof fetch;
    const err = await refusal(startPrivate("chat", { gateway: "http://gateway.test", fetch: fetchImpl, payFetch, enclave: { publicKey: oldKey, attested: false }, plaintext: { message: "q" } }));
    expect(err.code).toBe("key_rotated");
    // The same 400 with the key unchanged is a plain refusal (tampered, not rotated).
    const same = await refusal(startPrivate("chat", { gateway: "http://gateway.test", fetch: serving({ hpke_public_key: oldKey }), payFetch, enclave: { publicKey: oldKey, attested: false }, plaintext: { message: "q" } }));
    expect(same.code).toBe("request_refused");
    // The gateway's error body travels as a field, for the page to word by its reason.
    expect(same.response).toEqual({ error: "The envelope could not be opened", reason: "decryption_failed" });
  });
});
