import type { PaymentRequirements } from "@x402/core/types";
import type { GatewayConfig } from "@/lib/gateway/config";
import type { Queryable } from "@/lib/shared/db";
import { ApiError, errorResponse, jsonResponse, RateLimitedError } from "@/lib/shared/http";
import { recordPaidQuestion } from "@/lib/gateway/history/record";
import { log } from "@/lib/shared/log";
import type { OfferReceiptSigner } from "@/lib/gateway/offer-receipt/signer";
import { answerResponse, paidAnswers, snapshot, type ReceiptSource } from "@/lib/gateway/payments/answers";
import { holdDeferredPayment, UNSETTLED_TURNS_RETRY_AFTER_SECONDS } from "@/lib/gateway/payments/deferred-holds";
import { earlierTransfer } from "@/lib/gateway/payments/earlier-transfer";
import { clearWork, markFailed, markUnsettled, schedulePayment, storeResponse, voidPayment, type PaymentRow, type WorkAnswer } from "@/lib/gateway/payments/ledger";
import type { PaidOperation } from "@/lib/shared/operations";
import { recordInvalidAttempt } from "@/lib/gateway/payments/rate-limit";
import { isPayersFault, type PaymentReason } from "@/lib/gateway/payments/reasons";
import { paymentRequiredHeader, paymentRequiredResponse, type buildPaymentRequired } from "@/lib/gateway/payments/requirements";
import { settlePayment, type SettleDeps } from "@/lib/gateway/payments/settle";
import type { Timing } from "@/lib/gateway/payments/timing";
import type { CheckedPayment } from "@/lib/gateway/payments/verify-locally";

/**
 * The steps of a paid request after its payment is claimed (docs/payments.md): verification when
 * only the facilitator can judge the payment, the work, and settlement; with the two ways a
 * request ends without a charge, a refusal (the payer's fault) and a 503 (the service's).
 */

/** What a paid handler did once the agent accepted the work. */
export type PaidWork = {
  /** The answer for the client (202 or 200); 400 or more is never charged. */
  status: number;
  body: unknown;
  /** The agent's id of the job, for the ledger and for cancelling it. */
  upstreamJobId?: string | undefined;
  /** Deep research: the turn this payment pays for. */
  conversationId?: string;
  messageId?: string;
  /** Undo the work when its payment cannot be settled. */
  cancel?: (() => Promise<void>) | undefined;
};

export type PaidHandler<B> = (args: { request: Request; body: B; payment: CheckedPayment; params: Record<string, string> }) => Promise<PaidWork>;

/** What a client is told to wait before retrying when the service could not settle. */
const RETRY_AFTER_SECONDS = 5;

/** One paid request on its way through the steps below. */
export type PaidRequest<B> = {
  op: PaidOperation;
  route: string;
  request: Request;
  params: Record<string, string>;
  body: B;
  handle: PaidHandler<B>;
  config: GatewayConfig;
  /** The route's 402, its offers signed (lib/gateway/offer-receipt/offers.ts). */
  built: ReturnType<typeof buildPaymentRequired>;
  requirements: PaymentRequirements;
  /** Who signs this deployment's offers and receipts. */
  signer: OfferReceiptSigner;
  db: Queryable;
  deps: SettleDeps;
  /**
   * Whose invalid attempts this request counts against: the client's address
   * (lib/shared/http/client-address.ts), or, where none can be trusted, the payer once known; never a
   * bucket shared by every unidentified client, where one abuser would block them all.
   */
  client: string | null;
  digest: string;
  timing: Timing;
  /** The route's check before payment (paid-route.ts, step 1), made here for a payment claimed as new. */
  precheck?: (() => Promise<void>) | undefined;
};

/** What the receipt of payment `paymentId`'s answer is made of, for this request. */
export function receiptSource<B>(ctx: PaidRequest<B>, paymentId: string): ReceiptSource {
  return { db: ctx.db, paymentId, requirements: ctx.requirements, resourceUrl: ctx.built.body.resource!.url, signer: ctx.signer };
}

