import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tinfoilAttestationSchema, type TinfoilAttestation } from "../lib/shared/contracts/sealing";
import { z } from "zod";
import { BIORXIV_BASE_URL } from "./literature/sources/biorxiv";
import { CLINICALTRIALS_BASE_URL } from "./literature/sources/clinicaltrials";
import { CROSSREF_BASE_URL } from "./literature/sources/crossref";
import { EUROPEPMC_BASE_URL } from "./literature/sources/europepmc";
import { OPENALEX_BASE_URL } from "./literature/sources/openalex";
import { PUBMED_BASE_URL } from "./literature/sources/pubmed";
import { baseUrlSchema, booleanSchema, type Env, parseEnv, portSchema, positiveIntSchema, sharedEnvShape, trustedProxySchema } from "../lib/shared/config/env";
import { errorMessage } from "../lib/shared/narrow";

/**
 * The agent's configuration: the only agent module that reads the environment. With nothing set it
 * serves on 3001 and shares the embedded database of DATA_DIR; every literature source's base URL is
 * configurable so tests and benchmarks can point it at a local replay server. `.env.example` lists
 * every variable.
 */

const sourceDefaults = {
  pubmed: PUBMED_BASE_URL,
  europepmc: EUROPEPMC_BASE_URL,
  clinicaltrials: CLINICALTRIALS_BASE_URL,
  biorxiv: BIORXIV_BASE_URL,
  crossref: CROSSREF_BASE_URL,
  openalex: OPENALEX_BASE_URL,
} as const;

const sourceList = z
  .string()
  .transform((value) => value.split(",").map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.enum(["pubmed", "europepmc", "clinicaltrials", "biorxiv", "crossref", "openalex", "local"])).min(1, "must name at least one source"));

