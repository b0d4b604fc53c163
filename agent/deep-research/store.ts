import { randomUUID } from "node:crypto";
import type { DeepResearchConversation, DeepResearchStatus, RunProgress } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";
import { withTransaction } from "@/lib/shared/db/transaction";
import { cancelTurnJobs } from "../jobs/queue";
import type { StoredIteration, WorldState } from "./world";

export type { WorldState } from "./world";
/**
 * A conversation's world state: what its completed turns found, and which turns those are
 * (`messageIds`), so the gateway can tell whether every turn it holds has been paid for.
 */
export type ConversationWorldState = WorldState & { messageIds: string[] };

type TurnRow = { message_id: string; objective: string; status: DeepResearchStatus; reply: string | null; citations: Record<string, unknown>[]; is_final: boolean };

/** Starts a conversation, or adds a turn to an existing one. Returns null for an unknown conversation. */
export async function createTurn({ db, conversationId, objective }: { db: Queryable; conversationId?: string; objective: string }) {
  const id = conversationId ?? randomUUID();
  if (conversationId) {
    if (!isUuid(conversationId)) return null;
    const { rowCount } = await db.query("SELECT 1 FROM agent.dr_conversations WHERE id = $1", [conversationId]);
    if (!rowCount) return null;
  } else {
    await db.query("INSERT INTO agent.dr_conversations (id, status) VALUES ($1, 'queued')", [id]);
  }
  const messageId = randomUUID();
  await db.query("INSERT INTO agent.dr_turns (message_id, conversation_id, objective, status) VALUES ($1, $2, $3, 'queued')", [messageId, id, objective]);
  await db.query("UPDATE agent.dr_conversations SET status = 'queued', session_status = 'queued', progress = NULL, active_message_id = $2, updated_at = now() WHERE id = $1", [id, messageId]);
  return { conversationId: id, messageId };
}

export async function getConversation({ db, conversationId }: { db: Queryable; conversationId: string }): Promise<DeepResearchConversation | null> {
  if (!isUuid(conversationId)) return null;
  // One statement, so one snapshot: a turn's completion and its conversation's status are written
  // together, and two separate reads could see the turn completed and the conversation running.
  const { rows } = await db.query<{
    id: string;
    status: DeepResearchStatus;
    world_state: Record<string, unknown> | null;
    session_status: string;
    progress: RunProgress | null;
    active_message_id: string | null;
    turns: TurnRow[];
  }>(
    `SELECT c.id, c.status, c.world_state, c.session_status, c.progress, c.active_message_id,
            coalesce((SELECT json_agg(t ORDER BY t.created_at)
                        FROM (SELECT message_id, objective, status, reply, citations, is_final, created_at
                                FROM agent.dr_turns WHERE conversation_id = c.id) t), '[]'::json) AS turns
       FROM agent.dr_conversations c WHERE c.id = $1`,
    [conversationId],
  );
  const c = rows[0];
  if (!c) return null;
  const turns = { rows: c.turns };
  return {
    conversationId: c.id,
    status: c.status,
    worldState: c.world_state,
    sessionStatus: c.session_status,
    ...(c.progress ? { progress: c.progress } : {}),
    ...(c.active_message_id ? { activeMessageId: c.active_message_id } : {}),
    turns: turns.rows.map((t) => ({
      messageId: t.message_id,
      objective: t.objective,
      ...(t.reply !== null ? { reply: t.reply } : {}),
      citations: t.citations,
      status: t.status,
      isFinal: t.is_final,
    })),
  };
}

/**
 * The statuses of the turns among `messageIds` that `owner` started, in one query (the gateway's
 * settlement cron asks about many at once); unknown ids, and other callers' turns, are left out.
 */
export async function getTurnStatuses({ db, messageIds, owner }: { db: Queryable; messageIds: string[]; owner: string }): Promise<{ messageId: string; status: DeepResearchStatus }[]> {
  const ids = messageIds.filter(isUuid);
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ message_id: string; status: DeepResearchStatus }>(
    `SELECT t.message_id::text AS message_id, t.status
       FROM agent.dr_turns t JOIN agent.dr_conversations c ON c.id = t.conversation_id
      WHERE t.message_id = ANY($1::uuid[]) AND c.owner = $2`,
    [ids, owner],
  );
  return rows.map((r) => ({ messageId: r.message_id, status: r.status }));
}

export async function getTurn({ db, messageId }: { db: Queryable; messageId: string }) {
  const { rows } = await db.query<{ message_id: string; conversation_id: string; objective: string; status: DeepResearchStatus; iterations: StoredIteration[] }>(
    "SELECT message_id, conversation_id, objective, status, iterations FROM agent.dr_turns WHERE message_id = $1",
    [messageId],
  );
  const t = rows[0];
  return t ? { messageId: t.message_id, conversationId: t.conversation_id, objective: t.objective, status: t.status, iterations: t.iterations } : null;
}

/** The questions of the conversation's last `count` turns before this one, oldest first (none for its first turn). */
export async function getEarlierObjectives({ db, conversationId, messageId, count }: { db: Queryable; conversationId: string; messageId: string; count: number }): Promise<string[]> {
  const { rows } = await db.query<{ objective: string }>(
    `SELECT t.objective FROM agent.dr_turns t
      WHERE t.conversation_id = $1 AND t.message_id <> $2
        AND t.created_at <= (SELECT created_at FROM agent.dr_turns WHERE message_id = $2)
      ORDER BY t.created_at DESC LIMIT $3`,
    [conversationId, messageId, count],
  );
  return rows.map((r) => r.objective).reverse();
}

/**
 * Sets the turn's and its conversation's status and the readable line of what the run is doing, in
 * one transaction: a reader never sees the turn failed beside the line of a step it no longer runs.
 */
