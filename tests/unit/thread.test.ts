import { describe, expect, it } from "vitest";
import type { ChatResult } from "@/lib/shared/contracts";
import { worldStateSchema } from "@/lib/shared/contracts/world-state";
import type { ReadConversation } from "@/lib/web/read-results";
import { abandoned, excerptOf, followTargetOf, mergeStoredEntries, RUNNING_FOR_AT_MOST_MS, searchThreads, suggestFollowUps, type ThreadEntry } from "@/lib/web/thread";

const quality = (primaryEvidencePresent: boolean) => ({ primaryEvidencePresent }) as ChatResult["quality"];

/** A finished chat entry with `overrides` of its result. */
function buildChatEntry(result: Partial<ChatResult> = {}, entry: Partial<ThreadEntry> = {}): ThreadEntry {
  return {
    id: "e1",
    threadId: "t1",
    wallet: "0xabc",
    kind: "chat",
    question: "Does rapamycin extend lifespan in mice?",
    askedAt: "2025-01-01T10:00:00.000Z",
    status: "done",
    outcome: { kind: "chat", result: { answer: "Bottom line: yes in mice [1].\n\nLimits: no human trial.", verdict: "supports", quality: quality(true), ...result } as ChatResult },
    ...entry,
  };
}

function buildResearchEntry(openQuestions: unknown): ThreadEntry {
  const conversation: ReadConversation = {
    conversationId: "c1",
    status: "completed",
    turns: [{ messageId: "m1", objective: "o", reply: "Reply about metformin.", citations: [], status: "completed", isFinal: true }],
    worldState: worldStateSchema.parse({ openQuestions }),
  };
  return { ...buildChatEntry(), id: "r1", kind: "research", question: "metformin", outcome: { kind: "research", result: conversation, messageId: "m1" } };
}

describe("suggested follow-ups", () => {
  it("a deep-research turn's open questions continue the same conversation", () => {
    const ups = suggestFollowUps(buildResearchEntry(["Does it work in women?", "  ", "At what dose?", "Q3", "Q4"]));
    expect(ups).toEqual([
      { kind: "research", question: "Does it work in women?", label: "Continue the research", conversationId: "c1" },
      { kind: "research", question: "At what dose?", label: "Continue the research", conversationId: "c1" },
      { kind: "research", question: "Q3", label: "Continue the research", conversationId: "c1" },
    ]);
  });

  it("a world state without open questions (or a malformed one) suggests nothing to continue", () => {
    expect(suggestFollowUps(buildResearchEntry("not a list"))).toEqual([]);
  });

  it("a chat answer's limits: only animal or cell evidence and no primary evidence ask for people, then research in depth", () => {
    const ups = suggestFollowUps(buildChatEntry({ verdict: "insufficient", quality: quality(false), verdictBasis: { indirect: 3 } as ChatResult["verdictBasis"] }));
    expect(ups.map((u) => [u.kind, u.label])).toEqual([
      ["chat", "Ask about evidence in people"],
      ["research", "Research it in depth"],
      ["literature", "See every reference found"],
    ]);
  });

  it("a settled chat answer offers the references only; a running or failed entry offers nothing", () => {
    expect(suggestFollowUps(buildChatEntry()).map((u) => u.kind)).toEqual(["literature"]);
    expect(suggestFollowUps(buildChatEntry({}, { status: "running" }))).toEqual([]);
    expect(suggestFollowUps(buildChatEntry({}, { status: "failed" }))).toEqual([]);
  });
});

describe("history search", () => {
  const entries = [
    buildChatEntry({}, { id: "a", threadId: "old", askedAt: "2025-01-01T00:00:00.000Z" }),
    buildResearchEntry([]),
    { ...buildChatEntry({ answer: "Nothing on taurine." }), id: "b", threadId: "new", question: "taurine?", askedAt: "2025-02-01T00:00:00.000Z" },
  ];

  it("groups by thread, newest first, titled by the first question", () => {
    const threads = searchThreads(entries, "");
    expect(threads.map((t) => [t.threadId, t.title, t.entries.length])).toEqual([
      ["new", "taurine?", 1],
      ["t1", "metformin", 1],
      ["old", "Does rapamycin extend lifespan in mice?", 1],
    ]);
  });

  it("finds every word in a question or an answer, in any case", () => {
    expect(searchThreads(entries, "RAPAMYCIN mice").map((t) => t.threadId)).toEqual(["old"]);
    expect(searchThreads(entries, "metformin reply").map((t) => t.threadId)).toEqual(["t1"]);
    expect(searchThreads(entries, "taurine rapamycin")).toEqual([]);
  });

  it("the thread shows an answer's first paragraph", () => {
    expect(excerptOf(buildChatEntry())).toBe("Bottom line: yes in mice [1].");
  });

  it("but not its bottom line a second time: the answer's card says it (metadata.bottomLine); the excerpt is the paragraph after", () => {
    const entry = buildChatEntry({ answer: "Bottom line: yes in mice.\n\nAnimal studies: rapamycin extended lifespan [1].", metadata: { bottomLine: "Bottom line: yes in mice." } });
    expect(excerptOf(entry)).toBe("Animal studies: rapamycin extended lifespan [1].");
    const search = { ...entry, kind: "literature" as const, outcome: { kind: "literature" as const, result: { answer: "Bottom line: no.\n\nTrials: none [2].", bottomLine: "Bottom line: no." } } };
    expect(excerptOf(search)).toBe("Trials: none [2].");
  });
});

