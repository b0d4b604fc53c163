import { requireLiteratureReach } from "@/lib/gateway/literature/reach";
import { deepResearchEncrypted } from "@/lib/shared/operations/deep-research-encrypted";
import { withPayment } from "@/lib/gateway/payments/paid-route";
import { forwardToEnclave, pollUrl } from "@/lib/gateway/private/forward";
import { getAgentApi } from "@/lib/gateway/upstream";
import { ownEdge } from "@/lib/shared/http/own-edge";

export const dynamic = "force-dynamic";

// Every other method, answered here: the proxy does not run for this path (lib/shared/http/own-edge.ts).
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = ownEdge(deepResearchEncrypted.path);

// POST /api/deep-research/encrypted – a sealed {message, recoveryKey} (settled when the
// result is delivered, like plain deep research). Before payment, 503 literature_unavailable when
// no literature source can answer (the run would have nothing to research from); a run whose
// searches then reached none fails, uncharged. The run is the agent's; its payment is found by the
// run's messageId. The enclave's receipt (hpke_response_*, sealed to the start) is relayed as it is.
export const POST = withPayment(deepResearchEncrypted, {
  precheck: () => requireLiteratureReach(),
  handle: async ({ body }) => {
    const { data } = await forwardToEnclave(() => getAgentApi().startPrivateDeepResearch(body));
    const { messageId, hpke_response_ciphertext, hpke_response_ephemeral_key } = data;
    const receipt = hpke_response_ciphertext && hpke_response_ephemeral_key ? { hpke_response_ciphertext, hpke_response_ephemeral_key } : {};
    const url = pollUrl(`/api/deep-research/encrypted/status/${encodeURIComponent(messageId)}`);
    return { status: 202, body: { messageId, status: "queued", pollUrl: url, ...receipt }, upstreamJobId: messageId, messageId };
  },
});