export async function setRunState({
  db,
  conversationId,
  messageId,
  status,
  sessionStatus,
  progress,
}: {
  db: Queryable;
  conversationId: string;
  messageId: string;
  status: DeepResearchStatus;
  sessionStatus: string;
  /** Where a running turn is; none once it is not running. */
  progress?: RunProgress | undefined;
}): Promise<void> {
  // One transaction, so nobody reads the turn failed beside its conversation's line of a step it
  // no longer runs. Two statements, turn first: a data-modifying WITH that nothing reads runs after
  // the main statement, which locked the conversation before the turn, the reverse of a cancel's
  // order, and the two deadlocked (tests/integration/job-queue.test.ts).
  await withTransaction(db, async (tx) => {
    await tx.query("UPDATE agent.dr_turns SET status = $2, updated_at = now() WHERE message_id = $1 AND status NOT IN ('cancelled', 'completed')", [messageId, status]);
    await tx.query(
      "UPDATE agent.dr_conversations SET status = $2, session_status = $3, active_message_id = $4, progress = $5, updated_at = now() WHERE id = $1 AND status <> 'cancelled'",
      [conversationId, status, sessionStatus, status === "running" || status === "queued" ? messageId : null, status === "running" && progress ? JSON.stringify(progress) : null],
    );
  });
}

/**
 * Saves a running turn's finished iterations on the turn alone: the conversation's world state
 * takes them when the turn completes, so it never shows what an unfinished (unpaid) turn found,
 * and a failed or cancelled turn adds nothing to it.
 */
export async function saveIteration({ db, messageId, iterations }: { db: Queryable; messageId: string; iterations: StoredIteration[] }) {
  await db.query("UPDATE agent.dr_turns SET iterations = $2, updated_at = now() WHERE message_id = $1", [messageId, JSON.stringify(iterations)]);
}

/**
 * Completes a turn and its conversation, with the world state that now includes the turn, in one
 * statement, so nobody sees one finished without the other, or the turn's findings before it is.
 * The conversation's update reads the turn's (FROM turn), so the turn is locked first, in a cancel's
 * order (cancelConversation).
 */
export async function finishTurn({
  db,
  messageId,
  reply,
  citations,
  sessionStatus,
  worldState,
}: {
  db: Queryable;
  messageId: string;
  reply: string;
  citations: unknown[];
  sessionStatus: string;
  worldState: ConversationWorldState;
}) {
  await db.query(
    `WITH turn AS (
       UPDATE agent.dr_turns SET status = 'completed', reply = $2, citations = $3, is_final = true, updated_at = now()
        WHERE message_id = $1 AND status = 'running'
        RETURNING conversation_id)
     UPDATE agent.dr_conversations c SET status = 'completed', session_status = $4, world_state = $5, active_message_id = NULL, progress = NULL, updated_at = now()
       FROM turn WHERE c.id = turn.conversation_id AND c.status <> 'cancelled'`,
    [messageId, reply, JSON.stringify(citations), sessionStatus, JSON.stringify(worldState)],
  );
}

/** The conversation's world state: what its completed turns found, and which turns those are. */
export async function getWorldState({ db, conversationId }: { db: Queryable; conversationId: string }): Promise<ConversationWorldState> {
  const { rows } = await db.query<{ world_state: Partial<ConversationWorldState> | null; turn_ids: string[] }>(
    `SELECT c.world_state,
            coalesce((SELECT json_agg(t.message_id ORDER BY t.created_at) FROM agent.dr_turns t WHERE t.conversation_id = c.id), '[]'::json) AS turn_ids
       FROM agent.dr_conversations c WHERE c.id = $1`,
    [conversationId],
  );
  const ws = rows[0]?.world_state ?? {};
  // One written before turns were named in it was updated after every iteration, so it may hold
  // any of the conversation's turns, running and abandoned ones included.
  const messageIds = ws.messageIds ?? (Object.keys(ws).length > 0 ? (rows[0]?.turn_ids ?? []) : []);
  return {
    objectives: ws.objectives ?? [],
    findings: ws.findings ?? [],
    hypotheses: ws.hypotheses ?? [],
    openQuestions: ws.openQuestions ?? [],
    sources: ws.sources ?? [],
    axes: ws.axes ?? [],
    contradictions: ws.contradictions ?? [],
    runs: ws.runs ?? [],
    messageIds,
  };
}

/**
 * Cancels a conversation and its turns in progress, with their jobs (agent/jobs/queue.ts: a
 * worker running one loses its lease and stops), in one transaction: nobody sees a turn cancelled
 * whose job still runs, and a turn that completed first stays completed. Returns false when the
 * conversation is unknown.
 */
export async function cancelConversation({ db, conversationId }: { db: Queryable; conversationId: string }): Promise<boolean> {
  if (!isUuid(conversationId)) return false;
  // Turns, then jobs, then the conversation: the order a worker finishing a turn writes them in,
  // so the two wait for each other instead of deadlocking.
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ message_id: string }>(
      "UPDATE agent.dr_turns SET status = 'cancelled', updated_at = now() WHERE conversation_id = $1 AND status IN ('queued', 'running') RETURNING message_id",
      [conversationId],
    );
    await cancelTurnJobs({ db: tx, kind: "deep_research", messageIds: rows.map((r) => r.message_id) });
    const { rowCount } = await tx.query(
      "UPDATE agent.dr_conversations SET status = 'cancelled', session_status = 'Cancelled at the caller''s request', active_message_id = NULL, progress = NULL, updated_at = now() WHERE id = $1",
      [conversationId],
    );
    return (rowCount ?? 0) > 0;
  });
}
