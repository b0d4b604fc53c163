import "server-only";
import type { ChatRequest } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import { relayLiteratureUnavailable } from "@/lib/gateway/literature/reach";
import type { PaidWork } from "@/lib/gateway/payments/paid-route";
import { getAgentApi } from "@/lib/gateway/upstream";
import { continueChatConversation, recordChatConversation } from "@/lib/gateway/chat/threads";

/**
 * The work of a paid chat (POST /api/chat): a conversation named by the request is checked to be
 * the payer's before the agent hears of it (ConversationNotFoundError, 404: the paid route never
 * charges an error); the agent (variant A) answers within it, or opens a new one, which is
 * recorded as this payer's. Throws the agent's errors as the paid route relays them.
 */
export async function startPaidChat({ body, payer }: { body: ChatRequest; payer: string }): Promise<PaidWork> {
  const db = await getDb();
  if (body.conversationId) await continueChatConversation({ db, conversationId: body.conversationId, payer });
  const agent = getAgentApi();
  const { status, data } = await relayLiteratureUnavailable(() => agent.startChat(body));
  const cancel = async () => void (await agent.cancelChat(data.requestId));
  if (body.conversationId && data.conversationId !== body.conversationId) {
    // An agent without conversations (variant B) drops the field: answering without the thread
    // would charge for a follow-up that lost its context.
    return {
      status: 502,
      body: { error: "The agent could not continue this conversation; nothing was charged", reason: "conversation_not_continued" },
      upstreamJobId: data.requestId,
      cancel,
    };
  }
  if (data.conversationId) await recordChatConversation({ db, conversationId: data.conversationId, payer });
  return {
    status,
    body: { requestId: data.requestId, status: data.status, ...(data.conversationId ? { conversationId: data.conversationId } : {}) },
    upstreamJobId: data.requestId,
    cancel,
  };
}
