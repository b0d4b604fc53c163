import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { checkHealth, singleFlight } from "@/lib/gateway/health";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

const checkNow = singleFlight(() => checkHealth({ config: getConfig(), getDb, upstream: getAgentApi().client }));

// GET /api/health – the health of the gateway, its database and the upstream agent
export const GET = withApi("GET /api/health", async () => {
  const health = await checkNow();
  return jsonResponse(health, { status: health.status === "down" ? 503 : 200 });
});
