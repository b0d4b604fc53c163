import { z } from "zod";
import { percentSchema } from "@/lib/shared/contracts/common";
import {
  evidenceRoleSchema,
  evidenceTypeSchema,
  stanceSchema,
  studySnapshotSchema,
  verdictBasisSchema,
  verdictSchema,
  verificationSchema,
} from "@/lib/shared/contracts/evidence";
import { literatureQualitySchema } from "@/lib/shared/contracts/literature";
import { citationFields } from "@/lib/shared/contracts/citation";
import { componentRef, documentAs, responseRegistry } from "@/lib/shared/contracts/registry";
import { requestContract, requestObject } from "@/lib/shared/contracts/request-contract";
import { failedSourceSchema } from "@/lib/shared/contracts/source-health";

import { MAX_MESSAGE_CHARS } from "@/lib/shared/contracts/limits";

/** Longest chat or deep-research `message` accepted (the contract leaves it open; see docs). */
export { MAX_MESSAGE_CHARS };

/** A user's question: not blank, at most MAX_MESSAGE_CHARS. */
export const messageSchema = z
  .string({ error: "message is required and must be a string" })
  .max(MAX_MESSAGE_CHARS, `message must be at most ${MAX_MESSAGE_CHARS} characters`)
  .refine((s) => s.trim().length > 0, "message must not be blank");

const referenceFields = {
  id: z.string().min(1),
  title: z.string(),
  url: z.url(),
  source: z.string(),
  year: z.int().nullish(),
  doi: z.string().nullish(),
  pmid: z.string().nullish(),
  pmcid: z.string().nullish(),
  evidenceType: evidenceTypeSchema,
  verification: verificationSchema,
  confidence: z.number().min(0).max(1),
  roleReason: z.string(),
  duplicateOfOrdinal: z.int().min(1).nullish(),
};

/** Section 2.5: a reference that inline `[N]` markers may address. */
export const chatReferenceSchema = z
  .object({
    ordinal: z.int().min(1),
    ...referenceFields,
    evidenceRole: evidenceRoleSchema,
  })
  .register(responseRegistry, { id: "ChatReference" });
export type ChatReference = z.infer<typeof chatReferenceSchema>;

/**
 * A ChatReference with how it was graded and how it is cited, the one reference shape of
 * the engine, chat, deep research and the web page. The added fields are optional so answers
 * stored before them still read.
 */
export const gradedReferenceSchema = chatReferenceSchema
  .extend({
    ...citationFields,
    stance: stanceSchema.optional().describe("what its stated findings say about the question's claim"),
    snapshot: studySnapshotSchema.optional(),
    matchedTerms: z.array(z.string()).optional().describe("the question's terms its text contains"),
    relevanceScore: z.number().min(0).max(1).optional(),
    evidenceReason: z.string().optional().describe("why it has its evidenceType"),
    verificationReason: z.string().optional(),
    confidenceReason: z.string().optional(),
  })
  .describe("A ChatReference with how it was graded (its study at a glance, its stance, and the reasons for its design, verification and confidence) and what a reference manager needs to cite it")
  .register(responseRegistry, { id: "GradedReference" });
export type GradedReference = z.infer<typeof gradedReferenceSchema>;

/** Section 2.6: a candidate that was not accepted; never addressed by inline markers. */
export const chatRejectedReferenceSchema = z
  .object({
    candidateOrdinal: z.int().min(1),
    ...referenceFields,
    evidenceRole: z.enum(["context", "lead_only"]),
  })
  .register(responseRegistry, { id: "ChatRejectedReference" });
export type ChatRejectedReference = z.infer<typeof chatRejectedReferenceSchema>;

const ordinalList = z.array(z.int().min(1));

