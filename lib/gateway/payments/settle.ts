import "server-only";
import type { Queryable } from "@/lib/shared/db";
import { ApiError } from "@/lib/shared/http";
import { log } from "@/lib/shared/log";
import type { AuthorizationFate, ChainReader, ReasonBlame } from "@/lib/gateway/payments/chain";
import type { PaymentFacilitator, SettleRequest, SettleResult } from "@/lib/gateway/payments/facilitator";
import { markFailed, markSettled, markUnsettled, takeSettlement, updatePayment, type PaymentRow, type PaymentStatus, type StoredResponse, type WorkAnswer } from "@/lib/gateway/payments/ledger";
import { isPayersFault, type PaymentReason } from "@/lib/gateway/payments/reasons";
import { authorizationRef, transferCallData } from "@/lib/gateway/payments/settlement/engine";
import { isEoaSignature } from "@/lib/gateway/payments/verify-locally";

export type SettleOutcome =
  /** The transfer is on chain. */
  | { outcome: "settled"; row: PaymentRow; transaction: string }
  /** Broadcast, its receipt not in yet: the transfer is on its way. */
  | { outcome: "pending"; row: PaymentRow; transaction: string }
  /** The payment cannot be settled: the payer's fault (402 with the reason). */
  | { outcome: "failed"; row: PaymentRow; reason: PaymentReason; message: string }
  /**
   * The service could not settle it now (503): not the payer's fault; nothing charged unless
   * `mayHaveTransferred` (a transfer was sent and its outcome is unknown).
   */
  | { outcome: "unavailable"; row: PaymentRow; message: string; mayHaveTransferred: boolean }
  /** The authorization expired before anything was sent. */
  | { outcome: "expired"; row: PaymentRow }
  /** Someone else is settling it, or it is no longer in a state to settle. */
  | { outcome: "busy" };

export type SettleDeps = { db: Queryable; facilitator: PaymentFacilitator; chain: ChainReader; nowSeconds: () => number };

/** Deferred settlement that keeps finding the facilitator unavailable gives up after this many tries. */
export const MAX_UNAVAILABLE_ATTEMPTS = 10;

/** Clocks of the chain and of this machine disagree by less than this. */
const CLOCK_SKEW_SECONDS = 120;

/**
 * Settles one payment, once, whoever calls (the paid route, the cron, a poll): the caller that
 * takes the settlement lease does it; everyone else gets `busy`. What an earlier attempt may have
 * done comes first: a transaction of ours still in flight is followed, never doubled, and an
 * attempt whose outcome was unknown is looked up on chain. Then a new settlement, unless the
 * authorization has expired. A failure that is the service's fault leaves the payment
 * `unsettled` (a request answered 503, resumed by a retry of the same signature) or `scheduled`
 * again (deferred settlement, tried again by the cron, at most MAX_UNAVAILABLE_ATTEMPTS times).
 */
export async function settlePayment(
  deps: SettleDeps,
  {
    id,
    from,
    upstreamJobId,
    work,
    waitMs,
    whenUnavailable,
    responseFor,
  }: {
    id: string;
    from: PaymentStatus[];
    upstreamJobId?: string | null;
    /** The work's answer, recorded with the lease (the paid route's), so it can always be rebuilt. */
    work?: WorkAnswer | null;
    /** How long to wait for the receipt before answering `pending`. */
    waitMs: number;
    whenUnavailable: "unsettle" | "reschedule";
    /** The paid answer to store with a successful settlement, written in the same update. */
    responseFor?: (transaction: string) => Promise<StoredResponse>;
  },
): Promise<SettleOutcome> {
  const row = await takeSettlement({ db: deps.db, id, from, upstreamJobId, work });
  if (!row) return { outcome: "busy" };
  const request: SettleRequest = { paymentId: row.id, payload: row.payload, requirements: row.requirements, waitMs };

  // A first attempt has nothing behind it to look at (the hot path: no extra query or RPC).
  const attemptedBefore = row.settleAttempts > 1 || row.txHash !== null || row.outcomeUnknownSince !== null;
  const earlier = attemptedBefore ? await priorOutcome(deps, row, request) : null;
  if (earlier) return record(deps, row, earlier, { whenUnavailable, responseFor });
  if (row.validBefore <= deps.nowSeconds()) {
    // The token would refuse it anyway; say so without spending gas.
    // Our slowness, not the payer's attempt: the attempt it held is given back.
    await updatePayment({ db: deps.db, id, status: "expired", fields: { failureReason: "authorization_expired" }, end: "release" });
    return { outcome: "expired", row: { ...row, status: "expired" } };
  }
  return record(deps, row, await deps.facilitator.settle(request), { whenUnavailable, responseFor });
}

