/**
 * The wallet's history as the service keeps it (GET /api/history; docs/payments.md, "Your results,
 * from any client"), read once this browser signed in with the wallet that paid (`signInToHistory`
 * in wallet.ts: one signature opens a session cookie for the history routes), so the history and
 * its threads follow the wallet, not this browser. Answers are read with the contract's schemas,
 * loaded on demand; a reopened request becomes a thread entry (thread.ts) like one asked here.
 */
import type { HistoryEntry, HistoryItem, HistoryPage } from "@/lib/shared/contracts/history";
import { HISTORY_PATH, SESSION_PATH } from "@/lib/shared/contracts/history-paths";
import { describeResponse } from "@/lib/web/describe-response";
import { readConversation, readLiteratureResult, type ReadConversation } from "@/lib/web/read-results";
import type { ThreadEntry, ThreadKind, ThreadResult } from "@/lib/web/thread";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { readJsonObject } from "@/lib/web/response-json";


const KIND: Record<HistoryItem["kind"], ThreadKind> = { chat: "chat", literature: "literature", deepResearch: "research" };

/** A failed answer in words. */
async function failure(response: Response): Promise<UserFacingError> {
  const body = await readJsonObject(response);
  if (response.status === 402) return new UserFacingError("This browser is no longer signed in to the wallet's history.", { action: "Sign in with the wallet again.", status: 402 });
  return describeResponse(response.status, body, response.headers) ?? new UserFacingError(`The service answered ${response.status}.`);
}

/** `body` read with `schema`, or a UserFacingError naming what could not be read. */
function readAs<T>(schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false } }, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new UserFacingError(`The service's ${what} could not be read.`, { action: "Retry; if it persists, the service and this page disagree on the contract." });
}

/** A page of the history this browser's session reads, newest first; null when it is not signed in (402). */
export async function readWalletHistory(cursor: string | null = null): Promise<HistoryPage | null> {
  const response = await fetch(`${HISTORY_PATH}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, { credentials: "same-origin", cache: "no-store" });
  if (response.status === 402) return null;
  if (!response.ok) throw await failure(response);
  const { historyPageSchema } = await import("@/lib/shared/contracts/history");
  return readAs(historyPageSchema, await response.json(), "history");
}

/** Ends this browser's sign-in (its session, and the cookie). */
export async function signOutOfHistory(): Promise<void> {
  await fetch(SESSION_PATH, { method: "DELETE", credentials: "same-origin" });
}

/** Has the service forget a request's question and answer (it stays a payment on the ledger). */
export async function forgetHistoryItem(id: string): Promise<void> {
  const response = await fetch(`${HISTORY_PATH}/${encodeURIComponent(id)}`, { method: "DELETE", credentials: "same-origin" });
  if (!response.ok) throw await failure(response);
}

/** The thread a history item belongs to: its conversation's (a chat's follow-ups, a research conversation's turns), or its own. */
export const historyThreadOf = (item: HistoryItem): string => item.conversationId ?? item.id;

/** A past thread of the wallet as the history lists it. */
export type WalletThread = { threadId: string; title: string; startedAt: string; sealed: boolean; items: HistoryItem[] };

/** The words the list shows for a request whose question is not there. */
export function questionOf(item: HistoryItem): string {
  if (item.question !== null) return item.question;
  return item.sealed ? "Sealed request: its question and answer stay sealed" : "Its question is no longer kept";
}

/** The wallet's items as threads, newest first, keeping those where every word of `query` is in a question. */
export function walletThreads(items: HistoryItem[], query: string): WalletThread[] {
  const byThread = new Map<string, HistoryItem[]>();
  for (const item of [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) byThread.set(historyThreadOf(item), [...(byThread.get(historyThreadOf(item)) ?? []), item]);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return [...byThread.entries()]
    .map(([threadId, list]) => ({ threadId, title: questionOf(list[0]!), startedAt: list[0]!.createdAt, sealed: list.every((i) => i.sealed), items: list }))
    .filter((t) => words.every((w) => t.items.some((i) => (i.question ?? "").toLowerCase().includes(w))))
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** Each plain request of a thread reopened, as thread entries of `wallet`, oldest first (sealed ones stay sealed: not reopened). */
export async function reopenThread(thread: WalletThread, wallet: string): Promise<ThreadEntry[]> {
  const { historyEntrySchema } = await import("@/lib/shared/contracts/history");
  const conversations = new Map<string, Promise<ReadConversation | null>>();
  const entries: ThreadEntry[] = [];
  for (const item of thread.items.filter((i) => !i.sealed)) {
    const response = await fetch(`${HISTORY_PATH}/${encodeURIComponent(item.id)}`, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw await failure(response);
    const entry = readAs(historyEntrySchema, await response.json(), "reopened request");
    entries.push(await threadEntryOf(entry, { wallet, threadId: thread.threadId, conversations }));
  }
  return entries;
}

/** A reopened request as a thread entry: its answer as the thread shows one, or why there is none. */
async function threadEntryOf(entry: HistoryEntry, { wallet, threadId, conversations }: { wallet: string; threadId: string; conversations: Map<string, Promise<ReadConversation | null>> }): Promise<ThreadEntry> {
  const kind = KIND[entry.kind];
  const base: ThreadEntry = {
    id: entry.id,
    threadId,
    wallet: wallet.toLowerCase(),
    kind,
    question: questionOf(entry),
    askedAt: entry.createdAt,
    status: "running",
    ...(kind === "research" && entry.conversationId ? { conversationId: entry.conversationId } : {}),
  };
  const answer = entry.answer;
  switch (answer.status) {
    case "completed":
      return { ...base, status: "done", outcome: await outcomeOf(kind, answer.result) };
    case "failed":
      return { ...base, status: "failed", failure: answer.error };
    case "not_kept":
      return { ...base, status: "failed", failure: "its answer is no longer kept by the service" };
    case "in_conversation": {
      if (!conversations.has(answer.pollUrl)) conversations.set(answer.pollUrl, readConversationAt(answer.pollUrl));
      const conversation = await conversations.get(answer.pollUrl)!;
      const turn = conversation?.turns.find((t) => t.messageId === entry.messageId);
      if (!conversation || !turn) return { ...base, status: "failed", failure: "its conversation is no longer kept by the service" };
      if (turn.status === "completed") return { ...base, status: "done", outcome: { kind: "research", result: conversation, messageId: turn.messageId } };
      if (turn.status === "queued" || turn.status === "running") return base;
      return { ...base, status: "failed", failure: `the research ${turn.status === "timeout" ? "timed out" : turn.status}` };
    }
    case "running":
    case "sealed":
      return base;
  }
}

/** A completed answer, read as the thread keeps it: a chat's ChatResult, a search's LiteratureJobResult. */
async function outcomeOf(kind: ThreadKind, result: unknown): Promise<ThreadResult> {
  if (kind === "literature") return { kind: "literature", result: await readLiteratureResult(result) };
  const { chatResultSchema } = await import("@/lib/shared/contracts/chat");
  return { kind: "chat", result: readAs(chatResultSchema, result, "chat answer") };
}

/** A research conversation from its free route, or null when the service no longer knows it. */
async function readConversationAt(url: string): Promise<ReadConversation | null> {
  const response = await fetch(url, { cache: "no-store" });
  if (response.status === 404) return null;
  if (!response.ok) throw await failure(response);
  return readConversation(await response.json());
}
