import { pollingHeaders } from "@/lib/shared/discovery/polling";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

// GET /api/chat/encrypted/status/[requestId] – poll a sealed chat (free; the answer stays sealed)
export const GET = withApi<{ requestId: string }>("GET /api/chat/encrypted/status/[requestId]", async ({ params }) => {
  const { data } = await getAgentApi().getPrivateChatStatus(params.requestId);
  return jsonResponse(data, { headers: pollingHeaders({ operation: "chatEncrypted", status: data.status }) });
});
