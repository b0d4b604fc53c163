import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuedChatResultSchema, upstreamChatAcceptedASchema, upstreamChatStatusSchema } from "@/lib/shared/contracts";
import { SAMPLE_QUESTION } from "@/lib/web/sample-question";
import { agentRequest, startLibraryAgent } from "../support/agent";
import { ended, pollFor } from "../support/until";

/**
 * The home page's free sample answer (lib/web/sample-answer.json) is the engine's own answer to
 * SAMPLE_QUESTION over the demo library (tests/fixtures/library/records.jsonl, synthetic records),
 * asked through the agent's chat API as any client would: never written by hand. When the engine
 * changes what it answers, this fails; regenerate the file with
 * `npx vitest run --project integration tests/integration/sample-answer.test.ts -u` and look at it.
 */
describe("the home page's sample answer", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;

  beforeAll(async () => {
    agent = await startLibraryAgent();
  });
  afterAll(async () => {
    await agent?.stop();
  });

  it("is what the engine answers over the demo library now", async () => {
    const response = await agentRequest(agent.app, "/api/chat", { body: { message: SAMPLE_QUESTION } });
    expect(response.status).toBe(202);
    const accepted = upstreamChatAcceptedASchema.parse(await response.json());
    const status = await pollFor(
      async () => upstreamChatStatusSchema.parse(await (await agentRequest(agent.app, `/api/chat/status/${accepted.requestId}`)).json()),
      ended,
      { what: "the sample answer" },
    );
    expect(status.status).toBe("completed");
    const { responseTime: _time, ...result } = queuedChatResultSchema.parse(status.result);
    // Only what differs from run to run is fixed: the conversation and request ids.
    const stored = { question: SAMPLE_QUESTION, result: { ...result, conversationId: "sample", messageId: null } };
    expect(stored.result.references.length).toBeGreaterThan(0);
    await expect(`${JSON.stringify(stored, null, 2)}\n`).toMatchFileSnapshot("../../lib/web/sample-answer.json");
  });
});