const rawSchema = z
  .object({
    ...sharedEnvShape,
    AGENT_PORT: portSchema.default(3001),
    AGENT_HOST: z.string().default("127.0.0.1"),
    AGENT_PUBLIC_URL: baseUrlSchema.optional(),
    LIBRARY_RECORD_PAGE_URL: baseUrlSchema.optional(),
    /** Jobs one process runs at once (they wait on the literature sources, not the CPU). */
    AGENT_WORKERS: positiveIntSchema.default(16),
    JOB_LEASE_SECONDS: positiveIntSchema.default(60),
    JOB_POLL_MS: positiveIntSchema.default(250),
    JOB_WAIT_RECHECK_MS: positiveIntSchema.default(5_000),
    LITERATURE_SOURCES: sourceList.optional(),
    PUBMED_BASE_URL: baseUrlSchema.default(sourceDefaults.pubmed),
    EUROPEPMC_BASE_URL: baseUrlSchema.default(sourceDefaults.europepmc),
    CTGOV_BASE_URL: baseUrlSchema.default(sourceDefaults.clinicaltrials),
    BIORXIV_BASE_URL: baseUrlSchema.default(sourceDefaults.biorxiv),
    CROSSREF_BASE_URL: baseUrlSchema.default(sourceDefaults.crossref),
    OPENALEX_BASE_URL: baseUrlSchema.default(sourceDefaults.openalex),
    NCBI_API_KEY: z.string().min(1).optional(),
    OPENALEX_API_KEY: z.string().min(1).optional(),
    CONTACT_EMAIL: z.email("must be an email address").default("longevity-research-agent@example.invalid"),
    SOURCE_TIMEOUT_MS: positiveIntSchema.default(8_000),
    SOURCE_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    /** Multiplies every source's own rate limit (benchmarks against a replay server raise it). */
    SOURCE_RATE_MULTIPLIER: z.coerce.number().positive().default(1),
    /** Consecutive failed calls that open a source's circuit (agent/literature/source-health.ts). */
    SOURCE_CIRCUIT_FAILURES: positiveIntSchema.default(3),
    /** How long an open circuit skips its source before one probe tries it again. */
    SOURCE_CIRCUIT_COOLDOWN_MS: positiveIntSchema.default(30_000),
    /** How long a paid start waits for its search to reach a source before answering 202 (0: not at all). */
    LITERATURE_REACH_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
    LOG_QUESTIONS: booleanSchema.default(false),
    AGENT_VARIANT: z.enum(["a", "b"]).default("a"),
    CHAT_RETENTION_SECONDS: positiveIntSchema.default(3600),
    /** Retention of the rest of the agent's tables (docs/data-lifecycle.md). */
    LITERATURE_RETENTION_SECONDS: positiveIntSchema.default(86_400),
    PRIVATE_CONVERSATION_RETENTION_DAYS: positiveIntSchema.default(90),
    PREMIUM_KEY_RETENTION_DAYS: positiveIntSchema.default(30),
    /** Unused premium challenges one client address, and everyone together, may hold at once. */
    PREMIUM_CHALLENGES_PER_CLIENT: positiveIntSchema.default(5),
    PREMIUM_CHALLENGES_MAX: positiveIntSchema.default(1000),
    CHAT_RATE_LIMIT: positiveIntSchema.default(20),
    PREMIUM_CHAT_RATE_LIMIT: positiveIntSchema.default(600),
    CHAT_RATE_WINDOW_SECONDS: positiveIntSchema.default(600),
    /** Who may say where a public caller came from, as the gateway's TRUSTED_PROXY: none, or N proxies that append to X-Forwarded-For. */
    AGENT_TRUSTED_PROXY: trustedProxySchema({ vercel: false }).default({ kind: "none" }),
    /** Its predecessor, whose `true` trusted the first X-Forwarded-For entry: the one a client writes itself. */
    AGENT_TRUST_PROXY: booleanSchema.optional(),
    SERVICE_TOKEN_ADDRESS: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed address").pipe(z.templateLiteral(["0x", z.string()])).optional(),
    SERVICE_TOKEN_RPC_URL: baseUrlSchema.optional(),
    SERVICE_TOKEN_CHAIN_ID: positiveIntSchema.default(31337),
    SERVICE_TOKEN_MIN_BALANCE: z.string().regex(/^\d+$/, "must be an integer amount in the token's base units").default("1000000000000000000000"),
    /** The widest block range one eth_getLogs may ask the token's RPC for (providers cap it). */
    SERVICE_TOKEN_LOG_BLOCK_RANGE: positiveIntSchema.default(10_000),
    PREMIUM_KEY_TTL_DAYS: positiveIntSchema.default(30),
    PREMIUM_HOLDING_RECHECK_SECONDS: positiveIntSchema.default(60),
    PREMIUM_DEEP_RESEARCH_RATE_LIMIT: positiveIntSchema.default(10),
    PREMIUM_PRIVATE_RATE_LIMIT: positiveIntSchema.default(60),
    PREMIUM_RATE_WINDOW_SECONDS: positiveIntSchema.default(3600),
    LLM_BASE_URL: baseUrlSchema.optional(),
    LLM_API_KEY: z.string().min(1).optional(),
    LLM_MODEL: z.string().min(1).default("gpt-4o-mini"),
    LLM_TIMEOUT_MS: positiveIntSchema.default(30_000),
    ENCLAVE_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "must be 32 bytes in standard base64").optional(),
    ENCLAVE_KEK_FILE: z.string().optional(),
    ENCLAVE_ATTESTATION_BUNDLE_FILE: z.string().optional(),
    ENCLAVE_ATTESTATION_CONFIG_REPO: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name").optional(),
    PRIVATE_LITERATURE_ENABLED: booleanSchema.default(true),
    PRIVATE_LLM_BASE_URL: baseUrlSchema.optional(),
    PRIVATE_LLM_API_KEY: z.string().min(1).optional(),
    PRIVATE_LLM_MODEL: z.string().min(1).default("private-model"),
    PRIVATE_CHAT_WAIT_MS: z.coerce.number().int().min(0).default(20_000),
    PRIVATE_RESULT_RETENTION_SECONDS: positiveIntSchema.default(3600),
    /** One search per evidence axis: six covers every axis (agent/deep-research/axes.ts). */
    DEEP_RESEARCH_ITERATIONS: positiveIntSchema.default(6),
    DEEP_RESEARCH_BUDGET_SECONDS: positiveIntSchema.default(1200),
  })
  .superRefine((env, ctx) => {
    if (env.AGENT_TRUST_PROXY) {
      ctx.addIssue({
        code: "custom",
        path: ["AGENT_TRUST_PROXY"],
        message: "is replaced by AGENT_TRUSTED_PROXY: set it to the number of reverse proxies in front of the agent that append to X-Forwarded-For (true trusted the address a client writes itself)",
      });
    }
    if (env.NODE_ENV === "production" && env.AGENT_SERVICE_KEY === undefined) {
      ctx.addIssue({ code: "custom", path: ["AGENT_SERVICE_KEY"], message: "is required in production: without it nobody could call the paid routes" });
    }
  });

