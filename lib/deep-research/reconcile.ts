import type { DeepResearchConversation, DeepResearchStatus, DeepResearchTurn } from "@/lib/contracts";
import { upsertConversationStatus } from "@/lib/db/queries/conversations";
import { listConversationPayments, transitionPayment, type PaymentRow } from "@/lib/payments/ledger";
import { settlePayment, type SettleDeps } from "@/lib/payments/settle";

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
    const outcome = await settlePayment(deps, { id: payment.id, from: ["scheduled"] });
    return outcome.outcome === "busy" ? "pending" : outcome.outcome;
  }
  // Still running: it times out if the authorization expires before the work finishes.
  if (payment.validBefore <= deps.nowSeconds()) {
    const expired = await transitionPayment({ db: deps.db, id: payment.id, from: ["scheduled"], to: "expired", failureReason: "authorization_expired" });
    return expired ? "expired" : null;
  }
  return null;
}

/**
 * What the client may see: replies and citations of turns whose payment settled, the world state
 * only when every finished turn is paid, and the gateway's own `timeout`. A finished conversation
 * whose payment is still settling reads as `running` so clients keep polling.
 */
export function presentConversation(conversation: DeepResearchConversation, payments: PaymentRow[]): DeepResearchConversation {
  const { status, sessionStatus } = presentStatus(conversation, payments);
  const byMessage = new Map(payments.filter((p) => p.messageId).map((p) => [p.messageId!, p]));
  let allPaid = true;
  const turns = conversation.turns?.map((turn): DeepResearchTurn => {
    const paid = byMessage.get(turn.messageId)?.status === "settled";
    if (paid) return turn;
    if (turn.reply !== undefined || turn.citations.length > 0) allPaid = false;
    const { reply: _reply, ...rest } = turn;
    return { ...rest, citations: [] };
  });
  return {
    ...conversation,
    status,
    ...(sessionStatus !== undefined ? { sessionStatus } : {}),
    ...(conversation.worldState !== undefined ? { worldState: allPaid ? conversation.worldState : null } : {}),
    ...(turns ? { turns } : {}),
  };
}

function presentStatus(
  conversation: DeepResearchConversation,
  payments: PaymentRow[],
): { status: DeepResearchStatus; sessionStatus: string | undefined } {
  if (payments.some((p) => p.status === "expired")) {
    return { status: "timeout", sessionStatus: "The payment authorization expired before the research finished; nothing was charged" };
  }
  const failed = payments.find((p) => p.status === "failed");
  if (failed) {
    return { status: "failed", sessionStatus: `The payment could not be settled (${failed.failureReason ?? "settlement_failed"})` };
  }
  const unsettledFinished = payments.some(
    (p) => (p.status === "scheduled" || p.status === "settling") && isFinished(conversation, p.messageId),
  );
  if (unsettledFinished) return { status: "running", sessionStatus: "Settling the payment before releasing the result" };
  return { status: conversation.status, sessionStatus: conversation.sessionStatus };
}

function isFinished(conversation: DeepResearchConversation, messageId: string | null): boolean {
  const turn = conversation.turns?.find((t) => t.messageId === messageId);
  return (turn?.status ?? conversation.status) === "completed";
}

