import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLibraryFile } from "@/agent/library/import";
import { createOperatorKey } from "@/agent/premium/keys";
import { createPrivateRun, getPrivateRunStatus } from "@/agent/private/deep-research";
import { sweepPrivateJobs } from "@/agent/private/retention";
import {
  encryptedDeepResearchAcceptedSchema,
  encryptedDeepResearchStatusSchema,
  encryptedLiteratureAcceptedSchema,
  encryptedLiteratureStatusSchema,
  literatureJobResultSchema,
} from "@/lib/shared/contracts";
import { createPayingFetch } from "@/lib/client/payments/client";
import { createRecoveryKey, openResponse, portablePrimitives, sealRequest, SealingError, type SealedResponse } from "@/lib/shared/sealing";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { captureLogs } from "../support/logs";
import { configureGateway } from "../support/gateway";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { routeFetch } from "../support/routes";
import { ended, pollFor, until } from "../support/until";

const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);
const LIBRARY = path.resolve(import.meta.dirname, "../fixtures/library/records.jsonl");
const PUBLIC_URL = "https://gateway.test";
const CRON_SECRET = "cron-secret-for-tests-0123456789";

/** Every path a literature source may be asked: searches and lookups by identifier, nothing else. */
const SOURCE_ENDPOINTS = /^\/(pubmed\/(esearch|efetch)\.fcgi|europepmc\/search|ctgov\/studies|crossref\/works\/.+)$/;

