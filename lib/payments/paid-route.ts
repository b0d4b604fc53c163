import { createHash } from "node:crypto";
import type { PaymentRequirements } from "@x402/core/types";
import type { z } from "zod";
import { getConfig, type GatewayConfig } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db";
import { ApiError, errorResponse, jsonResponse, parseJsonBody, withApi } from "@/lib/http";
import { clientAddress } from "@/lib/http/client-address";
import { log } from "@/lib/log";
import { answerResponse, paidAnswer, replayResponse, snapshot } from "./answers";
import { getPaymentsContext } from "./context";
import {
  claimPayment,
  clearWork,
  getPayment,
  markFailed,
  recordPaidWork,
  reopenPayment,
  schedulePayment,
  storeResponse,
  voidPayment,
  type PaymentRow,
  type WorkAnswer,
} from "./ledger";
import { getPaidOperation, type PaidOperation } from "./prices";
import { assertNotBlocked, recordInvalidAttempt } from "./rate-limit";
import { PaymentError, type PaymentReason } from "./reasons";
import { buildPaymentRequired, buildRequirements, paymentRequiredResponse } from "./requirements";
import { confirmPayment, settlePayment, type SettleDeps } from "./settle";
import { Timing } from "./timing";
import { decodePaymentHeader, verifyPaymentLocally, type CheckedPayment } from "./verify-locally";

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

/** How long a retry of a payment still in progress waits for the original answer. */
const REPLAY_WAIT_MS = 25_000;
/** A request that has not moved on for this long was interrupted (its process died): a retry takes it over. */
const REQUEST_LEASE_SECONDS = 90;
/** What a client is told to wait before retrying when the service could not settle. */
const RETRY_AFTER_SECONDS = 5;
/** Refusals that no retry of the same authorization can change. */
const FINAL_REFUSALS = new Set(["payment_already_used", "authorization_cancelled", "authorization_expired"]);

/** One paid request on its way through the steps below. */
type PaidRequest<B> = {
  op: PaidOperation;
  route: string;
  request: Request;
  params: Record<string, string>;
  body: B;
  handle: PaidHandler<B>;
  config: GatewayConfig;
  built: ReturnType<typeof buildPaymentRequired>;
  requirements: PaymentRequirements;
  db: Queryable;
  deps: SettleDeps;
  /**
   * Whose invalid attempts this request counts against: the client's address
   * (lib/http/client-address.ts), or, where none can be trusted, the payer once known; never a
   * bucket shared by every unidentified client, where one abuser would block them all.
   */
  client: string | null;
  digest: string;
  timing: Timing;
};

/**
 * Wraps a paid route in the order of checks of docs/payments.md:
 * 1. the route's own pre-payment check (a 503 or 403 no payment could fix);
 * 2. no PAYMENT-SIGNATURE: 402 with the requirements, whatever the body;
 * 3. the body (400, nothing charged);
 * 4. the client's invalid-attempt limit (429);
 * 5. the local checks of the payment (402 with a reason, no facilitator or RPC call);
 * 6. the ledger claim, or the same signature again: the original answer, a resumed payment, or
 *    402 when it paid for another request;
 * 7. verification by the facilitator, when only it can judge the payment (deferred settlement, a
 *    contract wallet's signature);
 * 8. the work (an error, or an answer of 400 or more, is never charged);
 * 9. settlement before answering, or, for deep research, once the work is delivered.
 * A refusal is the payer's fault: 402 with its reason, counted against the client. A failure
 * that is the service's (facilitator or chain unreachable) is 503 with Retry-After, not counted,
 * and the same signature sent again resumes the payment. Unpaid work is cancelled.
 */