export type AgentConfig = ReturnType<typeof loadAgentConfig>;
type SourceKey = keyof typeof sourceDefaults | "local";

/** Reads and validates `env`. Throws ConfigError naming each bad variable. */
export function loadAgentConfig(env: Env) {
  const raw = parseEnv(rawSchema, env);
  const databaseUrl = raw.POSTGRES_URL ?? raw.DATABASE_URL;
  const port = raw.AGENT_PORT;
  const publicUrl = raw.AGENT_PUBLIC_URL ?? `http://localhost:${port}`;
  // OpenAlex needs a key since February 2026: without one it is not used at all.
  const available: SourceKey[] = ["pubmed", "europepmc", "clinicaltrials", "biorxiv", "crossref", ...(raw.OPENALEX_API_KEY ? (["openalex"] as const) : []), "local"];
  const enabled = raw.LITERATURE_SOURCES ? available.filter((s) => raw.LITERATURE_SOURCES!.includes(s)) : available;
  return {
    nodeEnv: raw.NODE_ENV,
    port,
    host: raw.AGENT_HOST,
    publicUrl,
    /**
     * Where people read a library record that has no PMID, DOI or NCT id: `<base>/<id>`. The
     * gateway's public record page (`${PUBLIC_URL}/library/records`) in a deployment; by default
     * the agent's own route, which answers only the service key.
     */
    recordPageBase: raw.LIBRARY_RECORD_PAGE_URL ?? `${publicUrl}/api/library/records`,
    serviceKey: raw.AGENT_SERVICE_KEY,
    database: databaseUrl
      ? ({ kind: "url", url: databaseUrl, poolMax: raw.DB_POOL_MAX } as const)
      : ({ kind: "embedded", dataDir: path.resolve(raw.DATA_DIR), port: raw.EMBEDDED_DB_PORT, poolMax: Math.min(raw.DB_POOL_MAX, 4) } as const),
    jobs: {
      workers: raw.AGENT_WORKERS,
      leaseSeconds: raw.JOB_LEASE_SECONDS,
      pollMs: raw.JOB_POLL_MS,
      /** A long-poll's safety re-read of its job, should a notification be lost (agent/jobs/wait.ts). */
      waitRecheckMs: raw.JOB_WAIT_RECHECK_MS,
    },
    literature: {
      enabledSources: enabled,
      baseUrls: {
        pubmed: raw.PUBMED_BASE_URL,
        europepmc: raw.EUROPEPMC_BASE_URL,
        clinicaltrials: raw.CTGOV_BASE_URL,
        biorxiv: raw.BIORXIV_BASE_URL,
        crossref: raw.CROSSREF_BASE_URL,
        openalex: raw.OPENALEX_BASE_URL,
      },
      ncbiApiKey: raw.NCBI_API_KEY,
      openalexApiKey: raw.OPENALEX_API_KEY,
      contactEmail: raw.CONTACT_EMAIL,
      timeoutMs: raw.SOURCE_TIMEOUT_MS,
      maxRetries: raw.SOURCE_MAX_RETRIES,
      rateMultiplier: raw.SOURCE_RATE_MULTIPLIER,
      circuit: { failureThreshold: raw.SOURCE_CIRCUIT_FAILURES, cooldownMs: raw.SOURCE_CIRCUIT_COOLDOWN_MS },
      /**
       * A paid chat or literature start (the gateway's service key) is answered once its search has
       * reached a source, or failed for want of one (503, so nothing is settled): at most this long.
       */
      reachWaitMs: raw.LITERATURE_REACH_WAIT_MS,
    },
    logQuestions: raw.LOG_QUESTIONS,
    chat: {
      /** a: conversations (conversationId on 202, queued, completed); b: never mentions them. */
      variant: raw.AGENT_VARIANT,
      retentionSeconds: raw.CHAT_RETENTION_SECONDS,
    },
    /** A model that writes chat answers under the citation audit; without it the extractive writer does. */
    llm: raw.LLM_BASE_URL
      ? { baseUrl: raw.LLM_BASE_URL, model: raw.LLM_MODEL, timeoutMs: raw.LLM_TIMEOUT_MS, ...(raw.LLM_API_KEY ? { apiKey: raw.LLM_API_KEY } : {}) }
      : null,
    enclave: {
      /** A fixed enclave key (e.g. injected into a confidential VM); otherwise one is generated once. */
      privateKey: raw.ENCLAVE_PRIVATE_KEY,
      /**
       * Where the key-encryption key of a generated enclave key lives: outside the database, and
       * by default outside DATA_DIR too, so a copy of the data folder does not carry the key that
       * opens the enclave key stored in it.
       */
      kekFile: path.resolve(raw.ENCLAVE_KEK_FILE ?? defaultKekFile(env)),
      /** Its default before it moved out of DATA_DIR: still read (with a warning) so no install loses its key. */
      legacyKekFile: raw.ENCLAVE_KEK_FILE ? null : path.resolve(raw.DATA_DIR, "enclave.kek"),
      privateLiterature: raw.PRIVATE_LITERATURE_ENABLED,
      /** A model that may see private plaintext (an attested endpoint); never LLM_BASE_URL. */
      llm: raw.PRIVATE_LLM_BASE_URL
        ? { baseUrl: raw.PRIVATE_LLM_BASE_URL, model: raw.PRIVATE_LLM_MODEL, timeoutMs: raw.LLM_TIMEOUT_MS, ...(raw.PRIVATE_LLM_API_KEY ? { apiKey: raw.PRIVATE_LLM_API_KEY } : {}) }
        : null,
      /** How long POST /api/private/chat waits to answer 200 before answering 202. */
      chatWaitMs: raw.PRIVATE_CHAT_WAIT_MS,
      /** How long sealed private chat and literature answers are kept (then 404, and deleted). */
      retentionSeconds: raw.PRIVATE_RESULT_RETENTION_SECONDS,
      /**
       * Attestation material to serve with the key, when the agent runs in a Tinfoil confidential
       * VM (the bundle file is provisioned by the platform); null locally, and then the agent says
       * plainly that it is not attested.
       */
      attestation: loadAttestation(raw.ENCLAVE_ATTESTATION_BUNDLE_FILE, raw.ENCLAVE_ATTESTATION_CONFIG_REPO),
    },
    deepResearch: { iterations: raw.DEEP_RESEARCH_ITERATIONS, budgetSeconds: raw.DEEP_RESEARCH_BUDGET_SECONDS },
    /**
     * How long each kind of row is kept once nothing needs it (docs/data-lifecycle.md); the sweeps
     * of agent/lifecycle.ts delete it then. Public chat jobs and private results have theirs above.
     */
    retention: {
      /** Variant A's conversations and their turns, counted from the last turn. */
      chatConversationSeconds: raw.CHAT_CONVERSATION_RETENTION_SECONDS,
      /** Finished literature jobs (question and result), from their creation. */
      literatureSeconds: raw.LITERATURE_RETENTION_SECONDS,
      /** Deep-research conversations, turns and jobs, from the conversation's last change. */
      deepResearchSeconds: raw.DEEP_RESEARCH_RETENTION_DAYS * 86_400,
      /** Private conversations and private runs (ciphertext only), from their last use. */
      privateConversationSeconds: raw.PRIVATE_CONVERSATION_RETENTION_DAYS * 86_400,
      /** Premium keys (hashes) after their term ended: until then a caller is told the key expired. */
      premiumKeySeconds: raw.PREMIUM_KEY_RETENTION_DAYS * 86_400,
    },
    access: {
      /** Free chat requests per client address per window; premium keys get their own limit. */
      chatLimit: raw.CHAT_RATE_LIMIT,
      premiumChatLimit: raw.PREMIUM_CHAT_RATE_LIMIT,
      windowSeconds: raw.CHAT_RATE_WINDOW_SECONDS,
      /** Where a public caller's address is read from (lib/shared/http/client-address.ts, the gateway's rule). */
      trustedProxy: raw.AGENT_TRUSTED_PROXY,
      premium: {
        /** Every key, a holder's or an operator's, stops working this many days after it is made. */
        termDays: raw.PREMIUM_KEY_TTL_DAYS,
        /** A holder key's holding is read again on its first use after this long (not on every request). */
        recheckSeconds: raw.PREMIUM_HOLDING_RECHECK_SECONDS,
        /** Per holding (or operator key) per window: deep-research starts, plain and private. */
        deepResearchLimit: raw.PREMIUM_DEEP_RESEARCH_RATE_LIMIT,
        /** Per holding (or operator key) per window: private chat and literature requests. */
        privateLimit: raw.PREMIUM_PRIVATE_RATE_LIMIT,
        windowSeconds: raw.PREMIUM_RATE_WINDOW_SECONDS,
        /** Unused, unexpired challenges (POST /api/premium/challenge, no authentication) per client address and in all. */
        challengesPerClient: raw.PREMIUM_CHALLENGES_PER_CLIENT,
        challengesMax: raw.PREMIUM_CHALLENGES_MAX,
      },
      serviceToken: raw.SERVICE_TOKEN_ADDRESS
        ? {
            address: raw.SERVICE_TOKEN_ADDRESS,
            rpcUrl: raw.SERVICE_TOKEN_RPC_URL ?? "http://127.0.0.1:8545",
            chainId: raw.SERVICE_TOKEN_CHAIN_ID,
            minBalance: BigInt(raw.SERVICE_TOKEN_MIN_BALANCE),
            logBlockRange: BigInt(raw.SERVICE_TOKEN_LOG_BLOCK_RANGE),
          }
        : null,
    },
  };
}

