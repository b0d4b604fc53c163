import { chatRequestSchema } from "@/lib/contracts";
import { withPayment } from "@/lib/payments/paid-route";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// POST /api/chat – start a cited chat answer ($0.02, settled before the 202)
export const POST = withPayment("chat", {
  bodySchema: chatRequestSchema,
  handle: async ({ body }) => {
    const agent = getAgentApi();
    const { status, data } = await agent.startChat(body);
    return {
      status,
      body: { requestId: data.requestId, status: data.status },
      upstreamJobId: data.requestId,
      cancel: async () => void (await agent.cancelChat(data.requestId)),
    };
  },
});
