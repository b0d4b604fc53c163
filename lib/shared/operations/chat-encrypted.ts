import { encryptedChatAcceptedSchema, encryptedChatStatusSchema, encryptedEnvelopeSchema } from "@/lib/shared/contracts";
import { PRIVATE_ENVELOPE_MAX_BYTES } from "@/lib/shared/contracts/limits";
import { agentUnavailable, error, json, literatureUnavailable, pathParam } from "@/lib/shared/openapi/responses";
import { definePaidOperation } from "@/lib/shared/operations/define";
import { CHAT_TIMINGS, ENVELOPE_EXAMPLE, EXAMPLE_ID, SETTLED_AT_ONCE, sealedAnswer } from "@/lib/shared/operations/shared";

/** POST /api/chat/encrypted: chat sealed to the enclave; may answer at once, so its authorization lasts up to 10 minutes (contract section 5). */
export const chatEncrypted = definePaidOperation({
  id: "chatEncrypted",
  method: "POST",
  path: "/api/chat/encrypted",
  summary: "Start encrypted chat",
  amount: "20000",
  ...SETTLED_AT_ONCE,
  maxTimeoutSeconds: 600,
  maxBodyBytes: PRIVATE_ENVELOPE_MAX_BYTES,
  body: encryptedEnvelopeSchema,
  bodyExample: ENVELOPE_EXAMPLE,
  accepted: encryptedChatAcceptedSchema,
  acceptedExample: (publicUrl) => ({ requestId: EXAMPLE_ID, status: "queued", pollUrl: `${publicUrl}/api/chat/encrypted/status/${EXAMPLE_ID}` }),
  polling: { status: encryptedChatStatusSchema, method: "GET", path: "/api/chat/encrypted/status/{requestId}", pollUrlField: "pollUrl", synchronous: true, ...CHAT_TIMINGS },
  openapi: {
    tags: ["chat", "private mode"],
    requestSchema: "EncryptedEnvelope",
    sealedPlaintext: "EncryptedChatPlaintext",
    description:
      "Chat with the question sealed to the enclave (GET /api/enclave-key), answered from the literature inside it: no external call carries the question. Readiness and the literature's reach are checked before payment. Answers 200 with the sealed ChatResult when it is ready within the enclave's wait, else 202 and a `pollUrl`.",
    responses: ({ accepted }) => ({
      "200": json("EncryptedChatSyncResponse", "Answered in time; the ChatResult is sealed to the request's ephemeral key, bound to its shared secret with the enclave", {
        sealedAnswer: sealedAnswer("ChatResult"),
      }),
      "202": json("EncryptedChatAccepted", "Accepted; poll `pollUrl`", { example: accepted }),
      "503": literatureUnavailable("`private_chat_unavailable` (reason `private_mode_not_ready`): the enclave cannot be reached or is not ready. Before payment."),
    }),
    status: {
      operationId: "getEncryptedChatStatus",
      summary: "Poll an encrypted chat job (free)",
      description: "The job's status; once completed, the ChatResult sealed to the request's ephemeral key (the gateway cannot read it).",
      sealed: true,
      parameters: [pathParam("requestId", "The `requestId` of the 202")],
      responses: () => ({
        "200": json("EncryptedChatStatus", "Status; completed answers are sealed", { sealedAnswer: sealedAnswer("ChatResult") }),
        "404": error("Unknown or expired (older than 1 hour) request id (`reason: not_found`)"),
        "500": error("Internal failure"),
        "502": agentUnavailable,
      }),
    },
  },
  history: { kind: "chat", sealed: true },
});
