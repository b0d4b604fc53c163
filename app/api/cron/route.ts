import { getConfig } from "@/lib/config";
import { withCron } from "@/lib/cron/with-cron";
import { getDb } from "@/lib/db";
import { jsonResponse } from "@/lib/http";
import { getPaymentsContext } from "@/lib/payments/context";
import { runSettlementCron } from "@/lib/payments/cron";
import { getAgentApi, UpstreamHttpError } from "@/lib/upstream";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// GET /api/cron – the scheduler's minute tick: settle, void or expire what is due
export const GET = withCron("GET /api/cron", async () => {
  const { facilitator, chain } = getPaymentsContext();
  const agent = getAgentApi();
  const result = await runSettlementCron({
    db: await getDb(),
    facilitator,
    chain,
    nowSeconds: () => Math.floor(Date.now() / 1000),
    getConversation: async (conversationId) => (await agent.getDeepResearch(conversationId)).data,
    getPrivateRunStatus: async (messageId) => {
      try {
        return (await agent.getPrivateRunStatus(messageId)).data.status;
      } catch (err) {
        if (err instanceof UpstreamHttpError && err.upstreamStatus === 404) return null;
        throw err;
      }
    },
    batchSize: getConfig().payments.cronBatchSize,
  });
  return jsonResponse(result);
});
