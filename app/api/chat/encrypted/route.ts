import { ApiError } from "@/lib/shared/http";
import { requireLiteratureReach } from "@/lib/gateway/literature/reach";
import { chatEncrypted } from "@/lib/shared/operations/chat-encrypted";
import { withPayment } from "@/lib/gateway/payments/paid-route";
import { forwardToEnclave, pollUrl, readPrivateStatus } from "@/lib/gateway/private/forward";
import { getAgentApi } from "@/lib/gateway/upstream";
import { ownEdge } from "@/lib/shared/http/own-edge";

export const dynamic = "force-dynamic";

// Every other method, answered here: the proxy does not run for this path (lib/shared/http/own-edge.ts).
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = ownEdge(chatEncrypted.path);

// POST /api/chat/encrypted – a sealed chat request. The gateway never sees plaintext: it
// checks the enclave is ready and that the literature can be searched (503 before payment), takes
// payment, and relays the envelope. An
// envelope the enclave cannot open is the agent's 400 relayed; any other enclave failure is a 500.
// Both are answered before settlement, so neither is charged. Its body may be up to 1 MiB (the
// price table's maxBodyBytes): sealed attachments.
export const POST = withPayment(chatEncrypted, {
  precheck: async () => {
    if ((await readPrivateStatus())?.privateMode !== "ready") {
      throw new ApiError("unavailable", "private_chat_unavailable", { reason: "private_mode_not_ready" });
    }
    // Sealed or not, a chat answers from the literature: none reachable is 503 before payment.
    await requireLiteratureReach({ mode: "fast" });
  },
  handle: async ({ body }) => {
    const agent = getAgentApi();
    const { data } = await forwardToEnclave(() => agent.startPrivateChat(body));
    // Unpaid, the job is stopped and its sealed answer (even one already given here) discarded.
    const cancel = async () => void (await agent.cancelPrivateJob(data.requestId));
    if ("hpke_response_ciphertext" in data) return { status: 200, body: data, upstreamJobId: data.requestId, cancel };
    const url = pollUrl(`/api/chat/encrypted/status/${encodeURIComponent(data.requestId)}`);
    return { status: 202, body: { requestId: data.requestId, status: "queued", pollUrl: url }, upstreamJobId: data.requestId, cancel };
  },
});
