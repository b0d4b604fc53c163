import type { DeepResearchConversation } from "@/lib/contracts";
import { reconcilePrivateRun } from "@/lib/deep-research/private-runs";
import { reconcileConversation, type ReconcileCounts } from "@/lib/deep-research/reconcile";
import type { PrivateRunStatus } from "@/lib/upstream";
import { log } from "@/lib/log";
import { UpstreamHttpError } from "@/lib/upstream/client";
import { claimDuePayments, transitionPayment, updatePayment } from "./ledger";
import { settlePayment, type SettleDeps } from "./settle";

export type CronDeps = SettleDeps & {
  getConversation: (conversationId: string) => Promise<DeepResearchConversation>;
  /** An encrypted deep-research run's status (null when the agent does not know it). */
  getPrivateRunStatus: (messageId: string) => Promise<PrivateRunStatus | null>;
  batchSize: number;
};

export type CronResult = ReconcileCounts & { ok: true; checked: number; interrupted: number; errors: number };

/** A request that has neither answered nor settled after this long was interrupted (a crash). */
const INTERRUPTED_AFTER_SECONDS = 300;

/**
 * One run of the settlement cron, over one bounded batch: deep-research payments whose turn
 * finished are settled (or voided, or expired into `timeout`); settlements whose worker died are
 * resumed from their recorded transaction; requests interrupted before answering are closed,
 * settled if the chain shows the transfer happened and voided otherwise. Overlapping runs take
 * disjoint batches; settlement itself happens once per payment whoever runs it.
 */
export async function runSettlementCron(deps: CronDeps): Promise<CronResult> {
  const result: CronResult = { ok: true, checked: 0, settled: 0, pending: 0, voided: 0, expired: 0, failed: 0, interrupted: 0, errors: 0 };
  const rows = await claimDuePayments({ db: deps.db, limit: deps.batchSize, staleSeconds: INTERRUPTED_AFTER_SECONDS, claimSeconds: 50 });
  result.checked = rows.length;

  const conversations = new Set<string>();
  for (const row of rows) {
    try {
      if (row.status === "scheduled" && row.conversationId) {
        conversations.add(row.conversationId);
      } else if (row.status === "scheduled" && row.operation === "deepResearchEncrypted" && row.messageId) {
        const status = await deps.getPrivateRunStatus(row.messageId);
        // A run the agent lost will never finish, so nothing is owed.
        const outcome = status
          ? (await reconcilePrivateRun(deps, row, status)).outcome
          : (await transitionPayment({ db: deps.db, id: row.id, from: ["scheduled"], to: "voided", failureReason: "run_not_found" }))
            ? "voided"
            : null;
        if (outcome) result[outcome]++;
      } else if (row.status === "settling") {
        const outcome = await settlePayment(deps, { id: row.id, from: [] });
        if (outcome.outcome === "busy") result.pending++;
        else result[outcome.outcome]++;
      } else if (row.status === "received" || row.status === "verified") {
        result.interrupted++;
        const used = await deps.chain.isAuthorizationUsed(row.payer, row.nonce);
        if (used) {
          await updatePayment({ db: deps.db, id: row.id, status: "settled", fields: { settledAt: new Date() } });
          result.settled++;
        } else if (await transitionPayment({ db: deps.db, id: row.id, from: ["received", "verified"], to: "voided", failureReason: "interrupted" })) {
          await updatePayment({
            db: deps.db,
            id: row.id,
            fields: { response: { status: 500, body: { error: "The request was interrupted; nothing was charged. Sign a new payment to retry." }, headers: {} } },
          });
          result.voided++;
        }
      }
    } catch (err) {
      result.errors++;
      log.error("cron: payment failed to process", { paymentId: row.id, error: err });
    }
  }

  for (const conversationId of conversations) {
    try {
      const conversation = await deps.getConversation(conversationId);
      const { counts } = await reconcileConversation(deps, conversation);
      for (const key of Object.keys(counts) as (keyof ReconcileCounts)[]) result[key] += counts[key];
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.upstreamStatus === 404) {
        // The agent lost the conversation: its turns will never finish, so nothing is owed.
        for (const row of rows.filter((r) => r.conversationId === conversationId)) {
          if (await transitionPayment({ db: deps.db, id: row.id, from: ["scheduled"], to: "voided", failureReason: "conversation_not_found" })) {
            result.voided++;
          }
        }
        continue;
      }
      result.errors++;
      log.error("cron: conversation failed to reconcile", { conversationId, error: err });
    }
  }
  return result;
}
