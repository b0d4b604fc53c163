import { literatureQueryRequestSchema } from "@/lib/contracts";
import { relayLiteratureUnavailable, requireLiteratureReach } from "@/lib/literature/reach";
import { withPayment } from "@/lib/payments/paid-route";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// POST /api/literature – start a literature search ($0.03, settled before the answer). 503
// literature_unavailable before payment when no literature source can answer, and without a
// charge when the search reached none.
export const POST = withPayment("literature", {
  bodySchema: literatureQueryRequestSchema,
  precheck: () => requireLiteratureReach(),
  handle: async ({ body }) => {
    const agent = getAgentApi();
    const { status, data } = await relayLiteratureUnavailable(() => agent.startLiterature(body));
    const jobId = "jobId" in data && typeof data.jobId === "string" ? data.jobId : undefined;
    return {
      status,
      body: data,
      upstreamJobId: jobId,
      cancel: jobId ? async () => void (await agent.cancelLiterature(jobId)) : undefined,
    };
  },
});
