/**
 * The research thread: the questions of a session and what came back, and the follow-ups an
 * answer suggests. Pure functions (no storage, no React): tests/unit/thread.test.ts.
 */
import type { ChatResult, LiteratureJobResult } from "@/lib/shared/contracts";
import type { PaidOperation } from "@/lib/shared/operations";
import type { ReadConversation } from "@/lib/web/read-results";

export type ThreadKind = "chat" | "literature" | "research";

/** What one paid question brought back, by kind. */
export type ThreadResult =
  | { kind: "chat"; result: ChatResult }
  | { kind: "literature"; result: LiteratureJobResult }
  | { kind: "research"; result: ReadConversation; messageId: string };

/** One paid question of a thread, as this browser keeps it. */
export type ThreadEntry = {
  id: string;
  threadId: string;
  /** The payer's address, lower case: history is kept per wallet. */
  wallet: string;
  kind: ThreadKind;
  question: string;
  askedAt: string;
  status: "running" | "done" | "failed";
  /** Sealed: kept in this page's memory only, never in the browser's storage. */
  sealed?: boolean;
  /** Why it failed, in words. */
  failure?: string;
  /** Deep research: the conversation a follow-up continues. */
  conversationId?: string;
  /** A chat follow-up: the earlier answer it was asked on (the person chose to follow up on it). */
  followsUp?: FollowTarget["follows"];
  outcome?: ThreadResult;
};

/**
 * A chat answer a person chose to follow up on: its conversation, which the next question is sent
 * in, and which entry and question it was, for the page to say what the next question follows.
 */
export type FollowTarget = { conversationId: string; follows: { entryId: string; question: string } };

/**
 * A suggested next question: one click pays for it (its price is on the button). `conversationId`
 * continues that conversation (deep research's open questions, chat's follow-ups on an answer).
 */
export type FollowUp = { kind: ThreadKind; question: string; label: string; conversationId?: string; follows?: FollowTarget["follows"] };

export const OPERATION_OF: Record<ThreadKind, PaidOperation["id"]> = { chat: "chat", literature: "literature", research: "deepResearch" };

export const KIND_LABELS: Record<ThreadKind, string> = { chat: "Chat", literature: "Literature search", research: "Deep research" };

const MAX_FOLLOW_UPS = 3;

/**
 * How long a question may stay "running" in the stored history. Past it, no tab can still be
 * following it (the panels give up after an hour) and the service has forgotten the job (results
 * are kept an hour), so it will never get an answer: the tab that asked it was closed first.
 */
export const RUNNING_FOR_AT_MOST_MS = 2 * 60 * 60_000;

/** A stored entry still "running" long after any tab could follow it, ended with why; null when it is not one. */
/**
 * The wallet's entries as read from this browser's store, merged into what the page holds. The
 * read is slow and races the page: an answer that arrived (or a question asked) while it ran is
 * written to the store after the read began. So an entry the page has finished is never set back
 * to `running` by an older copy read from the store, and an entry of this wallet the store did not
 * hold yet stays; entries of another wallet go.
 */
export function mergeStoredEntries(current: readonly ThreadEntry[], stored: readonly ThreadEntry[], wallet: string): ThreadEntry[] {
  const held = new Map(current.map((e) => [e.id, e]));
  const storedIds = new Set(stored.map((e) => e.id));
  const merged = stored.map((s) => {
    const mine = held.get(s.id);
    return mine && s.status === "running" && mine.status !== "running" ? mine : s;
  });
  return [...merged, ...current.filter((e) => !storedIds.has(e.id) && e.wallet === wallet.toLowerCase())];
}

export function abandoned(entry: ThreadEntry, now: number): ThreadEntry | null {
  if (entry.status !== "running" || !(now - Date.parse(entry.askedAt) > RUNNING_FOR_AT_MOST_MS)) return null;
  return { ...entry, status: "failed", failure: "the page that asked it was closed before the answer arrived, and the service no longer keeps it" };
}

/**
 * The follow-ups an answer suggests, from what its typed result offers: a deep-research turn's
 * open questions (continuing the same conversation); a chat answer's limits (evidence only from
 * animals or cells, no primary evidence, a verdict that is not settled); a search whose evidence
 * is thin or of low confidence.
 */
