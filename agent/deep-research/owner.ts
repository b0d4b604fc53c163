import { randomUUID } from "node:crypto";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";

/**
 * Who started a deep-research conversation: `service` (the gateway) or a premium key's owner
 * (see `ownerOf` in ../access.ts). Only its owner may read, continue or cancel it; to anyone else
 * it does not exist (404), so a conversation id that leaks says nothing and opens nothing.
 */

/** A new, empty conversation of `owner`; its first turn is added by createTurn. */
export async function openConversation({ db, owner }: { db: Queryable; owner: string }): Promise<string> {
  const id = randomUUID();
  await db.query("INSERT INTO agent.dr_conversations (id, status, owner) VALUES ($1, 'queued', $2)", [id, owner]);
  return id;
}

/** Whether the conversation exists and `owner` started it (false for a malformed id). */
export async function isConversationOwner({ db, conversationId, owner }: { db: Queryable; conversationId: string; owner: string }): Promise<boolean> {
  if (!isUuid(conversationId)) return false;
  const { rowCount } = await db.query("SELECT 1 FROM agent.dr_conversations WHERE id = $1 AND owner = $2", [conversationId, owner]);
  return (rowCount ?? 0) > 0;
}
