import type { DeepResearchConversation, DeepResearchSettlement, DeepResearchStatus, DeepResearchTurn } from "@/lib/shared/contracts";
import { upsertConversationStatus } from "@/lib/shared/db/queries/conversations";
import { listConversationPayments, transitionPayment, type PaymentRow } from "@/lib/gateway/payments/ledger";
import { confirmPayment, settlePayment, type SettleDeps } from "@/lib/gateway/payments/settle";
import { settlementOf } from "@/lib/gateway/deep-research/receipts";

/** How long a poll or the cron waits for a deferred settlement's receipt before reading it as still settling. */
const DEFERRED_SETTLE_WAIT_MS = 10_000;

/**
 * Deep research is paid when its result is delivered. This module is the one idempotent path,
 * shared by the cron and by GET /api/deep-research/{id}, that brings a conversation's payments in
 * line with its turns: a finished turn's payment is settled (once, whoever gets there first), a
 * failed or cancelled turn's payment is voided, an authorization that expired before its turn
 * finished turns the conversation `timeout`. A reply is released only once its payment settled.
 */

export type ReconcileCounts = { settled: number; pending: number; voided: number; expired: number; failed: number };

const FINISHED: DeepResearchStatus[] = ["completed"];
const ABANDONED: DeepResearchStatus[] = ["failed", "cancelled"];

export async function reconcileConversation(
  deps: SettleDeps,
  conversation: DeepResearchConversation,
): Promise<{ payments: PaymentRow[]; counts: ReconcileCounts }> {
  const counts: ReconcileCounts = { settled: 0, pending: 0, voided: 0, expired: 0, failed: 0 };
  const payments = await listConversationPayments({ db: deps.db, conversationId: conversation.conversationId });
  const turns = new Map((conversation.turns ?? []).map((t) => [t.messageId, t]));

  for (const payment of payments) {
    const turn = payment.messageId ? turns.get(payment.messageId) : undefined;
    const outcome = await reconcilePayment(deps, payment, turn?.status ?? (conversation.turns ? undefined : conversation.status));
    if (outcome) counts[outcome]++;
  }
  const fresh = await listConversationPayments({ db: deps.db, conversationId: conversation.conversationId });
  await upsertConversationStatus({
    db: deps.db,
    conversationId: conversation.conversationId,
    status: presentStatus(conversation, fresh).status,
  });
  return { payments: fresh, counts };
}

/**
 * One deferred payment against the status of the work it pays for: settled when finished, voided
 * when abandoned, expired when its authorization ran out first; otherwise left as it is.
 * Returns what happened, if anything.
 */
export async function reconcilePayment(
  deps: SettleDeps,
  payment: PaymentRow,
  workStatus: DeepResearchStatus | undefined,
): Promise<keyof ReconcileCounts | null> {
  if (payment.status !== "scheduled" && payment.status !== "settling") return null;
  if (workStatus && ABANDONED.includes(workStatus)) {
    const voided = await transitionPayment({ db: deps.db, id: payment.id, from: ["scheduled"], to: "voided", failureReason: `turn ${workStatus}` });
    return voided ? "voided" : null;
  }
  if (workStatus && FINISHED.includes(workStatus)) {
    // A settlement already under way is only confirmed here (its receipt), never started twice.
    const outcome =
      payment.status === "settling"
        ? ((await confirmPayment(deps, payment, { waitMs: 0 })) ?? { outcome: "busy" as const })
        : await settlePayment(deps, { id: payment.id, from: ["scheduled"], waitMs: DEFERRED_SETTLE_WAIT_MS, whenUnavailable: "reschedule" });
    return outcome.outcome === "busy" || outcome.outcome === "unavailable" ? "pending" : outcome.outcome;
  }
  // Still running: it times out if the authorization expires before the work finishes.
  if (payment.validBefore <= deps.nowSeconds()) {
    const expired = await transitionPayment({ db: deps.db, id: payment.id, from: ["scheduled"], to: "expired", failureReason: "authorization_expired" });
    return expired ? "expired" : null;
  }
  return null;
}

/**
 * What the client may see: nothing a turn found before that turn's payment settled. A turn's reply
 * and citations once its own payment settled (its objective is the client's own message). The
 * world state once every turn it was built from is paid: the agent names them in
 * `worldState.messageIds` (it keeps the state of its completed turns while a new one runs); a world
 * state that names none is taken to hold every turn. The agent's session line once every turn is
 * paid, else its progress alone. A finished conversation whose payment is still settling reads
 * `running` so clients keep polling; `timeout` is the gateway's own. A paid turn carries its
 * `settlement` (transaction, network, payer) from the ledger, never from the agent.
 */
export function presentConversation(conversation: DeepResearchConversation, payments: PaymentRow[]): DeepResearchConversation {
  const { status, sessionStatus } = presentStatus(conversation, payments);
  const paid = paidTurns(payments);
  const { worldState, sessionStatus: _agentLine, turns: agentTurns, ...rest } = conversation;
  const settlements = settlementsByTurn(payments);
  const unpayable = unpayableTurns(payments);
  const turns = agentTurns?.map((turn): DeepResearchTurn => {
    // `settlement` is the gateway's, from its ledger: whatever the agent sent under that name is dropped.
    const { settlement: _fromAgent, ...own } = turn;
    if (paid.has(turn.messageId)) {
      const settlement = settlements.get(turn.messageId);
      return settlement ? { ...own, settlement } : own;
    }
    const { reply: _reply, ...unpaid } = own;
    // A turn whose payment can no longer be made says so itself, whatever its successors do.
    return { ...unpaid, citations: [], status: unpayable.get(turn.messageId) ?? unpaid.status };
  });
  return {
    ...rest,
    status,
    ...(sessionStatus !== undefined ? { sessionStatus } : {}),
    ...(worldState !== undefined ? { worldState: worldStateIfPaid(conversation, paid) } : {}),
    ...(turns ? { turns } : {}),
  };
}

