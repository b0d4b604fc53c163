import type pg from "pg";
import { resetConfigForTests } from "@/lib/gateway/config";

const GATEWAY_VARIABLES = [
  "POSTGRES_URL",
  "DATABASE_URL",
  "UPSTREAM_API_URL",
  "CRON_SECRET",
  "HEALTH_SLOW_MS",
  "HEALTH_TIMEOUT_MS",
  "PUBLIC_URL",
  "AGENT_SERVICE_KEY",
  "UPSTREAM_TIMEOUT_MS",
  "AGENT_STATUS_CACHE_MS",
  "RPC_URL",
  "X402_NETWORK",
  "X402_ASSET",
  "PAY_TO_ADDRESS",
  "FACILITATOR_PRIVATE_KEY",
  "FACILITATOR_URL",
  "INVALID_PAYMENT_LIMIT",
  "INVALID_PAYMENT_WINDOW_SECONDS",
  "CRON_BATCH_SIZE",
  "SETTLE_CONFIRMATION_TIMEOUT_MS",
  "FACILITATOR_TIMEOUT_MS",
  "FACILITATOR_HEADERS",
  "FACILITATOR_PRIVATE_KEYS",
  "CDP_API_KEY_ID",
  "CDP_API_KEY_SECRET",
  "TRUSTED_PROXY",
  "LONG_POLL_MAX_PER_CLIENT",
  "DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER",
  "DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT",
  "PAYMENT_VALIDITY_LEEWAY_SECONDS",
  "OFFER_RECEIPT_SIGNING_KEY",
  "OFFER_RECEIPT_PREVIOUS_SIGNERS",
] as const;

/**
 * Points the gateway's process-wide singletons (config, database pool, upstream client) at the
 * given environment, so route handlers can be called directly. Returns a function that closes
 * the pool and restores the previous environment.
 */
export async function configureGateway(env: Partial<Record<(typeof GATEWAY_VARIABLES)[number], string>>): Promise<() => Promise<void>> {
  const previous = Object.fromEntries(GATEWAY_VARIABLES.map((k) => [k, process.env[k]]));
  for (const key of GATEWAY_VARIABLES) {
    if (env[key] === undefined) delete process.env[key];
    else process.env[key] = env[key];
  }
  await resetSingletons();
  return async () => {
    for (const key of GATEWAY_VARIABLES) {
      if (previous[key] === undefined) delete process.env[key];
      else process.env[key] = previous[key];
    }
    await resetSingletons();
  };
}

async function resetSingletons(): Promise<void> {
  const g = globalThis as unknown as { gatewayDb?: Promise<pg.Pool>; agentApi?: unknown; agentStatus?: unknown; paymentsContext?: unknown };
  const db = g.gatewayDb;
  delete g.gatewayDb;
  delete g.agentApi;
  delete g.agentStatus;
  delete g.paymentsContext;
  resetConfigForTests();
  if (db) await db.then((p) => p.end()).catch(() => undefined);
}

/** Points the gateway at a test agent and its database, on the test chain, paying `payTo`. Returns the restore function. */
export async function configureGatewayFor({ agentUrl, databaseUrl, rpcUrl, payTo }: { agentUrl: string; databaseUrl: string; rpcUrl: string; payTo: string }) {
  return configureGateway({
    POSTGRES_URL: databaseUrl,
    UPSTREAM_API_URL: agentUrl,
    AGENT_SERVICE_KEY: "agent-service-key-for-tests-0123",
    PUBLIC_URL: "https://gateway.test",
    RPC_URL: rpcUrl,
    PAY_TO_ADDRESS: payTo,
  });
}
