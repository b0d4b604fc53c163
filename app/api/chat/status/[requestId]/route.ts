import { pollingHeaders } from "@/lib/discovery/polling";
import { jsonResponse, withApi } from "@/lib/http";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// GET /api/chat/status/[requestId] – poll a chat job (free; relayed from the agent)
export const GET = withApi<{ requestId: string }>("GET /api/chat/status/[requestId]", async ({ params }) => {
  const { data } = await getAgentApi().getChatStatus(params.requestId);
  return jsonResponse(data, { headers: pollingHeaders({ operation: "chat", status: data.status }) });
});
