import { z } from "zod";
import { messageSchema, progressSchema, chatJobStatusValueSchema } from "@/lib/shared/contracts/chat";
import { responseRegistry } from "@/lib/shared/contracts/registry";
import { requestContract } from "@/lib/shared/contracts/request-contract";

/**
 * Section 4.6 and 6: the public upstream chat API. Variant A keeps conversations and names
 * `conversationId` in its 202, `queued` and `completed`; variant B never mentions it, so its
 * schemas are strict objects that refuse the field.
 */

export const upstreamChatRequestASchema = requestContract(
  z.object({
    message: messageSchema,
    conversationId: z.uuid().optional().describe("continues a conversation"),
    fast: z.boolean().optional().describe("legacy hint; changes nothing about retrieval"),
  }),
  { id: "UpstreamChatRequestA" },
);
export type UpstreamChatRequestA = z.infer<typeof upstreamChatRequestASchema>;

export const upstreamChatRequestBSchema = requestContract(
  z.object({
    message: messageSchema,
    fast: z.boolean().optional().describe("legacy hint; changes nothing about retrieval"),
  }),
  { id: "UpstreamChatRequestB" },
);
export type UpstreamChatRequestB = z.infer<typeof upstreamChatRequestBSchema>;

export const upstreamChatAcceptedASchema = z
  .object({ requestId: z.uuid(), status: z.literal("queued"), conversationId: z.uuid() })
  .register(responseRegistry, { id: "UpstreamChatAcceptedA" });

export const upstreamChatAcceptedBSchema = z
  .strictObject({ requestId: z.uuid(), status: z.literal("queued") })
  .register(responseRegistry, { id: "UpstreamChatAcceptedB" });

/**
 * Section 4.6: the minimum a status poll promises. Our agent sends the full chat job status of
 * section 2.8, whose result is a QueuedChatResult, a superset of `{text, responseTime}`.
 */
export const upstreamChatStatusSchema = z
  .object({
    status: chatJobStatusValueSchema,
    progress: progressSchema.nullish(),
    result: z.looseObject({ text: z.string(), responseTime: z.int().min(0) }).nullish(),
    error: z.string().nullish(),
  })
  .register(responseRegistry, { id: "UpstreamChatStatus" });

/** Section 6: the four server-sent events of POST /api/chat/sync (queued, progress, completed, error). */
export const sseQueuedEventASchema = z
  .object({ requestId: z.uuid(), conversationId: z.uuid() })
  .register(responseRegistry, { id: "SseQueuedEventA" });
export const sseQueuedEventBSchema = z
  .strictObject({ requestId: z.uuid() })
  .register(responseRegistry, { id: "SseQueuedEventB" });
export const sseProgressEventSchema = z
  .object({ ...progressSchema.shape })
  .register(responseRegistry, { id: "SseProgressEvent" });
export const sseCompletedEventASchema = z
  .looseObject({ text: z.string(), responseTime: z.int().min(0), conversationId: z.uuid() })
  .register(responseRegistry, { id: "SseCompletedEventA" });
export const sseCompletedEventBSchema = z
  .looseObject({ text: z.string(), responseTime: z.int().min(0) })
  .refine((e) => !("conversationId" in e), "variant B never sends conversationId")
  .register(responseRegistry, { id: "SseCompletedEventB" });
export const sseErrorEventSchema = z
  .object({ error: z.string().min(1) })
  .register(responseRegistry, { id: "SseErrorEvent" });

