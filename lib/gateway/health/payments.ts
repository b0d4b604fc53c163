import type { GatewayConfig } from "@/lib/gateway/config";
import type { ComponentHealth } from "@/lib/shared/contracts";
import { log } from "@/lib/shared/log";
import { errorCode, isRecord } from "@/lib/shared/narrow";

/**
 * Whether payments can be taken now, beside the contract's two components: the chain's RPC answers
 * with the configured chain (every paid request reads it, and a self-hosted facilitator settles
 * through it), and a hosted facilitator answers at all (GET /supported). Either unreachable is
 * `down`: every paid request would answer 503. Health is public, so the probe's outcome is kept
 * for `cacheMs` and a burst of health checks costs one probe.
 */
export type PaymentsProbeSettings = {
  payments: Pick<GatewayConfig["payments"], "rpcUrl" | "chainId" | "facilitator">;
  timeoutMs: number;
  slowMs: number;
};

export function createPaymentsProbe({ cacheMs = 2_000, now = Date.now }: { cacheMs?: number; now?: () => number } = {}) {
  let cached: { at: number; key: string; result: Promise<ComponentHealth> } | null = null;
  return (settings: PaymentsProbeSettings): Promise<ComponentHealth> => {
    const key = JSON.stringify([settings.payments.rpcUrl, settings.payments.chainId, settings.payments.facilitator.kind === "hosted" ? settings.payments.facilitator.url : null]);
    if (cached && cached.key === key && now() - cached.at < cacheMs) return cached.result;
    const result = probePayments(settings);
    cached = { at: now(), key, result };
    return result;
  };
}

async function probePayments({ payments, timeoutMs, slowMs }: PaymentsProbeSettings): Promise<ComponentHealth> {
  const started = performance.now();
  const problems = (
    await Promise.all([
      probeRpc(payments.rpcUrl, payments.chainId, timeoutMs),
      payments.facilitator.kind === "hosted" ? probeFacilitator(payments.facilitator.url, timeoutMs) : Promise.resolve(null),
    ])
  ).filter((p): p is string => p !== null);
  const latencyMs = Math.max(0, Math.round(performance.now() - started));
  if (problems.length > 0) return { status: "down", latencyMs: null, message: problems.join("; ") };
  if (latencyMs > slowMs) return { status: "degraded", latencyMs, message: `slow: answered in ${latencyMs} ms (threshold ${slowMs} ms)` };
  return { status: "healthy", latencyMs, message: null };
}

/** null when the RPC answers eth_chainId with the configured chain, else what is wrong, in words. */
async function probeRpc(rpcUrl: string, chainId: number, timeoutMs: number): Promise<string | null> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok || !isRecord(body) || typeof body.result !== "string") return `the chain's RPC answered ${response.status} without a chain id`;
    const served = Number.parseInt(body.result, 16);
    return served === chainId ? null : `the chain's RPC serves chain ${served}, not ${chainId}`;
  } catch (err) {
    log.warn("health: chain RPC check failed", { error: err });
    return `the chain's RPC could not be reached (${failureKind(err, timeoutMs)})`;
  }
}

/** null when the hosted facilitator answers (any status below 500: it is there), else what is wrong. */
async function probeFacilitator(url: string, timeoutMs: number): Promise<string | null> {
  try {
    const response = await fetch(`${url.replace(/\/$/, "")}/supported`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return response.status < 500 ? null : `the facilitator answered ${response.status}`;
  } catch (err) {
    log.warn("health: facilitator check failed", { error: err });
    return `the facilitator could not be reached (${failureKind(err, timeoutMs)})`;
  }
}

/** The kind of a network failure, without hosts or paths (health is public). */
function failureKind(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `no answer within ${timeoutMs} ms`;
  return (err instanceof Error ? errorCode(err.cause) : undefined) ?? "connection failed";
}
