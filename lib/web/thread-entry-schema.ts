/**
 * A research thread's entry as this browser stored it (lib/web/history-store.ts), read back with the
 * contract's own schemas: an entry an earlier page wrote in another shape, or one altered on disk,
 * does not read and is left out rather than breaking the page. Loaded with the history, not with
 * the page's first load.
 */
import { z } from "zod";
import { chatResultSchema, gradedReferenceSchema } from "@/lib/shared/contracts/chat";
import { deepResearchConversationSchema, deepResearchTurnSchema } from "@/lib/shared/contracts/deep-research";
import { literatureJobResultSchema } from "@/lib/shared/contracts/literature";
import { worldStateSchema } from "@/lib/shared/contracts/world-state";
import type { ThreadEntry } from "@/lib/web/thread";

const threadKindSchema = z.enum(["chat", "literature", "research"]);

/** A conversation as lib/web/read-results.ts `readConversation` gives it: citations and world state read. */
const readConversationSchema = deepResearchConversationSchema.extend({
  turns: z.array(deepResearchTurnSchema.extend({ citations: z.array(gradedReferenceSchema) })),
  worldState: worldStateSchema.nullable(),
});

const threadResultSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("chat"), result: chatResultSchema }),
  z.object({ kind: z.literal("literature"), result: literatureJobResultSchema }),
  z.object({ kind: z.literal("research"), result: readConversationSchema, messageId: z.string() }),
]);

export const threadEntrySchema: z.ZodType<ThreadEntry> = z.object({
  id: z.string(),
  threadId: z.string(),
  wallet: z.string(),
  kind: threadKindSchema,
  question: z.string(),
  askedAt: z.string(),
  status: z.enum(["running", "done", "failed"]),
  sealed: z.boolean().optional(),
  failure: z.string().optional(),
  conversationId: z.string().optional(),
  followsUp: z.object({ entryId: z.string(), question: z.string() }).optional(),
  outcome: threadResultSchema.optional(),
});

/** What deleting a thread needs of an entry, read even from one that no longer reads whole. */
export const storedEntryKeySchema = z.object({ id: z.string(), threadId: z.string() });
