import { encryptedEnvelopeSchema, PRIVATE_ENVELOPE_MAX_BYTES } from "@/lib/contracts";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import { withPayment } from "@/lib/payments/paid-route";
import { getAgentApi, UpstreamHttpError } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// POST /api/chat/encrypted – a sealed chat request ($0.02). The gateway never sees plaintext: it
// checks the enclave is ready (503 before payment), takes payment, and relays the envelope. An
// envelope the enclave cannot open is the agent's 400 relayed; any other enclave failure is a 500.
// Both are answered before settlement, so neither is charged.
export const POST = withPayment("chatEncrypted", {
  bodySchema: encryptedEnvelopeSchema,
  // A sealed request with the largest attachments (5 × 100,000 characters) is about 700 KB of
  // base64; the agent accepts envelopes up to 1 MiB, and so does this route.
  maxBodyBytes: PRIVATE_ENVELOPE_MAX_BYTES,
  precheck: async () => {
    let ready = false;
    try {
      ready = (await getAgentApi().getPrivateStatus()).data.privateMode === "ready";
    } catch (err) {
      log.warn("private status unreadable", { error: err });
    }
    if (!ready) throw new ApiError("unavailable", "private_chat_unavailable", { reason: "private_mode_not_ready" });
  },
  handle: async ({ body }) => {
    let data;
    try {
      ({ data } = await getAgentApi().startPrivateChat(body));
    } catch (err) {
      if (err instanceof UpstreamHttpError && err.upstreamStatus === 400) throw err;
      throw new ApiError("internal", "The enclave could not take the private request", { reason: "enclave_failed", cause: err });
    }
    if ("hpke_response_ciphertext" in data) return { status: 200, body: data, upstreamJobId: data.requestId };
    const pollUrl = new URL(`/api/chat/encrypted/status/${encodeURIComponent(data.requestId)}`, getConfig().publicUrl).toString();
    return { status: 202, body: { requestId: data.requestId, status: "queued", pollUrl }, upstreamJobId: data.requestId };
  },
});
