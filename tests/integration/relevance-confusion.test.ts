import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLibraryFile } from "@/agent/library/import";
import { chatJobStatusSchema, literatureJobResultSchema, queuedChatResultSchema, type LiteratureJobResult, type QueuedChatResult } from "@/lib/shared/contracts";
import { agentRequest, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";

const LIBRARY = path.resolve(import.meta.dirname, "../fixtures/library");

/**
 * The confusion set: questions whose generic words ("length", "level", "effect", "mass", "fall")
 * also appear in records about something else. Over the synthetic library, through the real chat
 * route with only the local source, no record outside a question's own may be supporting, and the
 * question's own records must still be.
 */
const CASES: { question: string; onTopic: string[] }[] = [
  { question: "Is telomere length associated with mortality?", onTopic: ["doi:10.5555/synth.0004", "pmid:90001001"] },
  { question: "Does blood glucose level affect cognitive decline?", onTopic: ["pmid:90001002"] },
  { question: "What is the effect of exercise on muscle mass in older adults?", onTopic: ["pmid:90001003"] },
  { question: "Does vitamin D supplementation reduce falls in older adults?", onTopic: ["pmid:90001004"] },
  { question: "Is high blood pressure associated with dementia?", onTopic: ["pmid:90001005"] },
  { question: "Does rapamycin extend lifespan in mice?", onTopic: ["pmid:90000001"] },
  { question: "Does metformin prevent frailty in older adults?", onTopic: ["pmid:90000002"] },
];

describe("relevance that understands the question: the confusion set", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local" });
    await agent.pool.query("TRUNCATE agent.library_records, agent.library_lexemes");
    await agent.pool.query("UPDATE agent.library_statistics SET records = 0, tokens = 0");
    await importLibraryFile({ db: agent.pool, file: path.join(LIBRARY, "records.jsonl") });
    await importLibraryFile({ db: agent.pool, file: path.join(LIBRARY, "confusion.jsonl") });
  });
  afterAll(async () => {
    await agent?.stop();
    await database?.drop();
  });

  /** One chat through POST /api/chat, followed on its status route until it is done. */
  async function chat(message: string): Promise<QueuedChatResult> {
    const { requestId } = (await (await agentRequest(agent.app, "/api/chat", { body: { message } })).json()) as { requestId: string };
    for (;;) {
      const status = chatJobStatusSchema.parse(await (await agentRequest(agent.app, `/api/chat/status/${requestId}`)).json());
      if (status.status === "failed") throw new Error(`the chat failed: ${JSON.stringify(status)}`);
      if (status.status === "completed") return queuedChatResultSchema.parse(status.result);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it.each(CASES)("$question: only its own records support it, and they do", async ({ question, onTopic }) => {
    const result = await chat(question);
    expect(result.quality.contractValid).toBe(true);
    const supporting = result.references.filter((r) => r.evidenceRole === "supporting").map((r) => r.id);
    expect(supporting.filter((id) => !onTopic.includes(id))).toEqual([]);
    expect([...supporting].sort()).toEqual([...onTopic].sort());
  });

  it("rejects the records that share only generic words as off topic, naming the concept they miss", async () => {
    const accepted = await agentRequest(agent.app, "/api/literature", { body: { question: "Is telomere length associated with mortality?", includeRejected: true } });
    const { jobId } = (await accepted.json()) as { jobId: string };
    const result = await waitForJob(jobId);
    const rejected = (result.rejectedReferences ?? []) as { pmid?: string | null; relevance: { reason: string; missingConcepts?: string[] } }[];
    const byPmid = new Map(rejected.map((r) => [r.pmid, r.relevance]));
    // Nerve length, hospital length of stay, eye axial length: no telomeres.
    for (const pmid of ["90001101", "90001102", "90001103"]) expect(byPmid.get(pmid)).toMatchObject({ reason: "off_topic", missingConcepts: expect.arrayContaining(["telomere length"]) });
    // Telomeres in cultured cells, but nothing on mortality.
    expect(byPmid.get("90001104")).toMatchObject({ reason: "off_topic", missingConcepts: ["mortality"] });
    expect((result.references ?? []).map((r) => (r as { pmid?: string | null }).pmid ?? (r as { doi?: string | null }).doi).sort()).toEqual(["10.5555/synth.0004", "90001001"]);
  });

  it("tells a chat's reader why an off-topic record was set aside: the concept it does not study", async () => {
    const result = await chat("Is telomere length associated with mortality?");
    const reasons = new Map(result.rejectedReferences.map((r) => [r.pmid, r.roleReason]));
    expect(reasons.get("90001101")).toMatch(/^does not study .*telomere length/);
    expect(reasons.get("90001104")).toBe("does not study mortality");
  });

  async function waitForJob(jobId: string): Promise<LiteratureJobResult> {
    for (;;) {
      const body = literatureJobResultSchema.parse(await (await agentRequest(agent.app, `/api/literature/jobs/${jobId}`)).json());
      if (body.status === "completed" || body.status === "failed") return body;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
});
