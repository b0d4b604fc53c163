import { WORK_STATUSES_MAX_IDS, type DeepResearchConversation, type DeepResearchStatus, type WorkStatuses } from "@/lib/shared/contracts";
import type { ScheduledPayment } from "@/lib/gateway/payments/ledger";
import { UpstreamHttpError } from "@/lib/gateway/upstream/client";

/**
 * What the agent says of the work that scheduled deep-research payments pay for (the settlement
 * cron's question: which have ended?). Asked many at a time (POST /api/deep-research/statuses);
 * an agent without that route (404: one deployed before the gateway) is asked one conversation
 * and one sealed run at a time instead, for at most `oneByOneLimit` of them.
 */

export type WorkLookupDeps = {
  /** The status of each of these turns and sealed runs the agent knows (at most WORK_STATUSES_MAX_IDS ids). */
  getWorkStatuses: (messageIds: string[]) => Promise<WorkStatuses>;
  getConversation: (conversationId: string) => Promise<DeepResearchConversation>;
  /** A sealed run's status; null when the agent does not know the run. */
  getPrivateRunStatus: (messageId: string) => Promise<DeepResearchStatus | null>;
};

/** The messageIds the agent was asked about, and the status of each it knows (one it was asked about and left out, it does not know). */
export type WorkLookup = { asked: Set<string>; statuses: Map<string, DeepResearchStatus> };

/** @throws what the agent answered, unless it was the 404 of a missing route */
export async function lookUpWork(deps: WorkLookupDeps, scheduled: ScheduledPayment[], { oneByOneLimit }: { oneByOneLimit: number }): Promise<WorkLookup> {
  const ids = [...new Set(scheduled.flatMap((p) => (p.messageId ? [p.messageId] : [])))];
  const lookup: WorkLookup = { asked: new Set(), statuses: new Map() };
  try {
    for (let i = 0; i < ids.length; i += WORK_STATUSES_MAX_IDS) {
      const chunk = ids.slice(i, i + WORK_STATUSES_MAX_IDS);
      const answer = await deps.getWorkStatuses(chunk);
      for (const work of [...answer.turns, ...answer.runs]) lookup.statuses.set(work.messageId, work.status);
      for (const id of chunk) lookup.asked.add(id);
    }
    return lookup;
  } catch (err) {
    if (!(err instanceof UpstreamHttpError && err.upstreamStatus === 404)) throw err;
  }
  return lookUpOneByOne(deps, scheduled, oneByOneLimit);
}

/** The older agent's way: each conversation read whole, each sealed run's status alone, in the order the payments came. */
async function lookUpOneByOne(deps: WorkLookupDeps, scheduled: ScheduledPayment[], limit: number): Promise<WorkLookup> {
  const lookup: WorkLookup = { asked: new Set(), statuses: new Map() };
  const read = new Set<string>();
  for (const { conversationId, messageId } of scheduled) {
    if (!messageId || lookup.asked.has(messageId)) continue;
    if (conversationId && read.has(conversationId)) {
      // Its conversation was read whole already: what the agent said of this turn is known.
      lookup.asked.add(messageId);
      continue;
    }
    if (read.size >= limit) break;
    if (conversationId) {
      read.add(conversationId);
      const conversation = await known(() => deps.getConversation(conversationId));
      for (const turn of conversation?.turns ?? []) lookup.statuses.set(turn.messageId, turn.status);
    } else {
      read.add(messageId);
      const status = await known(() => deps.getPrivateRunStatus(messageId));
      if (status) lookup.statuses.set(messageId, status);
    }
    lookup.asked.add(messageId);
  }
  return lookup;
}

/** What `read` answers, or null for the agent's 404 (it does not know the work). */
async function known<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof UpstreamHttpError && err.upstreamStatus === 404) return null;
    throw err;
  }
}
