import { z } from "zod";
import { responseRegistry } from "@/lib/shared/contracts/registry";
import { literatureReachSchema } from "@/lib/shared/contracts/source-health";

const healthStatuses = ["healthy", "degraded", "down"] as const;
const healthStatusSchema = z.enum(healthStatuses);
export type HealthStatus = z.infer<typeof healthStatusSchema>;

/** Section 2.12: one checked dependency. */
export const componentHealthSchema = z
  .object({
    status: healthStatusSchema,
    latencyMs: z.int().min(0).nullable(),
    message: z.string().nullable(),
  })
  .register(responseRegistry, { id: "ComponentHealth" });
export type ComponentHealth = z.infer<typeof componentHealthSchema>;

/** Conversation statistics (the contract does not show their fields; these are ours). */
const conversationStatsSchema = z.object({
  total: z.int().min(0),
  byStatus: z.record(z.string(), z.int().min(0)),
});
export type ConversationStats = z.infer<typeof conversationStatsSchema>;

/**
 * Ours: the paid requests this service has settled, by kind, since its database began: what it has
 * really served (private, sealed ones included). Chat and literature settle once the agent has
 * the job; deep research when its run is delivered.
 */
const paidRequestsSchema = z.object({
  chats: z.int().min(0),
  literatureSearches: z.int().min(0),
  deepResearchRuns: z.int().min(0),
});
export type PaidRequests = z.infer<typeof paidRequestsSchema>;

/** Ours: private mode's readiness, and plainly whether the enclave is attested. */
export const privateModeHealthSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  attested: z.boolean(),
  privateLiterature: z.enum(["enabled", "disabled"]),
  message: z.string(),
});
export type PrivateModeHealth = z.infer<typeof privateModeHealthSchema>;

/** Section 2.12: GET /api/health (200 when healthy or degraded, 503 when a component is down). */
export const healthResponseSchema = z
  .object({
    status: healthStatusSchema,
    timestamp: z.iso.datetime({ offset: true }),
    uptime: z.int().min(0).describe("seconds since process start"),
    version: z.string(),
    components: z.object({
      upstreamApi: componentHealthSchema,
      database: componentHealthSchema,
      payments: componentHealthSchema
        .optional()
        .describe("Whether payments can be taken now (the chain's RPC serves the configured chain; a hosted facilitator answers). Down means every paid request would answer 503."),
    }),
    config: z.object({
      paymentAddress: z.string(),
      upstreamApiBaseUrl: z.string(),
      network: z.string(),
      pricing: z.record(z.string(), z.string()),
    }),
    conversations: conversationStatsSchema.nullable().describe("deep-research conversations by status (finished ones until their retention ends); null when the database is down"),
    paidRequests: paidRequestsSchema
      .nullable()
      .optional()
      .describe("settled paid requests by kind since the database began, private ones included (counted at most every few seconds); null when the database is down"),
    privateMode: privateModeHealthSchema.nullable().optional().describe("the enclave's private mode as the agent reports it; null when it did not say"),
    literature: literatureReachSchema
      .nullable()
      .optional()
      .describe("each literature source's health and whether any can answer, as the agent reports them; null when it did not say"),
  })
  .register(responseRegistry, { id: "HealthResponse" });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

const countSchema = z.int().min(0);

/** Section 4.5: 200 of GET /api/cron, with what the run did. */
export const cronResponseSchema = z
  .object({
    ok: z.boolean(),
    checked: countSchema.describe("payments due that were looked at"),
    settled: countSchema,
    pending: countSchema.describe("not yet due: their work has not delivered"),
    voided: countSchema.describe("released without a charge: the work failed or was never delivered"),
    expired: countSchema.describe("whose authorization expired before delivery (the conversation is marked timeout)"),
    failed: countSchema.describe("whose settlement failed"),
    interrupted: countSchema.describe("requests that stopped before answering (a crash), released"),
    errors: countSchema.describe("steps that failed and are tried again next minute"),
    transactions: z.record(z.string(), countSchema).describe("the self-hosted facilitator's upkeep: receipts confirmed, transactions re-sent, nonces filled"),
    swept: z.record(z.string(), countSchema).nullable().describe("rows each retention sweep deleted or cleared; null when a sweep failed"),
  })
  .register(responseRegistry, { id: "CronResult" });
