import path from "node:path";
import { z } from "zod";
// Relative imports only, here and in what this imports: next.config.ts loads this module, and its
// loader does not resolve `@/`.
import { LOCAL_FACILITATOR, LOCAL_NETWORK, LOCAL_PAY_TO, LOCAL_RPC_PORT, LOCAL_USDC_ADDRESS } from "../../shared/payments/local-chain";
import { isCaip2Network, type Caip2Network } from "../../shared/payments/network";
import { EnclaveTrustError, parseEnclaveTrust } from "../../shared/sealing/trust";
import {
  baseUrlSchema,
  booleanSchema,
  type Env,
  hexSchema,
  originSchema,
  parseEnv,
  portSchema,
  positiveIntSchema,
  privateKeySchema,
  sharedEnvShape,
  trustedProxySchema,
} from "../../shared/config/env";

export { ConfigError } from "../../shared/config/env";

/**
 * The gateway's configuration: the only place that reads `process.env`. With no variables at all
 * it describes the embedded local stack (PGlite in `.data`, the agent on port 3001, the local
 * chain); on a hosted deployment (`VERCEL_ENV` = production or preview) the variables that have no
 * safe default must be set, and a missing one fails the build and the start with its name.
 * `.env.example` documents every variable.
 */


const evmAddressSchema = hexSchema(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
const caip2Schema = z.custom<Caip2Network>(isCaip2Network, "must be a CAIP-2 chain id such as eip155:8453");


/** Several facilitator keys, comma-separated: settlement load is spread over their accounts. */
const privateKeyListSchema = z
  .string()
  .transform((value) => value.split(",").map((k) => k.trim()).filter(Boolean))
  .pipe(z.array(privateKeySchema).min(1, "must list at least one key").refine((keys) => new Set(keys.map((k) => k.toLowerCase())).size === keys.length, "must not repeat a key"));

/** Addresses, comma-separated (the signers of offers and receipts this deployment no longer signs with). */
const addressListSchema = z
  .string()
  .transform((value) => value.split(",").map((a) => a.trim()).filter(Boolean))
  .pipe(z.custom<`0x${string}`[]>((addresses) => Array.isArray(addresses) && addresses.every((a) => evmAddressSchema.safeParse(a).success), "must list 0x-prefixed 20-byte hex addresses, comma-separated"));

/** Extra headers for a hosted facilitator (an API key of a provider other than Coinbase), as a JSON object of strings. */
const facilitatorHeadersSchema = z.string().transform((value, ctx) => {
  try {
    const parsed = z.record(z.string().regex(/^[A-Za-z0-9-]+$/, "header names are letters, digits and dashes"), z.string()).parse(JSON.parse(value));
    return parsed;
  } catch {
    ctx.addIssue({ code: "custom", message: 'must be a JSON object of header names to string values, e.g. {"X-API-Key":"…"}' });
    return z.NEVER;
  }
});

/**
 * The USDC of each network the service knows, with its EIP-712 domain (a wrong domain name fails
 * verification: Base Sepolia's token calls itself "USDC"). Other networks need X402_ASSET,
 * X402_ASSET_NAME and X402_ASSET_VERSION. The local chain's token is deployed by the demo at a
 * deterministic address (lib/shared/payments/local-chain.ts); its keys are public, so local only.
 */
const KNOWN_ASSETS: Record<string, { asset: `0x${string}`; name: string; version: string }> = {
  "eip155:8453": { asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", name: "USD Coin", version: "2" },
  "eip155:84532": { asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", name: "USDC", version: "2" },
  [LOCAL_NETWORK]: { asset: LOCAL_USDC_ADDRESS, name: "USD Coin", version: "2" },
};

/** Where a transaction can be seen, by network (`{tx}` is the hash). The local chain has none. */
/** Coinbase's hosted facilitator (CDP), used with CDP_API_KEY_ID and CDP_API_KEY_SECRET. */
const COINBASE_FACILITATOR_URL = "https://api.cdp.coinbase.com/platform/v2/x402";

const KNOWN_EXPLORERS: Record<string, string> = {
  "eip155:8453": "https://basescan.org/tx/{tx}",
  "eip155:84532": "https://sepolia.basescan.org/tx/{tx}",
};

const rawSchema = z
  .object({
    ...sharedEnvShape,
    VERCEL_ENV: z.enum(["production", "preview", "development"]).optional(),
    PORT: portSchema.default(3000),
    PUBLIC_URL: originSchema.optional(),
    UPSTREAM_API_URL: baseUrlSchema.default("http://127.0.0.1:3001"),
    UPSTREAM_STAGING_API_URL: baseUrlSchema.optional(),
    UPSTREAM_TIMEOUT_MS: positiveIntSchema.default(15_000),
    /** How long what the agent says before payment (literature reach, private mode) is reused (lib/gateway/upstream/status-cache.ts). */
    AGENT_STATUS_CACHE_MS: positiveIntSchema.max(600_000, "must be at most 600000").default(2_000),
    HEALTH_TIMEOUT_MS: positiveIntSchema.default(3_000),
    HEALTH_SLOW_MS: positiveIntSchema.default(1_000),
    CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    MAX_BODY_BYTES: positiveIntSchema.default(256 * 1024),
    LONG_POLL_MAX_PER_CLIENT: positiveIntSchema.default(4),
    X402_NETWORK: caip2Schema.default(LOCAL_NETWORK),
    X402_ASSET: evmAddressSchema.optional(),
    X402_ASSET_NAME: z.string().min(1).optional(),
    X402_ASSET_VERSION: z.string().min(1).optional(),
    PAY_TO_ADDRESS: evmAddressSchema.optional(),
    RPC_URL: baseUrlSchema.default(`http://127.0.0.1:${LOCAL_RPC_PORT}`),
    FACILITATOR_URL: baseUrlSchema.optional(),
    FACILITATOR_HEADERS: facilitatorHeadersSchema.optional(),
    FACILITATOR_TIMEOUT_MS: positiveIntSchema.max(300_000, "must be at most 300000").default(30_000),
    CDP_API_KEY_ID: z.string().min(1).optional(),
    CDP_API_KEY_SECRET: z.string().min(1).optional(),
    FACILITATOR_PRIVATE_KEY: privateKeySchema.optional(),
    FACILITATOR_PRIVATE_KEYS: privateKeyListSchema.optional(),
    FACILITATOR_SETTLEMENT_MODE: z.enum(["pipelined", "serial"], { error: "must be pipelined or serial" }).default("pipelined"),
    /** Who may say where a request came from (lib/shared/http/client-address.ts): none, vercel (the default on Vercel) or N proxies. */
    TRUSTED_PROXY: trustedProxySchema({ vercel: true }).optional(),
    VERCEL: z.string().optional(),
    PREVIEW_SHARES_PRODUCTION_LEDGER: booleanSchema.default(false),
    INVALID_PAYMENT_LIMIT: positiveIntSchema.default(20),
    INVALID_PAYMENT_WINDOW_SECONDS: positiveIntSchema.default(600),
    CRON_BATCH_SIZE: positiveIntSchema.default(50),
    /** Deep research is settled after its work: how many unsettled turns one payer, or one client address, may have at once. */
    DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER: positiveIntSchema.max(1000, "must be at most 1000").default(5),
    DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT: positiveIntSchema.max(10_000, "must be at most 10000").default(10),
    /** How far past now + the route's maxTimeoutSeconds an authorization may stay valid (the payer's clock may run ahead). */
    PAYMENT_VALIDITY_LEEWAY_SECONDS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be 0 or more")
      .max(3600, "must be at most 3600")
      .default(300),
    /** Retention of the gateway's tables (docs/data-lifecycle.md), enforced by the cron's sweeps. */
    PAYMENT_ANSWER_RETENTION_SECONDS: positiveIntSchema.default(86_400),
    PAYMENT_UNCHARGED_RETENTION_DAYS: positiveIntSchema.default(30),
    /** A paid request's question and answer, kept for its payer's history (0: none kept); and how long a browser's sign-in lasts. */
    HISTORY_RETENTION_DAYS: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(0, "must be 0 or more").max(3650, "must be at most 3650").default(30),
    SIGN_IN_SESSION_SECONDS: positiveIntSchema.max(2_592_000, "must be at most 2592000 (30 days)").default(86_400),
    SETTLE_CONFIRMATION_TIMEOUT_MS: positiveIntSchema.default(60_000),
    /** The key that signs x402 offers and receipts (lib/gateway/offer-receipt); unset, local only: generated once in DATA_DIR. */
    OFFER_RECEIPT_SIGNING_KEY: privateKeySchema.optional(),
    /** Earlier signing keys' addresses, still published so receipts they signed keep verifying. */
    OFFER_RECEIPT_PREVIOUS_SIGNERS: addressListSchema.optional(),
    LOCAL_TEST_WALLET_PRIVATE_KEY: privateKeySchema.optional(),
    WALLETCONNECT_PROJECT_ID: z.string().regex(/^[0-9a-f]{32}$/, "must be a WalletConnect (Reown) project id: 32 hex digits").optional(),
    EXPLORER_TX_URL: z.url().optional(),
    // The enclave the web app trusts, written into its bundles at build (next.config.ts `env`;
    // lib/web/enclave-trust.ts reads them there); validated here so a bad value fails the build, named.
    NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO: z.string().optional(),
    NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    try {
      parseEnclaveTrust(
        { repo: env.NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO, measurement: env.NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT },
        { repo: "NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO", measurement: "NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT" },
      );
    } catch (err) {
      if (!(err instanceof EnclaveTrustError)) throw err;
      ctx.addIssue({ code: "custom", path: [err.setting], message: err.reason });
    }
    // A malformed network is already reported by its own field; the checks below build on it.
    if (!caip2Schema.safeParse(env.X402_NETWORK).success) return;
    const known = KNOWN_ASSETS[env.X402_NETWORK];
    if (!known) {
      for (const key of ["X402_ASSET", "X402_ASSET_NAME", "X402_ASSET_VERSION"] as const) {
        if (env[key] === undefined) {
          ctx.addIssue({ code: "custom", path: [key], message: `is required for network ${env.X402_NETWORK}` });
        }
      }
    }
    if (!env.X402_NETWORK.startsWith("eip155:")) {
      ctx.addIssue({ code: "custom", path: ["X402_NETWORK"], message: "must be an EVM network (eip155:<chain id>)" });
    }
    if (env.X402_NETWORK !== LOCAL_NETWORK && env.LOCAL_TEST_WALLET_PRIVATE_KEY !== undefined) {
      // The web page hands this key to every visitor: only ever a local test key.
      ctx.addIssue({ code: "custom", path: ["LOCAL_TEST_WALLET_PRIVATE_KEY"], message: `is for the local chain only, not ${env.X402_NETWORK}` });
    }
    if (env.X402_NETWORK !== LOCAL_NETWORK) {
      // The local defaults are Hardhat's public keys: on a real network they would send the money to,
      // and pay gas from, accounts anyone can spend.
      if (env.PAY_TO_ADDRESS === undefined) {
        ctx.addIssue({ code: "custom", path: ["PAY_TO_ADDRESS"], message: `is required for network ${env.X402_NETWORK}` });
      }
      if (env.OFFER_RECEIPT_SIGNING_KEY === undefined) {
        // A key generated per machine would sign receipts no other instance publishes.
        ctx.addIssue({ code: "custom", path: ["OFFER_RECEIPT_SIGNING_KEY"], message: `is required for network ${env.X402_NETWORK}` });
      }
      if (env.FACILITATOR_URL === undefined && env.CDP_API_KEY_ID === undefined && env.FACILITATOR_PRIVATE_KEY === undefined && env.FACILITATOR_PRIVATE_KEYS === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["FACILITATOR_URL"],
          message: `(or CDP_API_KEY_ID and CDP_API_KEY_SECRET, or FACILITATOR_PRIVATE_KEYS) is required for network ${env.X402_NETWORK}`,
        });
      }
    }
    if ((env.CDP_API_KEY_ID === undefined) !== (env.CDP_API_KEY_SECRET === undefined)) {
      const missing = env.CDP_API_KEY_ID === undefined ? "CDP_API_KEY_ID" : "CDP_API_KEY_SECRET";
      ctx.addIssue({ code: "custom", path: [missing], message: "is required with the other CDP credential" });
    }
    const facilitatorKeys = [...(env.FACILITATOR_PRIVATE_KEYS ?? []), ...(env.FACILITATOR_PRIVATE_KEY ? [env.FACILITATOR_PRIVATE_KEY] : [])];
    if (env.OFFER_RECEIPT_SIGNING_KEY && facilitatorKeys.some((k) => k.toLowerCase() === env.OFFER_RECEIPT_SIGNING_KEY!.toLowerCase())) {
      // The facilitator's accounts hold gas money: a signing key is a different key.
      ctx.addIssue({ code: "custom", path: ["OFFER_RECEIPT_SIGNING_KEY"], message: "must not be one of the facilitator's keys" });
    }
    if (env.FACILITATOR_PRIVATE_KEY !== undefined && env.FACILITATOR_PRIVATE_KEYS !== undefined) {
      ctx.addIssue({ code: "custom", path: ["FACILITATOR_PRIVATE_KEYS"], message: "replaces FACILITATOR_PRIVATE_KEY: set one of them" });
    }
    const bounds = [env.DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER, env.DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT];
    // Either one already refused on its own is reported by its field alone.
    if (bounds.every((n) => Number.isInteger(n) && n >= 1) && env.DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT < env.DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER) {
      // A payer usually asks from one address: a lower client bound would silently replace the payer's.
      ctx.addIssue({ code: "custom", path: ["DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT"], message: "must be at least DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER" });
    }
    if (env.VERCEL_ENV === "preview" && env.X402_NETWORK === "eip155:8453" && !env.PREVIEW_SHARES_PRODUCTION_LEDGER) {
      // With a database of its own, a preview would accept an authorization production already
      // accepted (the ledger's uniqueness is per database) and serve it a second time.
      ctx.addIssue({
        code: "custom",
        path: ["X402_NETWORK"],
        message:
          "a preview deployment takes Base mainnet payments only on production's ledger: point POSTGRES_URL at production's database and set PREVIEW_SHARES_PRODUCTION_LEDGER=true, or use eip155:84532 (Base Sepolia) on previews",
      });
    }
    const hosted = env.VERCEL_ENV === "production" || env.VERCEL_ENV === "preview";
    if (!hosted) return;
    if (env.X402_NETWORK === LOCAL_NETWORK) {
      ctx.addIssue({
        code: "custom",
        path: ["X402_NETWORK"],
        message: `${LOCAL_NETWORK} is the local development chain; set eip155:8453 (Base) or eip155:84532 (Base Sepolia)`,
      });
    }

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
  const known = KNOWN_ASSETS[raw.X402_NETWORK];
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
      /**
       * What the agent says before payment (can a literature source answer, is private mode ready)
       * is asked once per this window, shared by every gateway process: an unpaid request costs
       * the agent nothing.
       */
      statusCacheMs: raw.AGENT_STATUS_CACHE_MS,
    },
    health: { timeoutMs: raw.HEALTH_TIMEOUT_MS, slowMs: raw.HEALTH_SLOW_MS },
    cronSecret: raw.CRON_SECRET,
    /** How long the cron's sweeps keep each kind of row once nothing needs it (lib/gateway/lifecycle/sweep.ts). */
    retention: {
      paymentAnswerSeconds: raw.PAYMENT_ANSWER_RETENTION_SECONDS,
      unchargedPaymentSeconds: raw.PAYMENT_UNCHARGED_RETENTION_DAYS * 86_400,
      deepResearchSeconds: raw.DEEP_RESEARCH_RETENTION_DAYS * 86_400,
      chatConversationSeconds: raw.CHAT_CONVERSATION_RETENTION_SECONDS,
      historySeconds: raw.HISTORY_RETENTION_DAYS * 86_400,
    },
    /** Sign-in with the wallet that paid (x402 sign-in-with-x, lib/gateway/history): how long a browser's session lasts. */
    signIn: { sessionSeconds: raw.SIGN_IN_SESSION_SECONDS },
    maxBodyBytes: raw.MAX_BODY_BYTES,
    /** Long-polls (GET /api/literature/encrypted/status?timeout) one client address may hold open at once. */
    longPollsPerClient: raw.LONG_POLL_MAX_PER_CLIENT,
    payments: {
      network: raw.X402_NETWORK,
      chainId: Number(raw.X402_NETWORK.split(":")[1]),
      // superRefine guarantees these are set when the network has no known asset.
      asset: guaranteed(raw.X402_ASSET ?? known?.asset, "X402_ASSET"),
      assetName: guaranteed(raw.X402_ASSET_NAME ?? known?.name, "X402_ASSET_NAME"),
      assetVersion: guaranteed(raw.X402_ASSET_VERSION ?? known?.version, "X402_ASSET_VERSION"),
      payTo: raw.PAY_TO_ADDRESS ?? LOCAL_PAY_TO,
      rpcUrl: raw.RPC_URL,
      facilitator:
        raw.FACILITATOR_URL || raw.CDP_API_KEY_ID
          ? ({
              kind: "hosted",
              url: raw.FACILITATOR_URL ?? COINBASE_FACILITATOR_URL,
              headers: raw.FACILITATOR_HEADERS ?? {},
              cdp: raw.CDP_API_KEY_ID && raw.CDP_API_KEY_SECRET ? { keyId: raw.CDP_API_KEY_ID, keySecret: raw.CDP_API_KEY_SECRET } : null,
            } as const)
          : ({
              kind: "self-hosted",
              privateKeys: raw.FACILITATOR_PRIVATE_KEYS ?? [raw.FACILITATOR_PRIVATE_KEY ?? LOCAL_FACILITATOR.privateKey],
            } as const),
      /** How long a hosted facilitator may take to answer verify or settle. */
      facilitatorTimeoutMs: raw.FACILITATOR_TIMEOUT_MS,
      /** `serial`: one settlement per facilitator account at a time (the benchmark's reference). */
      settlementMode: raw.FACILITATOR_SETTLEMENT_MODE,
      invalidAttempts: { limit: raw.INVALID_PAYMENT_LIMIT, windowSeconds: raw.INVALID_PAYMENT_WINDOW_SECONDS },
      /** Where a request's client address is read from (lib/shared/http/client-address.ts). */
      trustedProxy: raw.TRUSTED_PROXY ?? (raw.VERCEL === "1" ? ({ kind: "vercel" } as const) : ({ kind: "none" } as const)),
      cronBatchSize: raw.CRON_BATCH_SIZE,
      /** Deep research's unsettled turns at once, per payer address and per client address (lib/gateway/payments/deferred-holds.ts). */
      deferredTurns: { maxPerPayer: raw.DEEP_RESEARCH_MAX_UNSETTLED_PER_PAYER, maxPerClient: raw.DEEP_RESEARCH_MAX_UNSETTLED_PER_CLIENT },
      /** An authorization may be valid at most the route's maxTimeoutSeconds plus this from now. */
      validityLeewaySeconds: raw.PAYMENT_VALIDITY_LEEWAY_SECONDS,
      /** How long a self-hosted settlement waits for its receipt before leaving it to the cron. */
      confirmationTimeoutMs: raw.SETTLE_CONFIRMATION_TIMEOUT_MS,
    },
    /**
     * x402 offer-and-receipt (lib/gateway/offer-receipt): the key that signs offers and receipts, or, on
     * the local chain only, the file where one is generated once (`signingKey` null); and the
     * addresses of earlier keys, still published for the receipts they signed.
     */
    offerReceipt: {
      signingKey: raw.OFFER_RECEIPT_SIGNING_KEY ?? null,
      keyFile: path.resolve(raw.DATA_DIR, "offer-receipt-signing.key"),
      previousSigners: raw.OFFER_RECEIPT_PREVIOUS_SIGNERS ?? [],
    },
    /**
     * What the build writes into the web app's bundles (next.config.ts `env`), for the server's
     * rendering and the browser alike: the enclave the page trusts (lib/web/enclave-trust.ts),
     * null when the build trusts none. A running server's environment cannot change it.
     */
    webBuild: {
      trustedEnclave: parseEnclaveTrust(
        { repo: raw.NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO, measurement: raw.NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT },
        { repo: "NEXT_PUBLIC_TRUSTED_ENCLAVE_REPO", measurement: "NEXT_PUBLIC_TRUSTED_ENCLAVE_MEASUREMENT" },
      ),
    },
    web: {
      /** Local mode only: a funded local test key the page offers as a built-in wallet (set by the demo). */
      localTestWalletKey: raw.X402_NETWORK === LOCAL_NETWORK ? (raw.LOCAL_TEST_WALLET_PRIVATE_KEY ?? null) : null,
      /** Offers WalletConnect beside injected wallets when set (a Reown Cloud project id). */
      walletConnectProjectId: raw.WALLETCONNECT_PROJECT_ID ?? null,
      /** Transaction link template, `{tx}` replaced by the hash; default by network, none locally. */
      explorerTxUrl: raw.EXPLORER_TX_URL ?? KNOWN_EXPLORERS[raw.X402_NETWORK] ?? null,
    },
  };
}

/** A value the schema's superRefine already required; the throw marks the guarantee for the compiler. */
function guaranteed<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`${name} is unset although the configuration was validated`);
  return value;
}

declare global {
  // Cached on globalThis so hot reload keeps one validated configuration (a `var` is how a global is declared).
  var gatewayConfig: GatewayConfig | undefined;
}
const globalForConfig = globalThis;

/** The process's configuration, validated once. Throws ConfigError on a bad environment. */
export function getConfig(): GatewayConfig {
  globalForConfig.gatewayConfig ??= loadConfig(process.env);
  return globalForConfig.gatewayConfig;
}

/** Forgets the cached configuration; tests use it after changing `process.env`. */
export function resetConfigForTests(): void {
  delete globalForConfig.gatewayConfig;
}
