import { recordPaidQuestion } from "@/lib/gateway/history/record";
import { ApiError, jsonResponse } from "@/lib/shared/http";
import { answerResponse, paidAnswers, replayResponse } from "@/lib/gateway/payments/answers";
import { claimRedo, clearWork, getPayment, recordPaidWork, releaseRedo, reopenPayment, storeResponse, type PaymentRow, type WorkAnswer } from "@/lib/gateway/payments/ledger";
import { receiptSource, refuse, serve, settledWithoutWork, unavailable, unavailableMaybeCharged, type PaidRequest } from "@/lib/gateway/payments/paid-steps";
import { withAttemptSlot } from "@/lib/gateway/payments/rate-limit";
import type { PaymentReason } from "@/lib/gateway/payments/reasons";
import { confirmPayment, settlePayment } from "@/lib/gateway/payments/settle";
import type { CheckedPayment } from "@/lib/gateway/payments/verify-locally";

/**
 * A paid request sent again with the same PAYMENT-SIGNATURE (a client that lost its answer, got a
 * 503, or whose first request is still being answered): step 6 of docs/payments.md for a
 * signature the ledger already knows.
 */

/** How long a retry of a payment still in progress waits for the original answer. */
const REPLAY_WAIT_MS = 25_000;
/** A request that has not moved on for this long was interrupted (its process died): a retry takes it over. */
const REQUEST_LEASE_SECONDS = 90;
/** Refusals that no retry of the same authorization can change. */
const FINAL_REFUSALS = new Set(["payment_already_used", "authorization_cancelled", "authorization_expired"]);

/**
 * Step 6, for a signature the ledger already knows. For another request: refused as used. For
 * the same request: the original answer; the answer rebuilt from the recorded work once the
 * payment is settled (a process that died before writing it); the work done again when the
 * payment was settled but its work cancelled; a new attempt when nothing was charged; otherwise
 * a wait for the request that holds it, taken over when that request's process died.
 */
export async function sameSignatureAgain<B>(ctx: PaidRequest<B>, checked: CheckedPayment, first: PaymentRow): Promise<Response> {
  if (first.requestDigest !== ctx.digest) {
    return refuse(ctx, "payment_already_used", "This PAYMENT-SIGNATURE already paid for a different request; sign a new one");
  }
  const deadline = Date.now() + REPLAY_WAIT_MS;
  const answerFor = (work: WorkAnswer) => paidAnswers(work, { payer: checked.payer, ...receiptSource(ctx, first.id) });
  let row: PaymentRow | null = first;
  let confirmed = false;
  let delay = 50;
  while (row) {
    // Deep research answered its 202 when the work was accepted; what became of the payment
    // after that is the conversation's to tell, so a retry of the start gets that 202 again.
    if (ctx.op.settlement === "deferred" && row.response && row.response.status < 400) return replayResponse(row.response);
    switch (row.status) {
      case "settled":
        if (row.response) return replayResponse(row.response);
        if (row.work && row.txHash) {
          const answer = await answerFor(row.work)(row.txHash);
          // The request that settled it stopped before it wrote its answer, and perhaps before the
          // history entry that follows a settlement (paid-steps.ts): both written here.
          await recordPaidQuestion({ db: ctx.db, op: ctx.op, paymentId: row.id, body: ctx.body, work: row.work, retentionSeconds: ctx.config.retention.historySeconds });
          await storeResponse({ db: ctx.db, id: row.id, response: answer });
          return replayResponse(answer);
        }
        {
          const redone = await redoPaidWork(ctx, checked, row);
          if (redone) return redone;
        }
        break;
      case "scheduled":
        if (row.response) return replayResponse(row.response);
        break;
      case "failed":
      case "expired":
      case "unsettled":
      case "voided": {
        if (row.status === "expired" || FINAL_REFUSALS.has(row.failureReason ?? "")) {
          return row.response ? replayResponse(row.response) : refuse(ctx, (row.failureReason as PaymentReason | null) ?? "authorization_expired", row.failureMessage ?? undefined);
        }
        // Nothing was charged (an empty wallet, the facilitator down, the agent failing): try again.
        const reopened = await reopen(ctx, row, [row.status]);
        if (reopened) return serve(ctx, checked, reopened);
        break;
      }
      case "received":
      case "verified":
      case "settling": {
        // A transfer may already be on chain for a request whose process died after sending it.
        if (!confirmed && row.work) {
          confirmed = true;
          const answers = answerFor(row.work);
          const outcome = await confirmPayment(ctx.deps, row, { waitMs: Math.max(0, Math.min(5_000, deadline - Date.now())), responseFor: answers });
          if (outcome?.outcome === "settled" || outcome?.outcome === "pending") {
            const answer = await answers(outcome.transaction);
            if (outcome.outcome === "pending") await storeResponse({ db: ctx.db, id: row.id, response: answer });
            return replayResponse(answer);
          }
        }
        const takenOver = await takeOver(ctx, checked, row);
        if (takenOver) return takenOver;
        break;
      }
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 400);
    row = await getPayment({ db: ctx.db, id: first.id });
  }
  throw new ApiError("unavailable", "This payment is still being processed; retry shortly", {
    reason: "payment_in_progress",
    headers: { "retry-after": "2" },
  });
}

