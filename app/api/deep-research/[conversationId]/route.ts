import { getDb } from "@/lib/db";
import { presentConversation, reconcileConversation } from "@/lib/deep-research/reconcile";
import { jsonResponse, withApi } from "@/lib/http";
import { getPaymentsContext } from "@/lib/payments/context";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// GET /api/deep-research/[conversationId] – poll a conversation; settles finished turns, then releases them
export const GET = withApi<{ conversationId: string }>("GET /api/deep-research/[conversationId]", async ({ params }) => {
  const { data: conversation } = await getAgentApi().getDeepResearch(params.conversationId);
  const { facilitator, chain } = getPaymentsContext();
  const { payments } = await reconcileConversation(
    { db: await getDb(), facilitator, chain, nowSeconds: () => Math.floor(Date.now() / 1000) },
    conversation,
  );
  return jsonResponse(presentConversation(conversation, payments));
});
