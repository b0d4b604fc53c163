import { Hono } from "hono";
import { ApiError } from "@/lib/shared/http";
import type { AgentEnv } from "../http/context";
import type { RouteDeps } from "../http/deps";
import { getLibraryRecord } from "../library/get-record";

/** The local library's records, behind the service key (server.ts): a private deployment's library is not public. */
export function libraryRoutes({ config, db }: RouteDeps): Hono<AgentEnv> {
  const routes = new Hono<AgentEnv>();

  // GET /api/library/records/:id – a local-library record (the URL of records with no PMID, DOI or NCT id)
  routes.get("/records/:id", async (c) => {
    const record = await getLibraryRecord({ db, id: c.req.param("id"), recordPageBase: config.recordPageBase });
    if (!record) throw new ApiError("not_found", "Unknown library record", { reason: "not_found" });
    return c.json(record);
  });

  return routes;
}
