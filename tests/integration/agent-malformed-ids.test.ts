import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayingFetch } from "@/lib/client/payments/client";
import { createRecoveryKey, portablePrimitives, sealRequest } from "@/lib/shared/sealing";
import { agentRequest, seedLibrary, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { routeFetch } from "../support/routes";

/**
 * Ids reach Postgres uuid columns; one that is not a UUID must be the client's mistake (400 for a
 * body field, 404 for a path: no such id), never the database's error as a 500 (502 at the
 * gateway). The 36 dashes pass a loose `[0-9a-f-]{36}` test; NUL is refused by Postgres in text.
 */
const MALFORMED = ["not-a-uuid", "-".repeat(36), "0123456789abcdef0123456789abcdef0123", "%00"];

describe("a malformed id at the agent and the gateway: 400 or 404, never 500", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  const kekDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-ids-"));

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", ENCLAVE_KEK_FILE: path.join(kekDir, "enclave.kek") });
    await seedLibrary(agent.pool);
  });
  afterAll(async () => {
    await agent?.stop();
    await database?.drop();
    fs.rmSync(kekDir, { recursive: true, force: true });
  });

  it.each(MALFORMED)("answers 404 for the path id %j on every agent route that looks one up", async (id) => {
    const routes: { path: string; method: "GET" | "POST" }[] = [
      { path: `/api/deep-research/${id}`, method: "GET" },
      { path: `/api/deep-research/${id}/cancel`, method: "POST" },
      { path: `/api/chat/status/${id}`, method: "GET" },
      { path: `/api/chat/cancel/${id}`, method: "POST" },
      { path: `/api/literature/jobs/${id}`, method: "GET" },
      { path: `/api/literature/jobs/${id}/cancel`, method: "POST" },
      { path: `/api/private/chat/status/${id}`, method: "GET" },
      { path: `/api/private/literature/status/${id}`, method: "GET" },
      { path: `/api/private/deep-research/${id}`, method: "GET" },
      { path: `/api/library/records/${id}`, method: "GET" },
    ];
    for (const route of routes) {
      const response = await agentRequest(agent.app, route.path, { method: route.method });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({ route: `${route.method} ${route.path}`, status: 404 });
    }
    // The sealed poll is opened first, so the id is looked up only with a valid envelope.
    const { hpke_public_key } = (await (await agentRequest(agent.app, "/api/enclave-key", { key: null })).json()) as { hpke_public_key: string };
    const poll = await sealRequest({ enclavePublicKey: hpke_public_key, plaintext: { recoveryKey: createRecoveryKey(portablePrimitives) } });
    expect((await agentRequest(agent.app, `/api/private/deep-research/status/${id}`, { body: poll.envelope })).status).toBe(404);
  });

  it("answers 400 naming the field for a non-UUID conversationId in a deep-research start or a chat body", async () => {
    for (const conversationId of MALFORMED) {
      const dr = await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "telomeres", conversationId } });
      expect(dr.status).toBe(400);
      expect(await dr.json()).toMatchObject({ reason: "invalid_body", error: expect.stringContaining("conversationId") });
      const chat = await agentRequest(agent.app, "/api/chat", { body: { message: "telomeres", conversationId } });
      expect(chat.status).toBe(400);
      expect(await chat.json()).toMatchObject({ reason: "invalid_body", error: expect.stringContaining("conversationId") });
    }
  });

  it("the gateway refuses a non-UUID conversationId with 400 before taking payment, and relays the agent's 404 for a malformed path id", async () => {
    const payTo = freshAddress();
    const restore = await configureGateway({
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
      PUBLIC_URL: "https://gateway.test",
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
    });
    try {
      const { fetch: pay } = createPayingFetch({ privateKey: wallet(30).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const started = await pay("https://gateway.test/api/deep-research/start", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "telomeres", conversationId: "-".repeat(36) }),
      });
      expect(started.status).toBe(400);
      expect(await started.json()).toMatchObject({ error: expect.stringContaining("conversationId") });
      expect(await usdcBalance(payTo)).toBe(0n);

      for (const id of MALFORMED) {
        const polled = await routeFetch(`https://gateway.test/api/deep-research/${id}`);
        expect({ id, status: polled.status }).toEqual({ id, status: 404 });
      }
    } finally {
      await restore();
    }
  });
});
