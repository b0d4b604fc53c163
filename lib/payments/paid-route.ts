import { createHash } from "node:crypto";
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { SettleResponse } from "@x402/core/types";
import type { z } from "zod";
import { getConfig } from "@/lib/config";
import { getDb, type Queryable } from "@/lib/db";
import { ApiError, errorResponse, jsonResponse, parseJsonBody, withApi } from "@/lib/http";
import { log } from "@/lib/log";
import { getPaymentsContext } from "./context";
import { FacilitatorUnavailableError, type PaymentFacilitator } from "./facilitator";
import { claimPayment, getPayment, updatePayment, type PaymentRow, type StoredResponse } from "./ledger";
import { getPaidOperation, type PaidOperation } from "./prices";
import { assertNotBlocked, clientAddress, recordInvalidAttempt } from "./rate-limit";
import { mapFacilitatorReason, PaymentError, type PaymentReason } from "./reasons";
import { buildPaymentRequired, buildRequirements, paymentRequiredResponse } from "./requirements";
import { settlePayment } from "./settle";
import { decodePaymentHeader, verifyPaymentLocally, type CheckedPayment } from "./verify-locally";

/** What a paid handler did once the agent accepted the work. */
export type PaidWork = {
  /** The answer for the client (202 or 200). */
  status: number;
  body: unknown;
  /** The agent's id of the job, for the ledger and for cancelling it. */
  upstreamJobId?: string;
  /** Deep research: the turn this payment pays for. */
  conversationId?: string;
  messageId?: string;
  /** Undo the work when its payment cannot be settled (immediate settlement only). */
  cancel?: () => Promise<void>;
};

export type PaidHandler<B> = (args: { request: Request; body: B; payment: CheckedPayment; params: Record<string, string> }) => Promise<PaidWork>;

/** How long a retry of an in-flight payment waits for the original answer. */
const REPLAY_WAIT_MS = 25_000;

