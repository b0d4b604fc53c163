import { WORK_STATUSES_MAX_IDS, type DeepResearchStatus } from "@/lib/shared/contracts";
import { reconcilePrivateRun } from "@/lib/gateway/deep-research/private-runs";
import { reconcileConversation, type ReconcileCounts } from "@/lib/gateway/deep-research/reconcile";
import { lookUpWork, type WorkLookupDeps } from "@/lib/gateway/deep-research/work-statuses";
import { log } from "@/lib/shared/log";
import { UpstreamHttpError } from "@/lib/gateway/upstream/client";
import { mayHaveTransferred } from "@/lib/gateway/payments/earlier-transfer";
import { claimDuePayments, listScheduledPayments, markCronChecked, markUnsettled, transitionPayment, voidPayment, type PaymentRow } from "@/lib/gateway/payments/ledger";
import { confirmPayment, settlePayment, type SettleDeps } from "@/lib/gateway/payments/settle";
import { keysOf } from "@/lib/shared/narrow";

export type CronDeps = SettleDeps & WorkLookupDeps & { batchSize: number };

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
/** Scheduled payments one run asks the agent about at most (a few calls); the rest are asked about by the next runs, in turn. */
const SCHEDULED_SCAN_LIMIT = 4 * WORK_STATUSES_MAX_IDS;
/** An agent without the many-at-once route is asked about this many conversations and runs per payment of the batch, one by one. */
const ONE_BY_ONE_PER_BATCH = 4;
/** Work statuses that end a turn or a sealed run: its payment is settled or voided now. */
const ENDED: ReadonlySet<DeepResearchStatus> = new Set<DeepResearchStatus>(["completed", "failed", "cancelled"]);

/**
 * What the cron found ready to be done about a scheduled payment: its work ended (with the agent's
 * status), the agent does not know its work (it will never end), or its authorization expired.
 */
type ReadyWork = { kind: "ended"; status: DeepResearchStatus } | { kind: "lost" } | { kind: "expired"; status: DeepResearchStatus | undefined };

/**
 * One run of the settlement cron, over one bounded batch:
 * - deep-research payments whose work ended are settled (or voided), and those whose authorization
 *   expired first expire (the conversation `timeout`): found by asking the agent, in one call for
 *   many, which have ended, so these come first and a payment whose work still runs is never
 *   taken, whatever its age;
 * - settlements whose process died are followed to their end: a transaction of ours already sent
 *   is confirmed or sent again, never doubled; a paid request that never sent one is left
 *   `unsettled` for its client's retry (nobody is charged for an answer they never got);
 * - unsettled payments (answered 503) are checked on chain, settled if their transfer landed after
 *   all, and closed once their authorization has expired;
 * - requests interrupted before settling are closed: nothing of ours was sent, so nothing is owed
 *   (a retry of an earlier attempt that sent its transfer is left `unsettled`, as that attempt was);
 * - the self-hosted facilitator's transactions are repaired (lib/gateway/payments/settlement).
 * What a run looked at goes behind what it has not, so nothing the cron cannot move yet keeps it
 * from the rest. Overlapping runs take disjoint batches; settlement itself happens once per payment.
 */
export async function runSettlementCron(deps: CronDeps): Promise<CronResult> {
  const result: CronResult = { ok: true, checked: 0, settled: 0, pending: 0, voided: 0, expired: 0, failed: 0, interrupted: 0, errors: 0, transactions: {} };
  const ready = await findReadyWork(deps, result);
  const rows = await claimDuePayments({ db: deps.db, limit: deps.batchSize, staleSeconds: INTERRUPTED_AFTER_SECONDS, claimSeconds: 50, readyIds: [...ready.keys()] });
  result.checked = rows.length;

  const conversations = new Set<string>();
  for (const row of rows) {
    try {
      if (row.status === "scheduled" && row.conversationId) {
        conversations.add(row.conversationId);
      } else if (row.status === "scheduled" && row.operation === "deepResearchEncrypted" && row.messageId) {
        count(result, await reconcileRun(deps, row, ready.get(row.id)));
      } else if (row.status === "settling") {
        count(result, await resumeSettlement(deps, row));
      } else if (row.status === "unsettled") {
        count(result, await closeUnsettled(deps, row));
      } else if (row.status === "received" || row.status === "verified") {
        result.interrupted++;
        if (mayHaveTransferred(row)) {
          // A retry of an earlier attempt that sent its transfer: owed if it landed, never voided.
          await markUnsettled({ db: deps.db, id: row.id, status: "unsettled", message: "a retry's process stopped before it answered", outcomeUnknown: true });
        } else if (await transitionPayment({ db: deps.db, id: row.id, from: ["received", "verified"], to: "voided", failureReason: "interrupted" })) {
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
      for (const key of keysOf(counts)) result[key] += counts[key];
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

/**
 * The scheduled payments that something can be done about now, by id: looks at up to
 * SCHEDULED_SCAN_LIMIT of them (those looked at longest ago first), asks the agent which of their
 * turns and sealed runs have ended, and marks the ones it asked about looked at. When the agent
 * cannot answer, only expired authorizations are ready (an error of the run).
 */
async function findReadyWork(deps: CronDeps, result: CronResult): Promise<Map<string, ReadyWork>> {
  const scheduled = await listScheduledPayments({ db: deps.db, limit: SCHEDULED_SCAN_LIMIT });
  const lookup = await lookUpWork(deps, scheduled, { oneByOneLimit: ONE_BY_ONE_PER_BATCH * deps.batchSize }).catch((err: unknown) => {
    result.errors++;
    log.error("cron: the agent could not say which deep-research work has ended", { error: err });
    return null;
  });
  const now = deps.nowSeconds();
  const ready = new Map<string, ReadyWork>();
  for (const payment of scheduled) {
    const asked = lookup !== null && payment.messageId !== null && lookup.asked.has(payment.messageId);
    const status = asked && payment.messageId ? lookup.statuses.get(payment.messageId) : undefined;
    if (status !== undefined && ENDED.has(status)) ready.set(payment.id, { kind: "ended", status });
    else if (payment.validBefore <= now) ready.set(payment.id, { kind: "expired", status });
    else if (asked && status === undefined) ready.set(payment.id, { kind: "lost" });
  }
  // What was not asked about this time (an older agent, asked one by one) is asked first next time.
  const looked = scheduled.filter((p) => !ready.has(p.id) && p.messageId !== null && lookup?.asked.has(p.messageId));
  await markCronChecked({ db: deps.db, ids: looked.map((p) => p.id) });
  return ready;
}

/** A sealed run's payment against what the cron found of its run. */
async function reconcileRun(deps: CronDeps, row: PaymentRow, work: ReadyWork | undefined): Promise<Outcome> {
  if (!work) return null;
  if (work.kind === "lost") {
    // A run the agent lost will never finish, so nothing is owed.
    return (await transitionPayment({ db: deps.db, id: row.id, from: ["scheduled"], to: "voided", failureReason: "run_not_found" })) ? "voided" : null;
  }
  return (await reconcilePrivateRun(deps, row, work.status ?? "running")).outcome;
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
