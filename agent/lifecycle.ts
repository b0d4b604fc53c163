import type { Queryable } from "@/lib/shared/db";
import { sweepRateLimits } from "@/lib/shared/rate-limit/fixed-window";
import { sweepChatConversations, sweepChatJobs } from "./chat/retention";
import type { AgentConfig } from "./config";
import { sweepDeepResearch } from "./deep-research/retention";
import { sweepLiteratureJobs } from "./literature/retention";
import { sweepPremium } from "./premium/retention";
import { sweepPrivateConversations, sweepPrivateJobs } from "./private/retention";

/**
 * The data lifecycle of the agent's schema: one sweep per kind of row, each deleting what its
 * retention no longer keeps (docs/data-lifecycle.md has the table and the reasons). The workers
 * run them every 10 s (agent/jobs/worker.ts); each is one or two indexed DELETEs.
 */
export function agentSweeps({ db, config }: { db: Queryable; config: AgentConfig }): Record<string, () => Promise<number>> {
  const { retention } = config;
  return {
    privateJobs: () => sweepPrivateJobs({ db, retentionSeconds: config.enclave.retentionSeconds }),
    // Public chat keeps questions and answers in plaintext: they go once the status route forgets them.
    chatJobs: () => sweepChatJobs({ db, retentionSeconds: config.chat.retentionSeconds }),
    chatConversations: () => sweepChatConversations({ db, retentionSeconds: retention.chatConversationSeconds }),
    literatureJobs: () => sweepLiteratureJobs({ db, retentionSeconds: retention.literatureSeconds }),
    deepResearch: () => sweepDeepResearch({ db, retentionSeconds: retention.deepResearchSeconds }),
    privateConversations: () => sweepPrivateConversations({ db, retentionSeconds: retention.privateConversationSeconds }),
    premium: () => sweepPremium({ db, keyRetentionSeconds: retention.premiumKeySeconds }),
    rateLimits: () => sweepRateLimits({ db, table: "agent.rate_limits" }),
  };
}
