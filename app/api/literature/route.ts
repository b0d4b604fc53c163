import { relayLiteratureUnavailable, requireLiteratureReach } from "@/lib/gateway/literature/reach";
import { literature } from "@/lib/shared/operations/literature";
import { withPayment } from "@/lib/gateway/payments/paid-route";
import { getAgentApi } from "@/lib/gateway/upstream";
import { ownEdge } from "@/lib/shared/http/own-edge";

export const dynamic = "force-dynamic";

// Every other method, answered here: the proxy does not run for this path (lib/shared/http/own-edge.ts).
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = ownEdge(literature.path);

// POST /api/literature – start a literature search (settled before the answer). 503
// literature_unavailable before payment when no literature source can answer, and without a
// charge when the search reached none.
export const POST = withPayment(literature, {
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
