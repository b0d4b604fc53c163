import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTurn, saveIteration } from "@/agent/deep-research/store";
import { enqueueJob } from "@/agent/jobs/queue";
import { jobWakeups } from "@/agent/jobs/worker";
import { deepResearchAcceptedSchema, deepResearchConversationSchema, type DeepResearchConversation } from "@/lib/contracts";
import { createPayingFetch } from "@/lib/payments/client";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { routeFetch } from "../support/routes";

const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);

describe("deep research in the agent", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replay: ReplayServer;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    replay = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
      { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json") },
      { path: /^\/ctgov\//, file: recorded("clinicaltrials-gov/biomcp_search_phelan_limit5_20260811.json") },
      { path: /^\/crossref\//, status: 404, body: { status: "error" } },
    ]);
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      PUBMED_BASE_URL: `${replay.url}/pubmed`,
      EUROPEPMC_BASE_URL: `${replay.url}/europepmc`,
      CTGOV_BASE_URL: `${replay.url}/ctgov`,
      CROSSREF_BASE_URL: `${replay.url}/crossref`,
      LITERATURE_SOURCES: "pubmed,europepmc,clinicaltrials,crossref,local",
      DEEP_RESEARCH_ITERATIONS: "3",
      // Deep mode sends several query variants; the replay server needs no polite spacing.
      SOURCE_RATE_MULTIPLIER: "100",
    });
  });
  afterAll(async () => {
    await agent?.stop();
    await replay?.close();
    await database?.drop();
  });

  async function finished(conversationId: string, turns = 1): Promise<DeepResearchConversation> {
    for (let i = 0; i < 200; i++) {
      const response = await agentRequest(agent.app, `/api/deep-research/${conversationId}`);
      const conversation = deepResearchConversationSchema.parse(await response.json());
      const done = conversation.turns?.filter((t) => t.status === "completed" || t.status === "failed") ?? [];
      if (done.length >= turns) return conversation;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the run did not finish");
  }

  it("answers only the service key", async () => {
    expect((await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "m" }, key: null })).status).toBe(401);
  });

  it("runs its iterations, records the world state, and ends with a cited final reply; a continued conversation adds a turn", async () => {
    const accepted = deepResearchAcceptedSchema.parse(await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "leucocyte telomere length and mortality" } })).json());
    const conversation = await finished(accepted.conversationId);
    const turn = conversation.turns![0]!;
    expect(turn).toMatchObject({ messageId: accepted.messageId, status: "completed", isFinal: true });
    expect(turn.reply).toMatch(/\[1\]/);
    expect(turn.citations.length).toBeGreaterThan(0);
    const world = conversation.worldState as { objectives: string[]; findings: unknown[]; sources: string[]; hypotheses: string[]; messageIds: string[] };
    expect(world.messageIds).toEqual([accepted.messageId]);
    expect(world.objectives).toHaveLength(3);
    expect(world.objectives[1]).toContain("randomized controlled trial");
    expect(world.findings.length).toBeGreaterThan(0);
    expect(world.sources).toContain("pubmed");
    expect(conversation.status).toBe("completed");
    expect(conversation.sessionStatus).toMatch(/Finished after 3 iterations/);

    const next = deepResearchAcceptedSchema.parse(
      await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "and in women?", conversationId: accepted.conversationId } })).json(),
    );
    expect(next.conversationId).toBe(accepted.conversationId);
    const continued = await finished(accepted.conversationId, 2);
    expect(continued.turns!.map((t) => t.status)).toEqual(["completed", "completed"]);
    expect(continued.worldState).toMatchObject({ objectives: expect.any(Array), messageIds: [accepted.messageId, next.messageId] });
    expect((continued.worldState as { objectives: string[] }).objectives).toHaveLength(6);
  });

  it("resumes a run from its saved iterations instead of starting again", async () => {
    // As if a worker died after finishing the first iteration: the turn exists with it saved.
    const turn = (await createTurn({ db: agent.pool, objective: "telomere length and mortality" }))!;
    await saveIteration({
      db: agent.pool,
      messageId: turn.messageId,
      iterations: [{ objective: "saved before the crash", findings: [], sources: [], acceptedCount: 0, references: [] } as never],
    });
    await enqueueJob({ db: agent.pool, kind: "deep_research", input: { messageId: turn.messageId } });
    jobWakeups.emit("job");
    const after = await finished(turn.conversationId);
    const objectives = (after.worldState as { objectives: string[] }).objectives;
    expect(objectives).toHaveLength(3);
    expect(objectives[0]).toBe("saved before the crash");
    expect(objectives[1]).toContain("randomized controlled trial");
    expect(after.sessionStatus).toMatch(/Finished after 3 iterations/);
  });

  it("keeps what a running or cancelled turn found out of the conversation's world state; a completed turn's joins it, named", async () => {
    // A turn mid-run, as a worker leaves it after its first iteration (no job: it stays there).
    const turn = (await createTurn({ db: agent.pool, objective: "telomere length and mortality" }))!;
    const finding = "Excerpt of a finding of the unfinished turn";
    await saveIteration({
      db: agent.pool,
      messageId: turn.messageId,
      iterations: [
        {
          objective: "unfinished turn objective",
          findings: [{ statement: finding, references: [{ ordinal: 1, title: "A reference of the unfinished turn", url: "https://example.org/unfinished" }] }],
          sources: ["pubmed"],
          acceptedCount: 1,
          references: [],
        } as never,
      ],
    });
    const read = async () => (await agentRequest(agent.app, `/api/deep-research/${turn.conversationId}`)).text();
    expect(await read()).not.toContain("unfinished");
    expect((await agentRequest(agent.app, `/api/deep-research/${turn.conversationId}/cancel`, { method: "POST" })).status).toBe(204);
    expect(await read()).not.toContain("unfinished");

    const next = deepResearchAcceptedSchema.parse(
      await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "leucocyte telomere length and mortality", conversationId: turn.conversationId } })).json(),
    );
    const conversation = await finished(turn.conversationId);
    expect(conversation.turns!.map((t) => t.status)).toEqual(["cancelled", "completed"]);
    expect(conversation.worldState).toMatchObject({ objectives: expect.any(Array), messageIds: [next.messageId] });
    expect((conversation.worldState as { objectives: string[] }).objectives).toHaveLength(3);
    expect(JSON.stringify(conversation)).not.toContain("unfinished");
  });

  it("cancels a run", async () => {
    const accepted = deepResearchAcceptedSchema.parse(await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "telomeres and cancel" } })).json());
    expect((await agentRequest(agent.app, `/api/deep-research/${accepted.conversationId}/cancel`, { method: "POST" })).status).toBe(204);
    const conversation = deepResearchConversationSchema.parse(await (await agentRequest(agent.app, `/api/deep-research/${accepted.conversationId}`)).json());
    expect(conversation.status).toBe("cancelled");
    expect(conversation.turns![0]!.status).toBe("cancelled");
  });

  it("is paid through the gateway only once the result is delivered", async () => {
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
      const { fetch: pay } = createPayingFetch({ privateKey: wallet(26).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
      const accepted = await pay("https://gateway.test/api/deep-research/start", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "leucocyte telomere length and mortality" }),
      });
      expect(accepted.status).toBe(202);
      const { conversationId } = deepResearchAcceptedSchema.parse(await accepted.json());
      expect(await usdcBalance(payTo)).toBe(0n);
      let conversation: DeepResearchConversation | undefined;
      for (let i = 0; i < 200; i++) {
        conversation = deepResearchConversationSchema.parse(await (await routeFetch(`https://gateway.test/api/deep-research/${conversationId}`)).json());
        if (conversation.status === "completed") break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(conversation?.status).toBe("completed");
      expect(conversation!.turns![0]!.reply).toMatch(/\[1\]/);
      expect(await usdcBalance(payTo)).toBe(1_000_000n);
    } finally {
      await restore();
    }
  });
});
