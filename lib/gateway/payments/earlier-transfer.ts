import { ApiError } from "@/lib/shared/http";
import type { PaymentRow } from "@/lib/gateway/payments/ledger";
import { confirmPayment, type SettleDeps } from "@/lib/gateway/payments/settle";

/**
 * What an earlier attempt of a payment did to its authorization, asked before an attempt that did
 * not charge is answered "nothing was charged" (issue 24, item 12: a retry answered so while the
 * first attempt's transfer landed, and the client paid twice).
 */
export type EarlierTransfer =
  /** No attempt sent anything that can still land: nothing was charged, and nothing will be. */
  | { kind: "none" }
  /** The transfer is on chain: the payment is settled now (its work is owed). */
  | { kind: "settled"; transaction: string }
  /** A transfer may still land (broadcast, or sent by a hosted facilitator that did not answer), or the chain cannot say. */
  | { kind: "maybe"; message: string };

/** Whether an earlier attempt of this payment sent (or may have sent) its transfer. */
export function mayHaveTransferred(row: Pick<PaymentRow, "txHash" | "outcomeUnknownSince">): boolean {
  return row.txHash !== null || row.outcomeUnknownSince !== null;
}

/**
 * Looks at what the earlier attempts of `row` sent, without sending anything: a transfer found on
 * chain settles the payment in the ledger. A hosted facilitator that never answered may still
 * send its transfer later, so finding none is "maybe" for it; the self-hosted engine knows every
 * transaction it sent, so finding none of them able to land is "none".
 */
export async function earlierTransfer(deps: SettleDeps, row: PaymentRow): Promise<EarlierTransfer> {
  if (!mayHaveTransferred(row)) return { kind: "none" };
  let outcome;
  try {
    outcome = await confirmPayment(deps, row, { waitMs: 0, resend: false });
  } catch (err) {
    if (err instanceof ApiError) return { kind: "maybe", message: err.detail ?? err.message };
    throw err;
  }
  if (outcome?.outcome === "settled") return { kind: "settled", transaction: outcome.transaction };
  if (outcome?.outcome === "pending") return { kind: "maybe", message: `its transfer ${outcome.transaction} is on its way` };
  if (row.outcomeUnknownSince !== null && deps.facilitator.kind === "hosted") {
    return { kind: "maybe", message: "the facilitator did not say whether it sent the transfer" };
  }
  return { kind: "none" };
}
