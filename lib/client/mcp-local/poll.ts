import { FINAL_STATUSES, type AsyncPolling } from "@/lib/shared/discovery/polling";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";
import { poll } from "@/lib/client/poll";
import { isRecord } from "@/lib/shared/narrow";

/**
 * Following paid work on its free status route, at the pace the service asks: the polling
 * guidance its 402 served (interval, final statuses, maximum duration), and `Retry-After` on each
 * non-final answer before that. The status URL is always the configured service's own route
 * (never a URL from an answer), so following costs nothing and goes nowhere else.
 */

export type PollGuidance = { intervalSeconds: number; finalStatuses: readonly string[]; maxSeconds: number };

/** Bounds on whatever pace a service asks for: not busier than 4 polls a second, never idle past 30 s. */
const MIN_INTERVAL_SECONDS = 0.25;
const MAX_INTERVAL_SECONDS = 30;
const bound = (seconds: number) => Math.min(MAX_INTERVAL_SECONDS, Math.max(MIN_INTERVAL_SECONDS, seconds));

/** The guidance the route's 402 served, bounded; this build's table where it served none. */
export function pollGuidance(operation: PaidOperation["id"], served: AsyncPolling | null): PollGuidance {
  const local = getPaidOperation(operation).polling;
  return {
    intervalSeconds: bound(served?.intervalSeconds ?? local.intervalSeconds),
    finalStatuses: served?.finalStatuses.length ? served.finalStatuses : FINAL_STATUSES,
    maxSeconds: served?.maxSeconds ?? local.maxSeconds,
  };
}

export type StatusRead = { status: number; body: Record<string, unknown>; headers: Headers };

/** One GET of a status route, its body read as a JSON object (`{}` when it is not one). */
export async function readStatus(url: string, signal?: AbortSignal): Promise<StatusRead> {
  const response = await fetch(url, { headers: { accept: "application/json" }, signal });
  const body: unknown = await response.json().catch(() => ({}));
  return { status: response.status, body: isRecord(body) ? body : {}, headers: response.headers };
}

/** Seconds a `Retry-After` header asks for (delay-seconds form), or null. */
function retryAfterSeconds(headers: Headers): number | null {
  const value = Number(headers.get("retry-after"));
  return headers.has("retry-after") && Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * Polls `url` until its `status` is final, it answers an error, or the next poll would come after
 * `waitSeconds`; `onPoll` hears every answer with the seconds since polling began. Returns the
 * last answer and whether it was final. Rejects when `signal` aborts (the MCP request was cancelled).
 */
export async function pollUntilFinal({
  url,
  guidance,
  waitSeconds,
  signal,
  onPoll,
}: {
  url: string;
  guidance: PollGuidance;
  waitSeconds: number;
  signal?: AbortSignal;
  onPoll?: (read: StatusRead, elapsedSeconds: number) => Promise<void> | void;
}): Promise<{ read: StatusRead; final: boolean }> {
  const polled = await poll({
    read: () => readStatus(url, signal),
    isFinal: (read) => read.status >= 400 || (typeof read.body.status === "string" && guidance.finalStatuses.includes(read.body.status)),
    onRead: (read, elapsedMs) => onPoll?.(read, elapsedMs / 1000),
    pauseMs: (read) => bound(retryAfterSeconds(read.headers) ?? guidance.intervalSeconds) * 1000,
    limitMs: Math.min(waitSeconds, guidance.maxSeconds) * 1000,
    signal,
  });
  // A cancelled MCP request rejects, as the fetch it interrupts would.
  if (!polled.final && polled.stopped === "aborted") signal?.throwIfAborted();
  return { read: polled.value, final: polled.final };
}