/** Section 2.7: the citation audit of an answer. */
export const chatQualitySchema = z
  .object({
    citations: z.object({
      markers: z.array(z.int()),
      referenceCount: z.int().min(0),
      outOfRangeOrdinals: z.array(z.int()),
      missingMarkerOrdinals: z.array(z.int()),
      uncitedReferenceOrdinals: z.array(z.int()),
      allMarkersResolve: z.boolean(),
      contiguousMarkers: z.boolean(),
    }),
    roleCounts: z.record(z.string(), z.int().min(0)),
    citedSupportingOrdinals: ordinalList,
    citedContextOrdinals: ordinalList,
    citedLeadOnlyOrdinals: ordinalList,
    primaryEvidencePresent: z.boolean(),
    containsNonSupportingCitations: z.boolean(),
    contractValid: z.boolean(),
    qualification: z.record(z.string(), z.unknown()).nullish(),
  })
  .register(responseRegistry, { id: "ChatQuality" });
export type ChatQuality = z.infer<typeof chatQualitySchema>;

/** How a message sent within a conversation was read (agent/chat/follow-up.ts). */
const FOLLOW_UP_KINDS = ["follow_up", "new_topic"] as const;
export const followUpReadingSchema = z
  .object({
    kind: z.enum(FOLLOW_UP_KINDS).describe("follow_up: read with the earlier question's subject; new_topic: read on its own words only"),
    question: z.string().describe("what was searched and judged"),
    follows: z.string().nullable().describe("the earlier question (as read in its own context) a follow-up continues; null for a new topic"),
    reason: z.string().describe("why, in words"),
  })
  .register(responseRegistry, { id: "FollowUpReading" });
export type FollowUpReading = z.infer<typeof followUpReadingSchema>;

/**
 * How a chat answer was written, as this service's agent records it in `metadata` (an open object
 * when read): the writer, the passage of each reference the answer quotes, the bottom line and
 * limits a model writer must keep, and the literature search behind it. Registered for the OpenAPI
 * document, which names it by id. The agent writes it typed (ChatMetadata), and its tests hold what
 * it writes to the schema; no module parses it.
 */
export const chatMetadataSchema = z
  .object({
    writer: z.enum(["extractive", "model"]).describe("extractive: sentences taken from the references; model: a model's answer that passed the citation audit"),
    model: z.string().optional().describe("the model that wrote the answer (writer model)"),
    modelWriter: z
      .object({
        used: z.boolean(),
        reason: z.string().optional().describe("why the model's answer was not used"),
        removed: z.array(z.object({ sentence: z.string(), reason: z.string() })).optional().describe("the model's sentences the audit removed, and why"),
        bottomLine: z.enum(["model", "extractive"]).optional(),
        limits: z.enum(["model", "extractive"]).optional(),
      })
      .optional()
      .describe("present when a model was asked to write the answer"),
    contextPassages: z.array(z.object({ ordinal: z.int().min(1), text: z.string() })).describe("the passage of each reference the answer quotes, by its ordinal"),
    bottomLine: z.string().describe("the sentence the answer opens with, stating the verdict"),
    limits: z.string().nullable().describe("what the evidence cannot say, the answer's last paragraph"),
    effectiveSources: z.array(z.string()).describe("the literature sources searched"),
    fallbackUsed: z.boolean().describe("true when a source failed and the others answered"),
    reasoning: z.array(z.string()).describe("how the search went, step by step"),
    literatureQuality: literatureQualitySchema.nullable(),
    followUp: followUpReadingSchema
      .optional()
      .describe("a message within a conversation with earlier questions (variant A): how it was read; a follow-up's answer opens with a paragraph that says so"),
  })
  .register(responseRegistry, { id: "ChatMetadata" });
export type ChatMetadata = z.infer<typeof chatMetadataSchema>;

