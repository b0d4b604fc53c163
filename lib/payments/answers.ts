import { encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import type { StoredResponse, WorkAnswer } from "./ledger";

/**
 * The answers of paid requests, kept in the ledger so a client that lost one gets it again: the
 * work's answer with its `PAYMENT-RESPONSE` (rebuilt from the work and the transaction whenever
 * it was not stored), refusals as they were given.
 */

/** The paid answer: the work's status and body, and the settlement in PAYMENT-RESPONSE. */
export function paidAnswer(work: WorkAnswer, settlement: { transaction: string; requirements: PaymentRequirements; payer: string }): StoredResponse {
  return {
    status: work.status,
    body: work.body,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "payment-response": paymentResponseHeader({ transaction: settlement.transaction, network: settlement.requirements.network, payer: settlement.payer }),
    },
  };
}

/** The `PAYMENT-RESPONSE` value of a successful settlement: the x402 settle response, base64 JSON. */
export function paymentResponseHeader(settlement: { transaction: string; network: string; payer: string }): string {
  return encodePaymentResponseHeader({
    success: true,
    transaction: settlement.transaction,
    network: settlement.network as PaymentRequirements["network"],
    payer: settlement.payer,
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
