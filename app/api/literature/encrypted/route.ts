import { ApiError } from "@/lib/shared/http";
import { requireLiteratureReach } from "@/lib/gateway/literature/reach";
import { literatureEncrypted } from "@/lib/shared/operations/literature-encrypted";
import { withPayment } from "@/lib/gateway/payments/paid-route";
import { forwardToEnclave, pollUrl, readPrivateStatus } from "@/lib/gateway/private/forward";
import { getAgentApi } from "@/lib/gateway/upstream";
import { ownEdge } from "@/lib/shared/http/own-edge";

export const dynamic = "force-dynamic";

// Every other method, answered here: the proxy does not run for this path (lib/shared/http/own-edge.ts).
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = ownEdge(literatureEncrypted.path);

// POST /api/literature/encrypted – a sealed literature search (settled before the 202).
// Before payment: private literature off upstream → 403; its status unreadable → 503; no
// literature source able to answer → 503 literature_unavailable (as the plain route). Then as
// every encrypted route: 402, the envelope's shape (400), payment, and the envelope relayed; one
// the enclave cannot open (or that holds no valid literature request) is a 400, uncharged.
export const POST = withPayment(literatureEncrypted, {
  precheck: async () => {
    const status = await readPrivateStatus();
    if (!status || status.privateMode !== "ready") {
      throw new ApiError("unavailable", "private_literature_unavailable", { reason: "private_literature_unavailable" });
    }
    if (status.privateLiterature !== "enabled") {
      throw new ApiError("forbidden", "private_literature_disabled", { reason: "private_literature_disabled" });
    }
    // As plain literature: no source able to answer is 503 literature_unavailable, before payment.
    await requireLiteratureReach();
  },
  handle: async ({ body }) => {
    // 403: private literature was switched off between the check and now; relayed, uncharged.
    const agent = getAgentApi();
    const { data } = await forwardToEnclave(() => agent.startPrivateLiterature(body), { relay: [400, 403] });
    const url = pollUrl(`/api/literature/encrypted/status/${encodeURIComponent(data.requestId)}`);
    return {
      status: 202,
      body: { requestId: data.requestId, status: "pending", pollUrl: url },
      upstreamJobId: data.requestId,
      cancel: async () => void (await agent.cancelPrivateJob(data.requestId)),
    };
  },
});
