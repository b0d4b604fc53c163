import { z } from "zod";
import { deepResearchAcceptedSchema, deepResearchConversationSchema, deepResearchStartRequestSchema } from "@/lib/shared/contracts";
import { agentUnavailable, databaseUnavailable, error, json, literatureUnavailable, pathParam, settlementUnavailable, unsettledTurns } from "@/lib/shared/openapi/responses";
import { definePaidOperation } from "@/lib/shared/operations/define";
import { DEEP_RESEARCH_TIMINGS, EXAMPLE_CONVERSATION_ID, EXAMPLE_ID, SETTLED_ON_DELIVERY } from "@/lib/shared/operations/shared";

/** POST /api/deep-research/start: a multi-iteration research turn, settled when it is delivered. */
export const deepResearch = definePaidOperation({
  id: "deepResearch",
  method: "POST",
  path: "/api/deep-research/start",
  summary: "Start deep research",
  amount: "1000000",
  ...SETTLED_ON_DELIVERY,
  body: deepResearchStartRequestSchema,
  bodyExample: { message: "What is the evidence that rapamycin extends healthy lifespan in mammals?" },
  accepted: deepResearchAcceptedSchema,
  acceptedExample: () => ({ messageId: EXAMPLE_ID, conversationId: EXAMPLE_CONVERSATION_ID, status: "queued" }),
  polling: { status: deepResearchConversationSchema, method: "GET", path: "/api/deep-research/{conversationId}", ...DEEP_RESEARCH_TIMINGS },
  openapi: {
    tags: ["deep research"],
    requestSchema: "DeepResearchStartRequest",
    description:
      "Starts a multi-iteration research run on a question, or continues a conversation with `conversationId` (the `conversationId` of an earlier 202), for the payer address that started it only. The payment is verified now and settled when the turn's result is delivered: the poll that first shows the completed turn carries PAYMENT-RESPONSE, and the turn its `settlement`. A turn is admitted only while the payer's balance covers it beside the payer's deep-research turns not yet settled (else 402 `insufficient_funds`). Nothing is charged for a turn that fails, and a turn whose searches reached no literature source fails.",
    responses: ({ accepted }) => ({
      "202": json("DeepResearchAccepted", "Accepted; poll GET /api/deep-research/{conversationId}", { example: accepted }),
      "404": error(
        "`conversationId` names a conversation this payer address did not start through this service, or one it no longer knows (`reason: not_found`, the same for both); answered after the payment is checked, before any work: `charged: false`",
      ),
      "429": unsettledTurns,
      "503": literatureUnavailable(settlementUnavailable),
    }),
    status: {
      operationId: "getDeepResearch",
      summary: "Poll a deep-research conversation (free)",
      description:
        "The conversation and its turns. A turn's reply, citations and the world state it added are shown once its payment is settled (the gateway settles it on this poll when the turn completed); while the work runs, the conversation may hold only its id and status.",
      parameters: [pathParam("conversationId", "The `conversationId` of the 202")],
      responses: () => ({
        "200": json("DeepResearchConversation", "The conversation"),
        "404": error("Unknown conversation (`reason: not_found`)"),
        "500": error("Database error or unknown status"),
        "502": agentUnavailable,
        "503": databaseUnavailable,
      }),
    },
  },
  mcp: {
    name: "deep_research_start",
    title: "Start deep research",
    description: (price) =>
      `Starts a deep-research turn: several iterations of literature search across evidence axes (human trials, observational cohorts, animal models, mechanism, safety, dose), with findings, hypotheses, open questions and a cited report. Takes minutes, so it returns at once with a conversationId to read with deep_research_status (free). Costs ${price} in USDC on Base (x402), settled when the turn is delivered. Send conversationId to continue an earlier conversation this wallet started.`,
    waitSeconds: 0,
    status: {
      name: "deep_research_status",
      title: "Deep research status (free)",
      description: (words) =>
        `Reads a deep-research conversation by the conversationId deep_research_start returned: each turn's status (one of ${words.join(", ")}), its report, world state and settlement once delivered. Poll about every 10 seconds. Free.`,
      input: z.object({ conversationId: z.uuid().describe("the conversationId of the deep_research_start tool's answer") }).strict(),
    },
  },
  history: { kind: "deepResearch", sealed: false, questionOf: (body) => body.message },
});