export function withPayment<S extends z.ZodType>(
  operation: PaidOperation["id"],
  {
    bodySchema,
    handle,
    precheck,
    maxBodyBytes,
  }: {
    bodySchema: S;
    handle: PaidHandler<z.output<S>>;
    /** A check the contract makes before payment (encrypted routes: is the enclave ready?); throw an ApiError to refuse. */
    precheck?: () => Promise<void>;
    /** A larger body limit than MAX_BODY_BYTES, for sealed envelopes that carry attachments. */
    maxBodyBytes?: number;
  },
) {
  const op = getPaidOperation(operation);
  const route = `${op.method} ${op.path}`;
  return withApi<Record<string, string>>(route, async ({ request, params }) => {
    const timing = new Timing();
    await precheck?.();
    const config = getConfig();
    const built = buildPaymentRequired({ operation, settings: config.payments, publicUrl: config.publicUrl });
    const header = request.headers.get("payment-signature");
    if (!header) return paymentRequiredResponse(built);

    const body = await parseJsonBody(request, bodySchema, { maxBytes: Math.max(maxBodyBytes ?? 0, config.maxBodyBytes) });
    const db = await getDb();
    const { facilitator, chain } = getPaymentsContext();
    const ctx: PaidRequest<z.output<S>> = {
      op,
      route,
      request,
      params,
      body,
      handle,
      config,
      built,
      requirements: buildRequirements(operation, config.payments),
      db,
      deps: { db, facilitator, chain, nowSeconds: () => Math.floor(Date.now() / 1000) },
      client: clientAddress(request, config.payments.trustedProxy),
      digest: digestRequest(route, params, body),
      timing,
    };
    if (ctx.client) assertNotBlocked(ctx.client);

    let checked: CheckedPayment;
    try {
      checked = await timing.measure("checks", () => checkLocally(ctx, header));
    } catch (err) {
      if (err instanceof PaymentError) return refuse(ctx, err.reason, err.detail);
      throw err;
    }
    if (!ctx.client) {
      ctx.client = `payer:${checked.payer.toLowerCase()}`;
      assertNotBlocked(ctx.client);
    }
    const claim = await timing.measure("claim", () =>
      claimPayment({ db, checked, requirements: ctx.requirements, operation: op.id, route, requestDigest: ctx.digest }),
    );
    if (!claim.claimed) return sameSignatureAgain(ctx, checked, claim.row);
    return serve(ctx, checked, claim.row);
  });
}

/** Step 5: everything that needs no facilitator or RPC call (lib/payments/verify-locally.ts). */
function checkLocally<B>(ctx: PaidRequest<B>, header: string): Promise<CheckedPayment> {
  return verifyPaymentLocally({
    payload: decodePaymentHeader(header),
    requirements: ctx.requirements,
    chainId: ctx.config.payments.chainId,
    nowSeconds: Math.floor(Date.now() / 1000),
    minRemainingSeconds: ctx.op.minRemainingSeconds,
  });
}

