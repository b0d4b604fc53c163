import "server-only";
import { createHash } from "node:crypto";
import type { z } from "zod";
import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { isDatabaseUnavailable } from "@/lib/shared/db/unavailable";
import { ApiError, DATABASE_RETRY_AFTER_SECONDS, parseJsonBody, withApi } from "@/lib/shared/http";
import { clientAddress } from "@/lib/shared/http/client-address";
import { withSignedOffers } from "@/lib/gateway/offer-receipt/offers";
import { offerReceiptSigner } from "@/lib/gateway/offer-receipt/signer";
import { getPaymentsContext } from "@/lib/gateway/payments/context";
import { claimPayment } from "@/lib/gateway/payments/ledger";
import { paymentIdentifierOf, sameIdentifierAgain } from "@/lib/gateway/payments/paid-identifier";
import { sameSignatureAgain } from "@/lib/gateway/payments/paid-retry";
import { paymentRequiredForRefusedBody, refuse, serve, unchargedResponse, type PaidHandler, type PaidRequest } from "@/lib/gateway/payments/paid-steps";
import { getPaidOperation, paidBodyLimit, type PaidOperation, type PaidOperationDefinition } from "@/lib/shared/operations";
import { assertNotBlocked, withAttemptSlot } from "@/lib/gateway/payments/rate-limit";
import { PaymentError } from "@/lib/gateway/payments/reasons";
import { buildPaymentRequired, buildRequirements, paymentRequiredResponse } from "@/lib/gateway/payments/requirements";
import { Timing } from "@/lib/gateway/payments/timing";
import { decodePaymentHeader, verifyPaymentLocally, type CheckedPayment } from "@/lib/gateway/payments/verify-locally";
import { isRecord } from "@/lib/shared/narrow";

export type { PaidHandler, PaidWork } from "@/lib/gateway/payments/paid-steps";

/**
 * Wraps a paid route in the order of checks of docs/payments.md:
 * 1. the route's own pre-payment check (a 503 or 403 no payment could fix), for a request without
 *    a payment; one that carries a payment has it checked once that payment is claimed as new (in
 *    serve), never when its signature is sent again: an earlier attempt may have paid already;
 * 2. no PAYMENT-SIGNATURE: 402 with the requirements, whatever the body; its `error` says why
 *    the body would be refused once paid for, when it would be;
 * 3. the body (400, `charged: false`);
 * 4. the client's invalid-attempt limit (429);
 * 5. the local checks of the payment (402 with a reason, no facilitator or RPC call);
 * 6. the ledger claim, which reserves the client's attempt in the same statement (429 when its
 *    window is full of invalid attempts), or the same signature again: the original answer, a resumed payment, or
 *    402 when it paid for another request; or a new signature naming a payment the ledger holds
 *    (x402 payment-identifier): that payment's answer, or 409 when it paid for another request;
 * 6a. deferred settlement (deep research): the payer's balance, read on chain, must cover what it
 *    has not settled yet plus this, within the bounds of unsettled turns per payer and per client;
 * 7. verification by the facilitator, when only it can judge the payment (deferred settlement, a
 *    contract wallet's signature);
 * 8. the work (an error, or an answer of 400 or more, is never charged, and says `charged: false`);
 * 9. settlement before answering, or, for deep research, once the work is delivered.
 * A refusal is the payer's fault: 402 with its reason, counted against the client. A failure
 * that is the service's (facilitator or chain unreachable) is 503 with Retry-After, not counted,
 * and the same signature sent again resumes the payment. Unpaid work is cancelled.
 */
