import { pollingHeaders } from "@/lib/shared/discovery/polling";
import { keepFinishedResult } from "@/lib/gateway/history/keep-finished";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

// GET /api/chat/status/[requestId] – poll a chat job (free; relayed from the agent); a completed
// answer is kept for its payer's history
export const GET = withApi<{ requestId: string }>("GET /api/chat/status/[requestId]", async ({ params }) => {
  const { data } = await getAgentApi().getChatStatus(params.requestId);
  if (data.status === "completed") await keepFinishedResult({ operation: "chat", upstreamJobId: params.requestId, result: data.result });
  return jsonResponse(data, { headers: pollingHeaders({ operation: "chat", status: data.status }) });
});
