import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as gatewayEnclaveKey } from "@/app/api/enclave-key/route";
import { loadEnclaveKey } from "@/agent/private/enclave-key";
import { enclaveKeyResponseSchema } from "@/lib/contracts";
import { forgetEnclaveKeyForTests } from "@/lib/private/enclave-key";
import { decodeBase64, encodeBase64, openRequest, sealRequest } from "@/lib/sealing";
import { agentRequest, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startHttpDouble } from "../support/http-double";

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
    forgetEnclaveKeyForTests();
    try {
      const first = await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(first.status).toBe(200);
      expect(enclaveKeyResponseSchema.parse(await first.json()).hpke_public_key).toBe(encodeBase64(new Uint8Array(32).fill(9)));
      await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(calls).toBe(1);
      await upstream.close();
      forgetEnclaveKeyForTests();
      const down = await gatewayEnclaveKey(new Request("http://gateway.test/api/enclave-key"));
      expect(down.status).toBe(500);
      expect(await down.json()).toMatchObject({ error: "The enclave key is unavailable" });
    } finally {
      await restore();
    }
  });
});
