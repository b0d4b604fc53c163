import { pollingHeaders } from "@/lib/shared/discovery/polling";
import { keepFinishedResult } from "@/lib/gateway/history/keep-finished";
import { jsonResponse, withApi } from "@/lib/shared/http";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";

// GET /api/literature/jobs/[jobId] – poll a literature job (free, no second payment; relayed from the
// agent); a completed search is kept for its payer's history
export const GET = withApi<{ jobId: string }>("GET /api/literature/jobs/[jobId]", async ({ params }) => {
  const { data } = await getAgentApi().getLiteratureJob(params.jobId);
  if (data.status === "completed") await keepFinishedResult({ operation: "literature", upstreamJobId: params.jobId, result: data });
  return jsonResponse(data, { headers: pollingHeaders({ operation: "literature", status: data.status }) });
});
