import type pg from "pg";
import packageJson from "@/package.json";
import type { GatewayConfig } from "@/lib/gateway/config";
import {
  literatureReachSchema,
  privateModeHealthSchema,
  type ComponentHealth,
  type ConversationStats,
  type HealthResponse,
  type HealthStatus,
  type LiteratureReach,
  type PaidRequests,
  type PrivateModeHealth,
} from "@/lib/shared/contracts";
import { countConversationsByStatus } from "@/lib/shared/db/queries/conversations";
import { createPaidRequestCounts } from "@/lib/shared/db/queries/paid-requests";
import { parseJsonObject } from "@/lib/shared/http";
import { log } from "@/lib/shared/log";
import { pricingByRoute } from "@/lib/shared/operations";
import type { UpstreamClient } from "@/lib/gateway/upstream/client";
import { createPaymentsProbe } from "@/lib/gateway/health/payments";

/** One probe of the payment path per couple of seconds, however many health checks arrive. */
const probePayments = createPaymentsProbe();
/** One count of the settled payments per few seconds, likewise. */
const countPaidRequests = createPaidRequestCounts();

export type HealthDeps = {
  config: Pick<GatewayConfig, "health" | "payments" | "upstream">;
  getDb: () => Promise<pg.Pool>;
  upstream: UpstreamClient;
};

/**
 * Checks the database, the upstream agent and the payment path (the chain's RPC, a hosted
 * facilitator; lib/gateway/health/payments.ts) for real and reports section 2.12. A component is
 * `down` when it cannot be reached, errs, answers an error status or reports itself down (the
 * agent whose database is down), `degraded` when it answered slowly or reported itself degraded
 * (a literature source failing); the whole report is as bad as its worst component, and the
 * literature sources' states are reported beside it whatever it is.
 */
export async function checkHealth(deps: HealthDeps): Promise<HealthResponse> {
  const [database, { component: upstreamApi, privateMode, literature }, payments] = await Promise.all([
    checkDatabase(deps),
    checkUpstream(deps),
    probePayments({ payments: deps.config.payments, timeoutMs: deps.config.health.timeoutMs, slowMs: deps.config.health.slowMs }),
  ]);
  return {
    status: worst([database.component.status, upstreamApi.status, payments.status]),
    timestamp: new Date().toISOString(),
    uptime: Math.floor(process.uptime()),
    version: packageJson.version,
    components: { upstreamApi, database: database.component, payments },
    config: {
      paymentAddress: deps.config.payments.payTo,
      upstreamApiBaseUrl: deps.upstream.baseUrl,
      network: deps.config.payments.network,
      pricing: pricingByRoute(),
    },
    conversations: database.conversations,
    paidRequests: database.paidRequests,
    privateMode,
    literature,
  };
}

async function checkDatabase(deps: HealthDeps): Promise<{ component: ComponentHealth; conversations: ConversationStats | null; paidRequests: PaidRequests | null }> {
  const { timeoutMs, slowMs } = deps.config.health;
  const started = performance.now();
  try {
    const { conversations, paidRequests } = await withTimeout(
      (async () => {
        const db = await deps.getDb();
        const [conversations, paidRequests] = await Promise.all([countConversationsByStatus({ db }), countPaidRequests({ db })]);
        return { conversations, paidRequests };
      })(),
      timeoutMs,
      `no answer within ${timeoutMs} ms`,
    );
    const latencyMs = elapsed(started);
    const slow = latencyMs > slowMs;
    return {
      component: {
        status: slow ? "degraded" : "healthy",
        latencyMs,
        message: slow ? `slow: answered in ${latencyMs} ms (threshold ${slowMs} ms)` : null,
      },
      conversations,
      paidRequests,
    };
  } catch (err) {
    // Health is public: say what kind of failure it is, and keep hosts, users and paths for the log.
    log.warn("health: database check failed", { error: err });
    return {
      component: { status: "down", latencyMs: null, message: `unreachable: ${databaseErrorKind(err)}` },
      conversations: null,
      paidRequests: null,
    };
  }
}

