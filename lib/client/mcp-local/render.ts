import { isRecord } from "@/lib/shared/narrow";

/**
 * The readable text of the local MCP server's tool results (their `content`), written from the
 * routes' JSON bodies, which travel unchanged as `structuredContent`: the answer with its
 * numbered references, what to call next, and what was paid.
 */

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | null => (isRecord(value) ? value : null);
const asText = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);

/** `[N] Title (source, year) url`, one line per reference, numbered by its ordinal where it has one. */
function referencesText(references: unknown): string {
  if (!Array.isArray(references) || references.length === 0) return "";
  const lines = references.map((item, i) => {
    const ref = asObject(item) ?? {};
    const ordinal = typeof ref.ordinal === "number" ? ref.ordinal : i + 1;
    const where = [asText(ref.source), typeof ref.year === "number" ? String(ref.year) : null].filter(Boolean).join(", ");
    return [`[${ordinal}]`, asText(ref.title) ?? "(untitled)", where ? `(${where})` : null, asText(ref.url)].filter(Boolean).join(" ");
  });
  return `References:\n${lines.join("\n")}`;
}

const paragraphs = (...parts: (string | null | undefined)[]) => parts.filter((p): p is string => Boolean(p && p.trim())).join("\n\n");

/** A chat status (GET /api/chat/status/{requestId}), with the request it belongs to. */
export function chatText(body: Json, requestId: string): string {
  const result = asObject(body.result);
  if (body.status === "completed" && result) {
    const conversationId = asText(result.conversationId);
    return paragraphs(
      asText(result.answer) ?? asText(result.reply),
      referencesText(result.references),
      conversationId ? `conversationId: ${conversationId} (send it with chat to ask a follow-up in this conversation)` : null,
    );
  }
  if (body.status === "failed") return `The chat answer failed: ${asText(body.error) ?? "no reason given"}.`;
  const progress = asObject(body.progress);
  const where = progress ? ` (${String(progress.stage)}, ${String(progress.percent)}%)` : "";
  return `The answer is not ready yet: ${String(body.status ?? "pending")}${where}. Read it with chat_status {"requestId": "${requestId}"} (free).`;
}

/** A literature job (GET /api/literature/jobs/{jobId}, or the synchronous 200 of POST /api/literature). */
export function literatureText(body: Json, jobId: string): string {
  if (body.status === "completed") {
    const failed = Array.isArray(body.failedSources) && body.failedSources.length > 0 ? `Sources that failed during the search: ${body.failedSources.map((s) => String(asObject(s)?.source ?? s)).join(", ")}.` : null;
    return paragraphs(asText(body.formattedAnswer) ?? asText(body.answer), asText(body.formattedAnswer) ? null : referencesText(body.references), failed);
  }
  if (body.status === "failed") return `The literature search failed: ${asText(body.error) ?? "no reason given"}.`;
  return `The search is not finished yet: ${String(body.status ?? "pending")}. Read it with literature_status {"jobId": "${jobId}"} (free).`;
}

/** A deep-research conversation (GET /api/deep-research/{conversationId}). */
export function deepResearchText(body: Json): string {
  const turns = Array.isArray(body.turns) ? body.turns.map((t) => asObject(t) ?? {}) : [];
  const last = turns.at(-1);
  const conversationId = String(body.conversationId ?? "");
  const settlement = asObject(last?.settlement);
  const status = String(body.status ?? "unknown");
  const head = `Deep research ${conversationId}: ${status}${asText(body.sessionStatus) ? ` (${String(body.sessionStatus)})` : ""}.`;
  if (last && asText(last.reply)) {
    return paragraphs(
      head,
      String(last.reply),
      referencesText(last.citations),
      settlement ? `Paid on delivery: transaction ${String(settlement.transaction)} on ${String(settlement.network)} from ${String(settlement.payer)}.` : null,
      `Continue it with deep_research_start {"message": "…", "conversationId": "${conversationId}"}.`,
    );
  }
  if (["queued", "running", "cancelling"].includes(status)) return `${head} Still working; read it again with deep_research_status {"conversationId": "${conversationId}"} in about 10 seconds (free).`;
  return `${head} Nothing was delivered${status === "completed" ? " yet" : ", so nothing was charged"}.`;
}

/** What was paid, in words, from a decoded PAYMENT-RESPONSE. */
export function settlementText({ transaction, network, payer }: { transaction: string; network: string; payer?: string }, price: string): string {
  return `Paid ${price}${payer ? ` from ${payer}` : ""} on ${network}: transaction ${transaction}.`;
}
