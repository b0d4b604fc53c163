import { z } from "zod";
import { chatAcceptedSchema, chatJobStatusSchema, chatRequestSchema } from "@/lib/shared/contracts";
import { agentUnavailable, error, json, literatureUnavailable, pathParam, settlementUnavailable } from "@/lib/shared/openapi/responses";
import { CHAT_TIMINGS, EXAMPLE_ID, SETTLED_AT_ONCE } from "@/lib/shared/operations/shared";
import { definePaidOperation } from "@/lib/shared/operations/define";

/** POST /api/chat: a cited answer from the literature, settled before the 202. */
export const chat = definePaidOperation({
  id: "chat",
  method: "POST",
  path: "/api/chat",
  summary: "Start chat",
  amount: "20000",
  ...SETTLED_AT_ONCE,
  body: chatRequestSchema,
  bodyExample: { message: "Does metformin slow aging in humans?" },
  accepted: chatAcceptedSchema,
  acceptedExample: () => ({ requestId: EXAMPLE_ID, status: "queued" }),
  polling: { status: chatJobStatusSchema, method: "GET", path: "/api/chat/status/{requestId}", ...CHAT_TIMINGS },
  openapi: {
    tags: ["chat"],
    requestSchema: "ChatRequest",
    description:
      "Starts a cited answer to a question, from the scientific literature. Typical duration 30 to 50 s. The result's `failedSources` names the literature sources that failed (its answer says so in words); when none can answer, 503 `literature_unavailable` before payment. `conversationId` (the `conversationId` of an earlier answer, in its 202 or its ChatResult) continues that conversation, for the payer address that started it only: a message that leans on the earlier question (\"And in women?\", \"Is it safe?\") is searched and judged with its subject and its answer opens by saying so; one that names its own subject is read on its own words only. The result's `metadata.followUp` says how it was read.",
    responses: ({ accepted }) => ({
      "202": json("ChatAccepted", "Accepted; poll GET /api/chat/status/{requestId}. `conversationId` names the conversation a follow-up continues", { example: accepted }),
      "404": error(
        "`conversationId` names a conversation this payer address did not start through this service, or one forgotten a day after its last question (`reason: not_found`, the same for both); answered after the payment is checked, before any work: `charged: false`",
      ),
      "503": literatureUnavailable(settlementUnavailable),
    }),
    status: {
      operationId: "getChatStatus",
      summary: "Poll a chat job (free)",
      description: "The job's status and progress; `result` once completed (a ChatResult with the agent's processing time), `error` once failed.",
      parameters: [pathParam("requestId", "The `requestId` of the 202")],
      responses: () => ({
        "200": json("ChatJobStatus", "The job status"),
        "404": error("Unknown or expired (older than 1 hour) request id (`reason: not_found`)"),
        "500": error("Internal failure"),
        "502": agentUnavailable,
      }),
    },
  },
  mcp: {
    name: "chat",
    title: "Cited chat answer",
    description: (price) =>
      `Answers an aging, longevity or biomedical question with citations from the scientific literature: every [N] marker resolves to a verified reference, with a verdict (supports, contradicts, mixed, insufficient) and the evidence graded by strength. Costs ${price} in USDC on Base (x402). Send conversationId from an earlier answer to ask a follow-up in the same conversation (only the payer who started it can). Waits for the answer; if it takes longer, returns the requestId to read with chat_status (free).`,
    waitSeconds: 55,
    status: {
      name: "chat_status",
      title: "Chat answer status (free)",
      description: (words) => `Reads a chat answer by the requestId the chat tool returned; its status is one of ${words.join(", ")} (completed carries the answer and its references). Free.`,
      input: z.object({ requestId: z.string().min(1).max(128).describe("the requestId of the chat tool's answer") }).strict(),
    },
  },
  history: { kind: "chat", sealed: false, questionOf: (body) => body.message },
});