type UpstreamCheck = { component: ComponentHealth; privateMode: PrivateModeHealth | null; literature: LiteratureReach | null };

async function checkUpstream(deps: HealthDeps): Promise<UpstreamCheck> {
  const { timeoutMs, slowMs } = deps.config.health;
  const started = performance.now();
  let response;
  try {
    // One attempt: health reports what the agent does now, it does not paper over it with retries.
    response = await deps.upstream.send("/api/health", { timeoutMs, retries: 0 });
  } catch (err) {
    return { component: { status: "down", latencyMs: null, message: errorText(err) }, privateMode: null, literature: null };
  }
  const latencyMs = elapsed(started);
  const reported = upstreamReport(response.body);
  const { privateMode, literature } = reported;
  // An agent that answers but cannot work (an error status, or its own report of being down, as
  // when its database is) is down for the monitors: they expect 503 when a component is.
  if (response.status < 200 || response.status >= 300) {
    return {
      component: { status: "down", latencyMs, message: `answered ${response.status}${reported.status ? ` and reports itself ${reported.status}` : ""}${downDetail(reported)}` },
      privateMode,
      literature,
    };
  }
  if (reported.status === "down") {
    return { component: { status: "down", latencyMs, message: `reports itself down${downDetail(reported)}` }, privateMode, literature };
  }
  if (reported.status && reported.status !== "healthy") {
    return { component: { status: "degraded", latencyMs, message: `reports itself ${reported.status}${literature?.message ? `: ${literature.message}` : ""}` }, privateMode, literature };
  }
  if (latencyMs > slowMs) {
    return { component: { status: "degraded", latencyMs, message: `slow: answered in ${latencyMs} ms (threshold ${slowMs} ms)` }, privateMode, literature };
  }
  return { component: { status: "healthy", latencyMs, message: null }, privateMode, literature };
}

type UpstreamReport = { status: string | null; databaseDown: boolean; privateMode: PrivateModeHealth | null; literature: LiteratureReach | null };

/** The agent's own status, its database's, and its private-mode and literature-source reports, from its health body (whatever of it is readable). */
function upstreamReport(body: Uint8Array): UpstreamReport {
  const value = parseJsonObject(body);
  const privateMode = privateModeHealthSchema.safeParse(value?.privateMode);
  const literature = literatureReachSchema.safeParse(value?.literature);
  const components = value?.components;
  const database = typeof components === "object" && components !== null && "database" in components ? components.database : undefined;
  return {
    status: typeof value?.status === "string" ? value.status : null,
    databaseDown: typeof database === "object" && database !== null && "status" in database && database.status === "down",
    privateMode: privateMode.success ? privateMode.data : null,
    literature: literature.success ? literature.data : null,
  };
}

/** Which of the agent's own components it says is down, in words (only the database reports so today). */
function downDetail(reported: UpstreamReport): string {
  return reported.databaseDown ? ": its database is down" : "";
}

const rank: Record<HealthStatus, number> = { healthy: 0, degraded: 1, down: 2 };

function worst(statuses: HealthStatus[]): HealthStatus {
  return statuses.reduce((a, b) => (rank[b] > rank[a] ? b : a), "healthy");
}

function elapsed(started: number): number {
  return Math.max(0, Math.round(performance.now() - started));
}

function databaseErrorKind(err: unknown): string {
  if (err instanceof Error) {
    const code = "code" in err ? err.code : undefined;
    if (typeof code === "string") return code;
    if (err.message.startsWith("no answer within")) return err.message;
    if (err.name !== "Error") return err.name;
  }
  return "connection failed";
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    return "detail" in err && typeof err.detail === "string" ? err.detail : err.message;
  }
  return String(err);
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Wraps a check so that concurrent callers share one run: a burst of health requests costs one
 * database query and one upstream call, and every caller still gets a fresh result.
 */
export function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= run().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
