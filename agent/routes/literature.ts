import { Hono } from "hono";
import { literatureQueryRequestSchema } from "@/lib/shared/contracts";
import { ApiError, readJsonObject, validateBody } from "@/lib/shared/http";
import { cancelJob, getJobOfKind } from "../jobs/queue";
import { submitJob } from "../jobs/submit";
import { plannedSources } from "../literature/engine";
import { presentLiteratureJob } from "../literature/present";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";
import { assertLiteratureReach, awaitSearch } from "../http/reach-guard";

const MAX_BODY_BYTES = 256 * 1024;

export function literatureRoutes({ config, db, reach }: RouteDeps): Hono<AgentEnv> {
  const routes = new Hono<AgentEnv>();

  // POST /api/literature – queue a literature search (section 4.4); 503 literature_unavailable
  // when none of its sources can answer, before queueing or once its search reached none
  routes.post("/", async (c) => {
    const body = validateBody(literatureQueryRequestSchema, await readJsonObject(c.req.raw, { maxBytes: MAX_BODY_BYTES }));
    await assertLiteratureReach(reach, plannedSources(body, config.literature.enabledSources));
    const job = await submitJob({ db, kind: "literature", input: body, lane: "paid", caller: "service" });
    // The gateway settles on this 202: it comes once the search reached a source.
    await awaitSearch({ db, reach, job, waitMs: config.literature.reachWaitMs });
    return c.json({ jobId: job.id, status: "queued" }, 202);
  });

  // GET /api/literature/reach – whether any source (of a fast search with ?mode=fast) can answer now, and each source's health
  routes.get("/reach", async (c) => {
    if (!reach) throw new ApiError("not_found", "This agent does not track its sources", { reason: "not_found" });
    const mode = c.req.query("mode");
    if (mode !== undefined && mode !== "fast" && mode !== "deep") throw new ApiError("bad_request", "mode must be fast or deep", { reason: "invalid_query" });
    return c.json(await reach.check(mode ? plannedSources({ mode }, config.literature.enabledSources) : undefined));
  });

  // GET /api/literature/jobs/:jobId – the job's LiteratureJobResult (section 2.11)
  routes.get("/jobs/:jobId", async (c) => {
    const job = await getJobOfKind({ db, id: c.req.param("jobId"), kind: "literature" });
    if (!job) throw new ApiError("not_found", "Unknown literature job", { reason: "not_found" });
    return c.json(presentLiteratureJob(job));
  });

  // POST /api/literature/jobs/:jobId/cancel – cancel a job (the gateway does when its payment failed)
  routes.post("/jobs/:jobId/cancel", async (c) => {
    const status = await cancelJob({ db, id: c.req.param("jobId") });
    if (!status) throw new ApiError("not_found", "Unknown literature job", { reason: "not_found" });
    return c.body(null, 204);
  });

  return routes;
}
