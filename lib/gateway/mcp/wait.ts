import { setTimeout as sleep } from "node:timers/promises";
import { FINAL_STATUSES } from "@/lib/shared/discovery/polling";
import { getPaidOperation, type PaidOperation } from "@/lib/shared/operations";
import { callRoute, type RouteAnswer } from "@/lib/gateway/mcp/gateway-call";
import type { ToolContext } from "@/lib/gateway/mcp/tool-context";
import { isRecord } from "@/lib/shared/narrow";

/** The first pause between polls; it doubles up to the route's own polling interval. */
const FIRST_POLL_MS = 250;

/** Whether a status route's answer will not change: a final status, or an answer of 400 or more (404: unknown or expired). */
function isFinalAnswer(answer: RouteAnswer): boolean {
  if (answer.status >= 400 && answer.status < 500) return true;
  const status = isRecord(answer.body) ? answer.body.status : undefined;
  return answer.status === 200 && FINAL_STATUSES.some((final) => final === status);
}

/**
 * Polls `operation`'s status route in this process until a final answer, the deadline, or the
 * client gives up; a progress notification follows every poll that is not final. Returns the
 * last answer read (a 5xx from the agent is waited through like a pending status) and whether it
 * is final.
 */
export async function waitForFinal({
  ctx,
  operation,
  params,
  deadlineMs,
}: {
  ctx: ToolContext;
  operation: PaidOperation["id"];
  params: Record<string, string>;
  deadlineMs: number;
}): Promise<{ final: boolean; last: RouteAnswer | undefined }> {
  const route = getPaidOperation(operation).polling;
  // Sealed routes poll by POST with a sealed body; no tool offers them (lib/shared/mcp/catalog.ts).
  if (route.method !== "GET") throw new Error(`${operation} is not polled by GET`);
  const maxPauseMs = route.intervalSeconds * 1000;
  let pauseMs = FIRST_POLL_MS;
  let last: RouteAnswer | undefined;
  for (;;) {
    last = await callRoute({ routes: ctx.routes, publicUrl: ctx.publicUrl, method: "GET", path: route.path, params, from: ctx.headers });
    if (isFinalAnswer(last)) return { final: true, last };
    await ctx.progress(describePending(last));
    if (ctx.signal.aborted || Date.now() + pauseMs > deadlineMs) return { final: false, last };
    try {
      await sleep(pauseMs, undefined, { signal: ctx.signal });
    } catch {
      return { final: false, last };
    }
    pauseMs = Math.min(pauseMs * 2, maxPauseMs);
  }
}

/** A progress message for a status that is not final: its word, and its stage when it names one. */
function describePending(answer: RouteAnswer): string {
  if (answer.status !== 200) return `status route answered ${answer.status}; still waiting`;
  const body = isRecord(answer.body) ? answer.body : {};
  const progress = isRecord(body.progress) ? body.progress : {};
  const stage = typeof progress.stage === "string" ? ` (${progress.stage}${typeof progress.percent === "number" ? `, ${progress.percent}%` : ""})` : "";
  return `${typeof body.status === "string" ? body.status : "pending"}${stage}`;
}