/** Steps 6a to 9 for a payment this request holds (and step 1, the route's check, for its payment). */
export async function serve<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow): Promise<Response> {
  const refusal = await precheckRefusal(ctx);
  if (refusal) {
    const response = await unchargedResponse(refusal.toResponse());
    return endUncharged(ctx, row, async () => {
      await voidPayment({ db: ctx.db, id: row.id, reason: "precheck_refused", message: refusal.message, response: await snapshot(response) });
      return response;
    });
  }
  if (ctx.op.settlement === "deferred") {
    const refused = await admitDeferred(ctx, row);
    if (refused) return refused;
  }
  if (ctx.op.settlement === "deferred" || !checked.signatureCheckedLocally) {
    const verdict = await ctx.timing.measure("verify", () => ctx.deps.facilitator.verify(checked.payload, ctx.requirements));
    if (verdict.kind === "refused" && !(verdict.reason === "invalid_signature" && checked.signatureCheckedLocally)) {
      return endUncharged(ctx, row, async () => {
        await markFailed({ db: ctx.db, id: row.id, reason: verdict.reason, message: verdict.message, end: isPayersFault(verdict.reason) ? "count" : "release" });
        return refuse(ctx, verdict.reason, verdict.message, { store: row.id, count: false });
      });
    }
    // A signature this gateway recovered itself, called invalid by the facilitator: it could not
    // check it (its chain out of reach), which is the service's trouble, not the payer's.
    if (verdict.kind !== "valid") {
      return endUncharged(ctx, row, async () => {
        // Nothing happened to the authorization: the same signature sent again tries again.
        await voidPayment({ db: ctx.db, id: row.id, reason: "verification_unavailable", message: verdict.message });
        return unavailable("Payment verification is unavailable right now; nothing was charged", verdict.message);
      });
    }
  }

  const work = await runWork(ctx, checked, row);
  if (work instanceof Response) return work;
  const answer: WorkAnswer = { status: work.status, body: work.body };

  if (ctx.op.settlement === "deferred") {
    // The payer's history keeps the question (lib/gateway/history): listed once the payment is.
    await recordHistory(ctx, row, work);
    const response = jsonResponse(work.body, { status: work.status });
    await schedulePayment({
      db: ctx.db,
      id: row.id,
      work: answer,
      upstreamJobId: work.upstreamJobId ?? null,
      conversationId: work.conversationId ?? null,
      messageId: work.messageId ?? null,
      response: await snapshot(response),
    });
    return response;
  }
  return settleNow(ctx, checked, row, work, answer);
}

/**
 * Step 6a, for deferred settlement (lib/gateway/payments/deferred-holds.ts): the payer's balance, read on
 * chain, must cover what it has not settled yet plus this, within the payer's and the client's
 * bounds of unsettled turns. Null when admitted; otherwise the answer, nothing started or charged.
 */
async function admitDeferred<B>(ctx: PaidRequest<B>, row: PaymentRow): Promise<Response | null> {
  const verdict = await ctx.timing.measure("hold", () =>
    holdDeferredPayment({ db: ctx.db, chain: ctx.deps.chain, payment: row, client: ctx.client ?? `payer:${row.payer}`, bounds: ctx.config.payments.deferredTurns }),
  );
  switch (verdict.kind) {
    case "held":
      return null;
    case "insufficient_funds":
      // Not final: the same signature is admitted once earlier turns settled or funds arrived.
      await markFailed({ db: ctx.db, id: row.id, reason: "insufficient_funds", message: verdict.message, end: "count" });
      return refuse(ctx, "insufficient_funds", verdict.message, { store: row.id });
    case "too_many_unsettled": {
      const response = await unchargedResponse(new RateLimitedError(verdict.message, UNSETTLED_TURNS_RETRY_AFTER_SECONDS, "too_many_unsettled_turns").toResponse());
      await voidPayment({ db: ctx.db, id: row.id, reason: "too_many_unsettled_turns", message: verdict.message, response: await snapshot(response) });
      return response;
    }
    case "unavailable":
      await voidPayment({ db: ctx.db, id: row.id, reason: "balance_unavailable", message: verdict.message });
      return unavailable("The payer's balance could not be read on chain; nothing was started or charged. Send the same PAYMENT-SIGNATURE again", verdict.message);
  }
}

/** Step 8: the work. An error, or an answer of 400 or more, is answered as it is and never charged. */
async function runWork<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow): Promise<PaidWork | Response> {
  let work: PaidWork;
  try {
    work = await ctx.timing.measure("upstream", () => ctx.handle({ request: ctx.request, body: ctx.body, payment: checked, params: ctx.params }));
  } catch (err) {
    const response = await unchargedResponse(errorResponse(err, { route: ctx.route }));
    return endUncharged(ctx, row, async () => {
      await voidPayment({ db: ctx.db, id: row.id, reason: "request_failed", message: `answered ${response.status}`, response: await snapshot(response) });
      return response;
    });
  }
  if (work.status >= 400) {
    await cancelWork(ctx, work, row.id);
    const response = await unchargedResponse(jsonResponse(work.body, { status: work.status }));
    return endUncharged(ctx, row, async () => {
      await voidPayment({ db: ctx.db, id: row.id, reason: "request_failed", message: `answered ${work.status}`, response: await snapshot(response) });
      return response;
    });
  }
  return work;
}

