import { GET as getChatStatus } from "@/app/api/chat/status/[requestId]/route";
import { POST as postChat } from "@/app/api/chat/route";
import { GET as getDeepResearch } from "@/app/api/deep-research/[conversationId]/route";
import { POST as postDeepResearchStart } from "@/app/api/deep-research/start/route";
import { GET as getLiteratureJob } from "@/app/api/literature/jobs/[jobId]/route";
import { POST as postLiterature } from "@/app/api/literature/route";
import type { GatewayRoutes } from "@/lib/gateway/mcp/gateway-call";

/**
 * The route handlers the MCP endpoint calls in this process, by method and path as
 * lib/shared/http/api-routes.mjs writes them: each paid tool's route (its payment, ledger and
 * settlement) and each free tool's status route (lib/shared/mcp/catalog.ts).
 */
export const GATEWAY_ROUTES: GatewayRoutes = {
  "POST /api/chat": postChat,
  "GET /api/chat/status/{requestId}": getChatStatus,
  "POST /api/literature": postLiterature,
  "GET /api/literature/jobs/{jobId}": getLiteratureJob,
  "POST /api/deep-research/start": postDeepResearchStart,
  "GET /api/deep-research/{conversationId}": getDeepResearch,
};