/**
 * The conversation's status is its current turn's (the latest one, or the latest payment when the
 * agent lists no turns): that turn's own payment expired or failed, or it finished and its payment
 * is still settling, else what the agent says. An earlier turn's failed payment (or, before
 * conversations were the payer's own, a stranger's) never decides it.
 */
function presentStatus(
  conversation: DeepResearchConversation,
  payments: PaymentRow[],
): { status: DeepResearchStatus; sessionStatus: string | undefined } {
  const current = currentPayment(conversation, payments);
  if (current?.status === "expired") {
    return { status: "timeout", sessionStatus: "The payment authorization expired before the research finished; nothing was charged" };
  }
  if (current?.status === "failed") {
    return { status: "failed", sessionStatus: `The payment could not be settled (${current.failureReason ?? "settlement_failed"})` };
  }
  if (current && (current.status === "scheduled" || current.status === "settling") && isFinished(conversation, current.messageId)) {
    return { status: "running", sessionStatus: "Settling the payment before releasing the result" };
  }
  const line = everyTurnPaid(conversation, paidTurns(payments)) ? conversation.sessionStatus : progressOnly(conversation);
  return { status: conversation.status, sessionStatus: line };
}

/** The payment of the turn a poll asks about: the conversation's latest turn's, or its latest payment when no turn is listed. */
function currentPayment(conversation: DeepResearchConversation, payments: PaymentRow[]): PaymentRow | undefined {
  const latest = conversation.turns?.at(-1);
  if (!latest) return payments.at(-1);
  return payments.find((p) => p.messageId === latest.messageId);
}

/** Turns whose payment can no longer be made, by messageId: `failed` (it could not be settled) or `timeout` (it expired first). */
function unpayableTurns(payments: PaymentRow[]): Map<string, DeepResearchStatus> {
  return new Map(
    payments.flatMap((p) => (p.messageId && (p.status === "failed" || p.status === "expired") ? [[p.messageId, p.status === "failed" ? "failed" : "timeout"] as const] : [])),
  );
}

function isFinished(conversation: DeepResearchConversation, messageId: string | null): boolean {
  const turn = conversation.turns?.find((t) => t.messageId === messageId);
  return (turn?.status ?? conversation.status) === "completed";
}

/** The messageIds of the turns whose payment settled. */
function paidTurns(payments: PaymentRow[]): Set<string> {
  return new Set(payments.flatMap((p) => (p.status === "settled" && p.messageId ? [p.messageId] : [])));
}

/** Each paid turn's settled transfer, by messageId. */
function settlementsByTurn(payments: PaymentRow[]): Map<string, DeepResearchSettlement> {
  return new Map(
    payments.flatMap((p) => {
      const settlement = settlementOf(p);
      return settlement && p.messageId ? [[p.messageId, settlement] as const] : [];
    }),
  );
}

/** Whether every turn of the conversation is paid for (a body without its turns lists none: no). */
function everyTurnPaid(conversation: DeepResearchConversation, paid: Set<string>): boolean {
  const turns = conversation.turns ?? [];
  return turns.length > 0 && turns.every((t) => paid.has(t.messageId));
}

/** The agent's world state when every turn it holds is paid for, else null. */
function worldStateIfPaid(conversation: DeepResearchConversation, paid: Set<string>): DeepResearchConversation["worldState"] {
  const { worldState } = conversation;
  if (!worldState) return worldState;
  const named = worldState.messageIds;
  const builtFrom = Array.isArray(named) && named.every((id): id is string => typeof id === "string") ? named : null;
  const allPaid = builtFrom ? builtFrom.every((id) => paid.has(id)) : everyTurnPaid(conversation, paid);
  return allPaid ? worldState : null;
}

/**
 * A running turn's progress from the agent's typed `progress` alone: the iteration of how many, or
 * writing. Its session line is never passed on unpaid: past the iteration it names the objective
 * it searches, which from the third iteration on is made of words of the evidence found.
 */
function progressOnly(conversation: DeepResearchConversation): string | undefined {
  const { progress } = conversation;
  if (conversation.status === "running" && progress?.step === "searching") return `Iteration ${progress.iteration} of ${progress.of}: searching the literature`;
  if (conversation.status === "running" && progress?.step === "writing") return "Writing the final answer";
  return UNPAID_LINES[conversation.status];
}

/** Session lines of unpaid conversations that are not mid-iteration: the status, said plainly. */
const UNPAID_LINES: Record<DeepResearchStatus, string> = {
  queued: "queued",
  running: "running",
  cancelling: "cancelling",
  completed: "completed",
  failed: "The run failed; nothing was charged for this turn",
  cancelled: "Cancelled; nothing was charged for this turn",
  timeout: "timeout",
};
