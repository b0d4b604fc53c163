import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  chatJobStatusSchema,
  queuedChatResultSchema,
  sseCompletedEventASchema,
  sseCompletedEventBSchema,
  sseProgressEventSchema,
  sseQueuedEventASchema,
  sseQueuedEventBSchema,
  upstreamChatAcceptedASchema,
  upstreamChatAcceptedBSchema,
  upstreamChatStatusSchema,
} from "@/lib/shared/contracts";
import { agentRequest, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { startReplayServer, type ReplayServer } from "../support/replay-server";
import { ended, pollFor } from "../support/until";

const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);

type Agent = Awaited<ReturnType<typeof startTestAgent>>;

/** Reads a server-sent event stream to its end with a real HTTP client. */
async function readEvents(url: string, body: unknown): Promise<{ event: string; data: unknown }[]> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1] ?? "message";
      const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? "null") as unknown;
      return { event, data };
    });
}

describe("the public chat API (section 4.6)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replay: ReplayServer;
  let a: Agent;
  let b: Agent;

  beforeAll(async () => {
    database = await createTestDatabase();
    replay = await startReplayServer([
      { path: "/pubmed/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/pubmed/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
      // A slower source keeps each chat running long enough to cancel it mid-stream.
      { path: "/europepmc/search", file: synthetic("europepmc-search-core-synthetic.json"), delayMs: 400 },
    ]);
    const env = { POSTGRES_URL: database.url, PUBMED_BASE_URL: `${replay.url}/pubmed`, EUROPEPMC_BASE_URL: `${replay.url}/europepmc`, LITERATURE_SOURCES: "pubmed,europepmc,local" };
    a = await startTestAgent({ ...env, AGENT_VARIANT: "a" });
    b = await startTestAgent({ ...env, AGENT_VARIANT: "b" });
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await replay?.close();
    await database?.drop();
  });

  async function complete(agent: Agent, requestId: string, schema: typeof chatJobStatusSchema | typeof upstreamChatStatusSchema = chatJobStatusSchema) {
    return pollFor(
      async () => {
        const status = schema.parse(await (await agentRequest(agent.app, `/api/chat/status/${requestId}`, { key: null })).json());
        if (status.status !== "completed" && status.status !== "failed") expect(status.progress).toBeTruthy();
        return status;
      },
      ended,
      { what: "the chat to finish" },
    );
  }

  it("variant A: queues, progresses and completes a contract-valid cited answer, and continues the conversation", async () => {
    const accepted = await agentRequest(a.app, "/api/chat", { body: { message: "Is leucocyte telomere length associated with mortality?" }, key: null });
    expect(accepted.status).toBe(202);
    const { requestId, conversationId } = upstreamChatAcceptedASchema.parse(await accepted.json());
    const done = await complete(a, requestId);
    expect(done.status).toBe("completed");
    const result = queuedChatResultSchema.parse(done.result);
    expect(result.conversationId).toBe(conversationId);
    expect(result.quality.contractValid).toBe(true);
    expect(result.references.some((r) => r.pmid === "27797938")).toBe(true);
    expect(result.text).toContain(result.answer);
    expect(result.responseTime).toBeGreaterThanOrEqual(0);

    const followUp = await agentRequest(a.app, "/api/chat", { body: { message: "And in older women?", conversationId }, key: null });
    const second = upstreamChatAcceptedASchema.parse(await followUp.json());
    expect(second.conversationId).toBe(conversationId);
    const secondDone = await complete(a, second.requestId);
    // Answered in the light of the first turn: the telomere paper is found again for a bare follow-up.
    expect(queuedChatResultSchema.parse(secondDone.result).references.some((r) => r.pmid === "27797938")).toBe(true);

    const unknown = await agentRequest(a.app, "/api/chat", { body: { message: "m", conversationId: "2b1f0b7e-3d0c-4d8c-8f43-3f1f3c2f9a10" }, key: null });
    expect(unknown.status).toBe(404);
  });

  it("variant B never mentions conversationId to the public", async () => {
    const accepted = await agentRequest(b.app, "/api/chat", { body: { message: "telomere length and mortality" }, key: null });
    const body = upstreamChatAcceptedBSchema.parse(await accepted.json());
    const done = await complete(b, body.requestId, upstreamChatStatusSchema);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ text: expect.stringContaining("[1]"), responseTime: expect.any(Number) });
    expect(JSON.stringify(done)).not.toContain("conversationId");
    const events = await readEvents(`${b.url}/api/chat/sync`, { message: "telomere length and mortality" });
    expect(JSON.stringify(events)).not.toContain("conversationId");
    sseQueuedEventBSchema.parse(events[0]!.data);
    sseCompletedEventBSchema.parse(events.at(-1)!.data);
  });

  it("streams queued, progress and completed, in order, then closes", async () => {
    const events = await readEvents(`${a.url}/api/chat/sync`, { message: "leucocyte telomere length" });
    expect(events[0]!.event).toBe("queued");
    sseQueuedEventASchema.parse(events[0]!.data);
    expect(events.at(-1)!.event).toBe("completed");
    const completed = sseCompletedEventASchema.parse(events.at(-1)!.data);
    expect(completed.text).toMatch(/\[1\]/);
    const progress = events.filter((e) => e.event === "progress").map((e) => sseProgressEventSchema.parse(e.data));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.stage)).toContain("literature");
    expect(events.map((e) => e.event).filter((e) => e !== "progress")).toEqual(["queued", "completed"]);
  });

  it("sends an error event, not an HTTP error, when the job fails", async () => {
    const response = await fetch(`${a.url}/api/chat/sync`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "telomeres" }) });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const requestId = (JSON.parse(/data: (.+)/.exec(first)![1]!) as { requestId: string }).requestId;
    await agentRequest(a.app, `/api/chat/cancel/${requestId}`, { method: "POST" });
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toMatch(/event: error\ndata: \{"error":"The request was cancelled"\}/);
  });

  it("validates the body with the contract's 400", async () => {
    const response = await agentRequest(a.app, "/api/chat", { body: { conversationId: "nope" }, key: null });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: expect.stringContaining("message") });
  });

  it("forgets a request after one hour: 404", async () => {
    const accepted = upstreamChatAcceptedASchema.parse(await (await agentRequest(a.app, "/api/chat", { body: { message: "telomere" }, key: null })).json());
    expect((await agentRequest(a.app, `/api/chat/status/${accepted.requestId}`, { key: null })).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 3_601_000);
    expect((await agentRequest(a.app, `/api/chat/status/${accepted.requestId}`, { key: null })).status).toBe(404);
    expect((await agentRequest(a.app, "/api/chat/status/not-an-id", { key: null })).status).toBe(404);
  });
});
