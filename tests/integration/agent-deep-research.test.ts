import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConversation } from "@/agent/deep-research/owner";
import { createTurn, saveIteration } from "@/agent/deep-research/store";
import type { WorldState } from "@/agent/deep-research/world";
import { enqueueJob, getJob } from "@/agent/jobs/queue";
import { jobWakeups } from "@/agent/jobs/worker";
import { deepResearchAcceptedSchema, deepResearchConversationSchema, type DeepResearchConversation } from "@/lib/shared/contracts";
import { createPayingFetch } from "@/lib/client/payments/client";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { routeFetch } from "../support/routes";
import { pollFor } from "../support/until";

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
    return pollFor(
      async () => deepResearchConversationSchema.parse(await (await agentRequest(agent.app, `/api/deep-research/${conversationId}`)).json()),
      (conversation) => (conversation.turns?.filter((t) => t.status === "completed" || t.status === "failed") ?? []).length >= turns,
      { what: "the run to finish" },
    );
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
    const world = conversation.worldState as WorldState & { messageIds: string[] };
    expect(world.messageIds).toEqual([accepted.messageId]);
    // An association: cohorts first, then animals and mechanism; the rest left to the budget.
    expect(world.objectives).toEqual([
      "leucocyte telomere length mortality cohort",
      "leucocyte telomere length mortality mice",
      "leucocyte telomere length telomerase mechanism aging",
    ]);
    expect(world.findings.length).toBeGreaterThan(0);
    expect(world.findings.every((f) => f.axis !== undefined)).toBe(true);
    expect(world.axes!.map((a) => [a.axis, a.status])).toEqual([
      ["human_trials", "not_covered"],
      ["observational", "covered"],
      ["animal", "covered"],
      ["mechanism", "covered"],
      ["safety", "not_applicable"],
      ["dose_timing", "not_applicable"],
    ]);
    expect(world.sources).toContain("pubmed");
    expect(world.runs).toEqual([expect.objectContaining({ messageId: accepted.messageId, iterations: 3, axes: ["observational", "animal", "mechanism"], writer: "deep-research" })]);
    expect(turn.reply).toMatch(/^Deep research: 3 iterations, one search per evidence axis \(observational cohorts, animal models and mechanism\); \d+ records screened, \d+ accepted, \d+ cited below\. Not covered: human trials \(the iteration budget is 3\)\./);
    expect(turn.reply).toMatch(/\n\nBottom line: /);
    const sentences = turn.reply!.split(/(?<=[.!?])\s+/).map((t) => t.toLowerCase());
    expect(new Set(sentences).size).toBe(sentences.length);
    const markers = [...turn.reply!.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers.every((n) => n >= 1 && n <= turn.citations.length)).toBe(true);
    expect(conversation.status).toBe("completed");
    expect(conversation.sessionStatus).toMatch(/Finished after 3 iterations/);

    const next = deepResearchAcceptedSchema.parse(
      await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "and in women?", conversationId: accepted.conversationId } })).json(),
    );
    expect(next.conversationId).toBe(accepted.conversationId);
    const continued = await finished(accepted.conversationId, 2);
    expect(continued.turns!.map((t) => t.status)).toEqual(["completed", "completed"]);
    expect(continued.worldState).toMatchObject({ objectives: expect.any(Array), messageIds: [accepted.messageId, next.messageId] });
    const after = continued.worldState as WorldState;
    expect(after.objectives).toHaveLength(6);
    // The follow-up is read with the question before it, and asks about people: human trials first.
    expect(after.objectives[3]).toBe("leucocyte telomere length mortality women randomized controlled trial");
    // Each finding once across the two turns.
    const statements = after.findings.map((f) => f.statement.toLowerCase());
    expect(new Set(statements).size).toBe(statements.length);
    expect(after.runs!.map((r) => r.messageId)).toEqual([accepted.messageId, next.messageId]);
  });

  it("resumes a run from its saved iterations instead of starting again", async () => {
    // As if a worker died after finishing the first iteration: the turn exists with it saved.
    const turn = (await createTurn({ db: agent.pool, objective: "telomere length and mortality" }))!;
    await saveIteration({
      db: agent.pool,
      messageId: turn.messageId,
      iterations: [{ objective: "saved before the crash", findings: [], sources: [], acceptedCount: 0, references: [] } as never],
    });
    await enqueueJob({ db: agent.pool, kind: "deep_research", input: { messageId: turn.messageId }, lane: "paid" });
    jobWakeups.emit("job");
    const after = await finished(turn.conversationId);
    const objectives = (after.worldState as { objectives: string[] }).objectives;
    expect(objectives).toEqual(["saved before the crash", "telomere length mortality cohort", "telomere length mortality mice"]);
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
    // A run no worker may take (no attempt allowed), so it is still queued when it is cancelled,
    // however fast or slow the workers are: a run started through the route could finish first.
    const conversationId = await openConversation({ db: agent.pool, owner: "service" });
    const turn = await createTurn({ db: agent.pool, conversationId, objective: "telomeres and cancel" });
    const job = await enqueueJob({ db: agent.pool, kind: "deep_research", input: { messageId: turn!.messageId }, lane: "paid", caller: "service", maxAttempts: 0 });
    expect((await agentRequest(agent.app, `/api/deep-research/${conversationId}/cancel`, { method: "POST" })).status).toBe(204);
    const conversation = deepResearchConversationSchema.parse(await (await agentRequest(agent.app, `/api/deep-research/${conversationId}`)).json());
    expect(conversation.status).toBe("cancelled");
    expect(conversation.turns![0]!.status).toBe("cancelled");
    // The job went with it, through the queue: no worker can take it up later.
    expect((await getJob({ db: agent.pool, id: job.id }))?.status).toBe("cancelled");
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
      const conversation = await pollFor(
        async () => deepResearchConversationSchema.parse(await (await routeFetch(`https://gateway.test/api/deep-research/${conversationId}`)).json()),
        (conversation) => !["queued", "running", "cancelling"].includes(conversation.status),
        { what: "the paid run to end" },
      );
      expect(conversation.status).toBe("completed");
      expect(conversation.turns![0]!.reply).toMatch(/\[1\]/);
      expect(await usdcBalance(payTo)).toBe(1_000_000n);
    } finally {
      await restore();
    }
  });
});

