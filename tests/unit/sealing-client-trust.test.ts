/**
 * Attacks on which enclave a client trusts (issue 12, point 2), from where the gateway stands: it
 * answers GET /api/enclave-key, so it chooses the attestation material and the `configRepo` label
 * served with it. The repository and measurement a client trusts are the client's own
 * configuration; these tests show the gateway cannot move them.
 *
 * Tinfoil's `Verifier` is replaced by a double that behaves like it: a bundle verifies only for the
 * repository whose signed release it is, and reports the measurement and the HPKE key it binds.
 * `tinfoilVerifier` (the glue the clients use) runs as in production on top of it.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { TinfoilAttestation } from "@/lib/shared/contracts";
import { encodeBase64, portablePrimitives } from "@/lib/shared/sealing";
import { fetchEnclaveKey, tinfoilVerifier, type AttestationVerifier } from "@/lib/client/sealing/client";
import { PrivateModeError } from "@/lib/client/sealing/private-mode-error";

const SEV = "https://tinfoil.sh/predicate/sev-snp-guest/v2";

/** Bundles the double accepts, by digest: the repository that signed the release, its measurement, the HPKE key it binds. */
const double = vi.hoisted(() => ({
  genuine: new Map<string, { repo: string; measurement: string; hpkePublicKey: string }>(),
  /** The `configRepo` of every Verifier constructed: the repository verification was against. */
  verifiedAgainst: [] as string[],
}));

vi.mock(import("@tinfoilsh/verifier"), async (importOriginal) => {
  const original = await importOriginal();
  class Verifier {
    private readonly configRepo: string;
    private document: { codeFingerprint: string; enclaveFingerprint: string } | undefined;
    constructor({ configRepo }: { configRepo: string }) {
      this.configRepo = configRepo;
      double.verifiedAgainst.push(configRepo);
    }
    async verifyBundle(bundle: { digest: string }) {
      const release = double.genuine.get(bundle.digest);
      if (!release) throw new original.AttestationError("the attestation report's signature does not verify");
      // Tinfoil checks the release's Sigstore provenance against the configured repository's workflow.
      if (release.repo !== this.configRepo) throw new original.AttestationError(`the release was not built by ${this.configRepo}`);
      this.document = { codeFingerprint: release.measurement, enclaveFingerprint: release.measurement };
      return { hpkePublicKey: release.hpkePublicKey, measurement: { type: SEV, registers: [release.measurement] } };
    }
    getVerificationDocument() {
      return this.document;
    }
  }
  return { ...original, Verifier } as unknown as typeof original;
});

const TRUSTED = "longevity-research/enclave";
const ATTACKER = "gateway-operator/logging-enclave";
const RELEASE_MEASUREMENT = "a1".repeat(48);
const OLD_MEASUREMENT = "b2".repeat(48);
const gateway = "http://gateway.test";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** A fresh enclave key and a bundle the double accepts for `repo` at `measurement`, binding that key. */
function genuineEnclave(repo: string, measurement: string): { key: string; bundle: TinfoilAttestation["bundle"] } {
  const publicKey = portablePrimitives.publicKey(portablePrimitives.randomBytes(32));
  const digest = hex(portablePrimitives.randomBytes(32));
  double.genuine.set(digest, { repo, measurement, hpkePublicKey: hex(publicKey) });
  return {
    key: encodeBase64(publicKey),
    bundle: {
      domain: "enclave.example.com",
      enclaveAttestationReport: { format: SEV, body: "AAAA" },
      digest,
      sigstoreBundle: {},
      vcek: "AAAA",
      enclaveCert: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
    },
  };
}

/** A gateway that serves `body` on GET /api/enclave-key, counting the calls. */
function serving(body: unknown): typeof fetch & { calls: number } {
  const impl = (async (input: RequestInfo | URL) => {
    impl.calls++;
    expect(String(input)).toBe(`${gateway}/api/enclave-key`);
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof fetch & { calls: number };
  impl.calls = 0;
  return impl;
}

async function refusal(promise: Promise<unknown>): Promise<PrivateModeError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PrivateModeError);
  return err as PrivateModeError;
}

