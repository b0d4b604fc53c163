import "server-only";
import type { DeepResearchStartRequest } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import type { PaidWork } from "@/lib/gateway/payments/paid-route";
import { getAgentApi } from "@/lib/gateway/upstream";
import { recordQueuedTurn, requireOwnConversation } from "@/lib/gateway/deep-research/owners";

/**
 * The work of a paid deep-research start (POST /api/deep-research/start): a conversation the
 * request continues is checked to be the payer's before the agent hears of it (404 otherwise,
 * which the paid route never charges); the agent queues the turn, and a new conversation is
 * recorded as this payer's. Throws the agent's errors as the paid route relays them.
 */
export async function startPaidTurn({ body, payer }: { body: DeepResearchStartRequest; payer: string }): Promise<PaidWork> {
  const db = await getDb();
  if (body.conversationId) await requireOwnConversation({ db, conversationId: body.conversationId, payer });
  const { data } = await getAgentApi().startDeepResearch(body);
  await recordQueuedTurn({ db, conversationId: data.conversationId, payer });
  return {
    status: 202,
    body: { messageId: data.messageId, conversationId: data.conversationId, status: "queued" },
    upstreamJobId: data.messageId,
    conversationId: data.conversationId,
    messageId: data.messageId,
  };
}
