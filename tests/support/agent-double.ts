import { randomUUID } from "node:crypto";
import type { DeepResearchConversation, DeepResearchStatus } from "@/lib/shared/contracts";
import { startHttpDouble, type HttpDouble } from "./http-double";

/**
 * A stand-in for the agent's deep-research API (issue 4 and 5 build the real one), with the
 * test in control of when each turn finishes, fails or is cancelled, of what a running turn
 * reports, and of what a private run's sealed poll answers.
 */
export type DeepResearchDouble = HttpDouble & {
  conversations: Map<string, DeepResearchConversation>;
  finish: (messageId: string, outcome?: { worldState?: Record<string, unknown> | null; sessionStatus?: string; reply?: string }) => void;
  setTurnStatus: (messageId: string, status: DeepResearchStatus) => void;
  /** What the agent says of a running turn: its session line and the conversation's world state. */
  report: (messageId: string, state: { sessionStatus?: string; progress?: DeepResearchConversation["progress"]; worldState?: Record<string, unknown> | null }) => void;
  /** A private run's answer to a sealed poll, as the agent would send it (status, sealed fields, anything else). */
  setRun: (messageId: string, answer: { status: "queued" | "running" | "completed" | "failed" } & Record<string, unknown>) => void;
  /** Whether it serves POST /api/deep-research/statuses (an agent deployed before that route did not: 404). */
  servesWorkStatuses: boolean;
};

export async function startDeepResearchDouble(): Promise<DeepResearchDouble> {
  const conversations = new Map<string, DeepResearchConversation>();
  const runs = new Map<string, { status: "queued" | "running" | "completed" | "failed" } & Record<string, unknown>>();
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
    if (req.method === "POST" && req.path === "/api/deep-research/statuses" && result.servesWorkStatuses) {
      const { messageIds } = JSON.parse(req.body) as { messageIds: string[] };
      const turns = [...conversations.values()].flatMap((c) => c.turns ?? []).filter((t) => messageIds.includes(t.messageId));
      return {
        status: 200,
        body: {
          turns: turns.map((t) => ({ messageId: t.messageId, status: t.status })),
          runs: messageIds.flatMap((messageId) => (runs.has(messageId) ? [{ messageId, status: runs.get(messageId)!.status }] : [])),
        },
      };
    }
    const match = /^\/api\/deep-research\/([^/]+)$/.exec(req.path);
    if (req.method === "GET" && match) {
      const conversation = conversations.get(decodeURIComponent(match[1]!));
      return conversation ? { status: 200, body: conversation } : { status: 404, body: { error: "Conversation not found" } };
    }
    if (req.method === "POST" && req.path === "/api/private/deep-research") {
      const messageId = randomUUID();
      runs.set(messageId, { status: "queued" });
      return { status: 202, body: { messageId, status: "queued" } };
    }
    const poll = /^\/api\/private\/deep-research\/status\/([^/]+)$/.exec(req.path);
    if (req.method === "POST" && poll) {
      const run = runs.get(decodeURIComponent(poll[1]!));
      return run ? { status: 200, body: run } : { status: 404, body: { error: "Unknown research run for this recovery key" } };
    }
    const runStatus = /^\/api\/private\/deep-research\/([^/]+)$/.exec(req.path);
    if (req.method === "GET" && runStatus) {
      const messageId = decodeURIComponent(runStatus[1]!);
      const run = runs.get(messageId);
      return run ? { status: 200, body: { messageId, status: run.status } } : { status: 404, body: { error: "Unknown research run" } };
    }
    return { status: 404, body: { error: "unknown route" } };
  });
  const result: DeepResearchDouble = {
    ...double,
    servesWorkStatuses: true,
    conversations,
    finish: (messageId, outcome = {}) => {
      const { conversation, turn } = findTurn(messageId);
      turn.status = "completed";
      turn.reply = outcome.reply ?? "Rapamycin extended median lifespan in genetically heterogeneous mice [1].";
      turn.citations = [{ ordinal: 1, pmid: "19587680" }];
      turn.isFinal = true;
      conversation.status = "completed";
      conversation.worldState =
        outcome.worldState === undefined ? { findings: ["rapamycin extends lifespan in mice"], hypotheses: [], openQuestions: [] } : outcome.worldState;
      if (outcome.sessionStatus !== undefined) conversation.sessionStatus = outcome.sessionStatus;
    },
    setTurnStatus: (messageId, status) => {
      const { conversation, turn } = findTurn(messageId);
      turn.status = status;
      conversation.status = status;
    },
    report: (messageId, { sessionStatus, progress, worldState }) => {
      const { conversation, turn } = findTurn(messageId);
      turn.status = "running";
      conversation.status = "running";
      conversation.activeMessageId = messageId;
      if (sessionStatus !== undefined) conversation.sessionStatus = sessionStatus;
      if (progress !== undefined) conversation.progress = progress;
      if (worldState !== undefined) conversation.worldState = worldState;
    },
    setRun: (messageId, answer) => {
      if (!runs.has(messageId)) throw new Error(`no private run ${messageId}`);
      runs.set(messageId, answer);
    },
  };
  return result;
}

/**
 * An agent that accepts every paid start at once (chat, literature, deep research; private mode
 * ready) and knows nothing after it: for tests of the payment itself, not of the work.
 */
export function startAcceptingAgent(): Promise<HttpDouble> {
  return startHttpDouble((req) => {
    if (req.path.includes("/cancel")) return { status: 204 };
    if (req.path === "/api/private/status") return { status: 200, body: { privateMode: "ready", privateLiterature: "enabled", attested: false } };
    if (req.method === "POST" && req.path === "/api/chat") return { status: 202, body: { requestId: randomUUID(), status: "queued" } };
    if (req.method === "POST" && req.path === "/api/literature") return { status: 202, body: { jobId: randomUUID(), status: "queued" } };
    if (req.method === "POST" && req.path === "/api/deep-research/start") return { status: 202, body: { messageId: randomUUID(), conversationId: randomUUID(), status: "queued" } };
    return { status: 404, body: { error: "unknown" } };
  });
}
