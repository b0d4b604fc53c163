import "server-only";
import type { z } from "zod";
import { getConfig } from "@/lib/gateway/config";
import { literatureReachSchema, type LiteratureReach } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import { log } from "@/lib/shared/log";
import { agentPrivateStatusSchema, getAgentApi } from "@/lib/gateway/upstream/index";
import { createStatusCache, type StatusCache, type StatusKey, type StatusRead } from "@/lib/gateway/upstream/status-cache";

/**
 * What the gateway asks the agent before payment, through the shared cache of status-cache.ts:
 * never one agent call per unpaid request.
 */

/** A refresh's agent call waits this long at most (or UPSTREAM_TIMEOUT_MS if shorter), below status-cache's GRACE_MS. */
const ASK_TIMEOUT_MS = 2_000;

/** Reach for a chat's sources (`fast`, as chat searches) or for every enabled source. */
export type ReachMode = "fast" | "all";

const reachKey = (mode: ReachMode) => `literature_reach:${mode}`;

declare global {
  // Module state on globalThis survives hot reload (a `var` is how a global is declared).
  var agentStatus: StatusCache | undefined;
}
const globalForStatus = globalThis;

function statusCache(): StatusCache {
  if (!globalForStatus.agentStatus) {
    const { upstream } = getConfig();
    globalForStatus.agentStatus = createStatusCache({ agentUrl: upstream.baseUrl, freshMs: upstream.statusCacheMs, db: getDb });
  }
  return globalForStatus.agentStatus;
}

function key<T>(name: string, schema: z.ZodType<T>, ask: (timeoutMs: number) => Promise<T>): StatusKey<T> {
  return {
    name,
    ask: async () => {
      try {
        return await ask(Math.min(ASK_TIMEOUT_MS, getConfig().upstream.timeoutMs));
      } catch (err) {
        log.warn("agent status unreadable; checks before payment go on without it", { key: name, error: err });
        throw err;
      }
    },
    parse: (value) => {
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : null;
    },
  };
}

/** Whether a literature source can answer, as the agent last said (null: it could not say). */
export function readLiteratureReach(mode: ReachMode): Promise<StatusRead<LiteratureReach>> {
  return statusCache().read(
    key(reachKey(mode), literatureReachSchema, async (timeoutMs) => (await getAgentApi().getLiteratureReach({ mode: mode === "fast" ? "fast" : undefined, timeoutMs })).data),
  );
}

/** The agent refused a start for want of sources: what was cached about reach is asked again. */
export function forgetLiteratureReach(): Promise<void> {
  return statusCache().forget([reachKey("fast"), reachKey("all")]);
}

/** The agent's private mode, as it last said (null: it could not say). */
export function readAgentPrivateStatus(): Promise<StatusRead<z.output<typeof agentPrivateStatusSchema>>> {
  return statusCache().read(key("private_status", agentPrivateStatusSchema, async (timeoutMs) => (await getAgentApi().getPrivateStatus({ timeoutMs })).data));
}
