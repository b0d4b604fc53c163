import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { presentConversation, reconcileConversation } from "@/lib/gateway/deep-research/reconcile";
import { takeSettlementReceipt, withSignedReceipts } from "@/lib/gateway/deep-research/receipts";
import { pollingHeaders } from "@/lib/shared/discovery/polling";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { offerReceiptSigner } from "@/lib/gateway/offer-receipt/signer";
import { getPaymentsContext } from "@/lib/gateway/payments/context";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

// GET /api/deep-research/[conversationId] – poll a conversation; settles finished turns, then releases them
// with their settlement and signed receipt (PAYMENT-RESPONSE on the first poll that shows one; Retry-After while not final)
export const GET = withApi<{ conversationId: string }>("GET /api/deep-research/[conversationId]", async ({ params }) => {
  const { data: conversation } = await getAgentApi().getDeepResearch(params.conversationId);
  const { facilitator, chain } = getPaymentsContext();
  const db = await getDb();
  const { payments: reconciled } = await reconcileConversation({ db, facilitator, chain, nowSeconds: () => Math.floor(Date.now() / 1000) }, conversation);
  const config = getConfig();
  const payments = await withSignedReceipts({ db, payments: reconciled, signer: offerReceiptSigner(config.offerReceipt), publicUrl: config.publicUrl });
  const body = presentConversation(conversation, payments);
  const shown = new Set(body.turns?.map((turn) => turn.messageId));
  const receipt = await takeSettlementReceipt({ db, payments: payments.filter((p) => p.messageId !== null && shown.has(p.messageId)) });
  return jsonResponse(body, { headers: { ...pollingHeaders({ operation: "deepResearch", status: body.status }), ...receipt } });
});
