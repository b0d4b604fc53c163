import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followUpReadingSchema, queuedChatResultSchema, upstreamChatAcceptedASchema, upstreamChatStatusSchema, type QueuedChatResult } from "@/lib/shared/contracts";
import { importLibraryFile } from "@/agent/library/import";
import { agentRequest, startLibraryAgent } from "../support/agent";
import { ended, pollFor } from "../support/until";

/**
 * Issue 25, item 1, through the agent's chat API (variant A): a message sent with a
 * conversationId is read against the conversation's earlier question. A new topic ("What's a good
 * recipe for sourdough bread?" after an exercise question) is searched and judged on its own words,
 * and no exercise study is cited; an elliptical follow-up ("And in women?") is searched as the
 * earlier question with its population in place of the earlier one's, and its answer says so.
 * The library: tests/fixtures/library/follow-up.jsonl (synthetic records).
 */

describe("a message within a conversation is a follow-up only when it leans on the earlier question", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;

  beforeAll(async () => {
    agent = await startLibraryAgent();
    await importLibraryFile({ db: agent.pool, file: path.resolve(import.meta.dirname, "../fixtures/library/follow-up.jsonl") });
  });
  afterAll(async () => {
    await agent?.stop();
  });

  /** Asks within `conversationId` (or a new conversation) and waits for the answer. */
  async function ask(message: string, conversationId?: string): Promise<{ conversationId: string; result: QueuedChatResult }> {
    const response = await agentRequest(agent.app, "/api/chat", { body: { message, ...(conversationId ? { conversationId } : {}) } });
    expect(response.status).toBe(202);
    const accepted = upstreamChatAcceptedASchema.parse(await response.json());
    const status = await pollFor(
      async () => upstreamChatStatusSchema.parse(await (await agentRequest(agent.app, `/api/chat/status/${accepted.requestId}`)).json()),
      ended,
      { what: `the answer to “${message}”` },
    );
    expect(status.error ?? null).toBeNull();
    expect(status.status).toBe("completed");
    return { conversationId: accepted.conversationId, result: queuedChatResultSchema.parse(status.result) };
  }

  const cited = (result: QueuedChatResult) => result.references.map((r) => r.pmid);

  it("a recipe question asked after an exercise question is answered on its own words, citing no exercise study", async () => {
    const first = await ask("Does exercise slow muscle aging?");
    expect(cited(first.result)).toContain("90002001");
    const { result } = await ask("What's a good recipe for sourdough bread?", first.conversationId);
    const pmids = [...cited(result), ...result.rejectedReferences.filter((r) => r.evidenceRole !== "lead_only").map((r) => r.pmid)];
    expect(pmids).toContain("90002004");
    expect(pmids.filter((pmid) => ["90002001", "90002002", "90002003"].includes(pmid!))).toEqual([]);
    expect(result.answer).not.toMatch(/skier|exercise|Read as a follow-up/i);
    const reading = followUpReadingSchema.parse(result.metadata?.followUp);
    expect(reading).toMatchObject({ kind: "new_topic", question: "What's a good recipe for sourdough bread?", follows: null });
  });

  it("“And in women?” after an exercise question in older men searches exercise in women, not in men, and says how it read the message", async () => {
    const first = await ask("Does resistance exercise increase muscle strength in older men?");
    const { result } = await ask("And in women?", first.conversationId);
    expect(result.answer).toMatch(/^Read as a follow-up to: “Does resistance exercise increase muscle strength in older men\?”/);
    const reading = followUpReadingSchema.parse(result.metadata?.followUp);
    expect(reading.kind).toBe("follow_up");
    expect(reading.follows).toBe("Does resistance exercise increase muscle strength in older men?");
    expect(reading.question).toMatch(/resistance exercise/);
    expect(reading.question).toMatch(/\bwomen\b/);
    expect(reading.question).not.toMatch(/\bmen\b/);
    expect(result.answer.split("\n\n")[0]).toBe(`Read as a follow-up to: “${reading.follows}”. Answered as: “${reading.question}”.`);
    // The trial in women is what answers it.
    expect(result.references.find((r) => r.pmid === "90002002")?.evidenceRole).toBe("supporting");
  });

  it("a message sent without a conversationId is its own question: no reading, no earlier subject", async () => {
    await ask("Does resistance exercise increase muscle strength in older men?");
    const { result } = await ask("And in women?");
    expect(result.metadata?.followUp).toBeUndefined();
    expect(result.answer).not.toMatch(/Read as a follow-up/);
  });
});