/**
 * The default key-encryption key file: in the user's configuration folder
 * ($XDG_CONFIG_HOME, else ~/.config; %APPDATA% on Windows), under longevity-research-agent/.
 */
function defaultKekFile(env: Env): string {
  const set = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  const home = set(env.HOME) ?? os.homedir();
  const xdg = set(env.XDG_CONFIG_HOME);
  // The XDG specification says a relative XDG_CONFIG_HOME is invalid and to be ignored.
  const configHome =
    process.platform === "win32" ? (set(env.APPDATA) ?? path.join(home, "AppData", "Roaming")) : xdg && path.isAbsolute(xdg) ? xdg : path.join(home, ".config");
  return path.join(configHome, "longevity-research-agent", "enclave.kek");
}

/** Reads the attestation bundle named by ENCLAVE_ATTESTATION_BUNDLE_FILE, failing with the variable's name. */
function loadAttestation(file: string | undefined, configRepo: string | undefined): TinfoilAttestation | null {
  if (!file) {
    if (configRepo) throw new Error("ENCLAVE_ATTESTATION_CONFIG_REPO is set without ENCLAVE_ATTESTATION_BUNDLE_FILE");
    return null;
  }
  if (!configRepo) throw new Error("ENCLAVE_ATTESTATION_BUNDLE_FILE needs ENCLAVE_ATTESTATION_CONFIG_REPO (the owner/name of the signed release repository)");
  let bundle: unknown;
  try {
    bundle = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`ENCLAVE_ATTESTATION_BUNDLE_FILE: cannot read ${file} as JSON (${errorMessage(err)})`);
  }
  const parsed = tinfoilAttestationSchema.safeParse({ provider: "tinfoil", configRepo, bundle });
  if (!parsed.success) throw new Error(`ENCLAVE_ATTESTATION_BUNDLE_FILE: not an attestation bundle (${parsed.error.issues.map((i) => i.path.join(".")).join(", ")})`);
  return parsed.data;
}