describe("private literature search and private deep research", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sources: ReplayServer;
  let model: HttpDouble;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  const kekDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-private-"));
  const agentEnv = () => ({
    POSTGRES_URL: database.url,
    PUBMED_BASE_URL: `${sources.url}/pubmed`,
    EUROPEPMC_BASE_URL: `${sources.url}/europepmc`,
    CTGOV_BASE_URL: `${sources.url}/ctgov`,
    CROSSREF_BASE_URL: `${sources.url}/crossref`,
    LITERATURE_SOURCES: "pubmed,europepmc,clinicaltrials,crossref,local",
    // The ordinary model: private work must never call it.
    LLM_BASE_URL: model.url,
    DEEP_RESEARCH_ITERATIONS: "3",
    SOURCE_RATE_MULTIPLIER: "100",
    ENCLAVE_KEK_FILE: path.join(kekDir, "enclave.kek"),
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    sources = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
      { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json") },
      { path: /^\/ctgov\//, file: recorded("clinicaltrials-gov/biomcp_search_phelan_limit5_20260811.json") },
      { path: /^\/crossref\//, status: 404, body: { status: "error" } },
    ]);
    model = await startHttpDouble(() => ({ status: 500, body: { error: "the ordinary model must not be called" } }));
    agent = await startTestAgent(agentEnv());
    await importLibraryFile({ db: agent.pool, file: LIBRARY });
  });
  afterAll(async () => {
    await agent?.stop();
    await sources?.close();
    await model?.close();
    await database?.drop();
    fs.rmSync(kekDir, { recursive: true, force: true });
  });

  async function enclavePublicKey(): Promise<string> {
    const body = (await (await agentRequest(agent.app, "/api/enclave-key", { key: null })).json()) as { hpke_public_key: string };
    return body.hpke_public_key;
  }

  async function seal(plaintext: unknown) {
    return sealRequest({ enclavePublicKey: await enclavePublicKey(), plaintext });
  }

  describe("literature, in the agent", () => {
    it("searches with the question's queries only, keeps the answer sealed, and never calls the model", async () => {
      const recoveryKey = createRecoveryKey(portablePrimitives);
      const question = "Does rapamycin extend lifespan in mice?";
      const sealed = await seal({ question, maxResults: 5, recoveryKey });
      const before = sources.requests.length;
      const accepted = await agentRequest(agent.app, "/api/private/literature", { body: sealed.envelope });
      expect(accepted.status).toBe(202);
      const { requestId, status } = (await accepted.json()) as { requestId: string; status: string };
      expect(status).toBe("pending");

      const polled = encryptedLiteratureStatusSchema.parse(await (await agentRequest(agent.app, `/api/private/literature/status/${requestId}?timeout=20`)).json());
      expect(polled.status).toBe("completed");
      const result = literatureJobResultSchema.parse(openResponse({ ...sealed, response: polled as SealedResponse }));
      expect(result).toMatchObject({ jobId: requestId, status: "completed" });
      expect(result.references?.length).toBeGreaterThan(0);

      // What left the enclave: GET requests to the sources' search and lookup endpoints, nothing
      // that carries the recovery key, no request body, and no call to the model.
      const outbound = sources.requests.slice(before);
      expect(outbound.length).toBeGreaterThan(0);
      for (const request of outbound) {
        expect(request.method).toBe("GET");
        expect(request.path).toMatch(SOURCE_ENDPOINTS);
        expect(`${request.path}?${request.query.toString()}`).not.toContain(recoveryKey.slice(17));
      }
      expect(model.requests).toEqual([]);

      // The job row holds the envelope and the sealed answer: neither the question nor the titles.
      const { rows } = await agent.pool.query("SELECT input::text || result::text AS row FROM agent.jobs WHERE id = $1", [requestId]);
      expect(rows[0].row).not.toMatch(/rapamycin|lifespan/i);
    });

    it("waits up to `timeout` seconds for the answer, says `active` before, and 404s unknown or expired ids", async () => {
      // The source answers only when the test lets it: the job is certainly still running when
      // its status is first read, however slow the machine.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const slowSources = await startHttpDouble(async () => {
        await held;
        return { status: 404, body: {} };
      });
      const slow = await startTestAgent({ ...agentEnv(), PUBMED_BASE_URL: `${slowSources.url}/pubmed`, LITERATURE_SOURCES: "pubmed", PRIVATE_RESULT_RETENTION_SECONDS: "2" });
      try {
        const sealed = await seal({ question: "Metformin and frailty" });
        const { requestId } = (await (await agentRequest(slow.app, "/api/private/literature", { body: sealed.envelope })).json()) as { requestId: string };
        expect(await (await agentRequest(slow.app, `/api/private/literature/status/${requestId}`)).json()).toEqual({ status: "active" });
        const started = Date.now();
        const waiting = agentRequest(slow.app, `/api/private/literature/status/${requestId}?timeout=25`);
        release();
        const waited = encryptedLiteratureStatusSchema.parse(await (await waiting).json());
        expect(["completed", "failed"]).toContain(waited.status);
        expect(Date.now() - started).toBeLessThan(20_000);
        expect((await agentRequest(slow.app, `/api/private/literature/status/${requestId}?timeout=abc`)).status).toBe(400);

        const unknown = await agentRequest(slow.app, "/api/private/literature/status/00000000-0000-0000-0000-000000000000");
        expect(unknown.status).toBe(404);
        expect(await unknown.json()).toMatchObject({ status: "not_found", error: expect.any(String) });

        // Past its retention the answer is gone: 404, and the sweep deletes the row.
        await new Promise((r) => setTimeout(r, 2100));
        expect((await agentRequest(slow.app, `/api/private/literature/status/${requestId}`)).status).toBe(404);
        expect(await sweepPrivateJobs({ db: slow.pool, retentionSeconds: 2 })).toBeGreaterThan(0);
        expect((await slow.pool.query("SELECT 1 FROM agent.jobs WHERE id = $1", [requestId])).rowCount).toBe(0);
      } finally {
        release();
        await slow.stop();
        await slowSources.close();
      }
    });

    it("refuses when private literature is disabled, and refuses sealed plaintext that is no literature request", async () => {
      const off = await startTestAgent({ ...agentEnv(), PRIVATE_LITERATURE_ENABLED: "false" });
      try {
        const response = await agentRequest(off.app, "/api/private/literature", { body: (await seal({ question: "q" })).envelope });
        expect(response.status).toBe(403);
        expect(await response.json()).toMatchObject({ error: "private_literature_disabled" });
        expect(await (await agentRequest(off.app, "/api/private/status")).json()).toMatchObject({ privateLiterature: "disabled" });
      } finally {
        await off.stop();
      }
      const invalid = await agentRequest(agent.app, "/api/private/literature", { body: (await seal({ message: "not a literature request" })).envelope });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toMatchObject({ reason: "invalid_plaintext" });
    });
  });

  describe("deep research, in the agent", () => {
    async function pollRun(messageId: string, recoveryKey: string) {
      return pollFor(
        async () => {
          const poll = await seal({ recoveryKey, messageId });
          const response = await agentRequest(agent.app, `/api/private/deep-research/status/${messageId}`, { body: poll.envelope });
          expect(response.status).toBe(200);
          return { status: encryptedDeepResearchStatusSchema.parse(await response.json()), poll };
        },
        ({ status }) => ended(status),
        { what: "the private run to finish" },
      );
    }

    it("runs from a sealed start, keeps the run encrypted under the recovery key, and seals the result to each poll's key", async () => {
      const recoveryKey = createRecoveryKey(portablePrimitives);
      const start = await seal({ message: "leucocyte telomere length and mortality", recoveryKey });
      const accepted = await agentRequest(agent.app, "/api/private/deep-research", { body: start.envelope });
      expect(accepted.status).toBe(202);
      const { messageId } = (await accepted.json()) as { messageId: string };

      const { status, poll } = await pollRun(messageId, recoveryKey);
      expect(status.status).toBe("completed");
      const result = openResponse({ ...poll, response: status as SealedResponse }) as {
        reply: string;
        citations: unknown[];
        worldState: { objectives: string[]; findings: unknown[] };
      };
      expect(result.reply).toMatch(/\[1\]/);
      expect(result.citations.length).toBeGreaterThan(0);
      expect(result.worldState.objectives).toHaveLength(3);
      // Sealed to this poll's key: the start's key (or any other) cannot open it.
      expect(() => openResponse({ ...start, response: status as SealedResponse })).toThrow(SealingError);

      // Another recovery key learns nothing, not even that the run exists.
      const stranger = await seal({ recoveryKey: createRecoveryKey(portablePrimitives) });
      expect((await agentRequest(agent.app, `/api/private/deep-research/status/${messageId}`, { body: stranger.envelope })).status).toBe(404);
      // The gateway's status view: the status alone.
      expect(await (await agentRequest(agent.app, `/api/private/deep-research/${messageId}`)).json()).toEqual({ messageId, status: "completed" });

      const { rows } = await agent.pool.query("SELECT r::text AS row FROM agent.private_runs r WHERE message_id = $1", [messageId]);
      expect(rows[0].row).not.toMatch(/telomere|mortality/i);
      expect(rows[0].row).not.toContain(recoveryKey);
      expect(model.requests).toEqual([]);
    });

    it("plans and writes with the private model alone (PRIVATE_LLM_BASE_URL), never with the ordinary one", async () => {
      // An agent of its own (its own database, so no other agent's worker takes the job) whose
      // private model is a double; the ordinary model (LLM_BASE_URL) is the double that must stay silent.
      const own = await createTestDatabase();
      const privateModel = await startHttpDouble(({ body }) => {
        const system = (JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content;
        const content = system.startsWith("Task: plan")
          ? JSON.stringify({ objectives: [{ axis: "observational", query: "leucocyte telomere length mortality cohort" }] })
          : "Nothing to add."; // no citation: the audit drops it and the deterministic step stands
        return { status: 200, body: { choices: [{ message: { role: "assistant", content } }] } };
      });
      const enclave = await startTestAgent({ ...agentEnv(), POSTGRES_URL: own.url, PRIVATE_LLM_BASE_URL: privateModel.url, PRIVATE_LLM_MODEL: "attested-model" });
      try {
        await importLibraryFile({ db: enclave.pool, file: LIBRARY });
        const key = ((await (await agentRequest(enclave.app, "/api/enclave-key", { key: null })).json()) as { hpke_public_key: string }).hpke_public_key;
        const recoveryKey = createRecoveryKey(portablePrimitives);
        const start = sealRequest({ enclavePublicKey: key, plaintext: { message: "leucocyte telomere length and mortality", recoveryKey } });
        const { messageId } = (await (await agentRequest(enclave.app, "/api/private/deep-research", { body: start.envelope })).json()) as { messageId: string };
        const { status, poll } = await pollFor(
          async () => {
            const poll = sealRequest({ enclavePublicKey: key, plaintext: { recoveryKey } });
            return { status: encryptedDeepResearchStatusSchema.parse(await (await agentRequest(enclave.app, `/api/private/deep-research/status/${messageId}`, { body: poll.envelope })).json()), poll };
          },
          ({ status }) => ended(status),
          { what: "the private run to finish" },
        );
        if (status.status === "failed") throw new Error("the private run failed");
        const result = openResponse({ ...poll, response: status as SealedResponse }) as { reply: string; worldState: { objectives: string[]; runs?: { model?: Record<string, boolean> }[] } };
        expect(result.worldState.objectives[0]).toBe("leucocyte telomere length mortality cohort");
        expect(result.worldState.runs![0]!.model).toMatchObject({ plan: true });
        expect(result.reply).toMatch(/^Deep research: 3 iterations/);
        const prompts = privateModel.requests.map((r) => JSON.parse(r.body) as { model: string });
        expect(prompts.length).toBeGreaterThan(1);
        expect(prompts.every((p) => p.model === "attested-model")).toBe(true);
        expect(model.requests).toEqual([]);
      } finally {
        await enclave.stop();
        await privateModel.close();
        await own.drop();
      }
    });

    it("reads a run whose job died for good as failed, before and after the sweep deletes that job", async () => {
      const messageId = randomUUID();
      await createPrivateRun({ db: agent.pool, messageId, message: "q", recoveryKey: createRecoveryKey(portablePrimitives), owner: "service" });
      // The state failExhaustedJobs leaves when a worker crashed on every attempt.
      const jobId = randomUUID();
      await agent.pool.query(
        "INSERT INTO agent.jobs (id, kind, status, input, attempts, max_attempts, finished_at) VALUES ($1, 'private_deep_research', 'failed', $2, 3, 3, now() - interval '2 hours')",
        [jobId, JSON.stringify({ messageId })],
      );
      expect(await getPrivateRunStatus({ db: agent.pool, messageId, owner: "service" })).toBe("failed");
      // The agent's workers sweep too (every 10 s): whichever sweep came first, the job is gone.
      await sweepPrivateJobs({ db: agent.pool, retentionSeconds: 3600 });
      expect((await agent.pool.query("SELECT 1 FROM agent.jobs WHERE id = $1", [jobId])).rowCount).toBe(0);
      expect(await getPrivateRunStatus({ db: agent.pool, messageId, owner: "service" })).toBe("failed");
    });

    it("binds every sealed answer to its run: the start's receipt and the result name it, and a poll for one run sent to another's URL is unknown (404)", async () => {
      // Issue 24, item 9: a gateway that routes the poll of a client's new run to an older run of
      // the same recovery key must not get the older, genuine answer sealed to that poll.
      const recoveryKey = createRecoveryKey(portablePrimitives);
      const startRun = async (message: string) => {
        const start = await seal({ message, recoveryKey });
        const accepted = await agentRequest(agent.app, "/api/private/deep-research", { body: start.envelope });
        expect(accepted.status).toBe(202);
        const body = (await accepted.json()) as { messageId: string } & SealedResponse;
        // The receipt: {messageId, status} sealed to the start's key, so only this start's client learns its run.
        expect(openResponse({ ...start, response: body })).toEqual({ messageId: body.messageId, status: "queued" });
        return body.messageId;
      };
      const older = await startRun("leucocyte telomere length and mortality");
      const newer = await startRun("rapamycin and lifespan");
      const { status, poll } = await pollRun(older, recoveryKey);
      expect(status.status).toBe("completed");
      expect(openResponse({ ...poll, response: status as SealedResponse })).toMatchObject({ messageId: older });

      // The newer run's poll, routed to the older run's URL: unknown, nothing sealed.
      const routed = await agentRequest(agent.app, `/api/private/deep-research/status/${older}`, { body: (await seal({ recoveryKey, messageId: newer })).envelope });
      expect(routed.status).toBe(404);
      const refused = (await routed.json()) as Record<string, unknown>;
      expect(refused).toMatchObject({ reason: "not_found" });
      expect(refused.hpke_response_ciphertext).toBeUndefined();

      // A poll of the contract's first form ({recoveryKey} alone) is still answered by its URL, and
      // its sealed result names the run, so such a client can check it too.
      const legacy = await seal({ recoveryKey });
      const answered = encryptedDeepResearchStatusSchema.parse(await (await agentRequest(agent.app, `/api/private/deep-research/status/${older}`, { body: legacy.envelope })).json());
      expect(openResponse({ ...legacy, response: answered as SealedResponse })).toMatchObject({ messageId: older });
    });

    it("a premium key that did not start a private run, chat or search reads it as unknown (404); its starter reads it", async () => {
      // Issue 24, item 10: the payer of a run the gateway started, holding a premium key too, must
      // not read its sealed result at the agent before (or without) the gateway's settlement.
      const premium = (await createOperatorKey({ db: agent.pool, termDays: 1 })).key;
      const recoveryKey = createRecoveryKey(portablePrimitives);
      const start = await seal({ message: "leucocyte telomere length and mortality", recoveryKey });
      const { messageId } = (await (await agentRequest(agent.app, "/api/private/deep-research", { body: start.envelope })).json()) as { messageId: string };
      await until(async () => ((await (await agentRequest(agent.app, `/api/private/deep-research/${messageId}`)).json()) as { status: string }).status === "completed", {
        what: "the gateway's private run to complete",
      });
      const poll = async (key: string) => agentRequest(agent.app, `/api/private/deep-research/status/${messageId}`, { body: (await seal({ recoveryKey, messageId })).envelope, key });
      const byPremium = await poll(premium);
      expect(byPremium.status).toBe(404);
      expect(await byPremium.json()).toMatchObject({ reason: "not_found" });
      expect((await agentRequest(agent.app, `/api/private/deep-research/${messageId}`, { key: premium })).status).toBe(404);
      expect((await poll(TEST_SERVICE_KEY)).status).toBe(200);

      // A run the premium key started is its own, and no one else's (not even the gateway's).
      const own = await agentRequest(agent.app, "/api/private/deep-research", { body: (await seal({ message: "rapamycin and lifespan", recoveryKey })).envelope, key: premium });
      expect(own.status).toBe(202);
      const ownId = ((await own.json()) as { messageId: string }).messageId;
      expect((await agentRequest(agent.app, `/api/private/deep-research/${ownId}`, { key: premium })).status).toBe(200);
      expect((await agentRequest(agent.app, `/api/private/deep-research/${ownId}`)).status).toBe(404);

      // The same rule for the gateway's sealed chat and literature jobs.
      const chat = await agentRequest(agent.app, "/api/private/chat", { body: (await seal({ message: "Does rapamycin extend lifespan in mice?" })).envelope });
      const { requestId: chatId } = (await chat.json()) as { requestId: string };
      expect((await agentRequest(agent.app, `/api/private/chat/status/${chatId}`, { key: premium })).status).toBe(404);
      expect((await agentRequest(agent.app, `/api/private/chat/status/${chatId}`)).status).toBe(200);
      const search = await agentRequest(agent.app, "/api/private/literature", { body: (await seal({ question: "rapamycin lifespan mice" })).envelope });
      const { requestId: searchId } = (await search.json()) as { requestId: string };
      expect((await agentRequest(agent.app, `/api/private/literature/status/${searchId}`, { key: premium })).status).toBe(404);
      expect((await agentRequest(agent.app, `/api/private/literature/status/${searchId}`)).status).toBe(200);
    });

    it("refuses a start without a recovery key and a poll it cannot open, with 400s", async () => {
      const noKey = await agentRequest(agent.app, "/api/private/deep-research", { body: (await seal({ message: "q" })).envelope });
      expect(noKey.status).toBe(400);
      expect(await noKey.json()).toMatchObject({ reason: "invalid_plaintext" });
      const poll = await seal({ recoveryKey: createRecoveryKey(portablePrimitives) });
      const bytes = Buffer.from(poll.envelope.hpke_ciphertext, "base64");
      bytes[30] = (bytes[30] ?? 0) ^ 1;
      const tampered = await agentRequest(agent.app, "/api/private/deep-research/status/00000000-0000-0000-0000-000000000000", {
        body: { ...poll.envelope, hpke_ciphertext: bytes.toString("base64") },
      });
      expect(tampered.status).toBe(400);
      expect(await tampered.json()).toMatchObject({ reason: "decryption_failed" });
    });
  });

  describe("through the gateway's paid routes", () => {
    const payTo = freshAddress();
    const pay = (index: number) => createPayingFetch({ privateKey: wallet(index).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch }).fetch;
    const gateway = (upstream: string) =>
      configureGateway({
        POSTGRES_URL: database.url,
        UPSTREAM_API_URL: upstream,
        AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
        PUBLIC_URL,
        RPC_URL: chain().rpcUrl,
        PAY_TO_ADDRESS: payTo,
        CRON_SECRET,
      });
    const post = (fetcher: typeof fetch, route: string, body: unknown) =>
      fetcher(`${PUBLIC_URL}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    it("literature: $0.03 for a sealed search, an absolute pollUrl, the answer only the client opens; tampered is 400 and free", async () => {
      const restore = await gateway(agent.url);
      try {
        const before = await usdcBalance(payTo);
        const sealed = await seal({ question: "rapamycin lifespan mice" });
        expect((await post(routeFetch, "/api/literature/encrypted", sealed.envelope)).status).toBe(402);
        const accepted = await post(pay(30), "/api/literature/encrypted", sealed.envelope);
        expect(accepted.status).toBe(202);
        expect(accepted.headers.get("payment-response")).toBeTruthy();
        const { requestId, pollUrl } = encryptedLiteratureAcceptedSchema.parse(await accepted.json());
        expect(pollUrl).toBe(`${PUBLIC_URL}/api/literature/encrypted/status/${requestId}`);
        expect((await usdcBalance(payTo)) - before).toBe(30_000n);

        const status = encryptedLiteratureStatusSchema.parse(await (await routeFetch(`${pollUrl}?timeout=20`)).json());
        expect(status.status).toBe("completed");
        literatureJobResultSchema.parse(openResponse({ ...sealed, response: status as SealedResponse }));

        const unknown = await routeFetch(`${PUBLIC_URL}/api/literature/encrypted/status/00000000-0000-0000-0000-000000000000`);
        expect(unknown.status).toBe(404);
        expect(await unknown.json()).toMatchObject({ status: "not_found" });

        const bytes = Buffer.from(sealed.envelope.hpke_ciphertext, "base64");
        bytes[40] = (bytes[40] ?? 0) ^ 1;
        const tampered = await post(pay(30), "/api/literature/encrypted", { ...sealed.envelope, hpke_ciphertext: bytes.toString("base64") });
        expect(tampered.status).toBe(400);
        const invalid = await post(pay(30), "/api/literature/encrypted", (await seal({ question: "" })).envelope);
        expect(invalid.status).toBe(400);
        expect((await usdcBalance(payTo)) - before).toBe(30_000n);
      } finally {
        await restore();
      }
    });

    it("literature: 403 when disabled upstream and 503 when its status is unreadable, both before any payment", async () => {
      const disabled = await startHttpDouble(() => ({ status: 200, body: { privateMode: "ready", privateLiterature: "disabled", attested: false } }));
      const restore = await gateway(disabled.url);
      try {
        const before = await usdcBalance(payTo);
        // No signature at all: still the 403, not a 402.
        const unsigned = await post(routeFetch, "/api/literature/encrypted", { hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" });
        expect(unsigned.status).toBe(403);
        expect(await unsigned.json()).toMatchObject({ error: "private_literature_disabled" });
        expect((await post(pay(31), "/api/literature/encrypted", { hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" })).status).toBe(403);
        expect(await usdcBalance(payTo)).toBe(before);
        expect(disabled.requests.every((r) => r.path === "/api/private/status")).toBe(true);
      } finally {
        await restore();
        await disabled.close();
      }
      const broken = await startHttpDouble(() => ({ status: 500, body: { error: "boom" } }));
      const restoreBroken = await gateway(broken.url);
      try {
        const response = await post(routeFetch, "/api/literature/encrypted", { hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" });
        expect(response.status).toBe(503);
        expect(await response.json()).toMatchObject({ error: "private_literature_unavailable" });
      } finally {
        await restoreBroken();
        await broken.close();
      }
    });

    it("deep research: $1.00 scheduled, settled on delivery, the sealed result released only once paid; tampered is 400 and free", async () => {
      const restore = await gateway(agent.url);
      try {
        const before = await usdcBalance(payTo);
        const recoveryKey = createRecoveryKey(portablePrimitives);
        const start = await seal({ message: "leucocyte telomere length and mortality", recoveryKey });
        expect((await post(routeFetch, "/api/deep-research/encrypted", start.envelope)).status).toBe(402);
        const accepted = await post(pay(32), "/api/deep-research/encrypted", start.envelope);
        expect(accepted.status).toBe(202);
        expect(accepted.headers.get("payment-response")).toBeNull(); // nothing settled yet
        const acceptedBody = encryptedDeepResearchAcceptedSchema.parse(await accepted.json());
        const { messageId, pollUrl } = acceptedBody;
        expect(pollUrl).toBe(`${PUBLIC_URL}/api/deep-research/encrypted/status/${messageId}`);
        // The enclave's receipt, relayed: only the start's key opens it, and it names the run.
        expect(openResponse({ ...start, response: acceptedBody })).toEqual({ messageId, status: "queued" });
        expect(await usdcBalance(payTo)).toBe(before);

        const { status, poll } = await pollFor(
          async () => {
            const poll = await seal({ recoveryKey, messageId });
            const response = await post(routeFetch, `/api/deep-research/encrypted/status/${messageId}`, poll.envelope);
            expect(response.status).toBe(200);
            const status = encryptedDeepResearchStatusSchema.parse(await response.json());
            if (status.status !== "completed" && status.status !== "failed") expect(await usdcBalance(payTo)).toBe(before); // not before delivery
            return { status, poll };
          },
          ({ status }) => ended(status),
          { what: "the sealed run to finish" },
        );
        expect(status.status).toBe("completed");
        expect((await usdcBalance(payTo)) - before).toBe(1_000_000n);
        const result = openResponse({ ...poll, response: status as SealedResponse }) as { reply: string; messageId: string };
        expect(result.reply).toMatch(/\[1\]/);
        expect(result.messageId).toBe(messageId);

        // Polling again, and the cron, charge nothing more.
        await post(routeFetch, `/api/deep-research/encrypted/status/${messageId}`, (await seal({ recoveryKey })).envelope);
        const cron = await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
        expect(await cron.json()).toMatchObject({ settled: 0 });
        expect((await usdcBalance(payTo)) - before).toBe(1_000_000n);

        // Unknown run, another recovery key, a tampered start: 404, 404, 400; none charged.
        expect((await post(routeFetch, "/api/deep-research/encrypted/status/00000000-0000-0000-0000-000000000000", poll.envelope)).status).toBe(404);
        const stranger = await seal({ recoveryKey: createRecoveryKey(portablePrimitives) });
        expect((await post(routeFetch, `/api/deep-research/encrypted/status/${messageId}`, stranger.envelope)).status).toBe(404);
        const bytes = Buffer.from(start.envelope.hpke_ciphertext, "base64");
        bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
        const tampered = await post(pay(33), "/api/deep-research/encrypted", { ...start.envelope, hpke_ciphertext: bytes.toString("base64") });
        expect(tampered.status).toBe(400);
        expect((await usdcBalance(payTo)) - before).toBe(1_000_000n);
      } finally {
        await restore();
      }
    });

    it("deep research: the cron settles a finished run nobody polled", async () => {
      const restore = await gateway(agent.url);
      try {
        const before = await usdcBalance(payTo);
        const recoveryKey = createRecoveryKey(portablePrimitives);
        const accepted = await post(pay(34), "/api/deep-research/encrypted", (await seal({ message: "rapamycin and lifespan", recoveryKey })).envelope);
        const { messageId } = encryptedDeepResearchAcceptedSchema.parse(await accepted.json());
        await until(async () => ((await (await agentRequest(agent.app, `/api/private/deep-research/${messageId}`)).json()) as { status: string }).status === "completed", {
          what: "the sealed run to complete",
        });
        const cron = await routeFetch(`${PUBLIC_URL}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
        expect(await cron.json()).toMatchObject({ settled: 1 });
        expect((await usdcBalance(payTo)) - before).toBe(1_000_000n);
        const poll = await seal({ recoveryKey });
        const status = encryptedDeepResearchStatusSchema.parse(await (await post(routeFetch, `/api/deep-research/encrypted/status/${messageId}`, poll.envelope)).json());
        expect(status.status).toBe("completed");
      } finally {
        await restore();
      }
    });

    it("leaks nothing: a sealed marker is in no log line, database row or error body of chat, literature or deep research", async () => {
      const marker = `zebrafish-secret-${randomUUID()}`;
      const restore = await gateway(agent.url);
      const bodies: string[] = [];
      const keep = async (response: Response, status: number) => {
        const text = await response.text();
        expect(response.status, text).toBe(status);
        bodies.push(text);
        return text;
      };
      try {
        const logs = await captureLogs(async () => {
          const recoveryKey = createRecoveryKey(portablePrimitives);
          // Answered requests, with the marker in every field that can carry it.
          const chat = await seal({ message: `Rapamycin and lifespan ${marker}`, recoveryKey, attachments: [{ name: `${marker}.txt`, mediaType: "text/plain", text: marker }] });
          await keep(await post(pay(35), "/api/chat/encrypted", chat.envelope), 200);
          const literature = await seal({ question: `rapamycin lifespan ${marker}`, recoveryKey });
          const { pollUrl } = JSON.parse(await keep(await post(pay(36), "/api/literature/encrypted", literature.envelope), 202)) as { pollUrl: string };
          await keep(await routeFetch(`${pollUrl}?timeout=20`), 200);
          const research = await seal({ message: `telomere length ${marker}`, recoveryKey });
          const { messageId } = JSON.parse(await keep(await post(pay(37), "/api/deep-research/encrypted", research.envelope), 202)) as { messageId: string };
          await until(async () => /"status":"(completed|failed)"/.test(await keep(await post(routeFetch, `/api/deep-research/encrypted/status/${messageId}`, (await seal({ recoveryKey })).envelope), 200)), {
            what: "the sealed run to end",
          });
          // Refused requests: plaintext that is no valid request, on every route.
          await keep(await post(pay(38), "/api/chat/encrypted", (await seal({ message: 42, note: marker })).envelope), 400);
          await keep(await post(pay(38), "/api/literature/encrypted", (await seal({ question: 7, note: marker })).envelope), 400);
          await keep(await post(pay(38), "/api/deep-research/encrypted", (await seal({ message: marker })).envelope), 400);
          await keep(await post(routeFetch, `/api/deep-research/encrypted/status/${messageId}`, (await seal({ recoveryKey: marker })).envelope), 400);
        });
        expect(logs).not.toContain(marker);
        expect(bodies.join("\n")).not.toContain(marker);

        // Every row of every table of both services, read raw.
        const { rows: tables } = await agent.pool.query<{ name: string }>(
          "SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables WHERE table_schema IN ('agent', 'gateway') AND table_type = 'BASE TABLE'",
        );
        expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["agent.jobs", "agent.private_runs", "agent.private_conversations", "gateway.payments"]));
        for (const { name } of tables) {
          const { rows } = await agent.pool.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
          expect(rows.filter((r) => r.row.includes(marker)), name).toEqual([]);
        }
      } finally {
        await restore();
      }
    });
  });
});
