import { encryptedEnvelopeSchema } from "@/lib/contracts";
import { withPayment } from "@/lib/payments/paid-route";
import { forwardToEnclave, pollUrl } from "@/lib/private/forward";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// POST /api/deep-research/encrypted – a sealed {message, recoveryKey} ($1.00, settled when the
// result is delivered, like plain deep research). No pre-payment check: its errors are 400, 402
// and 500. The run is the agent's; its payment is found by the run's messageId.
export const POST = withPayment("deepResearchEncrypted", {
  bodySchema: encryptedEnvelopeSchema,
  handle: async ({ body }) => {
    const { data } = await forwardToEnclave(() => getAgentApi().startPrivateDeepResearch(body));
    const url = pollUrl(`/api/deep-research/encrypted/status/${encodeURIComponent(data.messageId)}`);
    return { status: 202, body: { messageId: data.messageId, status: "queued", pollUrl: url }, upstreamJobId: data.messageId, messageId: data.messageId };
  },
});
