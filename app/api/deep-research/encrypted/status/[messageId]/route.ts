import { encryptedEnvelopeSchema } from "@/lib/shared/contracts";
import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { presentPrivateRun, reconcilePrivateRun } from "@/lib/gateway/deep-research/private-runs";
import { takeSettlementReceipt, withSignedReceipts } from "@/lib/gateway/deep-research/receipts";
import { pollingHeaders } from "@/lib/shared/discovery/polling";
import { ApiError, jsonResponse, parseJsonBody, withApi } from "@/lib/shared/http";
import { offerReceiptSigner } from "@/lib/gateway/offer-receipt/signer";
import { getRunPayment } from "@/lib/gateway/payments/ledger";
import { getPaymentsContext } from "@/lib/gateway/payments/context";
import { forwardToEnclave } from "@/lib/gateway/private/forward";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

// POST /api/deep-research/encrypted/status/[messageId] – a sealed {recoveryKey, messageId} poll
// (free). The enclave opens it and answers the run's status (404 when it names another run),
// sealed to this poll's key when completed; the gateway settles the run's payment on delivery and
// releases the sealed result only once settled, with PAYMENT-RESPONSE on the first poll that
// releases it; Retry-After while not final.
export const POST = withApi<{ messageId: string }>("POST /api/deep-research/encrypted/status/[messageId]", async ({ request, params }) => {
  const envelope = await parseJsonBody(request, encryptedEnvelopeSchema, { maxBytes: getConfig().maxBodyBytes });
  const db = await getDb();
  const payment = await getRunPayment({ db, messageId: params.messageId });
  if (!payment) throw new ApiError("not_found", "Unknown research run", { reason: "not_found" });
  // The agent's 404 (the run is unknown to it, or this recovery key is not the run's) is relayed.
  const { data: answer } = await forwardToEnclave(() => getAgentApi().pollPrivateDeepResearch(params.messageId, envelope), { relay: [400, 404] });
  const { facilitator, chain } = getPaymentsContext();
  const { payment: current } = await reconcilePrivateRun({ db, facilitator, chain, nowSeconds: () => Math.floor(Date.now() / 1000) }, payment, answer.status);
  const body = presentPrivateRun(answer, current);
  // The sealed answer's body is the contract's envelope: its settlement travels in PAYMENT-RESPONSE alone.
  const config = getConfig();
  const signed = () => withSignedReceipts({ db, payments: [current], signer: offerReceiptSigner(config.offerReceipt), publicUrl: config.publicUrl });
  const receipt = body.status === "completed" ? await takeSettlementReceipt({ db, payments: await signed() }) : {};
  return jsonResponse(body, { headers: { ...pollingHeaders({ operation: "deepResearchEncrypted", status: body.status }), ...receipt } });
});