/**
 * Deep research with a model: the project's model double (an OpenAI-compatible server answering
 * what the test sets, recording every prompt) plans, summarizes, proposes hypotheses and writes the
 * report; each step is checked and the deterministic one stands in for whatever fails.
 */
describe("deep research with a model, each step under the citation audit", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replay: ReplayServer;
  let model: HttpDouble;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  /** How the double answers the report step: cite the telomere study, or a reference that does not exist. */
  let reportCites: "telomere" | "nothing real" = "telomere";

  /** The [N] the prompt gives the telomere cohort, as a model reading it would cite it. */
  const telomereOrdinal = (prompt: string) => /^\[(\d+)\][^\n]*elomere[^\n]*mortality/im.exec(prompt)?.[1] ?? "1";

  beforeAll(async () => {
    database = await createTestDatabase();
    replay = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
    ]);
    model = await startHttpDouble(({ body }) => {
      const { messages } = JSON.parse(body) as { messages: { content: string }[] };
      const [system, user] = [messages[0]!.content, messages[1]!.content];
      const n = telomereOrdinal(user);
      const content = system.startsWith("Task: plan")
        ? JSON.stringify({
            objectives: [
              { axis: "animal", query: "telomere length mortality mice" },
              { axis: "observational", query: "leucocyte telomere length mortality cohort study" },
              { axis: "human_trials", query: "best longevity supplements" }, // not the question's concepts: dropped
            ],
          })
        : system.startsWith("Task: summarize")
          ? `Shorter leucocyte telomere length was associated with higher mortality in this cohort [${n}].`
          : system.startsWith("Task: hypotheses")
            ? `Shorter leucocyte telomere length marks a higher risk of mortality through accumulated cellular damage [${n}].\nTelomere length causes all deaths [99].`
            : reportCites === "telomere"
              ? `Observational cohorts: in the cohort found, shorter leucocyte telomere length was associated with higher mortality [${n}].`
              : `Observational cohorts: telomere length predicts mortality [42].`;
      return { status: 200, body: { choices: [{ message: { role: "assistant", content } }] } };
    });
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      PUBMED_BASE_URL: `${replay.url}/pubmed`,
      LITERATURE_SOURCES: "pubmed,local",
      DEEP_RESEARCH_ITERATIONS: "3",
      SOURCE_RATE_MULTIPLIER: "100",
      LLM_BASE_URL: `${model.url}/v1`,
      LLM_MODEL: "test-model",
    });
  });
  afterAll(async () => {
    await agent?.stop();
    await model?.close();
    await replay?.close();
    await database?.drop();
  });

  async function research(message: string): Promise<{ reply: string; citations: Record<string, unknown>[]; world: WorldState }> {
    const { conversationId } = deepResearchAcceptedSchema.parse(await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message } })).json());
    const conversation = await pollFor(
      async () => deepResearchConversationSchema.parse(await (await agentRequest(agent.app, `/api/deep-research/${conversationId}`)).json()),
      (conversation) => conversation.turns?.[0]?.status === "completed" || conversation.turns?.[0]?.status === "failed",
      { what: "the run to finish" },
    );
    const turn = conversation.turns![0]!;
    if (turn.status === "failed") throw new Error("the run failed");
    return { reply: turn.reply!, citations: turn.citations, world: conversation.worldState as WorldState };
  }

  it("uses the model's plan, summaries, hypotheses and report where they pass their checks, and drops what does not", async () => {
    reportCites = "telomere";
    const { reply, citations, world } = await research("leucocyte telomere length and mortality");
    const tasks = model.requests.map((r) => (JSON.parse(r.body) as { messages: { content: string }[] }).messages[0]!.content.split(".")[0]);
    expect(tasks[0]).toBe("Task: plan");
    expect(tasks).toContain("Task: summarize");
    expect(tasks.slice(-2)).toEqual(["Task: hypotheses", "Task: report"]);

    // The plan's valid objectives in its order, then the deterministic plan for the rest.
    expect(world.objectives).toEqual(["telomere length mortality mice", "leucocyte telomere length mortality cohort study", "leucocyte telomere length telomerase mechanism aging"]);
    // A topic names no claim (reading.ts, `asks`), so no study tests one and no hypothesis may rest
    // on one (issue 25, items 6 and 7): the model's hypotheses are not used.
    expect(world.runs![0]!.model).toMatchObject({ plan: true, hypotheses: false, report: true });
    expect(world.runs![0]!.writer).toBe("deep-research-model");
    // A summary survived the audit for an axis that found the cohort, its marker written as a name.
    expect(world.axes!.some((a) => a.summary?.startsWith("Shorter leucocyte telomere length was associated with higher mortality in this cohort ("))).toBe(true);
    // Neither the hypothesis citing a reference that does not exist nor the one citing a study of the topic.
    expect(world.hypotheses.join(" ")).not.toMatch(/causes all deaths|marks a higher risk of mortality/);
    // The report: the deterministic header and bottom line, then the model's audited body.
    expect(reply).toMatch(/^Deep research: 3 iterations/);
    expect(reply).toMatch(/\n\nBottom line: /);
    expect(reply).toMatch(/Observational cohorts: in the cohort found, shorter leucocyte telomere length was associated with higher mortality \[\d+\]\./);
    const markers = [...reply.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers.length).toBeGreaterThan(0);
    expect(markers.every((n) => n >= 1 && n <= citations.length)).toBe(true);
  });

  it("falls back to the deterministic report when the model's cites a reference that does not exist", async () => {
    reportCites = "nothing real";
    const { reply, world } = await research("leucocyte telomere length and mortality");
    expect(reply).not.toMatch(/\[42\]/);
    expect(reply).not.toMatch(/telomere length predicts mortality/);
    expect(reply).toMatch(/\n\nObservational cohorts \(searched “[^”]+”\): /);
    expect(world.runs![0]!).toMatchObject({ writer: "deep-research", model: { report: false } });
  });
});