export function withPayment<S extends z.ZodType>(
  definition: PaidOperationDefinition<PaidOperation["id"], S>,
  {
    handle,
    precheck,
  }: {
    handle: PaidHandler<z.output<S>>;
    /** A check the contract makes before payment (encrypted routes: is the enclave ready?); throw an ApiError to refuse. */
    precheck?: () => Promise<void>;
  },
) {
  const operation = definition.id;
  const bodySchema = definition.body;
  const op = getPaidOperation(operation);
  const route = `${op.method} ${op.path}`;
  return withApi<Record<string, string>>(route, async (args) => {
    try {
      return await paidRequest(args);
    } catch (err) {
      // The ledger could not be reached while a payment was being answered: it may have been
      // settled already (the chaos run charged a payer twice when the answer was a plain 503 and
      // the client signed anew). The same signature sent again is answered once and charged at
      // most once (paid-retry.ts), so that is what the client is told, as the official client's
      // resend wrapper understands (lib/client/payments/resend.ts).
      if (!isDatabaseUnavailable(err) || !args.request.headers.has("payment-signature")) throw err;
      throw new ApiError("unavailable", "The service's database could not be reached while this payment was answered; send the same request with the same PAYMENT-SIGNATURE again: it is answered once and charged at most once", {
        reason: "payment_in_progress",
        headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    }
  });

  async function paidRequest({ request, params }: { request: Request; params: Record<string, string> }): Promise<Response> {
    const timing = new Timing();
    const header = request.headers.get("payment-signature");
    if (!header) await precheck?.();
    const config = getConfig();
    const signer = offerReceiptSigner(config.offerReceipt);
    const built = await withSignedOffers(buildPaymentRequired({ operation, settings: config.payments, publicUrl: config.publicUrl }), signer);
    const read = await readPaidBody(request, bodySchema, { maxBytes: paidBodyLimit(op, config.maxBodyBytes) });
    if (!header) return "refusal" in read ? paymentRequiredForRefusedBody(built, read.refusal) : paymentRequiredResponse(built);
    if ("refusal" in read) return unchargedResponse(read.refusal.toResponse());
    const body = read.body;
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
      signer,
      db,
      deps: { db, facilitator, chain, nowSeconds: () => Math.floor(Date.now() / 1000) },
      client: clientAddress(request, config.payments.trustedProxy),
      digest: digestRequest(route, params, body),
      timing,
      precheck,
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
    let paymentId: string | null;
    try {
      paymentId = paymentIdentifierOf(checked.payload);
    } catch (err) {
      if (err instanceof ApiError) return unchargedResponse(err.toResponse());
      throw err;
    }
    // The claim reserves the client's attempt before any work (rate-limit.ts), in one statement.
    const claim = await timing.measure("claim", () =>
      withAttemptSlot({
        db,
        client: ctx.client!,
        limits: config.payments.invalidAttempts,
        attempt: async (slot) => {
          const claimed = await claimPayment({ db, checked, requirements: ctx.requirements, operation: op.id, route, requestDigest: ctx.digest, paymentId, slot });
          return "full" in claimed ? "full" : claimed;
        },
      }),
    );
    if (!claim.claimed) return claim.by === "identifier" ? sameIdentifierAgain(ctx, checked, claim.row) : sameSignatureAgain(ctx, checked, claim.row);
    return serve(ctx, checked, claim.row);
  }
}

/**
 * Steps 2 and 3: the body, read and validated the same way with or without a payment, so the 402
 * can say what the 400 would (issue 16: know before you sign). Throws what is not the body's fault.
 */
async function readPaidBody<S extends z.ZodType>(request: Request, schema: S, { maxBytes }: { maxBytes: number }): Promise<{ body: z.output<S> } | { refusal: ApiError }> {
  try {
    return { body: await parseJsonBody(request, schema, { maxBytes }) };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { refusal: err };
    throw err;
  }
}

/** Step 5: everything that needs no facilitator or RPC call (lib/gateway/payments/verify-locally.ts). */
function checkLocally<B>(ctx: PaidRequest<B>, header: string): Promise<CheckedPayment> {
  return verifyPaymentLocally({
    payload: decodePaymentHeader(header),
    requirements: ctx.requirements,
    chainId: ctx.config.payments.chainId,
    nowSeconds: Math.floor(Date.now() / 1000),
    minRemainingSeconds: ctx.op.minRemainingSeconds,
    maxValiditySeconds: ctx.op.maxTimeoutSeconds + ctx.config.payments.validityLeewaySeconds,
  });
}

/** sha256 over the route, its path parameters and the canonical JSON of the validated body. */
export function digestRequest(route: string, params: Record<string, string>, body: unknown): string {
  return createHash("sha256").update(`${route}\n${canonicalJson(params)}\n${canonicalJson(body)}`).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