/** Steps 7 to 9 for a payment this request holds. */
async function serve<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow): Promise<Response> {
  if (ctx.op.settlement === "deferred" || !checked.signatureCheckedLocally) {
    const verdict = await ctx.timing.measure("verify", () => ctx.deps.facilitator.verify(checked.payload, ctx.requirements));
    if (verdict.kind === "refused") {
      await markFailed({ db: ctx.db, id: row.id, reason: verdict.reason, message: verdict.message });
      return refuse(ctx, verdict.reason, verdict.message, { store: row.id });
    }
    if (verdict.kind === "unavailable") {
      // Nothing happened to the authorization: the same signature sent again tries again.
      await voidPayment({ db: ctx.db, id: row.id, reason: "verification_unavailable", message: verdict.message });
      return unavailable("Payment verification is unavailable right now; nothing was charged", verdict.message);
    }
  }

  const work = await runWork(ctx, checked, row);
  if (work instanceof Response) return work;
  const answer: WorkAnswer = { status: work.status, body: work.body };

  if (ctx.op.settlement === "deferred") {
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

/** Step 8: the work. An error, or an answer of 400 or more, is answered as it is and never charged. */
async function runWork<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow): Promise<PaidWork | Response> {
  let work: PaidWork;
  try {
    work = await ctx.timing.measure("upstream", () => ctx.handle({ request: ctx.request, body: ctx.body, payment: checked, params: ctx.params }));
  } catch (err) {
    const response = errorResponse(err, { route: ctx.route });
    await voidPayment({ db: ctx.db, id: row.id, reason: "request_failed", message: `answered ${response.status}`, response: await snapshot(response) });
    return response;
  }
  if (work.status >= 400) {
    await cancelWork(ctx, work, row.id);
    const response = jsonResponse(work.body, { status: work.status });
    await voidPayment({ db: ctx.db, id: row.id, reason: "request_failed", message: `answered ${work.status}`, response: await snapshot(response) });
    return response;
  }
  return work;
}

/** Step 9 for chat and literature: settled (or broadcast) before the answer leaves. */
async function settleNow<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow, work: PaidWork, answer: WorkAnswer): Promise<Response> {
  const answerFor = (transaction: string) => paidAnswer(answer, { transaction, requirements: ctx.requirements, payer: checked.payer });
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
      return answerResponse(answerFor(outcome.transaction), { "server-timing": ctx.timing.header() });
    case "pending": {
      // Broadcast, its receipt not in yet: the transfer is on its way, so the work is delivered.
      const paid = answerFor(outcome.transaction);
      await storeResponse({ db: ctx.db, id: row.id, response: paid });
      return answerResponse(paid, { "server-timing": ctx.timing.header() });
    }
    case "failed":
    case "expired": {
      await cancelWork(ctx, work, row.id);
      const reason: PaymentReason = outcome.outcome === "failed" ? outcome.reason : "authorization_expired";
      const message = outcome.outcome === "failed" ? outcome.message : "the authorization expired while the request was served";
      // An authorization that ran out while we worked is our slowness, not the payer's attempt.
      return refuse(ctx, reason, message, { store: row.id, count: outcome.outcome === "failed" });
    }
    case "unavailable":
      await cancelWork(ctx, work, row.id);
      return unavailable("The payment could not be settled right now; nothing was delivered or charged. Send the same PAYMENT-SIGNATURE again", outcome.message);
    case "busy":
      throw new Error(`payment ${row.id} was taken by another settlement while this request held it`);
  }
}

/**
 * Step 6, for a signature the ledger already knows. For another request: refused as used. For
 * the same request: the original answer; the answer rebuilt from the recorded work once the
 * payment is settled (a process that died before writing it); the work done again when the
 * payment was settled but its work cancelled; a new attempt when nothing was charged; otherwise
 * a wait for the request that holds it, taken over when that request's process died.
 */
