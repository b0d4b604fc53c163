import "server-only";
import { queuedChatResultSchema } from "@/lib/shared/contracts/chat";
import type { HistoryEntry } from "@/lib/shared/contracts/history";
import { literatureJobResultSchema } from "@/lib/shared/contracts/literature";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";
import { ApiError } from "@/lib/shared/http";
import { UpstreamHttpError, type AgentApi } from "@/lib/gateway/upstream";
import { HISTORY_SELECT, historyItemOf, OPERATION_IDS, type HistoryRow } from "@/lib/gateway/history/list";
import { keepResult } from "@/lib/gateway/history/record";

/**
 * Reopens one of a wallet's paid requests with what it bought: a chat's or a literature search's
 * answer as the history keeps it, or as the agent still holds it (kept from then on); a
 * deep-research turn in its conversation, whose reply is released once its payment settled (the
 * conversation's route); a sealed request's kind and time only.
 */

/** 404 for a result this wallet did not pay for: the same words as for none at all. */
class ResultNotFoundError extends ApiError {
  constructor() {
    super("not_found", "No result of the wallet signed in has this id (or it was forgotten)", { reason: "not_found" });
    this.name = "ResultNotFoundError";
  }
}

/** `wallet`'s request `id`. Throws ResultNotFoundError when `wallet` paid for no such request. */
async function findWalletRow({ db, wallet, id }: { db: Queryable; wallet: string; id: string }): Promise<HistoryRow> {
  if (!isUuid(id)) throw new ResultNotFoundError();
  const { rows } = await db.query<HistoryRow>(`${HISTORY_SELECT} AND p.id = $3`, [wallet, OPERATION_IDS, id]);
  if (!rows[0]) throw new ResultNotFoundError();
  return rows[0];
}

/** `wallet`'s request `id`, reopened. Throws ResultNotFoundError, and the agent's errors when it must be asked and cannot answer. */
export async function reopenResult({ db, agent, publicUrl, wallet, id }: { db: Queryable; agent: AgentApi; publicUrl: string; wallet: string; id: string }): Promise<HistoryEntry> {
  const row = await findWalletRow({ db, wallet, id });
  const item = historyItemOf(row);
  if (item.sealed) return { ...item, answer: { status: "sealed" } };
  if (item.content !== "kept") return { ...item, answer: { status: "not_kept" } };
  if (item.kind === "deepResearch") {
    return { ...item, answer: { status: "in_conversation", pollUrl: `${publicUrl}/api/deep-research/${encodeURIComponent(item.conversationId ?? "")}` } };
  }
  // Kept as the agent's validated answer was (record.ts); one that does not read as its kind's is asked for again.
  const kept = (item.kind === "chat" ? queuedChatResultSchema : literatureJobResultSchema).safeParse(row.result);
  if (row.result !== null && kept.success) return { ...item, answer: { status: "completed", result: kept.data } };
  return { ...item, answer: await askAgent({ db, agent, publicUrl, row, kind: item.kind }) };
}

/** The answer of a chat or literature job the history has not kept yet, from the agent; kept once final. */
async function askAgent({ db, agent, publicUrl, row, kind }: { db: Queryable; agent: AgentApi; publicUrl: string; row: HistoryRow; kind: "chat" | "literature" }): Promise<HistoryEntry["answer"]> {
  const jobId = row.upstream_job_id;
  if (!jobId) return { status: "not_kept" };
  try {
    if (kind === "chat") {
      const { data } = await agent.getChatStatus(jobId);
      if (data.status === "completed" && data.result) {
        await keepResult({ db, operation: "chat", upstreamJobId: jobId, result: data.result });
        return { status: "completed", result: data.result };
      }
      if (data.status === "failed") return { status: "failed", error: data.error ?? "the chat ended without an answer" };
      return { status: "running", pollUrl: `${publicUrl}/api/chat/status/${encodeURIComponent(jobId)}` };
    }
    const { data } = await agent.getLiteratureJob(jobId);
    if (data.status === "completed") {
      await keepResult({ db, operation: "literature", upstreamJobId: jobId, result: data });
      return { status: "completed", result: data };
    }
    if (data.status === "failed") return { status: "failed", error: data.error ?? "the search ended without an answer" };
    return { status: "running", pollUrl: `${publicUrl}/api/literature/jobs/${encodeURIComponent(jobId)}` };
  } catch (err) {
    // The agent forgot the job (its retention) before anyone kept its answer.
    if (err instanceof UpstreamHttpError && err.upstreamStatus === 404) return { status: "not_kept" };
    throw err;
  }
}
