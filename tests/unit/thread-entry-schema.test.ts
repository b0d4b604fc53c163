import { describe, expect, it } from "vitest";
import { readConversation } from "@/lib/web/read-results";
import type { ThreadEntry } from "@/lib/web/thread";
import { storedEntryKeySchema, threadEntrySchema } from "@/lib/web/thread-entry-schema";
import { buildChatResult, buildConversation, buildLiteratureJobResult, buildWorldState } from "../support/builders";

const base = { id: "e1", threadId: "t1", wallet: "0xabc", question: "Does rapamycin extend lifespan in mice?", askedAt: "2025-01-01T10:00:00.000Z" } as const;

/** One stored entry of each kind and state, as the page writes them (results read with the contract's schemas). */
async function storedEntries(): Promise<ThreadEntry[]> {
  const conversation = await readConversation(buildConversation({ worldState: buildWorldState() }));
  return [
    { ...base, kind: "chat", status: "running" },
    { ...base, kind: "chat", status: "done", conversationId: "c1", followsUp: { entryId: "e0", question: "Earlier?" }, outcome: { kind: "chat", result: buildChatResult() } },
    { ...base, kind: "literature", status: "done", outcome: { kind: "literature", result: buildLiteratureJobResult() } },
    { ...base, kind: "research", status: "done", conversationId: conversation.conversationId, outcome: { kind: "research", result: conversation, messageId: "m-1" } },
    { ...base, kind: "literature", status: "failed", failure: "the search reached no source" },
  ];
}

describe("the browser's stored research history, read back", () => {
  it("reads every kind of entry the page stores as it was stored", async () => {
    for (const entry of await storedEntries()) {
      // IndexedDB keeps a structured clone: what is read back is a copy, never the object written.
      const parsed = threadEntrySchema.safeParse(structuredClone(entry));
      expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
      expect(parsed.data).toEqual(entry);
    }
  });

  it("leaves out what an earlier page or an edit on disk left in another shape, and still finds its thread to delete it", async () => {
    const [running, chat] = await storedEntries();
    const altered: unknown[] = [
      { ...running, status: "paused" },
      { ...running, kind: "podcast" },
      { ...chat, outcome: { kind: "chat", result: { answer: 42 } } },
      { ...running, askedAt: undefined },
      "not an entry",
      null,
    ];
    for (const value of altered) expect(threadEntrySchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
    expect(storedEntryKeySchema.safeParse({ ...running, status: "paused" })).toMatchObject({ success: true, data: { id: "e1", threadId: "t1" } });
  });
});
