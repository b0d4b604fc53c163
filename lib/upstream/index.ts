import "server-only";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import {
  chatAcceptedSchema,
  chatJobStatusSchema,
  deepResearchAcceptedSchema,
  deepResearchConversationSchema,
  enclaveKeyResponseSchema,
  literatureAcceptedSchema,
  literatureJobResultSchema,
  type ChatRequest,
  type DeepResearchStartRequest,
  type LiteratureQueryRequest,
} from "@/lib/contracts";
import { UpstreamClient } from "./client";

export * from "./client";

/**
 * The agent API as the gateway uses it (sections 4.1, 4.2, 4.4 and 4.5 mirrored on the agent).
 * Ids are path-encoded; bodies and answers are validated against the contract.
 */
export function createAgentApi(client: UpstreamClient) {
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
    startDeepResearch: (body: DeepResearchStartRequest) =>
      client.json("/api/deep-research/start", deepResearchAcceptedSchema, { method: "POST", body }),
    getEnclaveKey: () => client.json("/api/enclave-key", enclaveKeyResponseSchema.extend({ attested: z.boolean().optional() })),
    getDeepResearch: (conversationId: string) =>
      client.json(`/api/deep-research/${id(conversationId)}`, deepResearchConversationSchema),
  };
}
export type AgentApi = ReturnType<typeof createAgentApi>;

const globalForUpstream = globalThis as unknown as { agentApi?: AgentApi };

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
