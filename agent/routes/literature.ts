import { Hono } from "hono";
import { literatureQueryRequestSchema } from "@/lib/contracts";
import { ApiError, readJsonObject, validateBody } from "@/lib/http";
import { cancelJob, enqueueJob, getJob } from "../jobs/queue";
import { jobWakeups } from "../jobs/worker";
import type { AgentDeps } from "../server";

const MAX_BODY_BYTES = 256 * 1024;

export function literatureRoutes({ db }: AgentDeps): Hono {
  const routes = new Hono();

  // POST /api/literature – queue a literature search (section 4.4)
  routes.post("/", async (c) => {
    const body = validateBody(literatureQueryRequestSchema, await readJsonObject(c.req.raw, { maxBytes: MAX_BODY_BYTES }));
    const job = await enqueueJob({ db, kind: "literature", input: body, caller: "service" });
    jobWakeups.emit("job");
    return c.json({ jobId: job.id, status: "queued" }, 202);
  });

  // GET /api/literature/jobs/:jobId – the job's LiteratureJobResult (section 2.11)
  routes.get("/jobs/:jobId", async (c) => {
    const job = await getJob({ db, id: c.req.param("jobId") });
    if (!job || job.kind !== "literature") throw new ApiError("not_found", "Unknown literature job", { reason: "not_found" });
    if (job.status === "completed") return c.json({ ...(job.result as object), jobId: job.id, status: "completed" });
    if (job.status === "failed" || job.status === "cancelled") {
      return c.json({ jobId: job.id, status: "failed", error: job.status === "cancelled" ? "The job was cancelled" : (job.error ?? "The job failed") });
    }
    return c.json({ jobId: job.id, status: job.status === "running" ? "running" : "queued" });
  });

  // POST /api/literature/jobs/:jobId/cancel – cancel a job (the gateway does when its payment failed)
  routes.post("/jobs/:jobId/cancel", async (c) => {
    const status = await cancelJob({ db, id: c.req.param("jobId") });
    if (!status) throw new ApiError("not_found", "Unknown literature job", { reason: "not_found" });
    return c.body(null, 204);
  });

  return routes;
}
