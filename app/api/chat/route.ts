import { chatRequestSchema } from "@/lib/contracts";
import { relayLiteratureUnavailable, requireLiteratureReach } from "@/lib/literature/reach";
import { withPayment } from "@/lib/payments/paid-route";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// POST /api/chat – start a cited chat answer ($0.02, settled before the 202). 503
// literature_unavailable before payment when no literature source can answer, and without a
// charge when the search reached none.
export const POST = withPayment("chat", {
  bodySchema: chatRequestSchema,
  precheck: () => requireLiteratureReach({ mode: "fast" }),
  handle: async ({ body }) => {
    const agent = getAgentApi();
    const { status, data } = await relayLiteratureUnavailable(() => agent.startChat(body));
    return {
      status,
      body: { requestId: data.requestId, status: data.status },
      upstreamJobId: data.requestId,
      cancel: async () => void (await agent.cancelChat(data.requestId)),
    };
  },
});