/** Step 1 for a payment claimed as new: the route's check, as an error to answer (null when it passed). */
async function precheckRefusal<B>(ctx: PaidRequest<B>): Promise<ApiError | null> {
  if (!ctx.precheck) return null;
  try {
    await ctx.precheck();
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

/**
 * An attempt that charged nothing ends with `end` (its "nothing was charged" answer) only when no
 * earlier attempt of the payment sent a transfer that landed or may still land (a retry of a 503
 * whose transfer went through after all). Otherwise the payment is owed: settled, or left
 * `unsettled` for the cron, and the answer is a 503 that says to send the same signature again,
 * which gets the work without a second charge (paid-retry.ts).
 */
async function endUncharged<B>(ctx: PaidRequest<B>, row: PaymentRow, end: () => Promise<Response>): Promise<Response> {
  const earlier = await earlierTransfer(ctx.deps, row);
  if (earlier.kind === "none") return end();
  if (earlier.kind === "settled") return settledWithoutWork(earlier.transaction);
  await markUnsettled({ db: ctx.db, id: row.id, status: "unsettled", message: earlier.message, outcomeUnknown: true });
  return unavailableMaybeCharged(earlier.message);
}

/** Step 9 for chat and literature: settled (or broadcast) before the answer leaves. */
async function settleNow<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow, work: PaidWork, answer: WorkAnswer): Promise<Response> {
  const answerFor = paidAnswers(answer, { payer: checked.payer, ...receiptSource(ctx, row.id) });
  const outcome = await ctx.timing.measure("settle", () =>
    settlePayment(ctx.deps, {
      id: row.id,
      from: ["received"],
      upstreamJobId: work.upstreamJobId ?? null,
      work: answer,
      waitMs: ctx.config.payments.confirmationTimeoutMs,
      whenUnavailable: "unsettle",
      responseFor: answerFor,
    }),
  );
  switch (outcome.outcome) {
    case "settled":
      await recordHistory(ctx, row, work);
      return answerResponse(await answerFor(outcome.transaction), { "server-timing": ctx.timing.header() });
    case "pending": {
      await recordHistory(ctx, row, work);
      // Broadcast, its receipt not in yet: the transfer is on its way, so the work is delivered.
      const paid = await answerFor(outcome.transaction);
      await storeResponse({ db: ctx.db, id: row.id, response: paid });
      return answerResponse(paid, { "server-timing": ctx.timing.header() });
    }
    case "failed":
    case "expired": {
      await cancelWork(ctx, work, row.id);
      const reason: PaymentReason = outcome.outcome === "failed" ? outcome.reason : "authorization_expired";
      const message = outcome.outcome === "failed" ? outcome.message : "the authorization expired while the request was served";
      // Counted, or not (an authorization that ran out while we worked is our slowness), by the
      // write that ended the attempt the payment held.
      return refuse(ctx, reason, message, { store: row.id, count: false });
    }
    case "unavailable":
      await cancelWork(ctx, work, row.id);
      if (outcome.mayHaveTransferred) return unavailableMaybeCharged(outcome.message);
      return unavailable("The payment could not be settled right now; nothing was delivered or charged. Send the same PAYMENT-SIGNATURE again", outcome.message);
    case "busy":
      // Another request took the settlement over (this one was taken for dead): it answers, and
      // the same request sent again gets that answer (paid-retry.ts). This request's own job is
      // never delivered, so it is cancelled; the payment's recorded work is the other's and stays.
      log.warn("a settlement this request held was taken over", { paymentId: row.id });
      await cancelJob(work, row.id);
      throw new ApiError("unavailable", "This payment is being settled by another request; send the same request again for its answer", {
        reason: "payment_in_progress",
        headers: { "retry-after": "2" },
      });
  }
}

/**
 * A refused payment: 402 with the requirements, `reason` and `message`; stored as the answer of
 * the payment when there is one, and counted against the client (429 past the limit) unless the
 * refusal was not the client's doing, or (`count: false`) the ledger's write that ended the
 * attempt the payment held already counted it.
 */
export async function refuse<B>(ctx: PaidRequest<B>, reason: PaymentReason, message?: string, { store, count = true }: { store?: string; count?: boolean } = {}): Promise<Response> {
  const response = paymentRequiredResponse(ctx.built, { reason, message });
  if (store) await storeResponse({ db: ctx.db, id: store, response: await snapshot(response) });
  if (count && ctx.client && isPayersFault(reason)) {
    const limits = ctx.config.payments.invalidAttempts;
    await recordInvalidAttempt({ db: ctx.db, client: ctx.client, limit: limits.limit, windowSeconds: limits.windowSeconds });
  }
  return response;
}

/**
 * An error answered to a request that carried a payment which charged nothing (its body refused,
 * its work failed or answered 400 or more): the JSON object body says `charged: false`, so a
 * client that signed knows it need not look at its wallet. A body that is not a JSON object is
 * left as it is.
 */
export async function unchargedResponse(response: Response): Promise<Response> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  if (!body || typeof body !== "object" || Array.isArray(body)) return new Response(text, { status: response.status, headers });
  return new Response(JSON.stringify({ ...body, charged: false }), { status: response.status, headers });
}