/**
 * A payment whose request stopped moving (its process died): an unanswered request before
 * settlement starts again; a settlement whose lease ran out is resumed, following whatever
 * transaction it had sent. Null while its holder may still be alive.
 */
async function takeOver<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow): Promise<Response | null> {
  if (row.status === "received" || row.status === "verified") {
    const reopened = await reopen(ctx, row, []);
    return reopened ? serve(ctx, checked, reopened) : null;
  }
  if (row.status !== "settling" || !row.work || ctx.op.settlement !== "immediate") return null;
  const work = row.work;
  const answerFor = paidAnswers(work, { payer: checked.payer, ...receiptSource(ctx, row.id) });
  const outcome = await settlePayment(ctx.deps, { id: row.id, from: [], waitMs: ctx.config.payments.confirmationTimeoutMs, whenUnavailable: "unsettle", responseFor: answerFor });
  if (outcome.outcome === "busy") return null;
  if (outcome.outcome === "settled" || outcome.outcome === "pending") {
    const answer = await answerFor(outcome.transaction);
    await storeResponse({ db: ctx.db, id: row.id, response: answer });
    return replayResponse(answer);
  }
  // The old job cannot be delivered unpaid; forget it so a later retry starts afresh.
  await clearWork({ db: ctx.db, id: row.id });
  if (outcome.outcome === "unavailable") {
    if (outcome.mayHaveTransferred) return unavailableMaybeCharged(outcome.message);
    return unavailable("The payment could not be settled right now; nothing was charged. Send the same PAYMENT-SIGNATURE again", outcome.message);
  }
  const reason: PaymentReason = outcome.outcome === "failed" ? outcome.reason : "authorization_expired";
  return refuse(ctx, reason, outcome.outcome === "failed" ? outcome.message : undefined, { store: row.id, count: false });
}

/**
 * Opens the payment again for this retry, which reserves its attempt as a first request does
 * (rate-limit.ts); null when another retry won.
 */
function reopen<B>(ctx: PaidRequest<B>, row: PaymentRow, from: PaymentRow["status"][]): Promise<PaymentRow | null> {
  return withAttemptSlot({
    db: ctx.db,
    client: ctx.client ?? `payer:${row.payer}`,
    limits: ctx.config.payments.invalidAttempts,
    attempt: (slot) => reopenPayment({ db: ctx.db, id: row.id, from, staleSeconds: REQUEST_LEASE_SECONDS, slot }),
  });
}

/**
 * A settled payment whose work was cancelled (the transfer landed after a 503): the work, now, by
 * one retry however many arrive at once; null for the others, which wait for its answer. Work
 * that cannot be done now (the agent down, no literature source) is a 503 that says the payment
 * is settled and to send the same signature again, never the work's own "nothing was charged".
 */
async function redoPaidWork<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow): Promise<Response | null> {
  if (!(await claimRedo({ db: ctx.db, id: row.id, staleSeconds: REQUEST_LEASE_SECONDS }))) return null;
  let work;
  try {
    work = await ctx.handle({ request: ctx.request, body: ctx.body, payment: checked, params: ctx.params });
  } catch (err) {
    await releaseRedo({ db: ctx.db, id: row.id });
    if (err instanceof ApiError && err.status < 500) throw err;
    return settledWithoutWork(row.txHash ?? "unknown");
  }
  if (work.status >= 400) {
    await releaseRedo({ db: ctx.db, id: row.id });
    if (work.status >= 500) return settledWithoutWork(row.txHash ?? "unknown");
    return jsonResponse(work.body, { status: work.status });
  }
  const answer = await paidAnswers({ status: work.status, body: work.body }, { payer: checked.payer, ...receiptSource(ctx, row.id) })(row.txHash ?? "");
  await recordPaidWork({ db: ctx.db, id: row.id, work: { status: work.status, body: work.body }, upstreamJobId: work.upstreamJobId ?? null, response: answer });
  await recordPaidQuestion({ db: ctx.db, op: ctx.op, paymentId: row.id, body: ctx.body, work, retentionSeconds: ctx.config.retention.historySeconds });
  return answerResponse(answer);
}

