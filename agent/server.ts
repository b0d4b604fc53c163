import { Hono } from "hono";
import { routePath } from "hono/route";
import { errorResponse } from "@/lib/shared/http";
import { requireServiceKey, requireServiceOrPremium } from "./http/access";
import type { AgentEnv } from "./http/context";
import type { AgentDeps, RouteDeps } from "./http/deps";
import { createJobWaiter } from "./jobs/wait";
import { createEnclaveKeyLoader } from "./private/enclave-key";
import { chatRoutes } from "./routes/chat";
import { deepResearchRoutes } from "./routes/deep-research";
import { healthRoutes } from "./routes/health";
import { libraryRoutes } from "./routes/library";
import { literatureRoutes } from "./routes/literature";
import { premiumRoutes } from "./routes/premium";
import { privateRoutes } from "./routes/private";
import { unmatchedRoute } from "./unmatched-route";

export type { AgentDeps } from "./http/deps";

/**
 * The agent's HTTP API (the upstream of the architecture page). Literature, deep research and the
 * private routes answer only callers with the gateway's service key (or a premium key): without
 * that check the gateway's paywall could be walked around. Health is open. The routes live in
 * agent/routes, their middleware and shared types in agent/http; this module only puts them
 * together (nothing imports it back).
 */
export function createAgentApp(deps: AgentDeps): Hono<AgentEnv> {
  const { config, db } = deps;
  const routeDeps: RouteDeps = {
    ...deps,
    enclaveKey: deps.enclaveKey ?? createEnclaveKeyLoader({ db, configured: config.enclave.privateKey, kekFile: config.enclave.kekFile }),
    jobWaiter: deps.jobWaiter ?? createJobWaiter({ db, recheckMs: config.jobs.waitRecheckMs }),
  };
  const app = new Hono<AgentEnv>();
  // routePath is "" when no route matched (a 404 from middleware, or an error in one).
  app.onError((err, c) => errorResponse(err, { route: `${c.req.method} ${routePath(c) || c.req.path}` }));
  app.notFound(unmatchedRoute(app));

  app.route("/api/health", healthRoutes(routeDeps));

  // The public chat API of section 4.6: open, rate limited per client address; premium keys get
  // a higher limit, the gateway's service key none.
  app.route("/api/chat", chatRoutes(routeDeps));

  app.use("/api/literature/*", requireServiceKey(config.serviceKey));
  app.use("/api/literature", requireServiceKey(config.serviceKey));
  app.route("/api/literature", literatureRoutes(routeDeps));

  app.route("/api/premium", premiumRoutes(routeDeps));
  app.route("/api", privateRoutes(routeDeps));

  // Deep research: the gateway, or a premium key holder.
  app.use("/api/deep-research/*", requireServiceOrPremium(routeDeps));
  app.route("/api/deep-research", deepResearchRoutes(routeDeps));

  // The local library's records: behind the service key like the rest.
  app.use("/api/library/*", requireServiceKey(config.serviceKey));
  app.route("/api/library", libraryRoutes(routeDeps));
  return app;
}
