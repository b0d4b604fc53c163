import { z } from "zod";
import { chatQualitySchema, gradedReferenceSchema, messageSchema } from "@/lib/shared/contracts/chat";
import { worldStateDocumentSchema } from "@/lib/shared/contracts/deep-research-world";
import { signedReceiptSchema } from "@/lib/shared/contracts/offer-receipt";
import { componentRef, documentAs, responseRegistry } from "@/lib/shared/contracts/registry";
import { requestContract, requestObject } from "@/lib/shared/contracts/request-contract";

/**
 * Section 3: the states of a deep-research conversation and its turns. `timeout` is set by the
 * gateway's cron on a queued conversation whose payment authorization expired.
 */
export const deepResearchStatuses = ["queued", "running", "cancelling", "completed", "failed", "cancelled", "timeout"] as const;
export const deepResearchStatusSchema = z.enum(deepResearchStatuses);
export type DeepResearchStatus = z.infer<typeof deepResearchStatusSchema>;

/**
 * Beside the contract's fields (this service's addition to section 2.3): what a paid turn cost, the
 * settled transfer of its payment. Set by the gateway from its ledger, never taken from the agent.
 */
const deepResearchSettlementSchema = z
  .object({
    transaction: z.string().describe("hash of the settled transfer (the same as the PAYMENT-RESPONSE header's `transaction`)"),
    network: z.string().describe("CAIP-2 network of the transfer, e.g. eip155:8453 (Base)"),
    payer: z.string().describe("the paying address (checksummed)"),
    receipt: signedReceiptSchema.optional().describe(
      "the service's signed receipt of this payment (x402 offer-and-receipt), present on every settlement this gateway shows, the same as the PAYMENT-RESPONSE header's `extensions[\"offer-receipt\"].info.receipt`: verify it against the keys /.well-known/x402.json publishes",
    ),
  })
  .register(responseRegistry, { id: "DeepResearchSettlement" });
export type DeepResearchSettlement = z.infer<typeof deepResearchSettlementSchema>;

/** Section 2.3: one turn (objective → reply) of a conversation. */
export const deepResearchTurnSchema = z
  .object({
    messageId: z.string().min(1),
    objective: z.string(),
    reply: z.string().optional().describe("present on completed turns"),
    citations: z
      .array(documentAs(z.record(z.string(), z.unknown()), componentRef("GradedReference")))
      .describe("the references the reply's [N] markers address, N being each one's ordinal"),
    status: deepResearchStatusSchema,
    isFinal: z.boolean(),
    settlement: deepResearchSettlementSchema
      .optional()
      .describe(
        "the settled payment of this turn, present once (and only once) it settled, on the poll that releases the reply and every poll after; a turn not yet settled never has one",
      ),
  })
  .register(responseRegistry, { id: "DeepResearchTurn" });
export type DeepResearchTurn = z.infer<typeof deepResearchTurnSchema>;

/**
 * Not the contract's: where a running turn is, as data (sessionStatus says it in words). The
 * gateway shows an unpaid turn's progress from this alone, never from the words, which name what
 * the run searches.
 */
const runProgressSchema = z
  .discriminatedUnion("step", [
    z.object({ step: z.literal("searching"), iteration: z.int().min(1), of: z.int().min(1) }),
    z.object({ step: z.literal("writing") }),
  ])
  .describe("a running turn's step: searching (iteration of how many), or writing the answer")
  .register(responseRegistry, { id: "RunProgress" });
export type RunProgress = z.infer<typeof runProgressSchema>;

/** Section 2.3: GET /api/deep-research/{conversationId}. In progress it may hold only id and status. */
export const deepResearchConversationSchema = z
  .object({
    conversationId: z.string().min(1),
    status: deepResearchStatusSchema,
    worldState: documentAs(z.record(z.string(), z.unknown()), componentRef("WorldState")).nullish(),
    sessionStatus: z.string().optional().describe("free text status of the session"),
    progress: runProgressSchema.optional(),
    activeMessageId: z.string().optional(),
    turns: z.array(deepResearchTurnSchema).optional(),
  })
  .register(responseRegistry, { id: "DeepResearchConversation" });
export type DeepResearchConversation = z.infer<typeof deepResearchConversationSchema>;

/** Section 4.1: POST /api/deep-research/start. */
export const deepResearchStartRequestSchema = requestContract(
  requestObject({
    message: messageSchema,
    conversationId: z.uuid().optional().describe("continues a conversation (the UUID of an earlier 202)"),
  }),
  { id: "DeepResearchStartRequest" },
);
export type DeepResearchStartRequest = z.infer<typeof deepResearchStartRequestSchema>;

/** Section 4.1: 202 of POST /api/deep-research/start. */
export const deepResearchAcceptedSchema = z
  .object({ messageId: z.string().min(1), conversationId: z.string().min(1), status: z.literal("queued") })
  .register(responseRegistry, { id: "DeepResearchAccepted" });

/**
 * The plaintext of a completed private deep-research run, sealed to the poll that asked for it:
 * the reply, its citations, the world state and the quality of the reply's citations.
 * Registered for the OpenAPI document, which names it by id; no module parses it.
 */
z
  .object({
    messageId: z.string().min(1).describe("the run this result is of: a client accepts it only for the run its start's receipt named"),
    status: z.literal("completed"),
    reply: z.string().describe("the report, with inline [N] markers"),
    citations: z.array(gradedReferenceSchema),
    worldState: worldStateDocumentSchema,
    quality: chatQualitySchema,
    sessionStatus: z.string().describe("what the run did, in words"),
  })
  .register(responseRegistry, { id: "PrivateDeepResearchResult" });
