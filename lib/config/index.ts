import path from "node:path";
import { z } from "zod";
import {
  baseUrlSchema,
  type Env,
  originSchema,
  parseEnv,
  portSchema,
  positiveIntSchema,
  postgresUrlSchema,
} from "./env";

export { ConfigError } from "./env";

/**
 * The gateway's configuration: the only place that reads `process.env`. With no variables at all
 * it describes the embedded local stack (PGlite in `.data`, the agent on port 3001, the local
 * chain); on a hosted deployment (`VERCEL_ENV` = production or preview) the variables that have no
 * safe default must be set, and a missing one fails the build and the start with its name.
 * `.env.example` documents every variable.
 */

const evmAddressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
const caip2Schema = z.string().regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, "must be a CAIP-2 chain id such as eip155:8453");

/**
 * Hardhat's second well-known development account: the local chain's payee. It is a public test
 * key, which is why it is only a default while no hosted deployment is detected.
 */
const LOCAL_PAY_TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const rawSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    VERCEL_ENV: z.enum(["production", "preview", "development"]).optional(),
    PORT: portSchema.default(3000),
    PUBLIC_URL: originSchema.optional(),
    POSTGRES_URL: postgresUrlSchema.optional(),
    DATABASE_URL: postgresUrlSchema.optional(),
    DATA_DIR: z.string().default(".data"),
    EMBEDDED_DB_PORT: portSchema.default(54329),
    DB_POOL_MAX: positiveIntSchema.default(10),
    UPSTREAM_API_URL: baseUrlSchema.default("http://127.0.0.1:3001"),
    UPSTREAM_STAGING_API_URL: baseUrlSchema.optional(),
    AGENT_SERVICE_KEY: z.string().min(16, "must be at least 16 characters").optional(),
    UPSTREAM_TIMEOUT_MS: positiveIntSchema.default(15_000),
    HEALTH_TIMEOUT_MS: positiveIntSchema.default(3_000),
    HEALTH_SLOW_MS: positiveIntSchema.default(1_000),
    CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    MAX_BODY_BYTES: positiveIntSchema.default(256 * 1024),
    X402_NETWORK: caip2Schema.default("eip155:31337"),
    PAY_TO_ADDRESS: evmAddressSchema.optional(),
  })
  .superRefine((env, ctx) => {
    const hosted = env.VERCEL_ENV === "production" || env.VERCEL_ENV === "preview";
    if (!hosted) return;
    const required = ["PUBLIC_URL", "CRON_SECRET", "PAY_TO_ADDRESS", "AGENT_SERVICE_KEY"] as const;
    for (const key of required) {
      if (env[key] === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `is required when VERCEL_ENV=${env.VERCEL_ENV}` });
      }
    }
    if (env.POSTGRES_URL === undefined && env.DATABASE_URL === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["POSTGRES_URL"],
        message: `is required when VERCEL_ENV=${env.VERCEL_ENV} (the embedded database is for local use only)`,
      });
    }
  });

export type GatewayConfig = ReturnType<typeof loadConfig>;

/** Reads and validates `env`. Throws ConfigError naming each bad variable. */
export function loadConfig(env: Env) {
  const raw = parseEnv(rawSchema, env);
  const databaseUrl = raw.POSTGRES_URL ?? raw.DATABASE_URL;
  const isPreview = raw.VERCEL_ENV === "preview";
  return {
    nodeEnv: raw.NODE_ENV,
    deployment: raw.VERCEL_ENV ?? "local",
    port: raw.PORT,
    /** Origin of every URL the service hands out; never taken from the Host header. */
    publicUrl: raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`,
    database: databaseUrl
      ? ({ kind: "url", url: databaseUrl, poolMax: raw.DB_POOL_MAX } as const)
      : ({
          kind: "embedded",
          dataDir: path.resolve(raw.DATA_DIR),
          port: raw.EMBEDDED_DB_PORT,
          // PGlite serves one query at a time; more connections only queue inside the socket server.
          poolMax: Math.min(raw.DB_POOL_MAX, 4),
        } as const),
    upstream: {
      /** Preview deployments talk to the staging agent, as the contract's section 1 says. */
      baseUrl: isPreview ? (raw.UPSTREAM_STAGING_API_URL ?? raw.UPSTREAM_API_URL) : raw.UPSTREAM_API_URL,
      serviceKey: raw.AGENT_SERVICE_KEY,
      timeoutMs: raw.UPSTREAM_TIMEOUT_MS,
    },
    health: { timeoutMs: raw.HEALTH_TIMEOUT_MS, slowMs: raw.HEALTH_SLOW_MS },
    cronSecret: raw.CRON_SECRET,
    maxBodyBytes: raw.MAX_BODY_BYTES,
    payments: {
      network: raw.X402_NETWORK,
      payTo: raw.PAY_TO_ADDRESS ?? LOCAL_PAY_TO,
    },
  };
}

const globalForConfig = globalThis as unknown as { gatewayConfig?: GatewayConfig };

/** The process's configuration, validated once. Throws ConfigError on a bad environment. */
export function getConfig(): GatewayConfig {
  globalForConfig.gatewayConfig ??= loadConfig(process.env);
  return globalForConfig.gatewayConfig;
}

/** Forgets the cached configuration; tests use it after changing `process.env`. */
export function resetConfigForTests(): void {
  delete globalForConfig.gatewayConfig;
}
