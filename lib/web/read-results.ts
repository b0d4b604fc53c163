/**
 * What the gateway answered, read with the contract's own schemas (lib/shared/contracts), never field by
 * field. The schemas (zod) are loaded on demand, when a first answer arrives, so the page's first
 * load does not carry them.
 */
import type { ChatJobStatus, DeepResearchConversation, GradedReference, LiteratureJobResult } from "@/lib/shared/contracts";
import type { WorldState } from "@/lib/shared/contracts/world-state";
import { UserFacingError } from "@/lib/web/user-facing-error";

/** A deep-research conversation with its citations and world state read. */
export type ReadConversation = Omit<DeepResearchConversation, "turns" | "worldState"> & {
  turns: (Omit<NonNullable<DeepResearchConversation["turns"]>[number], "citations"> & { citations: GradedReference[] })[];
  worldState: WorldState | null;
};

function unreadable(what: string, issues: { path: PropertyKey[]; message: string }[]): UserFacingError {
  const first = issues[0];
  const where = first ? ` (${first.path.map(String).join(".") || "body"}: ${first.message})` : "";
  return new UserFacingError(`The service's ${what} could not be read${where}.`, { action: "Retry; if it persists, the service and this page disagree on the contract." });
}

/** GET /api/chat/status/{requestId}, as ChatJobStatus. */
export async function readChatStatus(body: unknown): Promise<ChatJobStatus> {
  const { chatJobStatusSchema } = await import("@/lib/shared/contracts/chat");
  const parsed = chatJobStatusSchema.safeParse(body);
  if (!parsed.success) throw unreadable("chat status", parsed.error.issues);
  return parsed.data;
}

/** GET /api/literature/jobs/{jobId} (or a sealed search's opened answer), as LiteratureJobResult. */
export async function readLiteratureResult(body: unknown): Promise<LiteratureJobResult> {
  const { literatureJobResultSchema } = await import("@/lib/shared/contracts/literature");
  const parsed = literatureJobResultSchema.safeParse(body);
  if (!parsed.success) throw unreadable("search result", parsed.error.issues);
  return parsed.data;
}

/** Citations are GradedReferences the contract types as open objects: each one read, any that does not fit left out. */
export async function readCitations(citations: unknown[]): Promise<GradedReference[]> {
  const { gradedReferenceSchema } = await import("@/lib/shared/contracts/chat");
  return citations.flatMap((c) => {
    const parsed = gradedReferenceSchema.safeParse(c);
    return parsed.success ? [parsed.data] : [];
  });
}

/** An open world state (section 2.3), read field by field by the world-state schema. */
export async function readWorldState(raw: unknown): Promise<WorldState | null> {
  if (raw === null || raw === undefined) return null;
  const { worldStateSchema } = await import("@/lib/shared/contracts/world-state");
  const parsed = worldStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** GET /api/deep-research/{conversationId}, as DeepResearchConversation with its open parts read. */
export async function readConversation(body: unknown): Promise<ReadConversation> {
  const { deepResearchConversationSchema } = await import("@/lib/shared/contracts/deep-research");
  const parsed = deepResearchConversationSchema.safeParse(body);
  if (!parsed.success) throw unreadable("research conversation", parsed.error.issues);
  const { turns = [], worldState, ...rest } = parsed.data;
  return {
    ...rest,
    turns: await Promise.all(turns.map(async (t) => ({ ...t, citations: await readCitations(t.citations) }))),
    worldState: await readWorldState(worldState),
  };
}
