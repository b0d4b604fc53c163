import { describe, expect, it } from "vitest";
import type { HistoryItem } from "@/lib/shared/contracts";
import { historyThreadOf, questionOf, walletThreads } from "@/lib/web/wallet-history";

/** A history item as GET /api/history lists it, with `overrides`. */
function buildItem(overrides: Partial<HistoryItem> = {}): HistoryItem {
  return {
    id: crypto.randomUUID(),
    kind: "chat",
    operation: "chat",
    sealed: false,
    createdAt: "2026-11-27T10:00:00.000Z",
    price: "$0.02",
    paid: "settled",
    transaction: "0xabc",
    content: "kept",
    question: "Does rapamycin extend lifespan in mice?",
    conversationId: null,
    messageId: null,
    ...overrides,
  };
}

describe("the wallet's history as the page lists it (lib/web/wallet-history.ts)", () => {
  it("groups a conversation's requests (chat follow-ups, research turns) in one thread titled by its first question, others each alone, newest thread first", () => {
    const conversation = crypto.randomUUID();
    const first = buildItem({ conversationId: conversation, question: "Does metformin slow aging?", createdAt: "2026-11-27T09:00:00.000Z" });
    const followUp = buildItem({ conversationId: conversation, question: "And in women?", createdAt: "2026-11-27T11:00:00.000Z" });
    const alone = buildItem({ kind: "literature", operation: "literature", question: "spermidine lifespan", createdAt: "2026-11-27T10:00:00.000Z" });
    const threads = walletThreads([followUp, alone, first], "");
    expect(threads.map((t) => t.title)).toEqual(["spermidine lifespan", "Does metformin slow aging?"]);
    expect(threads[1]!.items.map((i) => i.question)).toEqual(["Does metformin slow aging?", "And in women?"]);
    expect(historyThreadOf(alone)).toBe(alone.id);
    expect(historyThreadOf(first)).toBe(conversation);
  });

  it("searches the questions by every word, and never finds a sealed request by words it does not have", () => {
    const sealed = buildItem({ sealed: true, operation: "chatEncrypted", content: "sealed", question: null });
    const plain = buildItem({ question: "Does rapamycin extend lifespan in mice?" });
    expect(walletThreads([sealed, plain], "rapamycin mice").map((t) => t.items[0]!.id)).toEqual([plain.id]);
    expect(walletThreads([sealed, plain], "sealed")).toEqual([]);
    expect(walletThreads([sealed, plain], "").map((t) => t.sealed).sort()).toEqual([false, true]);
  });

  it("says why a question is not shown: sealed, or no longer kept", () => {
    expect(questionOf(buildItem({ sealed: true, question: null, content: "sealed" }))).toBe("Sealed request: its question and answer stay sealed");
    expect(questionOf(buildItem({ question: null, content: "not_kept" }))).toBe("Its question is no longer kept");
    expect(questionOf(buildItem({ question: "q" }))).toBe("q");
  });
});
