import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLibraryFile } from "@/agent/library/import";
import { chatResultSchema } from "@/lib/contracts";
import { createRecoveryKey, openResponse, portablePrimitives, sealRequest, type SealedResponse } from "@/lib/sealing";
import { agentRequest, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { startReplayServer, type ReplayServer } from "../support/replay-server";

const LIBRARY = path.resolve(import.meta.dirname, "../fixtures/library/records.jsonl");
// A phrase that must never appear in the database: it exists only inside sealed envelopes.
const MARKER = "my-secret-diagnosis-zebrafish-17";

describe("private chat in the enclave", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  let outside: ReplayServer;
  const kekDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-private-"));

  beforeAll(async () => {
    database = await createTestDatabase();
    // Everything outside the enclave (PubMed, Europe PMC, the public LLM) points here; private
    // requests must not reach it.
    outside = await startReplayServer([]);
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      LITERATURE_SOURCES: "pubmed,europepmc,local",
      PUBMED_BASE_URL: outside.url,
      EUROPEPMC_BASE_URL: outside.url,
      LLM_BASE_URL: outside.url,
      ENCLAVE_KEK_FILE: path.join(kekDir, "enclave.kek"),
      PRIVATE_CHAT_WAIT_MS: "15000",
    });
    await importLibraryFile({ db: agent.pool, file: LIBRARY });
  });
  afterAll(async () => {
    await agent?.stop();
    await outside?.close();
    await database?.drop();
    fs.rmSync(kekDir, { recursive: true, force: true });
  });

  async function enclavePublicKey(): Promise<string> {
    const body = (await (await agentRequest(agent.app, "/api/enclave-key", { key: null })).json()) as { hpke_public_key: string };
    return body.hpke_public_key;
  }

  async function ask(plaintext: unknown) {
    const sealed = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext });
    const response = await agentRequest(agent.app, "/api/private/chat", { body: sealed.envelope });
    return { response, sealed };
  }

  it("answers a sealed question from the local library, sealed back to the caller, with no outbound call", async () => {
    const { response, sealed } = await ask({ message: `Does rapamycin extend lifespan in mice? ${MARKER}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as SealedResponse & { requestId: string };
    expect(Object.keys(body).sort()).toEqual(["hpke_response_ciphertext", "hpke_response_ephemeral_key", "requestId"]);
    const result = chatResultSchema.parse(openResponse({ ephemeralPrivateKey: sealed.ephemeralPrivateKey, response: body }));
    expect(result.references.length).toBeGreaterThan(0);
    expect(result.references.some((r) => /rapamycin/i.test(r.title ?? ""))).toBe(true);
    expect(outside.requests).toEqual([]);

    // The polling route gives the same sealed answer; the job row holds only ciphertext.
    const polled = (await (await agentRequest(agent.app, `/api/private/chat/status/${body.requestId}`)).json()) as Record<string, unknown>;
    expect(polled).toMatchObject({ status: "completed", hpke_response_ciphertext: body.hpke_response_ciphertext });
    const { rows } = await agent.pool.query("SELECT input::text AS input, result::text AS result FROM agent.jobs WHERE id = $1", [body.requestId]);
    expect(rows[0].input + rows[0].result).not.toMatch(/rapamycin|zebrafish/i);
  });

  it("keeps a recovery-key conversation encrypted at rest and continues it", async () => {
    const recoveryKey = createRecoveryKey(portablePrimitives);
    const first = await ask({ message: `Metformin and frailty in older adults ${MARKER}`, recoveryKey });
    expect(first.response.status).toBe(200);
    const second = await ask({ message: "What about senolytics such as dasatinib plus quercetin?", recoveryKey });
    expect(second.response.status).toBe(200);
    const firstAnswer = chatResultSchema.parse(openResponse({ ephemeralPrivateKey: first.sealed.ephemeralPrivateKey, response: await first.response.json() }));
    const secondAnswer = chatResultSchema.parse(openResponse({ ephemeralPrivateKey: second.sealed.ephemeralPrivateKey, response: await second.response.json() }));
    expect(secondAnswer.conversationId).toBe(firstAnswer.conversationId);

    const { rows } = await agent.pool.query("SELECT lookup_id, sealed FROM agent.private_conversations");
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toMatch(/metformin|zebrafish|senolytic/i);
    expect(JSON.stringify(rows)).not.toContain(recoveryKey);
    expect(outside.requests).toEqual([]);
  });

  it("refuses an envelope it cannot open with a 400 naming why, and queues nothing", async () => {
    const { count: before } = (await agent.pool.query("SELECT count(*)::int AS count FROM agent.jobs")).rows[0];
    const sealed = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext: { message: "tampered" } });
    const bytes = Buffer.from(sealed.envelope.hpke_ciphertext, "base64");
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    const tampered = await agentRequest(agent.app, "/api/private/chat", { body: { ...sealed.envelope, hpke_ciphertext: bytes.toString("base64") } });
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ reason: "decryption_failed" });

    const malformed = await agentRequest(agent.app, "/api/private/chat", { body: { hpke_ciphertext: "x" } });
    expect(malformed.status).toBe(400);
    expect((await agentRequest(agent.app, "/api/private/chat", { body: sealed.envelope, key: null })).status).toBe(401);
    const { count: after } = (await agent.pool.query("SELECT count(*)::int AS count FROM agent.jobs")).rows[0];
    expect(after).toBe(before);
  });

  it("fails a sealed request whose plaintext is not a chat request without echoing it", async () => {
    const { response } = await ask({ question: MARKER });
    const { requestId } = (await response.json()) as { requestId?: string };
    const polled = (await (await agentRequest(agent.app, `/api/private/chat/status/${requestId}`)).json()) as { status: string; error: string };
    expect(polled.status).toBe("failed");
    expect(polled.error).not.toContain(MARKER);
    expect((await agentRequest(agent.app, "/api/private/chat/status/00000000-0000-0000-0000-000000000000")).status).toBe(404);
  });
});
