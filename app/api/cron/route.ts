import { getConfig } from "@/lib/gateway/config";
import { withCron } from "@/lib/gateway/cron/with-cron";
import { getDb } from "@/lib/gateway/db";
import { jsonResponse } from "@/lib/shared/http";
import { sweepGatewayTables } from "@/lib/gateway/lifecycle/sweep";
import { log } from "@/lib/shared/log";
import { getPaymentsContext } from "@/lib/gateway/payments/context";
import { runSettlementCron } from "@/lib/gateway/payments/cron";
import { getAgentApi } from "@/lib/gateway/upstream";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// GET /api/cron – the scheduler's minute tick: settle, void or expire what is due, then sweep what is past its retention
export const GET = withCron("GET /api/cron", async () => {
  const { facilitator, chain } = getPaymentsContext();
  const agent = getAgentApi();
  const db = await getDb();
  const result = await runSettlementCron({
    db,
    facilitator,
    chain,
    nowSeconds: () => Math.floor(Date.now() / 1000),
    getConversation: async (conversationId) => (await agent.getDeepResearch(conversationId)).data,
    getWorkStatuses: async (messageIds) => (await agent.getWorkStatuses(messageIds)).data,
    getPrivateRunStatus: async (messageId) => (await agent.getPrivateRunStatus(messageId)).data.status,
    batchSize: getConfig().payments.cronBatchSize,
  });
  // A sweep that fails is tried again next minute; it never costs the settlements their answer.
  const swept = await sweepGatewayTables({ db, retention: getConfig().retention }).catch((error: unknown) => {
    log.error("cron: a retention sweep failed", { error });
    return null;
  });
  return jsonResponse({ ...result, errors: result.errors + (swept ? 0 : 1), swept });
});
