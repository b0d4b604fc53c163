import { z } from "zod";
import { deepResearchStatusSchema } from "@/lib/shared/contracts/deep-research";
import { requestObject } from "@/lib/shared/contracts/request-contract";

/**
 * Not the contract's: the agent's POST /api/deep-research/statuses, which the gateway's settlement
 * cron asks which of its scheduled deep-research payments' work has ended, in one call for many
 * (issue 24: the cron settles what is ready first, so nothing still running can starve it).
 */

/** The most ids one call may ask about. */
export const WORK_STATUSES_MAX_IDS = 500;

export const workStatusesRequestSchema = requestObject({
  messageIds: z.array(z.string().min(1).max(64)).min(1).max(WORK_STATUSES_MAX_IDS),
});

/** The status of each asked-for turn and sealed run the agent knows and the caller may see; the others are left out. */
export const workStatusesSchema = z.object({
  turns: z.array(z.object({ messageId: z.string().min(1), status: deepResearchStatusSchema })),
  runs: z.array(z.object({ messageId: z.string().min(1), status: z.enum(["queued", "running", "completed", "failed"]) })),
});
export type WorkStatuses = z.infer<typeof workStatusesSchema>;
