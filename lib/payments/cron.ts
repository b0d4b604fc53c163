import type { DeepResearchConversation } from "@/lib/contracts";
import { reconcilePrivateRun } from "@/lib/deep-research/private-runs";
import { reconcileConversation, type ReconcileCounts } from "@/lib/deep-research/reconcile";
import type { PrivateRunStatus } from "@/lib/upstream";
import { log } from "@/lib/log";
import { UpstreamHttpError } from "@/lib/upstream/client";
import { claimDuePayments, markUnsettled, transitionPayment, voidPayment, type PaymentRow } from "./ledger";
import { confirmPayment, settlePayment, type SettleDeps } from "./settle";

export type CronDeps = SettleDeps & {
  getConversation: (conversationId: string) => Promise<DeepResearchConversation>;
  /** An encrypted deep-research run's status (null when the agent does not know it). */
  getPrivateRunStatus: (messageId: string) => Promise<PrivateRunStatus | null>;
  batchSize: number;
};

export type CronResult = ReconcileCounts & {
  ok: true;
  checked: number;
  interrupted: number;
  errors: number;
  /** The self-hosted facilitator's upkeep: receipts confirmed, transactions re-sent, nonces filled. */
  transactions: Record<string, number>;
};

/** A request that has neither answered nor moved on after this long was interrupted (a crash). */
const INTERRUPTED_AFTER_SECONDS = 300;
/** How long one payment may hold the cron waiting for a receipt. */
const CRON_WAIT_MS = 5_000;

/**
 * One run of the settlement cron, over one bounded batch:
 * - deep-research payments whose turn finished are settled (or voided, or expired into `timeout`);
 * - settlements whose process died are followed to their end: a transaction of ours already sent
 *   is confirmed or sent again, never doubled; a paid request that never sent one is left
 *   `unsettled` for its client's retry (nobody is charged for an answer they never got);
 * - unsettled payments (answered 503) are checked on chain, settled if their transfer landed after
 *   all, and closed once their authorization has expired;
 * - requests interrupted before settling are closed: nothing of ours was sent, so nothing is owed;
 * - the self-hosted facilitator's transactions are repaired (lib/payments/settlement).
 * Overlapping runs take disjoint batches; settlement itself happens once per payment.
 */
export async function runSettlementCron(deps: CronDeps): Promise<CronResult> {
  const result: CronResult = { ok: true, checked: 0, settled: 0, pending: 0, voided: 0, expired: 0, failed: 0, interrupted: 0, errors: 0, transactions: {} };
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
        count(result, await resumeSettlement(deps, row));
      } else if (row.status === "unsettled") {
        count(result, await closeUnsettled(deps, row));
      } else if (row.status === "received" || row.status === "verified") {
        result.interrupted++;
        if (await transitionPayment({ db: deps.db, id: row.id, from: ["received", "verified"], to: "voided", failureReason: "interrupted" })) result.voided++;
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

  try {
    result.transactions = await deps.facilitator.maintain();
  } catch (err) {
    result.errors++;
    log.error("cron: the facilitator's upkeep failed", { error: err });
  }
  return result;
}

type Outcome = keyof ReconcileCounts | null;

function count(result: CronResult, outcome: Outcome): void {
  if (outcome) result[outcome]++;
}

/**
 * A settlement whose lease ran out (its process died). Deferred settlement goes on: the work was
 * delivered and is released on payment. A paid request follows only what it already sent.
 */
async function resumeSettlement(deps: CronDeps, row: PaymentRow): Promise<Outcome> {
  if (row.operation === "deepResearch" || row.operation === "deepResearchEncrypted") {
    const outcome = await settlePayment(deps, { id: row.id, from: [], waitMs: CRON_WAIT_MS, whenUnavailable: "reschedule" });
    return outcome.outcome === "busy" || outcome.outcome === "unavailable" ? "pending" : outcome.outcome;
  }
  const confirmed = await confirmPayment(deps, row, { waitMs: CRON_WAIT_MS });
  if (confirmed?.outcome === "settled") return "settled";
  if (confirmed?.outcome === "pending") return "pending";
  // Nothing of ours is known to be on its way. The attempt may still have reached a hosted
  // facilitator, so a transfer found later counts as this payment's; a retry resumes it.
  await markUnsettled({ db: deps.db, id: row.id, status: "unsettled", message: "the request's process stopped during settlement", outcomeUnknown: true });
  return "pending";
}

/** A payment answered 503: settled if its transfer landed after all, closed once it can no longer. */
async function closeUnsettled(deps: CronDeps, row: PaymentRow): Promise<Outcome> {
  const confirmed = await confirmPayment(deps, row, { waitMs: CRON_WAIT_MS });
  if (confirmed?.outcome === "settled") return "settled";
  if (confirmed?.outcome === "pending") return "pending";
  if (row.validBefore <= deps.nowSeconds()) {
    await voidPayment({ db: deps.db, id: row.id, reason: "unsettled_expired", message: "the authorization expired before the payment could be settled; nothing was charged" });
    return "voided";
  }
  return null;
}
