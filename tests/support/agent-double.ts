import { randomUUID } from "node:crypto";
import type { DeepResearchConversation, DeepResearchStatus } from "@/lib/contracts";
import { startHttpDouble, type HttpDouble } from "./http-double";

/**
 * A stand-in for the agent's deep-research API (issue 4 and 5 build the real one), with the
 * test in control of when each turn finishes, fails or is cancelled.
 */
export type DeepResearchDouble = HttpDouble & {
  conversations: Map<string, DeepResearchConversation>;
  finish: (messageId: string) => void;
  setTurnStatus: (messageId: string, status: DeepResearchStatus) => void;
};

export async function startDeepResearchDouble(): Promise<DeepResearchDouble> {
  const conversations = new Map<string, DeepResearchConversation>();
  const findTurn = (messageId: string) => {
    for (const c of conversations.values()) {
      const turn = c.turns?.find((t) => t.messageId === messageId);
      if (turn) return { conversation: c, turn };
    }
    throw new Error(`no turn ${messageId}`);
  };
  const double = await startHttpDouble((req) => {
    if (req.method === "POST" && req.path === "/api/deep-research/start") {
      const body = JSON.parse(req.body) as { message: string; conversationId?: string };
      const conversationId = body.conversationId ?? randomUUID();
      const messageId = randomUUID();
      const conversation = conversations.get(conversationId) ?? { conversationId, status: "queued", worldState: null, sessionStatus: "queued", turns: [] };
      conversation.status = "running";
      conversation.activeMessageId = messageId;
      conversation.turns!.push({ messageId, objective: body.message, citations: [], status: "running", isFinal: false });
      conversations.set(conversationId, conversation);
      return { status: 202, body: { messageId, conversationId, status: "queued" } };
    }
    const match = /^\/api\/deep-research\/([^/]+)$/.exec(req.path);
    if (req.method === "GET" && match) {
      const conversation = conversations.get(decodeURIComponent(match[1]!));
      return conversation ? { status: 200, body: conversation } : { status: 404, body: { error: "Conversation not found" } };
    }
    return { status: 404, body: { error: "unknown route" } };
  });
  return {
    ...double,
    conversations,
    finish: (messageId) => {
      const { conversation, turn } = findTurn(messageId);
      turn.status = "completed";
      turn.reply = "Rapamycin extended median lifespan in genetically heterogeneous mice [1].";
      turn.citations = [{ ordinal: 1, pmid: "19587680" }];
      turn.isFinal = true;
      conversation.status = "completed";
      conversation.worldState = { findings: ["rapamycin extends lifespan in mice"], hypotheses: [], openQuestions: [] };
    },
    setTurnStatus: (messageId, status) => {
      const { conversation, turn } = findTurn(messageId);
      turn.status = status;
      conversation.status = status;
    },
  };
}