async function sameSignatureAgain<B>(ctx: PaidRequest<B>, checked: CheckedPayment, first: PaymentRow): Promise<Response> {
  if (first.requestDigest !== ctx.digest) {
    return refuse(ctx, "payment_already_used", "This PAYMENT-SIGNATURE already paid for a different request; sign a new one");
  }
  const deadline = Date.now() + REPLAY_WAIT_MS;
  const answerFor = (work: WorkAnswer) => (transaction: string) => paidAnswer(work, { transaction, requirements: ctx.requirements, payer: checked.payer });
  let row: PaymentRow | null = first;
  let confirmed = false;
  let delay = 50;
  while (row) {
    switch (row.status) {
      case "settled":
        if (row.response) return replayResponse(row.response);
        if (row.work && row.txHash) {
          const answer = answerFor(row.work)(row.txHash);
          await storeResponse({ db: ctx.db, id: row.id, response: answer });
          return replayResponse(answer);
        }
        return redoPaidWork(ctx, checked, row);
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
        const reopened = await reopenPayment({ db: ctx.db, id: row.id, from: [row.status], staleSeconds: REQUEST_LEASE_SECONDS });
        if (reopened) return serve(ctx, checked, reopened);
        break;
      }
      case "received":
      case "verified":
      case "settling": {
        // A transfer may already be on chain for a request whose process died after sending it.
        if (!confirmed && row.work) {
          confirmed = true;
          const outcome = await confirmPayment(ctx.deps, row, { waitMs: Math.max(0, Math.min(5_000, deadline - Date.now())), responseFor: answerFor(row.work) });
          if (outcome?.outcome === "settled" || outcome?.outcome === "pending") {
            const answer = answerFor(row.work)(outcome.transaction);
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
    const reopened = await reopenPayment({ db: ctx.db, id: row.id, from: [], staleSeconds: REQUEST_LEASE_SECONDS });
    return reopened ? serve(ctx, checked, reopened) : null;
  }
  if (row.status !== "settling" || !row.work || ctx.op.settlement !== "immediate") return null;
  const work = row.work;
  const answerFor = (transaction: string) => paidAnswer(work, { transaction, requirements: ctx.requirements, payer: checked.payer });
  const outcome = await settlePayment(ctx.deps, { id: row.id, from: [], waitMs: ctx.config.payments.confirmationTimeoutMs, whenUnavailable: "unsettle", responseFor: answerFor });
  if (outcome.outcome === "busy") return null;
  if (outcome.outcome === "settled" || outcome.outcome === "pending") {
    const answer = answerFor(outcome.transaction);
    await storeResponse({ db: ctx.db, id: row.id, response: answer });
    return replayResponse(answer);
  }
  // The old job cannot be delivered unpaid; forget it so a later retry starts afresh.
  await clearWork({ db: ctx.db, id: row.id });
  if (outcome.outcome === "unavailable") return unavailable("The payment could not be settled right now; nothing was charged. Send the same PAYMENT-SIGNATURE again", outcome.message);
  const reason: PaymentReason = outcome.outcome === "failed" ? outcome.reason : "authorization_expired";
  return refuse(ctx, reason, outcome.outcome === "failed" ? outcome.message : undefined, { store: row.id, count: outcome.outcome === "failed" });
}

/** A settled payment whose work was cancelled (the transfer landed after a 503): the work, now. */
async function redoPaidWork<B>(ctx: PaidRequest<B>, checked: CheckedPayment, row: PaymentRow): Promise<Response> {
  const work = await ctx.handle({ request: ctx.request, body: ctx.body, payment: checked, params: ctx.params });
  if (work.status >= 400) return jsonResponse(work.body, { status: work.status });
  const answer = paidAnswer({ status: work.status, body: work.body }, { transaction: row.txHash ?? "", requirements: ctx.requirements, payer: checked.payer });
  await recordPaidWork({ db: ctx.db, id: row.id, work: { status: work.status, body: work.body }, upstreamJobId: work.upstreamJobId ?? null, response: answer });
  return answerResponse(answer);
}

/**
 * A refused payment: 402 with the requirements, `reason` and `message`; stored as the answer of
 * the payment when there is one, and counted against the client (429 past the limit) unless the
 * refusal was not the client's doing.
 */
async function refuse<B>(ctx: PaidRequest<B>, reason: PaymentReason, message?: string, { store, count = true }: { store?: string; count?: boolean } = {}): Promise<Response> {
  const response = paymentRequiredResponse(ctx.built, { reason, message });
  if (store) await storeResponse({ db: ctx.db, id: store, response: await snapshot(response) });
  if (count && ctx.client) {
    const limits = ctx.config.payments.invalidAttempts;
    await recordInvalidAttempt({ db: ctx.db, client: ctx.client, limit: limits.limit, windowSeconds: limits.windowSeconds });
  }
  return response;
}

/** The service could not take the payment now: 503 with Retry-After, nothing charged, not the client's fault. */
function unavailable(error: string, detail: string): never {
  log.warn("paid request answered 503", { error, detail });
  throw new ApiError("unavailable", error, { reason: "settlement_unavailable", headers: { "retry-after": String(RETRY_AFTER_SECONDS) } });
}

/**
 * Cancels the agent's job of a payment that will not be settled now, and forgets it in the
 * ledger: if the transfer turns out to have happened after all, a retry does the work again
 * rather than pointing at a cancelled job.
 */
async function cancelWork<B>(ctx: PaidRequest<B>, work: PaidWork, paymentId: string): Promise<void> {
  if (work.cancel) await work.cancel().catch((err: unknown) => log.warn("could not cancel unpaid job", { paymentId, error: err }));
  await clearWork({ db: ctx.db, id: paymentId });
}

/** sha256 over the route, its path parameters and the canonical JSON of the validated body. */
export function digestRequest(route: string, params: Record<string, string>, body: unknown): string {
  return createHash("sha256").update(`${route}\n${canonicalJson(params)}\n${canonicalJson(body)}`).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

