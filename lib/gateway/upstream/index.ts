import "server-only";
import { z } from "zod";
import { getConfig } from "@/lib/gateway/config";
import {
  chatAcceptedSchema,
  chatJobStatusSchema,
  deepResearchAcceptedSchema,
  deepResearchConversationSchema,
  enclaveKeyResponseSchema,
  encryptedChatStatusSchema,
  encryptedChatSyncResponseSchema,
  encryptedDeepResearchStatusSchema,
  encryptedLiteratureStatusSchema,
  encryptedResponseSchema,
  type EncryptedEnvelope,
  literatureAcceptedSchema,
  literatureJobResultSchema,
  literatureReachSchema,
  type ChatRequest,
  type DeepResearchStartRequest,
  type LiteratureQueryRequest,
  workStatusesSchema,
} from "@/lib/shared/contracts";
import { UpstreamClient } from "@/lib/gateway/upstream/client";

export * from "@/lib/gateway/upstream/client";

/**
 * The agent API as the gateway uses it (sections 4.1, 4.2, 4.4 and 4.5 mirrored on the agent).
 * Ids are path-encoded; bodies and answers are validated against the contract.
 */
/** How long the gateway waits for a private chat start: the agent answers 202 after 20 s by default. */
const PRIVATE_CHAT_TIMEOUT_MS = 30_000;

export const agentPrivateStatusSchema = z.object({
  privateMode: z.enum(["ready", "not_ready"]),
  privateLiterature: z.enum(["enabled", "disabled"]),
  attested: z.boolean(),
});

/** A private deep-research run's status alone (the settlement cron's question to an agent without POST /api/deep-research/statuses). */
const privateRunStatusSchema = z.object({ messageId: z.string().min(1), status: z.enum(["queued", "running", "completed", "failed"]) });

function createAgentApi(client: UpstreamClient) {
  const id = (value: string) => encodeURIComponent(value);
  return {
    client,
    startChat: (body: ChatRequest) => client.json("/api/chat", chatAcceptedSchema, { method: "POST", body }),
    getChatStatus: (requestId: string) => client.json(`/api/chat/status/${id(requestId)}`, chatJobStatusSchema),
    /** Cancels a job whose payment could not be settled (the agent answers 204 or 404). */
    cancelChat: (requestId: string) => client.send(`/api/chat/cancel/${id(requestId)}`, { method: "POST" }),
    startLiterature: (body: LiteratureQueryRequest) =>
      client.json("/api/literature", literatureAcceptedSchema.or(literatureJobResultSchema), { method: "POST", body }),
    getLiteratureJob: (jobId: string) => client.json(`/api/literature/jobs/${id(jobId)}`, literatureJobResultSchema),
    cancelLiterature: (jobId: string) => client.send(`/api/literature/jobs/${id(jobId)}/cancel`, { method: "POST" }),
    /**
     * Whether any literature source can answer now (any source of a fast search with `mode: "fast"`,
     * as chat searches), and each source's health. One attempt: a check before payment.
     */
    getLiteratureReach: ({ mode, timeoutMs }: { mode?: "fast" | undefined; timeoutMs: number }) =>
      client.json(`/api/literature/reach${mode ? `?mode=${mode}` : ""}`, literatureReachSchema, { timeoutMs, retries: 0 }),
    startDeepResearch: (body: DeepResearchStartRequest) =>
      client.json("/api/deep-research/start", deepResearchAcceptedSchema, { method: "POST", body }),
    getEnclaveKey: () => client.json("/api/enclave-key", enclaveKeyResponseSchema),
    /** The enclave's readiness (agent-only shape: private mode, private literature, attestation). */
    /** One attempt within `timeoutMs` when given (a check before payment), else the client's own. */
    getPrivateStatus: ({ timeoutMs }: { timeoutMs?: number } = {}) =>
      client.json("/api/private/status", agentPrivateStatusSchema, timeoutMs === undefined ? {} : { timeoutMs, retries: 0 }),
    /** Waits for the agent's own synchronous window (PRIVATE_CHAT_WAIT_MS, 20 s) plus a margin. */
    startPrivateChat: (envelope: EncryptedEnvelope) =>
      client.json("/api/private/chat", encryptedChatSyncResponseSchema.or(z.object({ requestId: z.string().min(1), status: z.literal("queued") })), {
        method: "POST",
        body: envelope,
        timeoutMs: PRIVATE_CHAT_TIMEOUT_MS,
      }),
    /** Withdraws a sealed chat or literature job whose payment could not be settled (204, or 404). */
    cancelPrivateJob: (requestId: string) => client.send(`/api/private/jobs/${id(requestId)}/cancel`, { method: "POST" }),
    getPrivateChatStatus: (requestId: string) => client.json(`/api/private/chat/status/${id(requestId)}`, encryptedChatStatusSchema),
    startPrivateLiterature: (envelope: EncryptedEnvelope) =>
      client.json("/api/private/literature", z.object({ requestId: z.string().min(1), status: z.literal("pending") }), { method: "POST", body: envelope }),
    /** The agent waits up to `timeoutSeconds` (at most 25) for the answer; this waits a little longer. */
    getPrivateLiteratureStatus: (requestId: string, timeoutSeconds: number) =>
      client.json(`/api/private/literature/status/${id(requestId)}?timeout=${timeoutSeconds}`, encryptedLiteratureStatusSchema, {
        timeoutMs: timeoutSeconds * 1000 + 5_000,
      }),
    /**
     * Starts a sealed run: its id, and the enclave's receipt sealed to the start (relayed as it is;
     * optional on this hop so an agent deployed before it still starts runs, which clients then refuse).
     */
    startPrivateDeepResearch: (envelope: EncryptedEnvelope) =>
      client.json("/api/private/deep-research", encryptedResponseSchema.partial().extend({ messageId: z.string().min(1), status: z.literal("queued") }), { method: "POST", body: envelope }),
    /** Forwards a sealed poll; the agent answers the status, sealed to the poll's key when completed. */
    pollPrivateDeepResearch: (messageId: string, envelope: EncryptedEnvelope) =>
      client.json(`/api/private/deep-research/status/${id(messageId)}`, encryptedDeepResearchStatusSchema, { method: "POST", body: envelope }),
    getPrivateRunStatus: (messageId: string) => client.json(`/api/private/deep-research/${id(messageId)}`, privateRunStatusSchema),
    getDeepResearch: (conversationId: string) =>
      client.json(`/api/deep-research/${id(conversationId)}`, deepResearchConversationSchema),
    /** The status of each of these turns and sealed runs the agent knows (at most WORK_STATUSES_MAX_IDS), for the settlement cron. */
    getWorkStatuses: (messageIds: string[]) => client.json("/api/deep-research/statuses", workStatusesSchema, { method: "POST", body: { messageIds } }),
  };
}
export type AgentApi = ReturnType<typeof createAgentApi>;

declare global {
  // Module state on globalThis survives hot reload (a `var` is how a global is declared).
  var agentApi: AgentApi | undefined;
}
const globalForUpstream = globalThis;

/** The agent API of this deployment (production or staging base URL, from configuration). */
export function getAgentApi(): AgentApi {
  if (!globalForUpstream.agentApi) {
    const { upstream } = getConfig();
    globalForUpstream.agentApi = createAgentApi(
      new UpstreamClient({ baseUrl: upstream.baseUrl, serviceKey: upstream.serviceKey, timeoutMs: upstream.timeoutMs }),
    );
  }
  return globalForUpstream.agentApi;
}
