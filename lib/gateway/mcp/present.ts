import { chatJobStatusSchema, deepResearchConversationSchema, literatureJobResultSchema } from "@/lib/shared/contracts";
import type { PaidOperation } from "@/lib/shared/operations";
import type { RouteAnswer } from "@/lib/gateway/mcp/gateway-call";
import { NOTHING_IN_LIBRARY } from "@/lib/shared/contracts/unavailable-reasons";
import { isRecord } from "@/lib/shared/narrow";

/**
 * The readable `content` of a tool result, beside its `structuredContent` (the route's JSON as it
 * is): what a language model reads. A body that does not parse as its contract schema is shown
 * as its JSON, never dropped.
 */

const jsonText = (value: unknown) => JSON.stringify(value, null, 2);

/** A final (or still running) status body of `operation`'s status route, as text. */
export function statusText(operation: PaidOperation["id"], body: unknown): string {
  switch (operation) {
    case "chat":
      return chatText(body);
    case "literature":
      return literatureText(body);
    case "deepResearch":
      return deepResearchText(body);
    default:
      return jsonText(body);
  }
}

/** A chat answer: its text with the numbered sources, and how to follow up. */
function chatText(body: unknown): string {
  const parsed = chatJobStatusSchema.safeParse(body);
  if (!parsed.success) return jsonText(body);
  const job = parsed.data;
  if (job.status === "completed" && job.result) {
    return `${job.result.text}\n\nTo ask a follow-up in this conversation, call chat with conversationId "${job.result.conversationId}".`;
  }
  if (job.status === "failed") return `The answer failed: ${job.error ?? "no reason given"}.`;
  return `Status: ${job.status}${job.progress ? ` (${job.progress.stage}, ${job.progress.percent}%)` : ""}.`;
}

/** A literature result: the answer with its sources, or the references one per line. */
function literatureText(body: unknown): string {
  const parsed = literatureJobResultSchema.safeParse(body);
  if (!parsed.success) return jsonText(body);
  const job = parsed.data;
  if (job.status === "failed") return `The search failed: ${job.error ?? "no reason given"}.`;
  if (job.status !== "completed") return `Status: ${job.status ?? "unknown"}.`;
  const answer = job.formattedAnswer ?? job.answer;
  if (answer) return answer;
  const references = (job.references ?? []).map((r, i) => `[${i + 1}] ${r.title}${r.year ? ` (${r.year})` : ""} ${r.url}`);
  return references.length > 0 ? `References:\n${references.join("\n")}` : "No relevant references were found.";
}

/** A deep-research conversation: its status, and its latest turn's reply and settlement. */
function deepResearchText(body: unknown): string {
  const parsed = deepResearchConversationSchema.safeParse(body);
  if (!parsed.success) return jsonText(body);
  const conversation = parsed.data;
  const lines = [`Conversation ${conversation.conversationId}: ${conversation.status}${conversation.sessionStatus ? ` (${conversation.sessionStatus})` : ""}.`];
  const turn = conversation.turns?.at(-1);
  if (turn) {
    lines.push(`Latest turn ${turn.messageId} (${turn.status}): ${turn.objective}`);
    if (turn.reply) lines.push("", turn.reply);
    if (turn.settlement) lines.push("", `Paid: transaction ${turn.settlement.transaction} on ${turn.settlement.network} by ${turn.settlement.payer}.`);
  }
  return lines.join("\n");
}

/** What an answer of 400 or more means for the caller, with what to do next. */
export function errorText(answer: RouteAnswer, { retryAfterSeconds }: { retryAfterSeconds: number | undefined }): string {
  const body = isRecord(answer.body) ? answer.body : null;
  const what = typeof body?.error === "string" ? body.error : typeof answer.body === "string" ? answer.body : "Request failed";
  const reason = typeof body?.reason === "string" ? ` ${body.reason}` : "";
  const detail = typeof body?.message === "string" ? ` (${body.message})` : "";
  const parts = [`${answer.status}${reason}: ${what}${detail}.`];
  if (body?.charged === false) parts.push("Nothing was charged.");
  if (body?.reason === NOTHING_IN_LIBRARY) {
    // The library answered with nothing: the same question helps only once a live source is back.
    parts.push(
      `Asking the same again helps only once a live literature source can be searched again${retryAfterSeconds !== undefined ? ` (the next try is in ${retryAfterSeconds} seconds)` : ""}; other words for it, or a wider question, may find something in the local library now.`,
    );
  } else if (retryAfterSeconds !== undefined) {
    parts.push(
      answer.status === 429
        ? `Wait ${retryAfterSeconds} seconds before trying again.`
        : `Try again in ${retryAfterSeconds} seconds; a call that carried a payment sends the same one again (it is charged at most once).`,
    );
  }
  return parts.join(" ");
}
