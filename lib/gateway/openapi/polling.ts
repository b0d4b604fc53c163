import { describePolling, retryAfterSeconds, type AsyncPolling } from "@/lib/shared/discovery/polling";
import { PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";
import { isRecord } from "@/lib/shared/narrow";

/**
 * The polling guidance of the OpenAPI document, generated from each operation's `polling`
 * (lib/shared/operations, through lib/shared/discovery/polling.ts, which the 402's bazaar extension,
 * /.well-known/x402.json, /llms.txt and the status routes' Retry-After read), so the document says
 * what the routes do. Each asynchronous paid operation and its status
 * route gets `x-polling` (the table's entry, as the bazaar extension carries it) and a sentence in
 * its description; each status route's 200 documents `Retry-After`, and deep research's
 * `PAYMENT-RESPONSE`.
 */

type Json = Record<string, unknown>;

/** The guidance in words: the route's own status words (the contract fixes them per route), its timings. */
export function pollingSentence(polling: AsyncPolling, statusRoute: string): string {
  return (
    `Polling: ${statusRoute} every ${polling.intervalSeconds} s until a final status. This route's own status words: ` +
    `keep polling on ${polling.pendingStatuses.join(", ")}; final: ${polling.finalStatuses.join(", ")}. ` +
    `Typically ${polling.typicalSeconds} s; stop waiting after ${polling.maxSeconds} s. ` +
    `A non-final answer of the status route carries Retry-After (${polling.intervalSeconds} s); a final one none. Details in x-polling.`
  );
}

const retryAfterHeader = (operation: PaidOperation["id"]): Json => ({
  description: `On answers whose status is not final: seconds until the next poll (${retryAfterSeconds(operation)}). Absent on final answers.`,
  schema: { type: "integer", minimum: 1, const: retryAfterSeconds(operation) },
});

const receiptHeader: Json = {
  description:
    "The x402 settlement response (standard base64 of UTF-8 JSON: success, transaction, network, payer, and the signed receipt in `extensions[\"offer-receipt\"].info.receipt`), as the paid routes send it, on the first poll that shows a settled turn's result, once per payment: later polls do not repeat it (a client counting PAYMENT-RESPONSE headers counts each charge once). The plain conversation keeps each paid turn's `settlement`, the same receipt included, in the body.",
  schema: { type: "string" },
};

function appendDescription(operation: Json, sentence: string): void {
  operation.description = typeof operation.description === "string" && operation.description ? `${operation.description}\n\n${sentence}` : sentence;
}

/**
 * Adds the polling guidance to `paths` (the document's, changed in place) for every paid operation
 * and its status route.
 * @throws Error when a route of the table is missing from `paths`
 */
export function addPollingGuidance(paths: Record<string, Record<string, Json>>, { publicUrl }: { publicUrl: string }): void {
  for (const paid of PAID_OPERATIONS) {
    const operation = paid.id;
    const polling = describePolling({ operation, publicUrl });
    const route = paid.polling;
    const statusRoute = `${route.method} ${route.path}`;
    const start = paths[paid.path]?.[paid.method.toLowerCase()];
    const status = paths[route.path]?.[route.method.toLowerCase()];
    if (!start || !status) throw new Error(`The OpenAPI document lacks ${paid.method} ${paid.path} or ${statusRoute}`);
    for (const op of [start, status]) {
      op["x-polling"] = polling;
      appendDescription(op, pollingSentence(polling, statusRoute));
    }
    const ok = isRecord(status.responses) ? status.responses["200"] : undefined;
    if (!isRecord(ok)) throw new Error(`The OpenAPI document lacks the 200 of ${statusRoute}`);
    ok.headers = {
      ...(isRecord(ok.headers) ? ok.headers : {}),
      "Retry-After": retryAfterHeader(operation),
      // Settled after the 202: the receipt comes with the poll that delivers the result.
      ...(paid.settlement === "deferred" ? { "PAYMENT-RESPONSE": receiptHeader } : {}),
    };
  }
}
