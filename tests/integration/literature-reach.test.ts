import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import {
  chatJobStatusSchema,
  deepResearchAcceptedSchema,
  deepResearchConversationSchema,
  errorBodySchema,
  healthResponseSchema,
  literatureReachSchema,
  paymentRequiredBodySchema,
  upstreamChatStatusSchema,
  type DeepResearchConversation,
  type FailedSource,
} from "@/lib/shared/contracts";
import { createPayingFetch } from "@/lib/client/payments/client";
import { agentRequest, seedLibrary, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase, databaseKind } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { postJson, routeFetch } from "../support/routes";
import { ended, pollFor, until } from "../support/until";

const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);
const PUBLIC_URL = "https://gateway.test";
const QUESTION = "Is leucocyte telomere length associated with mortality?";

type Agent = Awaited<ReturnType<typeof startTestAgent>>;
type Unavailable = { error: string; reason: string; message: string; failedSources: FailedSource[]; retryAfterSeconds: number };

/**
 * Honest reach (docs/literature.md): a source's failures are tracked, shown in health, and said in
 * the answer; when no source can answer, paid chat and literature answer 503
 * literature_unavailable before payment, and a search that reached no source is never charged.
 * The library must be empty, so these need a database of their own.
 */
describe.skipIf(databaseKind() === "pglite")("honest reach: literature sources that fail", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replay: ReplayServer;
  const state = { pubmedUp: false, europepmcUp: false };

  beforeAll(async () => {
    database = await createTestDatabase();
    replay = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json"), when: () => state.pubmedUp },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml"), when: () => state.pubmedUp },
      { path: /^\/pubmed\//, dropConnection: true },
      { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json"), when: () => state.europepmcUp },
      { path: /^\/europepmc\//, status: 503, body: { error: "maintenance" } },
    ]);
  });
  afterAll(async () => {
    await replay?.close();
    await database?.drop();
  });

  const sourcesEnv = () => ({
    POSTGRES_URL: database.url,
    PUBMED_BASE_URL: `${replay.url}/pubmed`,
    EUROPEPMC_BASE_URL: `${replay.url}/europepmc`,
    LITERATURE_SOURCES: "pubmed,europepmc,local",
    SOURCE_MAX_RETRIES: "0",
  });

  async function pollChat(agent: Agent, requestId: string) {
    return pollFor(
      async () => upstreamChatStatusSchema.parse(await (await agentRequest(agent.app, `/api/chat/status/${requestId}`, { key: null })).json()),
      ended,
      { what: "the chat to finish" },
    );
  }

  describe("in the agent, before any circuit opens", () => {
    let agent: Agent;
    beforeAll(async () => {
      state.pubmedUp = false;
      state.europepmcUp = false;
      // A circuit that never opens: every request reaches the failing sources.
      agent = await startTestAgent({ ...sourcesEnv(), SOURCE_CIRCUIT_FAILURES: "1000" });
    });
    afterAll(async () => agent?.stop());

    it("cannot answer a free chat with an empty 'no evidence' when every source failed: the job fails and says which", async () => {
      const accepted = await agentRequest(agent.app, "/api/chat", { body: { message: QUESTION }, key: null });
      expect(accepted.status).toBe(202);
      const { requestId } = (await accepted.json()) as { requestId: string };
      const done = await pollChat(agent, requestId);
      expect(done.status).toBe("failed");
      expect(JSON.stringify(done)).not.toContain("No relevant evidence");
      expect((done as { error?: string }).error).toBe("PubMed could not be reached and Europe PMC answered with an error, and the local library has nothing on this question.");
    });

    it("cannot accept a paid chat (service key) whose search reached no source: 503 literature_unavailable with the sources typed", async () => {
      const response = await agentRequest(agent.app, "/api/chat", { body: { message: QUESTION } });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = (await response.json()) as Unavailable;
      // The library, searched, is empty: no other words would find anything in it, so not `nothing_in_library`.
      expect(errorBodySchema.parse(body)).toMatchObject({ error: "literature_unavailable", reason: "no_source_reachable" });
      expect(body.failedSources).toEqual([
        { source: "pubmed", kind: "unreachable" },
        { source: "europepmc", kind: "http_error" },
      ]);
      expect(body.message).toContain("PubMed could not be reached");
    });

    it("cannot accept a paid literature search that reached no source either", async () => {
      const response = await agentRequest(agent.app, "/api/literature", { body: { question: QUESTION } });
      expect(response.status).toBe(503);
      expect(((await response.json()) as Unavailable).error).toBe("literature_unavailable");
    });

    it("cannot deliver a deep-research turn whose every search reached no source: the turn fails and says why, so it is never charged", async () => {
      const accepted = deepResearchAcceptedSchema.parse(await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message: QUESTION } })).json());
      let conversation: DeepResearchConversation | undefined;
      await until(
        async () => {
          conversation = deepResearchConversationSchema.parse(await (await agentRequest(agent.app, `/api/deep-research/${accepted.conversationId}`)).json());
          const turn = conversation.turns?.[0];
          return turn?.status === "completed" || turn?.status === "failed";
        },
        { what: "the deep-research turn to end" },
      );
      const turn = conversation!.turns![0]!;
      expect(turn.status).toBe("failed");
      expect(turn.reply).toBeUndefined();
      expect(turn.citations).toEqual([]);
      expect(conversation!.sessionStatus).toBe(
        "PubMed could not be reached and Europe PMC answered with an error, and the local library has nothing on this question. Nothing was charged for this turn.",
      );
    });

    it("counts each source's failures in its health, with the last error's kind", async () => {
      const response = await agentRequest(agent.app, "/api/health", { key: null });
      const body = (await response.json()) as { literature: unknown };
      const literature = literatureReachSchema.parse(body.literature);
      const pubmed = literature.sources.find((s) => s.source === "pubmed")!;
      expect(pubmed).toMatchObject({ circuit: "closed", successes: 0, lastErrorKind: "unreachable", lastSuccessAt: null });
      expect(pubmed.failures).toBeGreaterThanOrEqual(3);
      expect(literature.sources.find((s) => s.source === "europepmc")).toMatchObject({ lastErrorKind: "http_error" });
    });

    it("says in the answer which source failed and where the results come from instead, and types it", async () => {
      state.europepmcUp = true;
      try {
        const accepted = await agentRequest(agent.app, "/api/chat", { body: { message: QUESTION }, key: null });
        const { requestId } = (await accepted.json()) as { requestId: string };
        const done = chatJobStatusSchema.parse(await pollChat(agent, requestId));
        expect(done.status).toBe("completed");
        expect(done.result!.failedSources).toEqual([{ source: "pubmed", kind: "unreachable" }]);
        expect(done.result!.answer).toContain("PubMed could not be reached; these results come from Europe PMC and the local library.");
        expect(done.result!.text).toContain("PubMed could not be reached");
        // Said once, in words: the general limit gives way to the sentence that names the source.
        expect(done.result!.answer).not.toContain("Not every source could be searched");
        expect(done.result!.quality.contractValid).toBe(true);
      } finally {
        state.europepmcUp = false;
      }
    });
  });

  describe("through the gateway, with circuits that open on the first failure", () => {
    let agent: Agent;
    let restore: () => Promise<void>;
    const payTo = freshAddress();

    beforeAll(async () => {
      state.pubmedUp = false;
      state.europepmcUp = false;
      agent = await startTestAgent({ ...sourcesEnv(), SOURCE_CIRCUIT_FAILURES: "1", SOURCE_CIRCUIT_COOLDOWN_MS: "300" });
      restore = await configureGateway({
        POSTGRES_URL: database.url,
        UPSTREAM_API_URL: agent.url,
        AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
        PUBLIC_URL,
        RPC_URL: chain().rpcUrl,
        PAY_TO_ADDRESS: payTo,
      });
    });
    afterAll(async () => {
      await restore?.();
      await agent?.stop();
    });

    it("cannot charge for a chat whose every source failed during the request: 503 literature_unavailable, payee unchanged", async () => {
      const before = await usdcBalance(payTo);
      const { fetch: pay } = createPayingFetch({ privateKey: wallet(60).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const response = await pay(`${PUBLIC_URL}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: QUESTION }) });
      expect(response.status).toBe(503);
      expect(response.headers.get("payment-response")).toBeNull();
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      const body = (await response.json()) as Unavailable;
      expect(body).toMatchObject({ error: "literature_unavailable", reason: "no_source_reachable" });
      expect(body.failedSources.map((f) => f.source).sort()).toEqual(["europepmc", "pubmed"]);
      expect(await usdcBalance(payTo)).toBe(before);
    });

    it("answers 503 literature_unavailable with Retry-After before any 402 once every source is known to fail", async () => {
      // Sealed requests too: the gateway cannot read them, but it knows no search can be answered.
      const envelope = { hpke_ciphertext: "AAAA", hpke_ephemeral_public_key: "AAAA" };
      for (const [route, body] of [
        ["/api/chat", { message: QUESTION }],
        ["/api/literature", { question: QUESTION }],
        ["/api/chat/encrypted", envelope],
        ["/api/literature/encrypted", envelope],
        ["/api/deep-research/start", { message: QUESTION }],
        ["/api/deep-research/encrypted", envelope],
      ] as const) {
        const response = await postJson(`${PUBLIC_URL}${route}`, body);
        expect(response.status).toBe(503);
        expect(response.headers.get("payment-required")).toBeNull();
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        const refused = (await response.json()) as Unavailable;
        expect(refused).toMatchObject({ error: "literature_unavailable", reason: "no_source_reachable" });
        expect(refused.message).toContain("the local library is empty");
        expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      }
    });

    it("shows each source's circuit in the gateway's health, and the agent degraded", async () => {
      const report = healthResponseSchema.parse(await (await health(new Request(`${PUBLIC_URL}/api/health`))).json());
      expect(report.components.upstreamApi.status).toBe("degraded");
      expect(report.literature?.available).toBe(false);
      expect(report.literature?.localLibrary).toBe("empty");
      for (const source of ["pubmed", "europepmc"]) {
        expect(report.literature?.sources.find((s) => s.source === source)?.circuit).toMatch(/^(open|half_open)$/);
      }
    });

    it("asks for payment again once a probe finds a source back, and charges for an answer that says which source is still down", async () => {
      state.europepmcUp = true;
      try {
        // The open circuit's probe runs after its cool-down: wait for the condition, not for a time.
        await until(async () => literatureReachSchema.parse(await (await agentRequest(agent.app, "/api/literature/reach?mode=fast")).json()).available, {
          what: "Europe PMC to be probed back",
        });
        // The gateway asks the agent again once its cached answer is past AGENT_STATUS_CACHE_MS (2 s).
        let unpaid: Response | undefined;
        await until(async () => (unpaid = await postJson(`${PUBLIC_URL}/api/chat`, { message: QUESTION })).status === 402, { what: "the gateway to ask for payment again" });
        paymentRequiredBodySchema.parse(await unpaid!.json());

        const before = await usdcBalance(payTo);
        const { fetch: pay } = createPayingFetch({ privateKey: wallet(61).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
        const accepted = await pay(`${PUBLIC_URL}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: QUESTION }) });
        expect(accepted.status).toBe(202);
        expect((await usdcBalance(payTo)) - before).toBe(20_000n);
        const { requestId } = (await accepted.json()) as { requestId: string };
        const status = await pollFor(
          async () => chatJobStatusSchema.parse(await (await routeFetch(`${PUBLIC_URL}/api/chat/status/${requestId}`)).json()),
          ended,
          { what: "the paid chat to finish" },
        );
        expect(status.status).toBe("completed");
        // PubMed is skipped while its circuit is open, or tried and failed again when its probe just
        // made it half-open: either way it is named, typed, and the answer says where results come from.
        const failed = status.result!.failedSources!;
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatchObject({ source: "pubmed", kind: expect.stringMatching(/^(circuit_open|unreachable)$/) });
        expect(status.result!.answer).toMatch(/PubMed (was not asked, having failed repeatedly just before|could not be reached); these results come from Europe PMC and the local library\./);
      } finally {
        state.europepmcUp = false;
      }
    });
  });

  describe("through the gateway, from a cached answer that went stale", () => {
    let agent: Agent;
    let restore: () => Promise<void>;
    const payTo = freshAddress();

    beforeAll(async () => {
      state.pubmedUp = false;
      state.europepmcUp = true;
      // Circuits open on the first failure and stay open; the gateway keeps the agent's answer ten minutes.
      agent = await startTestAgent({ ...sourcesEnv(), SOURCE_CIRCUIT_FAILURES: "1", SOURCE_CIRCUIT_COOLDOWN_MS: "600000" });
      restore = await configureGateway({
        POSTGRES_URL: database.url,
        UPSTREAM_API_URL: agent.url,
        AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
        PUBLIC_URL,
        RPC_URL: chain().rpcUrl,
        PAY_TO_ADDRESS: payTo,
        AGENT_STATUS_CACHE_MS: "600000",
      });
    });
    afterAll(async () => {
      state.europepmcUp = false;
      await restore?.();
      await agent?.stop();
    });

    it("a stale 'reachable' costs nothing: the agent refuses the paid request before any work, nothing is charged, and the gateway asks again", async () => {
      // The gateway learns (and keeps) that a source can answer.
      expect((await postJson(`${PUBLIC_URL}/api/chat`, { message: QUESTION })).status).toBe(402);
      // Then every source fails, and the agent's circuits open on a search of its own.
      state.europepmcUp = false;
      expect((await agentRequest(agent.app, "/api/chat", { body: { message: QUESTION } })).status).toBe(503);
      await until(async () => !literatureReachSchema.parse(await (await agentRequest(agent.app, "/api/literature/reach?mode=fast")).json()).available, {
        what: "the agent to know no source can answer",
      });
      // The gateway still says what it was told: it asks for payment.
      expect((await postJson(`${PUBLIC_URL}/api/chat`, { message: QUESTION })).status).toBe(402);

      const payer = wallet(67);
      const [payeeBefore, payerBefore] = [await usdcBalance(payTo), await usdcBalance(payer.address)];
      const jobsBefore = (await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent.jobs")).rows[0]!.n;
      const { fetch: pay } = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const response = await pay(`${PUBLIC_URL}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: QUESTION }) });
      expect(response.status).toBe(503);
      expect(response.headers.get("payment-response")).toBeNull();
      expect(await response.json()).toMatchObject({ error: "literature_unavailable", reason: "no_source_reachable", charged: false });
      expect(await usdcBalance(payTo)).toBe(payeeBefore);
      expect(await usdcBalance(payer.address)).toBe(payerBefore);
      // Refused before queueing: the agent did no work for it.
      expect((await agent.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM agent.jobs")).rows[0]!.n).toBe(jobsBefore);
      const { rows } = await agent.pool.query<{ status: string }>("SELECT status FROM gateway.payments WHERE payer = $1", [payer.address.toLowerCase()]);
      expect(rows.map((r) => r.status)).toEqual(["voided"]);

      // The agent's refusal made the gateway forget its answer: the next request is refused before payment.
      const next = await postJson(`${PUBLIC_URL}/api/chat`, { message: QUESTION });
      expect(next.status).toBe(503);
      expect(next.headers.get("payment-required")).toBeNull();
      expect(await next.json()).toMatchObject({ error: "literature_unavailable", reason: "no_source_reachable" });
    });
  });

  describe("through the gateway, with a local library that has nothing on the question", () => {
    let agent: Agent;
    let library: Awaited<ReturnType<typeof createTestDatabase>>;
    let restore: () => Promise<void>;
    const payTo = freshAddress();
    const OFF_TOPIC = "Does knitting improve bone density in astronauts?";

    beforeAll(async () => {
      state.pubmedUp = false;
      state.europepmcUp = false;
      // A database of its own whose library holds the demo's records: the check before payment
      // lets the payment through (the library can answer), and the search finds nothing on it.
      library = await createTestDatabase();
      agent = await startTestAgent({ ...sourcesEnv(), POSTGRES_URL: library.url, SOURCE_CIRCUIT_FAILURES: "1000" });
      await seedLibrary(agent.pool);
      restore = await configureGateway({
        POSTGRES_URL: library.url,
        UPSTREAM_API_URL: agent.url,
        AGENT_SERVICE_KEY: TEST_SERVICE_KEY,
        PUBLIC_URL,
        RPC_URL: chain().rpcUrl,
        PAY_TO_ADDRESS: payTo,
      });
    });
    afterAll(async () => {
      await restore?.();
      await agent?.stop();
      await library?.drop();
    });

    it("says what happened (the live sources failed, the library has nothing on it), typed nothing_in_library, and charges nothing", async () => {
      const payer = wallet(68);
      const [payeeBefore, payerBefore] = [await usdcBalance(payTo), await usdcBalance(payer.address)];
      const { fetch: pay } = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const response = await pay(`${PUBLIC_URL}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: OFF_TOPIC }) });
      expect(response.status).toBe(503);
      expect(response.headers.get("payment-response")).toBeNull();
      const body = (await response.json()) as Unavailable;
      expect(body).toMatchObject({ error: "literature_unavailable", reason: "nothing_in_library" });
      expect(body.message).toBe("PubMed could not be reached and Europe PMC answered with an error, and the local library has nothing on this question. Nothing was charged.");
      expect(body.failedSources.map((f) => f.source)).toEqual(["pubmed", "europepmc"]);
      expect(await usdcBalance(payTo)).toBe(payeeBefore);
      expect(await usdcBalance(payer.address)).toBe(payerBefore);
    });
  });
});