export function suggestFollowUps(entry: ThreadEntry): FollowUp[] {
  const outcome = entry.outcome;
  if (entry.status !== "done" || !outcome) return [];
  if (outcome.kind === "research") {
    const open = outcome.result.worldState?.openQuestions ?? [];
    const conversationId = outcome.result.conversationId;
    return open.slice(0, MAX_FOLLOW_UPS).map((question) => ({ kind: "research", question, label: "Continue the research", conversationId }));
  }
  const out: FollowUp[] = [];
  if (outcome.kind === "chat") {
    const { verdict, verdictBasis, quality } = outcome.result;
    const target = followTargetOf(entry);
    if (verdictBasis && verdictBasis.indirect > 0 && !quality.primaryEvidencePresent) {
      // A follow-up within the answer's conversation: the agent reads it with the question it follows.
      const inPeople = "What evidence is there in people, not only in animals or cells?";
      out.push(target ? { kind: "chat", question: inPeople, label: "Ask about evidence in people", ...target } : { kind: "chat", question: `${entry.question} ${inPeople}`, label: "Ask about evidence in people" });
    }
    if (verdict === "insufficient" || verdict === "mixed" || !quality.primaryEvidencePresent) {
      out.push({ kind: "research", question: entry.question, label: "Research it in depth" });
    }
    out.push({ kind: "literature", question: entry.question, label: "See every reference found" });
  } else {
    const quality = outcome.result.quality;
    if (quality?.evidenceThin || quality?.lowConfidence) out.push({ kind: "research", question: entry.question, label: "Research it in depth" });
    out.push({ kind: "chat", question: entry.question, label: "Ask for a cited answer" });
  }
  return out.slice(0, MAX_FOLLOW_UPS);
}

/**
 * What following up on `entry` continues: a plain chat answer's conversation (sealed chats keep
 * theirs inside the envelope); null for any other entry, or one not answered. Only the payer who
 * started a conversation may continue it, and a thread shows the payer's own entries only.
 */
export function followTargetOf(entry: ThreadEntry): FollowTarget | null {
  if (entry.kind !== "chat" || entry.sealed || entry.status !== "done" || entry.outcome?.kind !== "chat") return null;
  const conversationId = entry.outcome.result.conversationId;
  return conversationId ? { conversationId, follows: { entryId: entry.id, question: entry.question } } : null;
}

/**
 * The paragraph a chat or literature answer opens with, stating the verdict (ChatResult
 * metadata.bottomLine, LiteratureJobResult.bottomLine), or null when the result does not say.
 */
export function bottomLineOf(outcome: ThreadResult | null | undefined): string | null {
  if (outcome?.kind === "chat") {
    const said = outcome.result.metadata?.bottomLine;
    return typeof said === "string" && said ? said : null;
  }
  if (outcome?.kind === "literature") return outcome.result.bottomLine ?? null;
  return null;
}

/** The text of an entry's answer, for search. */
function answerText(entry: ThreadEntry): string {
  const outcome = entry.outcome;
  if (!outcome) return "";
  if (outcome.kind === "chat") return outcome.result.answer;
  if (outcome.kind === "literature") return outcome.result.answer ?? "";
  return outcome.result.turns.find((t) => t.messageId === outcome.messageId)?.reply ?? "";
}

/** A past thread as the history lists it. */
export type ThreadSummary = { threadId: string; title: string; startedAt: string; entries: ThreadEntry[] };

/** The threads of `entries`, newest first, keeping those where every word of `query` is found in a question or an answer. */
export function searchThreads(entries: ThreadEntry[], query: string): ThreadSummary[] {
  const byThread = new Map<string, ThreadEntry[]>();
  for (const e of [...entries].sort((a, b) => a.askedAt.localeCompare(b.askedAt))) byThread.set(e.threadId, [...(byThread.get(e.threadId) ?? []), e]);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const threads = [...byThread.entries()].map(([threadId, list]) => ({ threadId, title: list[0]!.question, startedAt: list[0]!.askedAt, entries: list }));
  return threads
    .filter((t) => {
      const text = t.entries.map((e) => `${e.question}\n${answerText(e)}`).join("\n").toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/**
 * A short excerpt of an answer for the thread (its first paragraph, markers kept). A follow-up's
 * answer opens with the paragraph saying what it follows (metadata.followUp), which the thread
 * already shows, and the bottom line is said by the answer's card (and the verdict beside the
 * excerpt): the excerpt is the first paragraph that is neither.
 */
export function excerptOf(entry: ThreadEntry, max = 280): string {
  const bottomLine = bottomLineOf(entry.outcome)?.trim();
  const paragraphs = answerText(entry)
    .split(/\n\s*\n/)
    .slice(readAsFollowUp(entry) ? 1 : 0)
    .map((p) => p.trim())
    .filter((p) => p && p !== bottomLine);
  const first = paragraphs[0] ?? "";
  return first.length > max ? `${first.slice(0, max - 1).trimEnd()}…` : first;
}

/** The agent read this chat answer's question as a follow-up (its typed metadata says so). */
function readAsFollowUp(entry: ThreadEntry): boolean {
  const reading = entry.outcome?.kind === "chat" ? entry.outcome.result.metadata?.followUp : undefined;
  return typeof reading === "object" && reading !== null && "kind" in reading && reading.kind === "follow_up";
}