/**
 * Step 2 for a body that step 3 would refuse: the 402 with the requirements all the same (prices
 * stay discoverable whatever is sent), whose `error`, in the body and (cut short) in the
 * PAYMENT-REQUIRED header, says what the 400 (or 413) after payment would, so a client fixes its
 * request before it signs anything.
 */
export function paymentRequiredForRefusedBody(built: ReturnType<typeof buildPaymentRequired>, refusal: ApiError): Response {
  const what = refusal.reason ? `${refusal.status} ${refusal.reason}` : String(refusal.status);
  const error = `Payment required; but this request would then be refused (${what}, nothing charged): ${refusal.message}`;
  return jsonResponse({ ...built.body, error }, { status: 402, headers: { "payment-required": paymentRequiredHeader(built, { error }) } });
}

/** The service could not take the payment now: 503 with Retry-After, nothing charged, not the client's fault. */
export function unavailable(error: string, detail: string): never {
  log.warn("paid request answered 503", { error, detail });
  throw new ApiError("unavailable", error, { reason: "settlement_unavailable", headers: { "retry-after": String(RETRY_AFTER_SECONDS) } });
}

/**
 * 503 for a payment whose transfer may have happened (sent, its outcome unknown): not "nothing was
 * charged", which may be untrue; the same signature sent again is served, and charged at most once.
 */
export function unavailableMaybeCharged(detail: string): never {
  unavailable(
    "The payment could not be confirmed right now and nothing was delivered; its transfer may have gone through. Send the same request with the same PAYMENT-SIGNATURE again: it is served and charged at most once",
    detail,
  );
}

/**
 * 503 for a payment settled on chain whose work cannot be done right now (a retry of a 503 whose
 * transfer landed, its work refused meanwhile): the same signature sent again does the work, free.
 */
export function settledWithoutWork(transaction: string): never {
  log.warn("paid request answered 503: settled, its work not done yet", { transaction });
  throw new ApiError("unavailable", `This payment was settled (transaction ${transaction}) but its work cannot be done right now; send the same request with the same PAYMENT-SIGNATURE again: it is served without a second charge`, {
    reason: "payment_in_progress",
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
  });
}

/**
 * Cancels the agent's job of a payment that will not be settled now, and forgets it in the
 * ledger: if the transfer turns out to have happened after all, a retry does the work again
 * rather than pointing at a cancelled job.
 */
async function cancelWork<B>(ctx: PaidRequest<B>, work: PaidWork, paymentId: string): Promise<void> {
  await cancelJob(work, paymentId);
  await clearWork({ db: ctx.db, id: paymentId });
}

/** Cancels the agent's job of work this request will not deliver. */
async function cancelJob(work: PaidWork, paymentId: string): Promise<void> {
  if (work.cancel) await work.cancel().catch((err: unknown) => log.warn("could not cancel unpaid job", { paymentId, error: err }));
}

/**
 * The payer's history keeps the question (lib/gateway/history), written by the request whose work
 * the payment delivers: for immediate settlement, the one that settled it, so a request taken
 * over on the way never points the entry at a job nobody delivers.
 */
function recordHistory<B>(ctx: PaidRequest<B>, row: PaymentRow, work: PaidWork): Promise<void> {
  return recordPaidQuestion({ db: ctx.db, op: ctx.op, paymentId: row.id, body: ctx.body, work, retentionSeconds: ctx.config.retention.historySeconds });
}

