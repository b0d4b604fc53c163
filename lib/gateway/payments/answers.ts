import { encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import type { SignedReceipt } from "@x402/extensions/offer-receipt";
import { issueReceipt, receiptExtensions } from "@/lib/gateway/offer-receipt/receipts";
import type { OfferReceiptSigner } from "@/lib/gateway/offer-receipt/signer";
import type { Queryable } from "@/lib/shared/db";
import type { Caip2Network } from "@/lib/shared/payments/network";
import { keepReceipt, type StoredResponse, type WorkAnswer } from "@/lib/gateway/payments/ledger";

/**
 * The answers of paid requests, kept in the ledger so a client that lost one gets it again: the
 * work's answer with its `PAYMENT-RESPONSE` (rebuilt from the work and the transaction whenever
 * it was not stored), refusals as they were given.
 */

/**
 * Where a paid answer's receipt comes from: the payment (its ledger row keeps the receipt), the
 * route's requirements and resource, and the deployment's signer.
 */
export type ReceiptSource = { db: Queryable; paymentId: string; requirements: PaymentRequirements; resourceUrl: string; signer: OfferReceiptSigner };

/**
 * The paid answer: the work's status and body, and the settlement in PAYMENT-RESPONSE with its
 * signed receipt (x402 offer-and-receipt), the one the payment's row keeps for that transaction:
 * an answer rebuilt, replayed, or given by another process shows the same receipt.
 */
async function paidAnswer(work: WorkAnswer, settlement: { transaction: string; payer: string } & ReceiptSource): Promise<StoredResponse> {
  const { db, paymentId, transaction, payer, requirements, resourceUrl, signer } = settlement;
  const signed = await issueReceipt(signer, { resourceUrl, payer, network: requirements.network, transaction });
  const receipt = await keepReceipt({ db, id: paymentId, transaction, receipt: signed });
  return {
    status: work.status,
    body: work.body,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "payment-response": paymentResponseHeader({ transaction, network: requirements.network, payer, receipt }),
    },
  };
}

/**
 * `paidAnswer` of `work` by transaction, each signed once: the answer a settlement stores and the
 * one sent to the client carry the same receipt.
 */
export function paidAnswers(work: WorkAnswer, { payer, ...source }: { payer: string } & ReceiptSource): (transaction: string) => Promise<StoredResponse> {
  const signed = new Map<string, Promise<StoredResponse>>();
  return (transaction) => {
    let answer = signed.get(transaction);
    if (!answer) signed.set(transaction, (answer = paidAnswer(work, { transaction, payer, ...source })));
    return answer;
  };
}

/** The `PAYMENT-RESPONSE` value of a successful settlement: the x402 settle response, base64 JSON, with its signed receipt. */
export function paymentResponseHeader(settlement: { transaction: string; network: Caip2Network; payer: string; receipt: SignedReceipt }): string {
  return encodePaymentResponseHeader({
    success: true,
    transaction: settlement.transaction,
    network: settlement.network,
    payer: settlement.payer,
    extensions: receiptExtensions(settlement.receipt),
  });
}

/** The stored form of a response we are about to give (its status, JSON body and payment headers). */
export async function snapshot(response: Response): Promise<StoredResponse> {
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

/** A stored answer given again, marked as a replay. */
export function replayResponse(stored: StoredResponse, extraHeaders: Record<string, string> = {}): Response {
  const { status, body, headers } = stored;
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers, ...extraHeaders, "x-payment-replayed": "true" },
  });
}

/** A stored answer given for the first time. */
export function answerResponse(stored: StoredResponse, extraHeaders: Record<string, string> = {}): Response {
  const { status, body, headers } = stored;
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers, ...extraHeaders },
  });
}
