/**
 * The bodies of POST /api/chat and POST /api/deep-research/start, built from what was typed, or
 * what is wrong with it in words, before anything is paid. No zod here (the first page load stays
 * small): tests/unit/request-builders.test.ts holds these to the contract's schemas.
 */
import { MAX_MESSAGE_CHARS } from "@/lib/shared/contracts/limits";

export type Built<T> = { ok: true; body: T } | { ok: false; error: string };

/** A chat or deep-research message as the contract counts it (UTF-16 code units, as zod's max does). */
function checkMessage(typed: string): Built<string> {
  const message = typed.trim();
  if (!message) return { ok: false, error: "Write a question first: it is empty (only spaces or line breaks). Nothing was paid." };
  if (message.length > MAX_MESSAGE_CHARS) {
    return {
      ok: false,
      error: `The question is ${message.length.toLocaleString("en")} characters long; at most ${MAX_MESSAGE_CHARS.toLocaleString("en")} are accepted. Shorten it: nothing was cut and nothing was paid.`,
    };
  }
  return { ok: true, body: message };
}

/** POST /api/chat: a new conversation, or a follow-up within `conversationId` (an earlier answer's, paid by the same wallet). */
export function buildChatRequest({ message, conversationId }: { message: string; conversationId?: string | null }): Built<{ message: string; conversationId?: string }> {
  const checked = checkMessage(message);
  if (!checked.ok) return checked;
  return { ok: true, body: { message: checked.body, ...(conversationId ? { conversationId } : {}) } };
}

/** POST /api/deep-research/start: a new conversation, or a turn added to `conversationId`. */
export function buildResearchRequest({ message, conversationId }: { message: string; conversationId?: string | null }): Built<{ message: string; conversationId?: string }> {
  const checked = checkMessage(message);
  if (!checked.ok) return checked;
  return { ok: true, body: { message: checked.body, ...(conversationId ? { conversationId } : {}) } };
}

/** The characters-left line under a message box, and whether it is over the limit. */
export function messageCount(typed: string): { text: string; over: boolean } {
  const n = typed.trim().length;
  const over = n > MAX_MESSAGE_CHARS;
  return { text: `${n.toLocaleString("en")} / ${MAX_MESSAGE_CHARS.toLocaleString("en")} characters${over ? ` — ${(n - MAX_MESSAGE_CHARS).toLocaleString("en")} too many` : ""}`, over };
}
