import { pollingHeaders } from "@/lib/discovery/polling";
import { jsonResponse, withApi } from "@/lib/http";
import { getAgentApi } from "@/lib/upstream";

export const dynamic = "force-dynamic";

// GET /api/literature/jobs/[jobId] – poll a literature job (free, no second payment; relayed from the agent)
export const GET = withApi<{ jobId: string }>("GET /api/literature/jobs/[jobId]", async ({ params }) => {
  const { data } = await getAgentApi().getLiteratureJob(params.jobId);
  return jsonResponse(data, { headers: pollingHeaders({ operation: "literature", status: data.status }) });
});
