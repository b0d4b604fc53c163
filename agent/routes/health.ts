import { Hono } from "hono";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";
import { createHealthCheck } from "../health";

/** The agent's open health route: the gateway's health and the contract's monitors read it. */
export function healthRoutes({ config, db, enclaveKey, reach }: RouteDeps): Hono<AgentEnv> {
  const routes = new Hono<AgentEnv>();
  const check = createHealthCheck({ config, db, enclaveKey, ...(reach ? { reach } : {}) });

  // GET /api/health – the agent's health: database, jobs, sources, private mode
  routes.get("/", async (c) => {
    const { up, report } = await check();
    return c.json(report, up ? 200 : 503);
  });

  return routes;
}
