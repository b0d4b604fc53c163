import { literatureQueryRequestSchema } from "@/lib/contracts";
import { withPayment } from "@/lib/payments/paid-route";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// POST /api/literature – start a literature search ($0.03, settled before the answer)
export const POST = withPayment("literature", {
  bodySchema: literatureQueryRequestSchema,
  handle: async ({ body }) => {
    const agent = getAgentApi();
    const { status, data } = await agent.startLiterature(body);
    const jobId = "jobId" in data && typeof data.jobId === "string" ? data.jobId : undefined;
    return {
      status,
      body: data,
      upstreamJobId: jobId,
      cancel: jobId ? async () => void (await agent.cancelLiterature(jobId)) : undefined,
    };
  },
});
