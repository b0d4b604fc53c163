import type { Context } from "hono";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { randomUUID } from "node:crypto";
import { upstreamChatRequestASchema, upstreamChatRequestBSchema } from "@/lib/contracts";
import { ApiError, readJsonObject, validateBody } from "@/lib/http";
import { bearerMatches } from "@/lib/http/bearer";
import { identifyCaller, requireServiceKey } from "../http/access";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";
import { consumeChatAllowance } from "../http/rate-limit";
import { hideConversation, presentChatStatus, type Audience } from "../chat/present";
import { STAGES } from "../chat/job";
import { cancelJob, enqueueJob, getJob, laneOf, type Job } from "../jobs/queue";
import { jobWakeups } from "../jobs/worker";
import { plannedSources } from "../literature/engine";
import { assertLiteratureReach, awaitSearch } from "../http/reach-guard";

const MAX_BODY_BYTES = 64 * 1024;
const STREAM_POLL_MS = 100;
const STREAM_TIMEOUT_MS = 5 * 60_000;

/** The public chat API of section 4.6 (variant A or B by AGENT_VARIANT) and the job it runs. */
export function chatRoutes({ config, db, reach }: RouteDeps): Hono<AgentEnv> {
  const routes = new Hono<AgentEnv>();
  const variant = config.chat.variant;
  const audienceOf = (c: Context<AgentEnv>): Audience => ({ variant, service: bearerMatches(c.req.header("authorization"), config.serviceKey) });

  async function submit(c: Context<AgentEnv>): Promise<{ job: Job<"chat">; conversationId: string | null }> {
    const caller = await identifyCaller(c, { config, db });
    // A chat searches as a fast literature search does: when none of those sources can answer it
    // is refused before anything is queued or counted against the caller's allowance.
    await assertLiteratureReach(reach, plannedSources({ mode: "fast" }, config.literature.enabledSources));
    await consumeChatAllowance({ db, config, caller });
    const raw = await readJsonObject(c.req.raw, { maxBytes: MAX_BODY_BYTES });
    const body = variant === "a" ? validateBody(upstreamChatRequestASchema, raw) : validateBody(upstreamChatRequestBSchema, raw);
    let conversationId: string | null = null;
    if (variant === "a") {
      const requested = "conversationId" in body ? (body.conversationId as string | undefined) : undefined;
      if (requested) {
        const { rowCount } = await db.query("SELECT 1 FROM agent.conversations WHERE id = $1", [requested]);
        if (!rowCount) throw new ApiError("not_found", "Unknown conversation", { reason: "not_found" });
        conversationId = requested;
      } else {
        conversationId = randomUUID();
        await db.query("INSERT INTO agent.conversations (id) VALUES ($1)", [conversationId]);
      }
    }
    const input = { message: body.message, conversationId, ...(body.fast !== undefined ? { fast: body.fast } : {}) };
    const job = await enqueueJob({ db, kind: "chat", input, lane: laneOf(caller), caller: caller.kind });
    jobWakeups.emit("job");
    return { job, conversationId };
  }

  /** A chat job of this API, or 404 when unknown or past its retention (one hour by default). */
  async function findJob(id: string): Promise<Job<"chat">> {
    const job = await getJob({ db, id });
    if (!job || job.kind !== "chat" || Date.now() - job.createdAt.getTime() > config.chat.retentionSeconds * 1000) {
      throw new ApiError("not_found", "Unknown or expired request id", { reason: "not_found" });
    }
    return job;
  }

  // POST /api/chat – queue a chat answer (202 with requestId; variant A adds conversationId)
  routes.post("/", async (c) => {
    const { job, conversationId } = await submit(c);
    // The gateway settles a paid chat on this 202: it comes once the search reached a source (503 if none could).
    if (audienceOf(c).service) await awaitSearch({ db, reach, job, waitMs: config.literature.reachWaitMs, searchedPercent: STAGES.filtering!.percent });
    return c.json({ requestId: job.id, status: "queued", ...(variant === "a" ? { conversationId } : {}) }, 202);
  });

  // GET /api/chat/status/:requestId – the job's status, progress and result (section 2.8)
  routes.get("/status/:requestId", async (c) => c.json(presentChatStatus(await findJob(c.req.param("requestId")), audienceOf(c))));

  // POST /api/chat/sync – the same job as server-sent events: queued, progress…, completed or error
  routes.post("/sync", async (c) => {
    const { job, conversationId } = await submit(c);
    const audience = audienceOf(c);
    return streamSSE(c, async (stream) => {
      const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) });
      await send("queued", { requestId: job.id, ...(variant === "a" ? { conversationId } : {}) });
      let last = "";
      const deadline = Date.now() + STREAM_TIMEOUT_MS;
      while (!stream.aborted) {
        const current = await getJob({ db, id: job.id });
        if (current?.kind !== "chat") break;
        const status = presentChatStatus(current, audience);
        if (status.progress && status.status !== "completed") {
          const key = `${status.progress.stage}:${status.progress.percent}`;
          if (key !== last && status.status === "active") await send("progress", status.progress);
          last = key;
        }
        if (status.status === "completed" && status.result) {
          const { text, responseTime } = status.result;
          await send("completed", hideConversation({ text, responseTime, conversationId: status.result.conversationId }, { variant, service: false }));
          return;
        }
        if (status.status === "failed") {
          await send("error", { error: status.error ?? "The request failed" });
          return;
        }
        if (Date.now() > deadline) {
          await send("error", { error: "The answer took too long; poll GET /api/chat/status/" + job.id });
          return;
        }
        await stream.sleep(STREAM_POLL_MS);
      }
    });
  });

  // POST /api/chat/cancel/:requestId – the gateway cancels a job whose payment failed
  routes.post("/cancel/:requestId", requireServiceKey(config.serviceKey), async (c) => {
    const status = await cancelJob({ db, id: c.req.param("requestId") });
    if (!status) throw new ApiError("not_found", "Unknown request id", { reason: "not_found" });
    return c.body(null, 204);
  });

  return routes;
}
