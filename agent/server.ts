import { Hono, type MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import packageJson from "@/package.json";
import type { Queryable } from "@/lib/db";
import { ApiError, errorResponse } from "@/lib/http";
import { bearerMatches } from "@/lib/http/bearer";
import type { AgentConfig } from "./config";
import { requireServiceOrPremium } from "./access";
import { createJobCounts } from "./jobs/job-counts";
import { getLibraryRecord } from "./library/get-record";
import { chatRoutes } from "./routes/chat";
import { deepResearchRoutes } from "./routes/deep-research";
import { literatureRoutes } from "./routes/literature";
import { premiumRoutes } from "./routes/premium";
import type { EnclaveKey } from "./private/enclave-key";
import type { JobWaiter } from "./jobs/wait";
import type { ReachChecker } from "./literature/reach";
import { privateRoutes } from "./routes/private";
import { unmatchedRoute } from "./unmatched-route";

/** Private mode as health reports it: ready or not, and plainly whether the enclave is attested. */
export function privateModeReport(config: AgentConfig, ready: boolean) {
  const attested = config.enclave.attestation !== null;
  return {
    status: ready ? "ready" : "not_ready",
    attested,
    privateLiterature: config.enclave.privateLiterature ? "enabled" : "disabled",
    message: attested
      ? "Attestation material is served with the enclave key; clients verify it before sealing"
      : "Not attested: this agent does not run in a confidential VM, so sealed requests are only as private as this server",
  };
}

export type AgentDeps = {
  config: AgentConfig;
  db: Queryable;
  enclaveKey?: () => Promise<EnclaveKey>;
  /** Long-polls on jobs (agent/jobs/wait.ts); without one, the routes make one with no LISTEN connection. */
  jobWaiter?: JobWaiter;
  /** Whether the literature sources can answer (agent/literature/reach.ts); without one nothing is refused for want of sources. */
  reach?: ReachChecker;
};

/**
 * The agent's HTTP API (the upstream of the architecture page). Literature, deep research and the
 * private routes answer only callers with the gateway's service key (or, later, a premium key):
 * without that check the gateway's paywall could be walked around. Health is open.
 */
export function createAgentApp(deps: AgentDeps): Hono {
  const app = new Hono();
  // routePath is "" when no route matched (a 404 from middleware, or an error in one).
  app.onError((err, c) => errorResponse(err, { route: `${c.req.method} ${routePath(c) || c.req.path}` }));
  app.notFound(unmatchedRoute(app));

  const priv = privateRoutes(deps);
  const jobCounts = createJobCounts({ db: deps.db });

  // GET /api/health – the agent's health: database, jobs, sources, private mode
  app.get("/api/health", async (c) => {
    // Each source's health is the process's own, known whether the database answers or not.
    const literature = deps.reach ? await deps.reach.check().catch(() => null) : null;
    const started = performance.now();
    try {
      // The database answers (one round trip, every call); the job counts may be a few seconds old.
      await deps.db.query("SELECT 1");
      const jobs = await jobCounts();
      const ready = await priv.enclaveKey().then(
        () => true,
        () => false,
      );
      // A source skipped for failing, or no source able to answer, is degraded.
      const degraded = literature !== null && (!literature.available || literature.sources.some((s) => s.circuit !== "closed"));
      return c.json({
        status: degraded ? "degraded" : "healthy",
        timestamp: new Date().toISOString(),
        uptime: Math.floor(process.uptime()),
        version: packageJson.version,
        components: { database: { status: "healthy", latencyMs: Math.round(performance.now() - started), message: null } },
        jobs,
        literature,
        privateMode: privateModeReport(deps.config, ready),
      });
    } catch {
      return c.json(
        {
          status: "down",
          timestamp: new Date().toISOString(),
          uptime: Math.floor(process.uptime()),
          version: packageJson.version,
          components: { database: { status: "down", latencyMs: null, message: "unreachable" } },
          literature,
        },
        503,
      );
    }
  });

  // The public chat API of section 4.6: open, rate limited per client address; premium keys get
  // a higher limit, the gateway's service key none.
  app.route("/api/chat", chatRoutes(deps));

  app.use("/api/literature/*", requireServiceKey(deps.config.serviceKey));
  app.use("/api/literature", requireServiceKey(deps.config.serviceKey));
  app.route("/api/literature", literatureRoutes(deps));

  app.route("/api/premium", premiumRoutes(deps));
  app.route("/api", priv.routes);

  // Deep research: the gateway, or a premium key holder.
  app.use("/api/deep-research/*", requireServiceOrPremium(deps));
  app.route("/api/deep-research", deepResearchRoutes(deps));

  // GET /api/library/records/:id – a local-library record (the URL of records with no PMID, DOI or
  // NCT id). Behind the service key like the rest: a private deployment's library is not public.
  app.use("/api/library/*", requireServiceKey(deps.config.serviceKey));
  app.get("/api/library/records/:id", async (c) => {
    const record = await getLibraryRecord({ db: deps.db, id: c.req.param("id"), agentUrl: deps.config.publicUrl });
    if (!record) throw new ApiError("not_found", "Unknown library record", { reason: "not_found" });
    return c.json(record);
  });
  return app;
}

/** 401 unless `Authorization: Bearer` carries the service key (compared in constant time). */
export function requireServiceKey(serviceKey: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (!bearerMatches(c.req.header("authorization"), serviceKey)) {
      throw new ApiError("unauthorized", serviceKey ? "A valid service key is required" : "This agent has no AGENT_SERVICE_KEY configured", {
        reason: "unauthorized",
      });
    }
    await next();
  };
}