describe("questions no tab can still follow", () => {
  const asked = Date.parse("2025-01-01T10:00:00.000Z");
  const running = buildChatEntry({}, { status: "running", outcome: undefined });

  it("a running question is left alone while a tab may still follow it", () => {
    expect(abandoned(running, asked + RUNNING_FOR_AT_MOST_MS)).toBeNull();
  });

  it("past that, it ends as failed, saying why", () => {
    const ended = abandoned(running, asked + RUNNING_FOR_AT_MOST_MS + 1);
    expect(ended?.status).toBe("failed");
    expect(ended?.failure).toMatch(/closed before the answer arrived/);
  });

  it("answered or failed questions are never touched", () => {
    expect(abandoned(buildChatEntry(), asked + 10 * RUNNING_FOR_AT_MOST_MS)).toBeNull();
    expect(abandoned({ ...running, status: "failed", failure: "x" }, asked + 10 * RUNNING_FOR_AT_MOST_MS)).toBeNull();
  });
});

describe("following up on a chat answer is a choice made on that answer", () => {
  const answered = (entry: Partial<ThreadEntry> = {}, result: Partial<ChatResult> = { conversationId: "c1" }) => buildChatEntry(result, entry);

  it("a plain chat answer can be followed up on: its conversation, its entry and question", () => {
    expect(followTargetOf(answered())).toEqual({ conversationId: "c1", follows: { entryId: "e1", question: "Does rapamycin extend lifespan in mice?" } });
  });

  it("nothing else can: sealed, running or failed chats, an answer without a conversation, a search, a research run", () => {
    expect(followTargetOf(answered({ sealed: true }))).toBeNull();
    expect(followTargetOf(answered({ status: "running", outcome: undefined }))).toBeNull();
    expect(followTargetOf(answered({ status: "failed", failure: "x" }))).toBeNull();
    expect(followTargetOf(answered({}, { conversationId: "" }))).toBeNull();
    expect(followTargetOf(buildResearchEntry([]))).toBeNull();
  });

  it("the suggested question about people is a follow-up in the answer's conversation, asked in its own short words", () => {
    const entry = answered({}, { conversationId: "c1", verdict: "insufficient", quality: quality(false), verdictBasis: { indirect: 3 } as ChatResult["verdictBasis"] });
    const [people] = suggestFollowUps(entry);
    expect(people).toMatchObject({ kind: "chat", label: "Ask about evidence in people", conversationId: "c1", follows: { entryId: "e1", question: entry.question } });
    expect(people!.question).toBe("What evidence is there in people, not only in animals or cells?");
  });

  it("the excerpt of an answer read as a follow-up is the paragraph after the one that says so", () => {
    const entry = answered({}, { conversationId: "c1", answer: "Read as a follow-up to: “A?”. Answered as: “B?”.\n\nBottom line: yes [1].", metadata: { followUp: { kind: "follow_up" } } });
    expect(excerptOf(entry)).toBe("Bottom line: yes [1].");
    const withLine = answered({}, { conversationId: "c1", answer: "Read as a follow-up to: “A?”. Answered as: “B?”.\n\nBottom line: yes.\n\nHuman trials: it did [1].", metadata: { followUp: { kind: "follow_up" }, bottomLine: "Bottom line: yes." } });
    expect(excerptOf(withLine)).toBe("Human trials: it did [1].");
  });
});

describe("mergeStoredEntries: the store's slow read never undoes what the page did meanwhile", () => {
  const running = (id: string, wallet = "0xabc"): ThreadEntry => ({ ...buildChatEntry({}, { id, wallet }), status: "running", outcome: undefined });

  it("keeps an answer that arrived while the store was read, over the older running copy the read returned", () => {
    const finished = buildChatEntry({}, { id: "e1" });
    const merged = mergeStoredEntries([finished], [running("e1")], "0xABC");
    expect(merged).toEqual([finished]);
  });

  it("keeps a question asked while the store was read, and drops another wallet's entries", () => {
    const asked = running("e2");
    const otherWallet = running("e3", "0xdef");
    const stored = buildChatEntry({}, { id: "e1" });
    expect(mergeStoredEntries([asked, otherWallet], [stored], "0xabc").map((e) => e.id)).toEqual(["e1", "e2"]);
  });

  it("takes the store's copy when it is as far along or further (finished in another tab)", () => {
    const stored = buildChatEntry({}, { id: "e1" });
    expect(mergeStoredEntries([running("e1")], [stored], "0xabc")).toEqual([stored]);
  });
});
