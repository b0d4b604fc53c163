import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptedDeepResearchAcceptedSchema, enclaveKeyResponseSchema } from "@/lib/shared/contracts";
import { createPayingFetch } from "@/lib/client/payments/client";
import { forgetEnclaveKey } from "@/lib/gateway/private/enclave-key";
import { createRecoveryKey, encodeBase64, portablePrimitives, sealRequest } from "@/lib/shared/sealing";
import { seedLibrary, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, wallet } from "../support/payments";
import { routeFetch } from "../support/routes";

const PUBLIC_URL = "https://gateway.test";

/**
 * Issue 12, point 4: the gateway's cache of the enclave key is dropped only on the enclave's word.
 * The gateway reaches the agent through a counting proxy, so every key fetch the gateway makes is
 * seen; the agent behind it can be swapped for one with another key (a real rotation).
 */
describe("the gateway's enclave-key cache", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const keyA = encodeBase64(portablePrimitives.randomBytes(32));
  const keyB = encodeBase64(portablePrimitives.randomBytes(32));
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  let proxy: { url: string; close: () => void };
  const keyFetches: string[] = [];
  let restore: () => Promise<void>;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_PRIVATE_KEY: keyA });
    // A library to research from: with none, deep research is refused before payment (honest reach).
    await seedLibrary(agent.pool);
    // Forwards to whichever agent is current; counts the key fetches.
    const server = serve({
      fetch: (request) => {
        const url = new URL(request.url);
        if (url.pathname === "/api/enclave-key") keyFetches.push(url.pathname);
        return agent.app.fetch(request);
      },
      port: 0,
      hostname: "127.0.0.1",
    });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    proxy = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
    restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: proxy.url,
      AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: freshAddress(),
    });
  });
  afterAll(async () => {
    await restore?.();
    proxy?.close();
    await agent?.stop();
    await database?.drop();
  });

  const servedKey = async () => {
    const response = await routeFetch(`${PUBLIC_URL}/api/enclave-key`);
    expect(response.status).toBe(200);
    return enclaveKeyResponseSchema.parse(await response.json()).hpke_public_key;
  };
  const poll = (messageId: string, envelope: unknown) =>
    routeFetch(`${PUBLIC_URL}/api/deep-research/encrypted/status/${messageId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(envelope),
    });

  /** One purchase: an encrypted deep-research run whose free status route the attacker then uses. */
  async function buyRun(enclavePublicKey: string): Promise<string> {
    const { fetch: payFetch } = createPayingFetch({ privateKey: wallet(76).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
    const start = sealRequest({ enclavePublicKey, plaintext: { message: "a run to poll", recoveryKey: createRecoveryKey(portablePrimitives) } });
    const accepted = await payFetch(`${PUBLIC_URL}/api/deep-research/encrypted`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(start.envelope),
    });
    expect(accepted.status).toBe(202);
    return encryptedDeepResearchAcceptedSchema.parse(await accepted.json()).messageId;
  }

  it("an anonymous client cannot make the gateway drop its cached key with undecryptable polls (no extra key fetch, the 400 keeps its shape)", async () => {
    forgetEnclaveKey();
    const current = await servedKey();
    const messageId = await buyRun(current);
    const fetchesBefore = keyFetches.length;

    const N = 10;
    for (let i = 0; i < N; i++) {
      // Sealed to the current key but tampered (a failed tag), or sealed to a key of the attacker's own.
      const sealed = sealRequest({ enclavePublicKey: i % 2 ? current : encodeBase64(portablePrimitives.publicKey(portablePrimitives.randomBytes(32))), plaintext: { recoveryKey: "x" } });
      const bytes = Buffer.from(sealed.envelope.hpke_ciphertext, "base64");
      if (i % 2) bytes[30] = (bytes[30] ?? 0) ^ 1;
      const response = await poll(messageId, { ...sealed.envelope, hpke_ciphertext: bytes.toString("base64") });
      expect(response.status).toBe(400);
      // The client-facing error is the contract's {error, reason, message} (message: what the
      // enclave expected, docs/sealing.md): the agent's report of its key travels on the
      // agent→gateway hop only, and the key did not change, so nothing says it did.
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ error: expect.any(String), reason: "decryption_failed", message: expect.stringContaining("GET /api/sealing") });
      expect(Object.keys(body).sort()).toEqual(["error", "message", "reason"]);
      expect(body.message).not.toMatch(/key changed/);
      expect([...response.headers.keys()].filter((h) => h.includes("enclave"))).toEqual([]);
      // Everyone else keeps getting the cached key.
      expect(await servedKey()).toBe(current);
    }
    expect(keyFetches.length - fetchesBefore).toBe(0);
  });

  it("a real rotation is picked up at once: the first envelope the new key cannot open replaces the cached key", async () => {
    forgetEnclaveKey();
    const old = await servedKey();
    const messageId = await buyRun(old);

    // The enclave restarts with another key; the gateway still has the old one cached.
    await agent.stop();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_PRIVATE_KEY: keyB });
    expect(await servedKey()).toBe(old);
    const fetchesBefore = keyFetches.length;

    // A client (or anyone) polls with an envelope sealed to the old key: the enclave says which key it holds.
    const stale = sealRequest({ enclavePublicKey: old, plaintext: { recoveryKey: createRecoveryKey(portablePrimitives) } });
    const response = await poll(messageId, stale.envelope);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ reason: "decryption_failed" });
    const rotated = await servedKey();
    expect(rotated).not.toBe(old);
    expect(rotated).toBe(encodeBase64(portablePrimitives.publicKey(Buffer.from(keyB, "base64"))));
    expect(keyFetches.length - fetchesBefore).toBe(1);

    // After that, undecryptable envelopes change nothing again.
    for (let i = 0; i < 5; i++) expect((await poll(messageId, stale.envelope)).status).toBe(400);
    expect(await servedKey()).toBe(rotated);
    expect(keyFetches.length - fetchesBefore).toBe(1);
  });
});