/**
 * Settles a payment from what is already on chain, without sending anything new and without
 * the lease (a retry of a request whose process died after broadcasting, the cron): our own
 * transaction's receipt, or a transfer found after an attempt whose outcome was unknown.
 * Returns null when nothing shows the payment was made.
 */
export async function confirmPayment(
  deps: SettleDeps,
  row: PaymentRow,
  { waitMs, responseFor, resend = row.status !== "unsettled" }: { waitMs: number; responseFor?: (transaction: string) => Promise<StoredResponse>; resend?: boolean },
): Promise<SettleOutcome | null> {
  const result = await priorOutcome(deps, row, { paymentId: row.id, payload: row.payload, requirements: row.requirements, waitMs, resend });
  if (result?.kind === "unavailable") {
    // Unknown is not "nothing happened": a caller must not void, re-send or answer as unpaid on
    // it. The cron counts it as an error of this row and looks again next run; a retry is 503.
    throw new ApiError("unavailable", "The payment's earlier attempt cannot be looked up on chain right now; nothing more was charged. Send the same PAYMENT-SIGNATURE again later", {
      reason: "settlement_unavailable",
      message: result.message,
      headers: { "retry-after": "5" },
    });
  }
  if (!result || (result.kind !== "settled" && result.kind !== "broadcast")) return null;
  return record(deps, row, result, { whenUnavailable: "unsettle", responseFor });
}

/**
 * What an earlier attempt of this payment did, if anything can be known. When the chain cannot be
 * read to find out, the answer is "not now" (the transfer may have happened): never a second
 * attempt in the dark, and never an error for the client (the chaos run saw 500s here while the
 * chain's RPC was down).
 */
async function priorOutcome(deps: SettleDeps, row: PaymentRow, request: SettleRequest): Promise<SettleResult | null> {
  try {
    const own = await deps.facilitator.confirm(request);
    if (own) return own;
    if (row.txHash || row.outcomeUnknownSince) {
      const found = await findOwnTransfer(deps, row);
      if (found) return { kind: "settled", transaction: found as `0x${string}` };
    }
    return null;
  } catch (err) {
    log.warn("an earlier settlement attempt could not be looked up on chain", { paymentId: row.id, error: err });
    return { kind: "unavailable", message: `the chain could not be read to learn what an earlier attempt did: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`, mayHaveTransferred: true };
  }
}

/**
 * The transfer of this payment's authorization on chain, if it is ours to count: sent by one of
 * this facilitator's accounts, or found after an attempt of ours whose outcome was unknown (a
 * hosted facilitator that timed out). A transfer that predates that attempt was someone else's
 * use of the authorization (another deployment with its own ledger); a cancelled authorization
 * or one used without a transfer to the payee is never paid.
 */
async function findOwnTransfer(deps: SettleDeps, row: PaymentRow, known?: AuthorizationFate): Promise<string | null> {
  const fate = known ?? (await deps.chain.findAuthorizationFate(authorizationRef(row.payload, row.requirements)));
  if (fate.state !== "transferred") return null;
  if (row.txHash && fate.transaction.toLowerCase() === row.txHash.toLowerCase()) return fate.transaction;
  if (deps.facilitator.isOwnSender(fate.sender)) return fate.transaction;
  const since = row.outcomeUnknownSince?.getTime();
  if (since !== undefined && fate.timestamp * 1000 >= since - CLOCK_SKEW_SECONDS * 1000) return fate.transaction;
  log.warn("the authorization was transferred by someone else; not counted as this payment", { paymentId: row.id, transaction: fate.transaction });
  return null;
}