/** Section 2.4: a completed chat answer (also the plaintext of a sealed chat answer). */
export const chatResultSchema = z
  .object({
    reply: z.string().describe("backward-compatible answer"),
    answer: z.string().describe("answer with inline [N] markers"),
    text: z.string().describe("answer plus a deterministic source list"),
    conversationId: z.string(),
    messageId: z.string().nullish(),
    references: z.array(gradedReferenceSchema),
    rejectedReferences: z.array(chatRejectedReferenceSchema),
    quality: chatQualitySchema,
    metadata: documentAs(z.record(z.string(), z.unknown()), componentRef("ChatMetadata")).nullish(),
    failedSources: z.array(failedSourceSchema).optional().describe("the literature sources that failed outright during the search, and how"),
    verdict: verdictSchema.optional().describe("the bottom line the answer opens with; always set"),
    verdictBasis: verdictBasisSchema.optional(),
  })
  .register(responseRegistry, { id: "ChatResult" });
export type ChatResult = z.infer<typeof chatResultSchema>;

/** Section 2.4: ChatResult plus the upstream processing time. */
export const queuedChatResultSchema = chatResultSchema
  .extend({ responseTime: z.int().min(0).describe("upstream processing time in milliseconds") })
  .register(responseRegistry, { id: "QueuedChatResult" });
export type QueuedChatResult = z.infer<typeof queuedChatResultSchema>;

export const chatJobStatuses = ["queued", "active", "completed", "failed"] as const;
export const chatJobStatusValueSchema = z.enum(chatJobStatuses);

/**
 * The literature engine's steps, in order: searching the sources, filtering for relevance, grading
 * the evidence, writing the answer. A job's progress names its step, so a reader waits for or
 * words a step by name, never by a percentage.
 */
const engineSteps = ["searching", "filtering", "grading", "answering"] as const;
export type EngineStep = (typeof engineSteps)[number];

/** Whether the engine is past searching its sources at `step` (its search reached them, or failed). */
export const searchedAt = (step: EngineStep | undefined): boolean => step !== undefined && engineSteps.indexOf(step) > 0;

export const progressSchema = z.object({
  stage: z.string().min(1),
  percent: percentSchema,
  step: z.enum(engineSteps).optional().describe("the literature engine's step, while the job runs it: searching, filtering, grading, answering"),
});

/** Section 2.8: GET /api/chat/status/{requestId}. A completed job has a result, a failed one an error. */
export const chatJobStatusSchema = z
  .object({
    status: chatJobStatusValueSchema,
    progress: progressSchema.nullish(),
    result: queuedChatResultSchema.nullish(),
    error: z.string().nullish(),
  })
  .superRefine((job, ctx) => {
    if (job.status === "completed" && !job.result) {
      ctx.addIssue({ code: "custom", path: ["result"], message: "a completed job must carry its result" });
    }
    if (job.status === "failed" && !job.error) {
      ctx.addIssue({ code: "custom", path: ["error"], message: "a failed job must carry an error" });
    }
  })
  .register(responseRegistry, { id: "ChatJobStatus" });
export type ChatJobStatus = z.infer<typeof chatJobStatusSchema>;

/**
 * Section 4.2: POST /api/chat on the gateway. `fast` is a legacy hint that changes nothing.
 * `conversationId` is this service's addition (issue 16): the contract gives it to variant A of
 * the upstream API (section 4.6), and the gateway forwards it for the payer who started the
 * conversation. Fields the contract does not define are refused by name.
 */
export const chatRequestSchema = requestContract(
  requestObject({
    message: messageSchema,
    fast: z.boolean().optional().describe("legacy hint; does not disable literature retrieval"),
    conversationId: z
      .uuid("conversationId must be a UUID: the conversationId of an earlier chat answer")
      .optional()
      .describe(
        "continues a chat conversation, given the conversationId of an earlier answer (its 202 or its ChatResult); only the payer address that started the conversation may continue it, anyone else gets 404 before anything is charged",
      ),
  }),
  { id: "ChatRequest" },
);
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** Section 4.2: 202 of POST /api/chat; `conversationId` beside the contract's fields, naming the conversation a follow-up continues. */
export const chatAcceptedSchema = z
  .object({
    requestId: z.string().min(1),
    status: z.literal("queued"),
    conversationId: z.string().min(1).optional().describe("the chat conversation this question belongs to; send it with a follow-up"),
  })
  .register(responseRegistry, { id: "ChatAccepted" });
