import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as gatewayEnclaveKey } from "@/app/api/enclave-key/route";
import { loadEnclaveKey } from "@/agent/private/enclave-key";
import { enclaveKeyResponseSchema } from "@/lib/contracts";
import { forgetEnclaveKey } from "@/lib/private/enclave-key";
import { loadAgentConfig } from "@/agent/config";
import { createPayingFetch } from "@/lib/payments/client";
import { decodeBase64, encodeBase64, openRequest, portablePrimitives, sealRequest } from "@/lib/sealing";
import { fetchEnclaveKey, PrivateModeError, startPrivate } from "@/lib/sealing/client";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble } from "../support/http-double";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { routeFetch } from "../support/routes";

describe("the enclave key", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const kekFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lra-kek-")), "enclave.kek");
  let agent: Awaited<ReturnType<typeof startTestAgent>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_KEK_FILE: kekFile });
  });
  afterAll(async () => {
    await agent?.stop();
    await database?.drop();
    fs.rmSync(path.dirname(kekFile), { recursive: true, force: true });
  });

  it("is served openly by the agent, generated once, sealed at rest under a key kept outside the database", async () => {
    const response = await agentRequest(agent.app, "/api/enclave-key", { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const body = (await response.json()) as { hpke_public_key: string; attested: boolean };
    expect(decodeBase64(body.hpke_public_key, "key")).toHaveLength(32);
    expect(body.attested).toBe(false);
    expect(fs.statSync(kekFile).mode & 0o777).toBe(0o600);

    // The stored row does not hold the private key in the clear, and reloading gives the same pair.
    const loaded = await loadEnclaveKey({ db: agent.pool, configured: undefined, kekFile });
    expect(loaded.publicKey).toBe(body.hpke_public_key);
    const { rows } = await agent.pool.query("SELECT sealed_private_key FROM agent.enclave_keys");
    expect(rows[0].sealed_private_key).not.toContain(encodeBase64(loaded.privateKey));

    // A request sealed to the served key opens with the enclave's private key.
    const { envelope } = sealRequest({ enclavePublicKey: body.hpke_public_key, plaintext: { message: "private" } });
    expect(openRequest({ enclavePrivateKey: loaded.privateKey, envelope }).plaintext).toEqual({ message: "private" });

    // Without its key-encryption key the database alone cannot give the key back.
    const otherKek = path.join(path.dirname(kekFile), "other.kek");
    await expect(loadEnclaveKey({ db: agent.pool, configured: undefined, kekFile: otherKek })).rejects.toThrow();
  });

  it("reports private-mode readiness to callers with a key", async () => {
    expect((await agentRequest(agent.app, "/api/private/status", { key: null })).status).toBe(401);
    expect(await (await agentRequest(agent.app, "/api/private/status")).json()).toEqual({
      privateMode: "ready",
      privateLiterature: "enabled",
      attested: false,
      localLibrary: true,
    });
  });

  it("is relayed by the gateway and cached for 60 seconds", async () => {
    let calls = 0;
    const upstream = await startHttpDouble(() => {
      calls++;
      return { status: 200, body: { hpke_public_key: encodeBase64(new Uint8Array(32).fill(9)), attested: false } };
    });
    const restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: upstream.url });
    forgetEnclaveKey();
    try {
      const first = await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(first.status).toBe(200);
      expect(enclaveKeyResponseSchema.parse(await first.json()).hpke_public_key).toBe(encodeBase64(new Uint8Array(32).fill(9)));
      await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(calls).toBe(1);
      await upstream.close();
      forgetEnclaveKey();
      const down = await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(down.status).toBe(500);
      expect(await down.json()).toMatchObject({ error: "The enclave key is unavailable" });
    } finally {
      await restore();
    }
  });

  it("serves attestation material when the agent runs in a confidential VM, relayed by the gateway; health says plainly whether it is attested", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-attest-"));
    const bundle = {
      domain: "enclave.example.com",
      enclaveAttestationReport: { format: "https://tinfoil.sh/predicate/sev-snp-guest/v2", body: "AAAA" },
      digest: "00".repeat(32),
      sigstoreBundle: {},
      vcek: "AAAA",
      enclaveCert: "-----BEGIN CERTIFICATE-----",
    };
    fs.writeFileSync(path.join(dir, "bundle.json"), JSON.stringify(bundle));
    const attested = await startTestAgent({
      POSTGRES_URL: database.url,
      LITERATURE_SOURCES: "local",
      ENCLAVE_KEK_FILE: kekFile,
      ENCLAVE_ATTESTATION_BUNDLE_FILE: path.join(dir, "bundle.json"),
      ENCLAVE_ATTESTATION_CONFIG_REPO: "example/enclave",
    });
    try {
      const served = await (await agentRequest(attested.app, "/api/enclave-key", { key: null })).json();
      expect(served).toMatchObject({ attested: true, attestation: { provider: "tinfoil", configRepo: "example/enclave", bundle } });
      expect(await (await agentRequest(attested.app, "/api/health", { key: null })).json()).toMatchObject({ privateMode: { status: "ready", attested: true } });

      const restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: attested.url });
      forgetEnclaveKey();
      try {
        expect(await (await routeFetch("http://gateway.test/api/enclave-key")).json()).toMatchObject({ attested: true, attestation: { bundle } });
      } finally {
        await restore();
      }
    } finally {
      await attested.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }

    // Locally (no attestation material) the agent and the gateway's health say so in words.
    const restore = await configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: agent.url });
    try {
      const health = (await (await routeFetch("http://gateway.test/api/health")).json()) as { privateMode: { attested: boolean; message: string; status: string } };
      expect(health.privateMode).toMatchObject({ status: "ready", attested: false });
      expect(health.privateMode.message).toMatch(/^Not attested/);
    } finally {
      await restore();
    }
    // A configuration that names a bundle it cannot read fails at start, naming the variable.
    expect(() => loadAgentConfig({ ENCLAVE_ATTESTATION_BUNDLE_FILE: "/nonexistent/bundle.json", ENCLAVE_ATTESTATION_CONFIG_REPO: "a/b" })).toThrow(/ENCLAVE_ATTESTATION_BUNDLE_FILE/);
  });

  it("gives a client that sealed to a rotated key a clear error, and charges nothing", async () => {
    const keyA = encodeBase64(portablePrimitives.randomBytes(32));
    const keyB = encodeBase64(portablePrimitives.randomBytes(32));
    const before = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_PRIVATE_KEY: keyA });
    const payTo = freshAddress();
    const gatewayEnv = { POSTGRES_URL: database.url, AGENT_SERVICE_KEY: TEST_SERVICE_KEY, PUBLIC_URL: "https://gateway.test", RPC_URL: chain().rpcUrl, PAY_TO_ADDRESS: payTo };
    let restore = await configureGateway({ ...gatewayEnv, UPSTREAM_API_URL: before.url });
    forgetEnclaveKey();
    const enclave = await fetchEnclaveKey({ gateway: "https://gateway.test", fetch: routeFetch });
    await restore();
    await before.stop();

    // The enclave restarts with a new key; the gateway still has the old one cached.
    const after = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_PRIVATE_KEY: keyB });
    restore = await configureGateway({ ...gatewayEnv, UPSTREAM_API_URL: after.url });
    try {
      const { fetch: payFetch } = createPayingFetch({ privateKey: wallet(39).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const err = await startPrivate("chat", { gateway: "https://gateway.test", fetch: routeFetch, payFetch, enclave, plaintext: { message: "q" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PrivateModeError);
      expect((err as PrivateModeError).code).toBe("key_rotated");
      expect(await usdcBalance(payTo)).toBe(0n);
      // Sealed again to the key now served, it goes through.
      const fresh = await fetchEnclaveKey({ gateway: "https://gateway.test", fetch: routeFetch });
      expect(fresh.publicKey).not.toBe(enclave.publicKey);
      const started = await startPrivate("chat", { gateway: "https://gateway.test", fetch: routeFetch, payFetch, enclave: fresh, plaintext: { message: "rapamycin" } });
      expect(started.response.status).toBeLessThan(300);
    } finally {
      await restore();
      await after.stop();
    }
  });
});
