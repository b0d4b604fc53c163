import "server-only";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";
import type { PaidOperation } from "@/lib/shared/operations";
import { isRecord } from "@/lib/shared/narrow";

/**
 * What a wallet's history keeps of a plain paid request, beside its ledger row: its question in
 * the payer's words, the conversation it belongs to, and its answer once the gateway sees it
 * (keepResult: a status poll that finds it completed, or a reopening). Nothing of a sealed
 * request, nor of one whose operation keeps no words (a literature search asked to stay out of
 * logs), nor anything at all when HISTORY_RETENTION_DAYS is 0.
 */

/**
 * Records the question of payment `paymentId`, once the agent accepted its work (paid-steps.ts,
 * and paid-retry.ts when a settled payment's work is done again, in a conversation of its own);
 * a synchronous answer (`work` 200 on an operation that may answer at once) is its result already.
 */
export async function recordPaidQuestion({
  db,
  op,
  paymentId,
  body,
  work,
  retentionSeconds,
}: {
  db: Queryable;
  op: PaidOperation;
  paymentId: string;
  body: unknown;
  work: { status: number; body: unknown; conversationId?: string | undefined };
  retentionSeconds: number;
}): Promise<void> {
  if (op.history.sealed || retentionSeconds === 0) return;
  const question = op.history.questionOf(body);
  if (question === null) return;
  const result = op.polling.synchronous && work.status === 200 ? work.body : null;
  await db.query(
    `INSERT INTO gateway.wallet_history (payment_id, question, conversation_id, result, result_at) VALUES ($1, $2, $3, $4, CASE WHEN $4::jsonb IS NULL THEN NULL ELSE now() END)
     ON CONFLICT (payment_id) DO UPDATE SET question = EXCLUDED.question, conversation_id = EXCLUDED.conversation_id WHERE gateway.wallet_history.forgotten_at IS NULL`,
    [paymentId, question, work.conversationId ?? conversationOf(work.body), result === null ? null : JSON.stringify(result)],
  );
}

/** The conversation a chat's 202 names (a follow-up continues it). */
function conversationOf(body: unknown): string | null {
  const id = isRecord(body) ? body.conversationId : undefined;
  return typeof id === "string" ? id : null;
}

/**
 * Keeps the final answer of the agent's job `upstreamJobId` for the payment of `operation` that
 * started it, if its history keeps words and has no answer yet: one indexed update, nothing when
 * no payment (or another operation's) names the job.
 */
export async function keepResult({ db, operation, upstreamJobId, result }: { db: Queryable; operation: PaidOperation["id"]; upstreamJobId: string; result: unknown }): Promise<void> {
  await db.query(
    `UPDATE gateway.wallet_history h SET result = $3, result_at = now()
       FROM gateway.payments p
      WHERE p.id = h.payment_id AND p.upstream_job_id = $2 AND p.operation = $1 AND h.result IS NULL AND h.forgotten_at IS NULL`,
    [operation, upstreamJobId, JSON.stringify(result)],
  );
}

/**
 * Forgets what `wallet`'s history keeps of payment `id` (its question and answer): the payment
 * stays in the ledger, its history row says only that it was forgotten, and it is no longer
 * listed. False when `wallet` paid for no such request.
 */
export async function forgetResult({ db, wallet, id }: { db: Queryable; wallet: string; id: string }): Promise<boolean> {
  if (!isUuid(id)) return false;
  const { rowCount } = await db.query(
    `INSERT INTO gateway.wallet_history (payment_id, forgotten_at)
       SELECT p.id, now() FROM gateway.payments p WHERE p.id = $1 AND p.payer = $2 AND p.status IN ('scheduled', 'settling', 'settled')
     ON CONFLICT (payment_id) DO UPDATE SET question = NULL, conversation_id = NULL, result = NULL, result_at = NULL, forgotten_at = COALESCE(gateway.wallet_history.forgotten_at, now())`,
    [id, wallet],
  );
  return (rowCount ?? 0) > 0;
}
