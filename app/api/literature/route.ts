import { relayLiteratureUnavailable, requireLiteratureReach } from "@/lib/literature/reach";
import { literature } from "@/lib/operations/literature";
import { withPayment } from "@/lib/payments/paid-route";
import { getAgentApi } from "@/lib/upstream";
import { ownEdge } from "@/lib/http/own-edge";

export const dynamic = "force-dynamic";

// Every other method, answered here: the proxy does not run for this path (lib/http/own-edge.ts).
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
