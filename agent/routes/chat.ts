import { Hono, type Context } from "hono";
import { streamSSE } from "hono/streaming";
import { upstreamChatRequestASchema, upstreamChatRequestBSchema } from "@/lib/shared/contracts";
import { ApiError, readJsonObject, validateBody } from "@/lib/shared/http";
import { bearerMatches } from "@/lib/shared/http/bearer";
import { presentChatStatus, type Audience } from "../chat/present";
import { getChatJobOrThrow, submitChat } from "../chat/requests";
import { streamChatJob } from "../chat/stream";
import { identifyCaller, requireServiceKey } from "../http/access";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";
import { consumeChatAllowance } from "../http/rate-limit";
import { assertLiteratureReach, awaitSearch } from "../http/reach-guard";
import { cancelJob } from "../jobs/queue";
import { plannedSources } from "../literature/engine";

const MAX_BODY_BYTES = 64 * 1024;

/** The public chat API of section 4.6 (variant A or B by AGENT_VARIANT) and the job it runs. */
export function chatRoutes({ config, db, reach }: RouteDeps): Hono<AgentEnv> {
  const routes = new Hono<AgentEnv>();
  const variant = config.chat.variant;
  const audienceOf = (c: Context<AgentEnv>): Audience => ({ variant, service: bearerMatches(c.req.header("authorization"), config.serviceKey) });

  /** Who asks, whether the sources can answer, their allowance, then the body: the order every start checks in. */
  async function submit(c: Context<AgentEnv>) {
    const caller = await identifyCaller(c, { config, db });
    // A chat searches as a fast literature search does: when none of those sources can answer it
    // is refused before anything is queued or counted against the caller's allowance.
    await assertLiteratureReach(reach, plannedSources({ mode: "fast" }, config.literature.enabledSources));
    await consumeChatAllowance({ db, config, caller });
    const raw = await readJsonObject(c.req.raw, { maxBytes: MAX_BODY_BYTES });
    const request = variant === "a" ? validateBody(upstreamChatRequestASchema, raw) : validateBody(upstreamChatRequestBSchema, raw);
    return submitChat({ db, variant, request, caller });
  }

  // POST /api/chat – queue a chat answer (202 with requestId; variant A adds conversationId)
  routes.post("/", async (c) => {
    const { job, conversationId } = await submit(c);
    // The gateway settles a paid chat on this 202: it comes once the search reached a source (503 if none could).
    if (audienceOf(c).service) await awaitSearch({ db, reach, job, waitMs: config.literature.reachWaitMs });
    return c.json({ requestId: job.id, status: "queued", ...(variant === "a" ? { conversationId } : {}) }, 202);
  });

  // GET /api/chat/status/:requestId – the job's status, progress and result (section 2.8)
  routes.get("/status/:requestId", async (c) => {
    const job = await getChatJobOrThrow({ db, id: c.req.param("requestId"), retentionSeconds: config.chat.retentionSeconds });
    return c.json(presentChatStatus(job, audienceOf(c)));
  });

  // POST /api/chat/sync – the same job as server-sent events: queued, progress…, completed or error
  routes.post("/sync", async (c) => {
    const { job, conversationId } = await submit(c);
    const audience = audienceOf(c);
    return streamSSE(c, (stream) => streamChatJob(stream, { db, jobId: job.id, conversationId, audience }));
  });

  // POST /api/chat/cancel/:requestId – the gateway cancels a job whose payment failed
  routes.post("/cancel/:requestId", requireServiceKey(config.serviceKey), async (c) => {
    const status = await cancelJob({ db, id: c.req.param("requestId") });
    if (!status) throw new ApiError("not_found", "Unknown request id", { reason: "not_found" });
    return c.body(null, 204);
  });

  return routes;
}
