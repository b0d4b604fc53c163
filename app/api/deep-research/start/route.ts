import { deepResearchStartRequestSchema } from "@/lib/contracts";
import { getDb } from "@/lib/db";
import { requireLiteratureReach } from "@/lib/literature/reach";
import { upsertConversationStatus } from "@/lib/db/queries/conversations";
import { withPayment } from "@/lib/payments/paid-route";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// POST /api/deep-research/start – start or continue deep research ($1.00, settled when delivered).
// 503 literature_unavailable before payment when no literature source can answer, as for chat; a
// turn whose searches then reached none fails, and a failed turn is never charged.
export const POST = withPayment("deepResearch", {
  bodySchema: deepResearchStartRequestSchema,
  precheck: () => requireLiteratureReach(),
  handle: async ({ body }) => {
    const { data } = await getAgentApi().startDeepResearch(body);
    await upsertConversationStatus({ db: await getDb(), conversationId: data.conversationId, status: "queued" });
    return {
      status: 202,
      body: { messageId: data.messageId, conversationId: data.conversationId, status: "queued" },
      upstreamJobId: data.messageId,
      conversationId: data.conversationId,
      messageId: data.messageId,
    };
  },
});
