import { Hono, type Context } from "hono";
import { deepResearchStartRequestSchema, workStatusesRequestSchema } from "@/lib/shared/contracts";
import { ApiError, readJsonObject, validateBody } from "@/lib/shared/http";
import { callerOf, ownerOf } from "../http/access";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";
import { consumePremiumAllowance } from "../http/rate-limit";
import { isConversationOwner } from "../deep-research/owner";
import { startResearchTurn } from "../deep-research/start-turn";
import { cancelConversation, getConversation, getTurnStatuses } from "../deep-research/store";
import { getPrivateRunStatuses } from "../private/deep-research";
import { laneOf } from "../jobs/queue";

/**
 * Deep research in the agent (service or premium key only; the gateway sells it). A conversation
 * answers only the caller that started it: to any other it is unknown (404).
 */
export function deepResearchRoutes({ config, db }: RouteDeps): Hono<AgentEnv> {
  const routes = new Hono<AgentEnv>();
  const notFound = () => new ApiError("not_found", "Conversation not found", { reason: "not_found" });
  const requireOwned = async (c: Context<AgentEnv>, conversationId: string) => {
    if (!(await isConversationOwner({ db, conversationId, owner: ownerOf(callerOf(c)) }))) throw notFound();
  };

  // POST /api/deep-research/start – start a conversation, or a new turn of one (202)
  routes.post("/start", async (c) => {
    const body = validateBody(deepResearchStartRequestSchema, await readJsonObject(c.req.raw, { maxBytes: 64 * 1024 }));
    const caller = callerOf(c);
    if (body.conversationId) await requireOwned(c, body.conversationId);
    await consumePremiumAllowance({ db, config, caller, use: "deepResearch" });
    const turn = await startResearchTurn({ db, owner: ownerOf(caller), lane: laneOf(caller), conversationId: body.conversationId, message: body.message });
    if (!turn) throw notFound();
    return c.json({ messageId: turn.messageId, conversationId: turn.conversationId, status: "queued" }, 202);
  });

  // POST /api/deep-research/statuses – {messageIds}: the status of each of the caller's turns and
  // sealed runs, in one call (the gateway's settlement cron settles what has ended first)
  routes.post("/statuses", async (c) => {
    const { messageIds } = validateBody(workStatusesRequestSchema, await readJsonObject(c.req.raw, { maxBytes: 64 * 1024 }));
    const caller = callerOf(c);
    const owner = ownerOf(caller);
    const turns = await getTurnStatuses({ db, messageIds, owner });
    const runs = await getPrivateRunStatuses({ db, messageIds, owner });
    return c.json({ turns, runs });
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
    if (!(await cancelConversation({ db, conversationId: c.req.param("conversationId") }))) throw notFound();
    return c.body(null, 204);
  });

  return routes;
}