beforeEach(() => {
  double.genuine.clear();
  double.verifiedAgainst.length = 0;
});

describe("the enclave a client trusts is its own configuration, never the gateway's answer", () => {
  it("a genuine attestation of another repository is refused (attestation_untrusted_repo), and never verified against that repository", async () => {
    const attacker = genuineEnclave(ATTACKER, RELEASE_MEASUREMENT);
    const served = serving({ hpke_public_key: attacker.key, attested: true, attestation: { provider: "tinfoil", configRepo: ATTACKER, bundle: attacker.bundle } });
    const err = await refusal(fetchEnclaveKey({ gateway, fetch: served }, { trust: { repo: TRUSTED } }));
    expect(err.code).toBe("attestation_untrusted_repo");
    expect(err.message).toContain(TRUSTED);
    expect(err.message).toContain(ATTACKER);
    expect(double.verifiedAgainst).not.toContain(ATTACKER);
  });

  it("another repository's genuine attestation served under the trusted repository's name is verified against the trusted repository, and fails", async () => {
    const attacker = genuineEnclave(ATTACKER, RELEASE_MEASUREMENT);
    const served = serving({ hpke_public_key: attacker.key, attestation: { provider: "tinfoil", configRepo: TRUSTED, bundle: attacker.bundle } });
    const err = await refusal(fetchEnclaveKey({ gateway, fetch: served }, { trust: { repo: TRUSTED } }));
    expect(err.code).toBe("attestation_failed");
    expect(double.verifiedAgainst).toEqual([TRUSTED]);
  });

  it("the right repository at a measurement the client does not expect is refused (attestation_unexpected_measurement)", async () => {
    // A genuine, signed, older (or debug) release of the trusted repository.
    const older = genuineEnclave(TRUSTED, OLD_MEASUREMENT);
    const served = serving({ hpke_public_key: older.key, attestation: { provider: "tinfoil", configRepo: TRUSTED, bundle: older.bundle } });
    const err = await refusal(fetchEnclaveKey({ gateway, fetch: served }, { trust: { repo: TRUSTED, measurement: RELEASE_MEASUREMENT } }));
    expect(err.code).toBe("attestation_unexpected_measurement");
    expect(err.message).toContain(OLD_MEASUREMENT);
    expect(err.message).toContain(RELEASE_MEASUREMENT);
  });

  it("the trusted repository at the expected measurement is accepted, and the key says what it was verified against", async () => {
    const enclave = genuineEnclave(TRUSTED, RELEASE_MEASUREMENT);
    const served = serving({ hpke_public_key: enclave.key, attestation: { provider: "tinfoil", configRepo: TRUSTED, bundle: enclave.bundle } });
    const info = await fetchEnclaveKey({ gateway, fetch: served }, { trust: { repo: TRUSTED, measurement: RELEASE_MEASUREMENT.toUpperCase() } });
    expect(info).toEqual({ publicKey: enclave.key, attested: true, repo: TRUSTED, measurement: RELEASE_MEASUREMENT });
    expect(double.verifiedAgainst).toEqual([TRUSTED]);
    // Without a pinned measurement, any signed release of the trusted repository is accepted.
    expect(await fetchEnclaveKey({ gateway, fetch: served }, { trust: { repo: TRUSTED } })).toMatchObject({ attested: true, repo: TRUSTED });
  });

  it("the verifier gets the client's repository and measurement, and never the configRepo the gateway served", async () => {
    const enclave = genuineEnclave(TRUSTED, RELEASE_MEASUREMENT);
    // The same repository spelled differently by the gateway (GitHub names ignore case): accepted, but verified against the client's spelling.
    const served = serving({ hpke_public_key: enclave.key, attestation: { provider: "tinfoil", configRepo: TRUSTED.toUpperCase(), bundle: enclave.bundle } });
    const seen: { material: unknown; trust: unknown }[] = [];
    const verify: AttestationVerifier = async (material, trust) => {
      seen.push({ material, trust });
      return { hpkePublicKey: double.genuine.get(enclave.bundle.digest)!.hpkePublicKey, measurement: RELEASE_MEASUREMENT };
    };
    await fetchEnclaveKey({ gateway, fetch: served }, { trust: { repo: TRUSTED, measurement: RELEASE_MEASUREMENT }, verify });
    expect(seen).toEqual([{ material: { provider: "tinfoil", bundle: enclave.bundle }, trust: { repo: TRUSTED, measurement: RELEASE_MEASUREMENT } }]);
    expect(JSON.stringify(seen)).not.toContain(TRUSTED.toUpperCase());
  });

  it("a client that trusts a repository refuses a key served without attestation: the gateway cannot strip it (not_attested)", async () => {
    const enclave = genuineEnclave(TRUSTED, RELEASE_MEASUREMENT);
    for (const body of [{ hpke_public_key: enclave.key }, { hpke_public_key: enclave.key, attested: true, attestation: null }]) {
      const err = await refusal(fetchEnclaveKey({ gateway, fetch: serving(body) }, { trust: { repo: TRUSTED } }));
      expect(err.code).toBe("not_attested");
      expect(err.message).toContain(TRUSTED);
    }
  });

  it("a client that requires attestation but trusts no repository is told to configure one (no_trusted_repo), before asking the gateway", async () => {
    const enclave = genuineEnclave(ATTACKER, RELEASE_MEASUREMENT);
    const served = serving({ hpke_public_key: enclave.key, attestation: { provider: "tinfoil", configRepo: ATTACKER, bundle: enclave.bundle } });
    const err = await refusal(fetchEnclaveKey({ gateway, fetch: served }, { requireAttestation: true }));
    expect(err.code).toBe("no_trusted_repo");
    expect(err.message).toMatch(/--enclave-repo|TRUSTED_ENCLAVE_REPO/);
    expect(served.calls).toBe(0);
    expect(double.verifiedAgainst).toEqual([]);
  });

  it("a client that trusts no repository and does not require attestation gets the key as unattested, material unverified and said so", async () => {
    const enclave = genuineEnclave(ATTACKER, RELEASE_MEASUREMENT);
    const served = serving({ hpke_public_key: enclave.key, attested: true, attestation: { provider: "tinfoil", configRepo: ATTACKER, bundle: enclave.bundle } });
    let called = false;
    const verify: AttestationVerifier = async () => {
      called = true;
      throw new Error("not to be called");
    };
    expect(await fetchEnclaveKey({ gateway, fetch: served }, { verify })).toEqual({ publicKey: enclave.key, attested: false, unverifiedAttestation: true });
    expect(called).toBe(false);
    expect(await fetchEnclaveKey({ gateway, fetch: served })).toMatchObject({ attested: false });
    expect(double.verifiedAgainst).toEqual([]);
  });
});

describe("tinfoilVerifier", () => {
  it("verifies the bundle against the repository it is given and reports the measurement", async () => {
    const enclave = genuineEnclave(TRUSTED, RELEASE_MEASUREMENT);
    const result = await tinfoilVerifier({ provider: "tinfoil", bundle: enclave.bundle }, { repo: TRUSTED });
    expect(result).toEqual({ hpkePublicKey: double.genuine.get(enclave.bundle.digest)!.hpkePublicKey, measurement: RELEASE_MEASUREMENT, releaseMeasurement: RELEASE_MEASUREMENT });
    expect(double.verifiedAgainst).toEqual([TRUSTED]);
    await expect(tinfoilVerifier({ provider: "tinfoil", bundle: enclave.bundle }, { repo: ATTACKER })).rejects.toThrow(/not built by/);
  });
});
