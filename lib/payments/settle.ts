import type { SettleResponse } from "@x402/core/types";
import type { Queryable } from "@/lib/db";
import { log } from "@/lib/log";
import type { ChainReader } from "./chain";
import { FacilitatorUnavailableError, type PaymentFacilitator } from "./facilitator";
import { takeSettlement, updatePayment, type PaymentRow, type PaymentStatus, type StoredResponse } from "./ledger";
import { mapFacilitatorReason, type PaymentReason } from "./reasons";

export type SettleOutcome =
  | { outcome: "settled"; row: PaymentRow; response: SettleResponse }
  /** Broadcast, receipt not in yet (or the facilitator could not be reached): retried later. */
  | { outcome: "pending"; row: PaymentRow; txHash: string | null }
  | { outcome: "failed"; row: PaymentRow; reason: PaymentReason; message: string }
  | { outcome: "expired"; row: PaymentRow }
  /** Someone else is settling it, or it is no longer in a state to settle. */
  | { outcome: "busy" };

export type SettleDeps = { db: Queryable; facilitator: PaymentFacilitator; chain: ChainReader; nowSeconds: () => number };

/**
 * Settles one payment, once, whoever calls (the paid route, the cron, a poll): the caller that
 * takes the settlement lease does it; everyone else gets `busy`. A broadcast whose receipt is
 * pending keeps its transaction hash and is awaited again by the next attempt, never re-sent.
 * An authorization that expired before any broadcast is marked `expired` and never charged.
 */
export async function settlePayment(
  deps: SettleDeps,
  {
    id,
    from,
    upstreamJobId,
    responseFor,
  }: {
    id: string;
    from: PaymentStatus[];
    upstreamJobId?: string | null;
    /** The answer to store with a successful settlement (the paid route's), written in the same update. */
    responseFor?: (settlement: SettleResponse) => StoredResponse;
  },
): Promise<SettleOutcome> {
  const row = await takeSettlement({ db: deps.db, id, from, upstreamJobId });
  if (!row) return { outcome: "busy" };

  if (!row.txHash && row.validBefore <= deps.nowSeconds()) {
    // The token would refuse it anyway; say so without spending gas.
    await updatePayment({ db: deps.db, id, status: "expired", fields: { failureReason: "authorization_expired" } });
    return { outcome: "expired", row: { ...row, status: "expired" } };
  }

  let result: SettleResponse;
  // The hash is written while the facilitator waits for the receipt, not before it may start to;
  // the final write waits for it, so the two never race.
  let hashWrite: Promise<void> = Promise.resolve();
  try {
    result = await deps.facilitator.settle(row.payload, row.requirements, {
      resumeTxHash: row.txHash,
      onBroadcast: async (txHash) => {
        row.txHash = txHash;
        hashWrite = updatePayment({ db: deps.db, id, fields: { txHash } }).catch((err: unknown) =>
          log.error("could not record a settlement's transaction hash", { paymentId: id, txHash, error: err }),
        );
      },
    });
    await hashWrite;
  } catch (err) {
    await hashWrite;
    if (!(err instanceof FacilitatorUnavailableError)) throw err;
    log.warn("settlement deferred: facilitator unavailable", { paymentId: id, error: err });
    return { outcome: "pending", row, txHash: row.txHash };
  }

  if (result.success) {
    await updatePayment({
      db: deps.db,
      id,
      status: "settled",
      fields: {
        txHash: result.transaction,
        settledAt: new Date(),
        failureReason: null,
        ...(responseFor ? { response: responseFor(result) } : {}),
      },
    });
    return { outcome: "settled", row: { ...row, status: "settled", txHash: result.transaction }, response: result };
  }
  if (result.errorReason === "settlement_pending") {
    if (result.transaction) await updatePayment({ db: deps.db, id, fields: { txHash: result.transaction } });
    return { outcome: "pending", row, txHash: result.transaction || row.txHash };
  }

  const reason = mapFacilitatorReason(result.errorReason, "settlement_failed");
  // A retry after an unrecorded broadcast (a hosted facilitator timed out, or we crashed) finds
  // the nonce used: if the chain says so, that earlier transfer was ours and the payment is made.
  if (reason === "payment_already_used" && row.settleAttempts > 1) {
    const used = await deps.chain.isAuthorizationUsed(row.payer, row.nonce).catch(() => false);
    if (used) {
      await updatePayment({ db: deps.db, id, status: "settled", fields: { settledAt: new Date() } });
      const response: SettleResponse = { success: true, transaction: row.txHash ?? "", network: row.requirements.network, payer: row.payer };
      return { outcome: "settled", row: { ...row, status: "settled" }, response };
    }
  }
  const message = [result.errorReason, result.errorMessage].filter(Boolean).join(": ");
  await updatePayment({ db: deps.db, id, status: "failed", fields: { failureReason: reason, failureMessage: message } });
  return { outcome: "failed", row: { ...row, status: "failed" }, reason, message };
}