/**
 * Wraps a paid route in the order of checks of the architecture:
 * the route's own pre-payment check, if any (a 503 or 403 that no payment could fix); then no PAYMENT-SIGNATURE → 402 with the requirements, whatever the body; then the body (400,
 * nothing charged); then the invalid-attempt rate limit (429); then the cheap local checks of the
 * payment (402 with a reason); then the ledger claim (the same signature again replays the
 * original answer, or is refused as already used for another request); for deferred settlement,
 * the facilitator's verification; then the work; then settlement (which verifies first), before
 * answering (`immediate`) or once the work is done (`deferred`, by the cron or a poll). A request
 * answered with an error is never charged; unpaid work is cancelled.
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
    const started = performance.now();
    const timing: Timing = { checks: 0, claim: 0, verify: 0, upstream: 0, settle: 0 };
    await precheck?.();
    const config = getConfig();
    const built = buildPaymentRequired({ operation, settings: config.payments, publicUrl: config.publicUrl });
    const header = request.headers.get("payment-signature");
    if (!header) return paymentRequiredResponse(built);

    const body = await parseJsonBody(request, bodySchema, { maxBytes: Math.max(maxBodyBytes ?? 0, config.maxBodyBytes) });
    const db = await getDb();
    const client = clientAddress(request);
    const limits = config.payments.invalidAttempts;
    assertNotBlocked(client);
    /** A refused payment: 402 with the reason, or 429 once this address has made too many. */
    const refuse = async (reason: PaymentReason, message?: string, response = paymentRequiredResponse(built, { reason, message })) => {
      await recordInvalidAttempt({ db, client, limit: limits.limit, windowSeconds: limits.windowSeconds });
      return response;
    };

    const requirements = buildRequirements(operation, config.payments);
    let checked: CheckedPayment;
    const checksStarted = performance.now();
    try {
      checked = await verifyPaymentLocally({
        payload: decodePaymentHeader(header),
        requirements,
        chainId: config.payments.chainId,
        nowSeconds: Math.floor(Date.now() / 1000),
        minRemainingSeconds: op.minRemainingSeconds,
      });
    } catch (err) {
      if (err instanceof PaymentError) return refuse(err.reason, err.detail);
      throw err;
    }

    timing.checks = performance.now() - checksStarted;
    const requestDigest = digestRequest(route, params, body);
    const claimStarted = performance.now();
    const claim = await claimPayment({ db, checked, requirements, operation, route, requestDigest });
    timing.claim = performance.now() - claimStarted;
    if (!claim.claimed) {
      if (claim.row.requestDigest !== requestDigest) {
        return refuse("payment_already_used", "This PAYMENT-SIGNATURE already paid for a different request; sign a new one");
      }
      return replay(db, claim.row);
    }
    const paymentId = claim.row.id;
    const { facilitator, chain } = getPaymentsContext();

    // Deferred settlement verifies with the facilitator now, before the work starts. Immediate
    // settlement does not: the facilitator's settle verifies the authorization as its first step
    // (the x402 exact EVM scheme), so a separate verify would only repeat the same chain
    // simulation on the hot path; a payment that fails there gets its 402 and its job cancelled.
    if (op.settlement === "deferred") {
      let verification;
      const verifyStarted = performance.now();
      try {
        verification = await facilitator.verify(checked.payload, requirements);
        timing.verify = performance.now() - verifyStarted;
      } catch (err) {
        // Nothing happened to the authorization: release the claim so the client may retry it.
        await db.query("DELETE FROM gateway.payments WHERE id = $1", [paymentId]);
        if (err instanceof FacilitatorUnavailableError) {
          throw new ApiError("internal", "Payment verification is unavailable; try again shortly", {
            reason: "facilitator_unavailable",
            cause: err,
          });
        }
        throw err;
      }
      if (!verification.isValid) {
        const reason = mapFacilitatorReason(verification.invalidReason, "payment_invalid");
        const message = [verification.invalidReason, verification.invalidMessage].filter(Boolean).join(": ");
        const response = paymentRequiredResponse(built, { reason, message });
        await finish(db, paymentId, "failed", response, { failureReason: reason, failureMessage: message });
        return refuse(reason, message, response);
      }
    }

    // The work itself. Any error here (bad body upstream, agent down) is answered and not charged.
    let work: PaidWork;
    const upstreamStarted = performance.now();
    try {
      work = await handle({ request, body, payment: checked, params });
      timing.upstream = performance.now() - upstreamStarted;
    } catch (err) {
      const response = errorResponse(err, { route });
      await finish(db, paymentId, "voided", response, {
        failureReason: "request_failed",
        failureMessage: `answered ${response.status}`,
      });
      return response;
    }

    if (op.settlement === "deferred") {
      const response = jsonResponse(work.body, { status: work.status });
      await finish(db, paymentId, "scheduled", response, {
        upstreamJobId: work.upstreamJobId ?? null,
        conversationId: work.conversationId ?? null,
        messageId: work.messageId ?? null,
      });
      return response;
    }

    // Time only the facilitator's own work (not the ledger write it reports its broadcast to).
    const timedFacilitator: PaymentFacilitator = {
      kind: facilitator.kind,
      verify: (...args) => facilitator.verify(...args),
      settle: async (payload, reqs, hooks = {}) => {
        const settleStarted = performance.now();
        let hookMs = 0;
        try {
          return await facilitator.settle(payload, reqs, {
            ...hooks,
            onBroadcast: async (txHash) => {
              const hookStarted = performance.now();
              await hooks.onBroadcast?.(txHash);
              hookMs += performance.now() - hookStarted;
            },
          });
        } finally {
          timing.settle = performance.now() - settleStarted - hookMs;
        }
      },
    };
    const paidAnswer = (settlement: SettleResponse): StoredResponse => ({
      status: work.status,
      body: work.body,
      headers: { "content-type": "application/json; charset=utf-8", "payment-response": encodePaymentResponseHeader(settlement) },
    });
    const outcome = await settlePayment(
      { db, facilitator: timedFacilitator, chain, nowSeconds: () => Math.floor(Date.now() / 1000) },
      { id: paymentId, from: ["received"], upstreamJobId: work.upstreamJobId ?? null, responseFor: paidAnswer },
    );
    if (outcome.outcome === "settled" || outcome.outcome === "pending") {
      let answer: StoredResponse;
      if (outcome.outcome === "settled") {
        answer = paidAnswer(outcome.response); // stored with the settlement
      } else {
        answer = paidAnswer({ success: true, transaction: outcome.txHash ?? "", network: requirements.network, payer: checked.payer });
        await updatePayment({ db, id: paymentId, fields: { response: answer } });
      }
      return jsonResponse(answer.body, {
        status: answer.status,
        headers: { ...answer.headers, "server-timing": serverTiming(timing, performance.now() - started) },
      });
    }
    // Not settled: the work must not be given away. Cancel it and say why.
    if (work.cancel) {
      await work.cancel().catch((err: unknown) => log.warn("could not cancel unpaid job", { paymentId, error: err }));
    }
    const reason = outcome.outcome === "failed" ? outcome.reason : outcome.outcome === "expired" ? "authorization_expired" : "settlement_failed";
    const message = outcome.outcome === "failed" ? outcome.message : undefined;
    const response = paymentRequiredResponse(built, { reason, message });
    await storeResponse(db, paymentId, response);
    return refuse(reason, message, response);
  });
}

/**
 * Where a paid request's time went (Server-Timing): local checks, the ledger claim, the
 * facilitator's verify and settle, the agent, and the whole request.
 */
type Timing = { checks: number; claim: number; verify: number; upstream: number; settle: number };

function serverTiming(timing: Timing, total: number): string {
  const parts = Object.entries(timing).map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`);
  return [...parts, `total;dur=${total.toFixed(1)}`].join(", ");
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

async function snapshot(response: Response): Promise<StoredResponse> {
  const text = await response.clone().text();
  const headers: Record<string, string> = {};
  for (const name of ["payment-response", "payment-required", "retry-after", "content-type"]) {
    const value = response.headers.get(name);
    if (value) headers[name] = value;
  }
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, body, headers };
}

async function storeResponse(db: Queryable, id: string, response: Response): Promise<void> {
  await updatePayment({ db, id, fields: { response: await snapshot(response) } });
}

async function finish(
  db: Queryable,
  id: string,
  status: "failed" | "voided" | "scheduled",
  response: Response,
  fields: Parameters<typeof updatePayment>[0]["fields"],
): Promise<void> {
  await updatePayment({ db, id, status, fields: { ...fields, response: await snapshot(response) } });
}

/** The original answer to a retried request, waiting for it if the original is still running. */
async function replay(db: Queryable, row: PaymentRow): Promise<Response> {
  let current: PaymentRow | null = row;
  const deadline = Date.now() + REPLAY_WAIT_MS;
  let delay = 50;
  while (current && !current.response && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 400);
    current = await getPayment({ db, id: row.id });
  }
  if (!current?.response) {
    throw new ApiError("unavailable", "This payment is still being processed; retry shortly", {
      reason: "payment_in_progress",
      headers: { "retry-after": "2" },
    });
  }
  const { status, body, headers } = current.response;
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers, "x-payment-replayed": "true" },
  });
}
