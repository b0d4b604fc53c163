import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLibraryFile } from "@/agent/library/import";
import { createRecoveryKey, encodeBase64, openResponse, portablePrimitives, sealRequest, type SealedResponse } from "@/lib/shared/sealing";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { captureLogs } from "../support/logs";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { createPayingFetch } from "@/lib/client/payments/client";
import { chatResultSchema, encryptedChatAcceptedSchema, encryptedChatStatusSchema } from "@/lib/shared/contracts";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { routeFetch } from "../support/routes";
import { startHttpDouble } from "../support/http-double";
import { ended, pollFor } from "../support/until";

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
    const result = chatResultSchema.parse(openResponse({ ...sealed, response: body }));
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
    const firstAnswer = chatResultSchema.parse(openResponse({ ...first.sealed, response: await first.response.json() }));
    const secondAnswer = chatResultSchema.parse(openResponse({ ...second.sealed, response: await second.response.json() }));
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

  it("refuses an oversized envelope with 413 before opening it", async () => {
    const huge = { hpke_ciphertext: "A".repeat(1024 * 1024 + 4), hpke_ephemeral_public_key: "A".repeat(44) };
    expect((await agentRequest(agent.app, "/api/private/chat", { body: huge })).status).toBe(413);
  });

  it("refuses a sealed plaintext that is not a chat request with a 400 that does not echo it, and queues nothing", async () => {
    const { count: before } = (await agent.pool.query("SELECT count(*)::int AS count FROM agent.jobs")).rows[0];
    const { response } = await ask({ question: MARKER, message: 42 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; reason: string };
    expect(body.reason).toBe("invalid_plaintext");
    expect(body.error).toContain("message");
    expect(JSON.stringify(body)).not.toContain(MARKER);
    const { count: after } = (await agent.pool.query("SELECT count(*)::int AS count FROM agent.jobs")).rows[0];
    expect(after).toBe(before);
    expect((await agentRequest(agent.app, "/api/private/chat/status/00000000-0000-0000-0000-000000000000")).status).toBe(404);
  });

  it("writes nothing of a private question to the logs, whether it is answered or fails", async () => {
    const written = await captureLogs(async () => {
      expect((await ask({ message: `Rapamycin ${MARKER}` })).response.status).toBe(200);
      expect((await ask({ notAMessage: MARKER })).response.status).toBe(400);
      await agentRequest(agent.app, "/api/private/chat", { body: { hpke_ciphertext: MARKER, hpke_ephemeral_public_key: MARKER } });
    });
    expect(written).not.toContain(MARKER);
  });

  describe("through the gateway's paid POST /api/chat/encrypted", () => {
    const PUBLIC_URL = "https://gateway.test";
    const payTo = freshAddress();
    const pay = () => createPayingFetch({ privateKey: wallet(27).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch }).fetch;
    const gateway = (upstream: string) =>
      configureGateway({ POSTGRES_URL: database.url, UPSTREAM_API_URL: upstream, AGENT_SERVICE_KEY: TEST_SERVICE_KEY, PUBLIC_URL, RPC_URL: chain().rpcUrl, PAY_TO_ADDRESS: payTo });
    const post = (fetcher: typeof fetch, body: unknown) =>
      fetcher(`${PUBLIC_URL}/api/chat/encrypted`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    it("charges $0.02 for a sealed answer the gateway cannot read; a tampered envelope is a 400 and free", async () => {
      const restore = await gateway(agent.url);
      try {
        const before = await usdcBalance(payTo);
        const sealed = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext: { message: `Rapamycin and lifespan in mice ${MARKER}` } });
        expect((await post(routeFetch, sealed.envelope)).status).toBe(402); // no signature, whatever the body
        const paid = await post(pay(), sealed.envelope);
        expect(paid.status).toBe(200);
        expect(paid.headers.get("payment-response")).toBeTruthy();
        const result = chatResultSchema.parse(openResponse({ ...sealed, response: await paid.json() }));
        expect(result.references.length).toBeGreaterThan(0);
        expect((await usdcBalance(payTo)) - before).toBe(20_000n);
        // The gateway's ledger keeps the answer as it was sent: sealed.
        const ledger = await agent.pool.query("SELECT response_body::text AS response FROM gateway.payments");
        const stored = ledger.rows.map((r) => r.response).join(" ");
        expect(stored).toContain("hpke_response_ciphertext");
        expect(stored).not.toMatch(/rapamycin|zebrafish/i);

        const other = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext: { message: "tampered" } });
        const tampered = await post(pay(), { ...other.envelope, hpke_ephemeral_public_key: encodeBase64(new Uint8Array(32).fill(7)) });
        expect(tampered.status).toBe(400);
        expect(await tampered.json()).toMatchObject({ reason: "decryption_failed" });
        const malformed = await post(pay(), { hpke_ciphertext: other.envelope.hpke_ciphertext });
        expect(malformed.status).toBe(400);
        expect((await usdcBalance(payTo)) - before).toBe(20_000n);
      } finally {
        await restore();
      }
    });

    it("withdraws the enclave's job, and the sealed answer it already made, when the payment is refused", async () => {
      const restore = await gateway(agent.url);
      try {
        const unfunded = createPayingFetch({ privateKey: generatePrivateKey(), network: chain().network, asset: chain().asset, fetchImpl: routeFetch }).fetch;
        const sealed = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext: { message: "an unpaid question" } });
        const before = await agent.pool.query<{ count: string }>("SELECT count(*)::text AS count FROM agent.jobs WHERE kind = 'private_chat' AND status = 'cancelled'");
        const refused = await post(unfunded, sealed.envelope);
        expect(refused.status).toBe(402);
        expect(await refused.json()).toMatchObject({ reason: "insufficient_funds" });
        const { rows } = await agent.pool.query<{ status: string; result: unknown }>(
          "SELECT status, result FROM agent.jobs WHERE kind = 'private_chat' ORDER BY created_at DESC LIMIT 1",
        );
        expect(rows[0]).toEqual({ status: "cancelled", result: null });
        const after = await agent.pool.query<{ count: string }>("SELECT count(*)::text AS count FROM agent.jobs WHERE kind = 'private_chat' AND status = 'cancelled'");
        expect(Number(after.rows[0]!.count) - Number(before.rows[0]!.count)).toBe(1);
      } finally {
        await restore();
      }
    });

    it("answers every kind of tampering (ciphertext, nonce, tag, ephemeral key, a low-order key) with a 400 naming it, and charges nothing", async () => {
      const restore = await gateway(agent.url);
      try {
        const before = await usdcBalance(payTo);
        const sealed = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext: { message: "Rapamycin" } });
        const flip = (index: (length: number) => number) => {
          const bytes = Buffer.from(sealed.envelope.hpke_ciphertext, "base64");
          const i = index(bytes.length);
          bytes[i] = (bytes[i] ?? 0) ^ 0x80;
          return { ...sealed.envelope, hpke_ciphertext: bytes.toString("base64") };
        };
        const cases: [string, unknown, string][] = [
          ["nonce", flip(() => 3), "decryption_failed"],
          ["ciphertext", flip(() => 30), "decryption_failed"],
          ["tag", flip((n) => n - 5), "decryption_failed"],
          ["ephemeral key", { ...sealed.envelope, hpke_ephemeral_public_key: encodeBase64(portablePrimitives.publicKey(portablePrimitives.randomBytes(32))) }, "decryption_failed"],
          ["low-order key", { ...sealed.envelope, hpke_ephemeral_public_key: encodeBase64(new Uint8Array(32)) }, "low_order_key"],
          ["short ciphertext", { ...sealed.envelope, hpke_ciphertext: encodeBase64(new Uint8Array(39)) }, "ciphertext_too_short"],
          ["key length", { ...sealed.envelope, hpke_ephemeral_public_key: encodeBase64(new Uint8Array(31).fill(5)) }, "invalid_key_length"],
        ];
        for (const [what, envelope, reason] of cases) {
          const response = await post(pay(), envelope);
          expect(response.status, what).toBe(400);
          expect(await response.json(), what).toMatchObject({ reason });
        }
        expect(await usdcBalance(payTo)).toBe(before);
      } finally {
        await restore();
      }
    });

    it("answers 202 with an absolute pollUrl when the answer takes longer, and the free poll returns it sealed", async () => {
      const slow = await startTestAgent({
        POSTGRES_URL: database.url,
        LITERATURE_SOURCES: "local",
        ENCLAVE_KEK_FILE: path.join(kekDir, "enclave.kek"),
        PRIVATE_CHAT_WAIT_MS: "0",
      });
      const restore = await gateway(slow.url);
      try {
        const sealed = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext: { message: "Senolytics in pulmonary fibrosis" } });
        const accepted = await post(pay(), sealed.envelope);
        expect(accepted.status).toBe(202);
        const { requestId, pollUrl } = encryptedChatAcceptedSchema.parse(await accepted.json());
        expect(pollUrl).toBe(`${PUBLIC_URL}/api/chat/encrypted/status/${requestId}`);
        const status = await pollFor(
          async () => encryptedChatStatusSchema.parse(await (await routeFetch(pollUrl)).json()),
          ended,
          { what: "the sealed chat to finish" },
        );
        expect(status.status).toBe("completed");
        chatResultSchema.parse(openResponse({ ...sealed, response: status as SealedResponse }));
        expect((await routeFetch(`${PUBLIC_URL}/api/chat/encrypted/status/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
      } finally {
        await restore();
        await slow.stop();
      }
    });

    it("refuses an oversized envelope with 413, charging nothing, and takes the largest legitimate one", async () => {
      const restore = await gateway(agent.url);
      try {
        const before = await usdcBalance(payTo);
        const huge = { hpke_ciphertext: "A".repeat(2 * 1024 * 1024), hpke_ephemeral_public_key: "A".repeat(44) };
        expect((await post(pay(), huge)).status).toBe(413);
        expect(await usdcBalance(payTo)).toBe(before);
        // The largest legitimate request (five 100,000-character attachments) fits.
        const attachments = Array.from({ length: 5 }, (_, i) => ({ name: `notes-${i}.txt`, mediaType: "text/plain", text: "rapamycin mice ".repeat(6_666) }));
        const sealed = sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext: { message: "Summarise my notes", attachments } });
        expect(JSON.stringify(sealed.envelope).length).toBeGreaterThan(256 * 1024);
        expect((await post(pay(), sealed.envelope)).status).toBe(200);
      } finally {
        await restore();
      }
    });

    it("is 503 private_chat_unavailable before payment when the enclave cannot be reached", async () => {
      const restore = await gateway("http://127.0.0.1:9");
      try {
        const before = await usdcBalance(payTo);
        const response = await post(pay(), { hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" });
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({ error: "private_chat_unavailable", reason: "private_mode_not_ready" });
        expect(await usdcBalance(payTo)).toBe(before);
      } finally {
        await restore();
      }
      // Reachable but not ready (its enclave key cannot be unsealed): the same 503.
      const notReady = await startHttpDouble(() => ({ status: 200, body: { privateMode: "not_ready", privateLiterature: "enabled", attested: false } }));
      const restoreNotReady = await gateway(notReady.url);
      try {
        const response = await post(pay(), { hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" });
        expect(response.status).toBe(503);
        expect(await response.json()).toEqual({ error: "private_chat_unavailable", reason: "private_mode_not_ready" });
      } finally {
        await restoreNotReady();
        await notReady.close();
      }
    });
  });
});
