import { Hono, type Context } from "hono";
import { deepResearchStartRequestSchema } from "@/lib/contracts";
import { ApiError, readJsonObject, validateBody } from "@/lib/http";
import { callerOf, consumePremiumAllowance, ownerOf } from "../access";
import { isConversationOwner, openConversation } from "../deep-research/owner";
import { getConversation, createTurn } from "../deep-research/store";
import { enqueueJob, finishJobs } from "../jobs/queue";
import { jobWakeups } from "../jobs/worker";
import type { AgentDeps } from "../server";

/**
 * Deep research in the agent (service or premium key only; the gateway sells it). A conversation
 * answers only the caller that started it: to any other it is unknown (404).
 */
export function deepResearchRoutes({ config, db }: AgentDeps): Hono {
  const routes = new Hono();
  const notFound = () => new ApiError("not_found", "Conversation not found", { reason: "not_found" });
  const requireOwned = async (c: Context, conversationId: string) => {
    if (!(await isConversationOwner({ db, conversationId, owner: ownerOf(callerOf(c)) }))) throw notFound();
  };

  // POST /api/deep-research/start – start a conversation, or a new turn of one (202)
  routes.post("/start", async (c) => {
    const body = validateBody(deepResearchStartRequestSchema, await readJsonObject(c.req.raw, { maxBytes: 64 * 1024 }));
    const caller = callerOf(c);
    if (body.conversationId) await requireOwned(c, body.conversationId);
    await consumePremiumAllowance({ db, config, caller, use: "deepResearch" });
    const conversationId = body.conversationId ?? (await openConversation({ db, owner: ownerOf(caller) }));
    const turn = await createTurn({ db, objective: body.message, conversationId });
    if (!turn) throw notFound();
    await enqueueJob({ db, kind: "deep_research", input: { messageId: turn.messageId }, caller: ownerOf(caller), maxAttempts: 3 });
    jobWakeups.emit("job");
    return c.json({ messageId: turn.messageId, conversationId: turn.conversationId, status: "queued" }, 202);
  });

  // GET /api/deep-research/:conversationId – the conversation of section 2.3, each turn with its status
  routes.get("/:conversationId", async (c) => {
    await requireOwned(c, c.req.param("conversationId"));
    const conversation = await getConversation({ db, conversationId: c.req.param("conversationId") });
    if (!conversation) throw notFound();
    return c.json(conversation);
  });

  // POST /api/deep-research/:conversationId/cancel – cancel the turn in progress
  routes.post("/:conversationId/cancel", async (c) => {
    await requireOwned(c, c.req.param("conversationId"));
    const conversation = await getConversation({ db, conversationId: c.req.param("conversationId") });
    if (!conversation) throw notFound();
    const active = conversation.turns?.filter((t) => t.status === "queued" || t.status === "running") ?? [];
    for (const turn of active) {
      await finishJobs(
        db,
        "UPDATE agent.jobs SET status = 'cancelled', locked_by = NULL, locked_until = NULL, finished_at = now(), updated_at = now() WHERE kind = 'deep_research' AND input->>'messageId' = $1 AND status IN ('queued', 'running') RETURNING id",
        [turn.messageId],
      );
      await db.query("UPDATE agent.dr_turns SET status = 'cancelled', updated_at = now() WHERE message_id = $1", [turn.messageId]);
    }
    await db.query("UPDATE agent.dr_conversations SET status = 'cancelled', session_status = 'Cancelled at the caller''s request', active_message_id = NULL, updated_at = now() WHERE id = $1", [conversation.conversationId]);
    return c.body(null, 204);
  });

  return routes;
}
