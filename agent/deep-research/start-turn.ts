import type { Queryable } from "@/lib/shared/db";
import type { JobLane } from "../jobs/queue";
import { submitJob } from "../jobs/submit";
import { openConversation } from "./owner";
import { createTurn } from "./store";

/**
 * Starts a deep-research turn: in `conversationId` (whose owner the route has checked), or in a
 * new conversation of `owner`, and queues its run in `lane` (three attempts: a run taken over
 * after a crash resumes from its saved iterations). Returns null when the conversation is unknown.
 */
export async function startResearchTurn({
  db,
  owner,
  lane,
  conversationId,
  message,
}: {
  db: Queryable;
  owner: string;
  lane: JobLane;
  conversationId: string | undefined;
  message: string;
}): Promise<{ conversationId: string; messageId: string } | null> {
  const turn = await createTurn({ db, objective: message, conversationId: conversationId ?? (await openConversation({ db, owner })) });
  if (!turn) return null;
  await submitJob({ db, kind: "deep_research", input: { messageId: turn.messageId }, lane, caller: owner, maxAttempts: 3 });
  return turn;
}