async function record(
  deps: SettleDeps,
  row: PaymentRow,
  result: SettleResult,
  { whenUnavailable, responseFor }: { whenUnavailable: "unsettle" | "reschedule"; responseFor?: ((transaction: string) => Promise<StoredResponse>) | undefined },
): Promise<SettleOutcome> {
  const { db } = deps;
  switch (result.kind) {
    case "settled": {
      await markSettled({ db, id: row.id, txHash: result.transaction, ...(responseFor ? { response: await responseFor(result.transaction) } : {}) });
      return { outcome: "settled", row: { ...row, status: "settled", txHash: result.transaction }, transaction: result.transaction };
    }
    case "broadcast": {
      // On its way: the attempt the payment held is given back.
      await updatePayment({ db, id: row.id, fields: { txHash: result.transaction }, end: "release" });
      return { outcome: "pending", row: { ...row, txHash: result.transaction }, transaction: result.transaction };
    }
    case "refused": {
      if (result.reason === "settlement_failed" || (result.reason === "invalid_signature" && signatureProvenLocally(row))) {
        // The transfer did not go through although every check passed, or the facilitator called
        // a signature invalid that this gateway proved valid on receipt (it could not reach its
        // chain). Whose doing: the payer's, when its funds or its authorization changed since
        // (it moved its balance ahead of our transfer): a refusal, counted. Otherwise nothing the
        // payer did (the facilitator's account's nonce clashed with another settlement, gas, its
        // RPC): while the authorization is unused on chain it can still be settled, so this is
        // "not now"; if the chain cannot say, the transfer may have happened and only a retry will tell.
        const ref = authorizationRef(row.payload, row.requirements);
        const used = await deps.chain.authorizationState(ref.asset, ref.payer, ref.nonce).catch(() => null);
        const blame = used === false ? await payersDoing(deps, row, result) : null;
        if (blame) {
          // An authorization that ran out while we settled is our slowness, not the payer's attempt.
          await markFailed({ db, id: row.id, reason: blame.reason, message: blame.message, end: blame.reason === "authorization_expired" ? "release" : "count" });
          return { outcome: "failed", row: { ...row, status: "failed" }, reason: blame.reason, message: blame.message };
        }
        if (used !== true) {
          const message = `the facilitator could not settle it (${result.message})`;
          return record(deps, row, { kind: "unavailable", message, mayHaveTransferred: used === null }, { whenUnavailable, responseFor });
        }
      }
      if (result.reason === "payment_already_used" || result.reason === "settlement_failed") {
        // The nonce is spent: by a transfer of ours (an attempt that timed out), a cancellation, or someone else.
        const fate = await deps.chain.findAuthorizationFate(authorizationRef(row.payload, row.requirements)).catch(() => null);
        const ours = fate?.state === "transferred" ? await findOwnTransfer(deps, row, fate) : null;
        if (ours) return record(deps, row, { kind: "settled", transaction: ours as `0x${string}` }, { whenUnavailable, responseFor });
        if (fate?.state === "cancelled") {
          const message = `the payer cancelled this authorization (${fate.transaction})`;
          await markFailed({ db, id: row.id, reason: "authorization_cancelled", message, end: "count" });
          return { outcome: "failed", row: { ...row, status: "failed" }, reason: "authorization_cancelled", message };
        }
      }
      await markFailed({ db, id: row.id, reason: result.reason, message: result.message, end: isPayersFault(result.reason) ? "count" : "release" });
      return { outcome: "failed", row: { ...row, status: "failed" }, reason: result.reason, message: result.message };
    }
    case "unavailable": {
      log.warn("settlement unavailable", { paymentId: row.id, error: result.message, mayHaveTransferred: result.mayHaveTransferred });
      if (whenUnavailable === "reschedule" && row.settleAttempts >= MAX_UNAVAILABLE_ATTEMPTS && !result.mayHaveTransferred && !row.outcomeUnknownSince) {
        const message = `the payment could not be settled after ${row.settleAttempts} attempts: ${result.message}`;
        await markFailed({ db, id: row.id, reason: "settlement_unavailable", message, end: "release" });
        return { outcome: "failed", row: { ...row, status: "failed" }, reason: "settlement_unavailable", message };
      }
      await markUnsettled({ db, id: row.id, status: whenUnavailable === "unsettle" ? "unsettled" : "scheduled", message: result.message, outcomeUnknown: result.mayHaveTransferred });
      return { outcome: "unavailable", row, message: result.message, mayHaveTransferred: result.mayHaveTransferred || row.outcomeUnknownSince !== null };
    }
  }
}

/**
 * Why a transfer of this payment failed with its authorization unused, when the payer caused it
 * (chain.ts, explainFailedTransfer); null when it did not, or the chain cannot say now.
 */
async function payersDoing(deps: SettleDeps, row: PaymentRow, result: Extract<SettleResult, { kind: "refused" }>): Promise<ReasonBlame | null> {
  try {
    const blame = await deps.chain.explainFailedTransfer({
      ref: authorizationRef(row.payload, row.requirements),
      callData: transferCallData(row.payload),
      ...(result.revertedAt ? { at: result.revertedAt } : {}),
    });
    // Used after all (between the two reads): the fate of a used authorization decides.
    return blame?.reason === "payment_already_used" ? null : blame;
  } catch (err) {
    log.warn("could not tell why a settlement failed", { paymentId: row.id, error: err });
    return null;
  }
}

/**
 * Whether the row's signature was proven on receipt: every payment in the ledger passed the local
 * checks (verify-locally.ts), which recover a plain EOA signature and compare it with the payer,
 * so a facilitator's "invalid signature" for it is the facilitator's failure to check.
 */
function signatureProvenLocally(row: Pick<PaymentRow, "payload">): boolean {
  return isEoaSignature((row.payload.payload as { signature?: unknown }).signature);
}
