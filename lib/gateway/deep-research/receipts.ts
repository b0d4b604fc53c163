import type { SignedReceipt } from "@x402/extensions/offer-receipt";
import { getAddress } from "viem";
import type { DeepResearchSettlement } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db/pool";
import type { Caip2Network } from "@/lib/shared/payments/network";
import { issueReceipt } from "@/lib/gateway/offer-receipt/receipts";
import type { OfferReceiptSigner } from "@/lib/gateway/offer-receipt/signer";
import { getPaidOperation } from "@/lib/shared/operations";
import { paymentResponseHeader } from "@/lib/gateway/payments/answers";
import { keepReceipt, type PaymentRow } from "@/lib/gateway/payments/ledger";
import { signedReceiptSchema } from "@/lib/shared/contracts/offer-receipt";

/**
 * What a deep-research payer sees of its charge. Deep research settles after its 202, when the turn
 * is delivered (by a poll or the cron), so the start cannot carry `PAYMENT-RESPONSE` as chat and
 * literature do. Instead:
 * - every poll that shows a settled turn carries that turn's `settlement` in the body (plain
 *   conversations; a sealed answer's body is the contract's envelope and stays as it is);
 * - the first poll that shows it carries `PAYMENT-RESPONSE`, built as the paid routes build it,
 *   once per payment: later polls do not repeat it, so a client that counts PAYMENT-RESPONSE
 *   headers counts each charge once, and the body keeps the record.
 * Both carry the payment's signed receipt (x402 offer-and-receipt), signed the first time a poll
 * shows the settled turn and kept in its ledger row, so every poll shows the same one.
 * A payment that has not settled (scheduled, settling, failed, voided, expired) shows nothing.
 */

/**
 * A settled payment's transfer and receipt, as the turn it paid for shows it; null unless it settled
 * and its receipt is signed. Throws a ZodError when the kept receipt is not the contract's EIP-712
 * one (this service signs no other).
 */
export function settlementOf(payment: Pick<PaymentRow, "status" | "txHash" | "network" | "payer" | "signedReceipt">): DeepResearchSettlement | null {
  if (payment.status !== "settled" || !payment.txHash || !payment.signedReceipt) return null;
  return { transaction: payment.txHash, network: payment.network, payer: getAddress(payment.payer), receipt: signedReceiptSchema.parse(payment.signedReceipt) };
}

/**
 * `payments`, each settled one with its signed receipt: signed now for the resource its operation
 * sells, the first time one is shown, and kept in its row unless another poll kept one first
 * (ledger.ts, keepReceipt). Unsettled payments are returned as they are.
 * @throws the database's error, or the signer's
 */
export async function withSignedReceipts({
  db,
  payments,
  signer,
  publicUrl,
}: {
  db: Queryable;
  payments: PaymentRow[];
  signer: OfferReceiptSigner;
  publicUrl: string;
}): Promise<PaymentRow[]> {
  return Promise.all(
    payments.map(async (payment) => {
      if (payment.status !== "settled" || !payment.txHash || payment.signedReceipt) return payment;
      const receipt = await issueReceipt(signer, {
        resourceUrl: `${publicUrl}${getPaidOperation(payment.operation).path}`,
        payer: getAddress(payment.payer),
        network: payment.network,
        transaction: payment.txHash,
      });
      return { ...payment, signedReceipt: await keepReceipt({ db, id: payment.id, transaction: payment.txHash, receipt }) };
    }),
  );
}

/**
 * The `PAYMENT-RESPONSE` header for the first answer that shows one of `payments` settled (their
 * receipts signed: withSignedReceipts): claims
 * the oldest settled one whose receipt was never sent (one caller wins however many polls race)
 * and returns its header; `{}` when every shown settlement was already sent. One header per answer:
 * when two turns settled unseen, the next poll sends the other.
 * @throws the database's error
 */
export async function takeSettlementReceipt({ db, payments }: { db: Queryable; payments: PaymentRow[] }): Promise<Record<string, string>> {
  const ids = payments.filter((p) => settlementOf(p) !== null).map((p) => p.id);
  if (ids.length === 0) return {};
  const { rows } = await db.query<{ tx_hash: string; network: Caip2Network; payer: string; signed_receipt: SignedReceipt }>(
    `UPDATE gateway.payments SET settlement_receipt_sent_at = now()
      WHERE id = (
        SELECT id FROM gateway.payments
         WHERE id = ANY($1::uuid[]) AND status = 'settled' AND tx_hash IS NOT NULL AND signed_receipt IS NOT NULL AND settlement_receipt_sent_at IS NULL
         ORDER BY settled_at NULLS LAST, id
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
        AND settlement_receipt_sent_at IS NULL
      RETURNING tx_hash, network, payer, signed_receipt`,
    [ids],
  );
  const row = rows[0];
  if (!row) return {};
  return { "payment-response": paymentResponseHeader({ transaction: row.tx_hash, network: row.network, payer: getAddress(row.payer), receipt: row.signed_receipt }) };
}
