import { z } from "zod";
import type { TrustedProxy } from "../http/client-address";

/**
 * Building blocks shared by the per-deployment config modules (the gateway's `lib/gateway/config` and the
 * agent's `agent/config.ts`). Every variable is a string in the environment; these schemas turn them into
 * typed values and give messages that name the variable when `parseEnv` reports them.
 */

export type Env = Record<string, string | undefined>;

/** A string matching `pattern`, typed as the hex that viem takes (the check is the type's proof). */
export function hexSchema(pattern: RegExp, message: string) {
  return z.custom<`0x${string}`>((value) => typeof value === "string" && pattern.test(value), message);
}

export const privateKeySchema = hexSchema(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");

/** Thrown when the environment is invalid; the message names every bad variable. */
export class ConfigError extends Error {
  readonly variables: string[];
  constructor(issues: { variable: string; message: string }[]) {
    super(
      "Invalid configuration:\n" +
        issues.map((i) => `  ${i.variable}: ${i.message}`).join("\n") +
        "\nSee .env.example for every variable and where to get it.",
    );
    this.name = "ConfigError";
    this.variables = issues.map((i) => i.variable);
  }
}

/** Empty strings count as unset, as they do in most dotenv files and CI settings. */
function blankAsUndefined(env: Env): Env {
  const out: Env = {};
  for (const [key, value] of Object.entries(env)) {
    out[key] = value === undefined || value.trim() === "" ? undefined : value.trim();
  }
  return out;
}

export const portSchema = z.coerce
  .number({ error: "must be a TCP port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

export const positiveIntSchema = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .positive("must be positive");

export const booleanSchema = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** An absolute http(s) URL, or an issue on `ctx` and null. */
function parseHttpUrl(value: string, ctx: z.RefinementCtx): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `must be an absolute URL, got "${value}"` });
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    ctx.addIssue({ code: "custom", message: "must use http or https" });
    return null;
  }
  return url;
}

/** An http(s) origin such as `https://example.com` (no path, query or fragment). */
export const originSchema = z.string().transform((value, ctx) => {
  const url = parseHttpUrl(value, ctx);
  if (!url) return z.NEVER;
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash) {
    ctx.addIssue({ code: "custom", message: "must be an origin without a path, query or fragment" });
    return z.NEVER;
  }
  return url.origin;
});

/** An http(s) base URL; a trailing slash is removed so paths can be appended. */
export const baseUrlSchema = z.string().transform((value, ctx) => {
  const url = parseHttpUrl(value, ctx);
  return url ? url.toString().replace(/\/+$/, "") : z.NEVER;
});

const postgresUrlSchema = z
  .string()
  .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string");

/**
 * The variables both services read (a gateway and an agent sharing one machine or one database), each
 * defined once: the gateway's schema (lib/gateway/config) and the agent's (agent/config.ts) spread it.
 */
export const sharedEnvShape = {
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** The service key the gateway sends and the agent requires (the agent refuses paid routes without it in production). */
  AGENT_SERVICE_KEY: z.string().min(16, "must be at least 16 characters").optional(),
  POSTGRES_URL: postgresUrlSchema.optional(),
  DATABASE_URL: postgresUrlSchema.optional(),
  /** Where the embedded database (PGlite behind a socket) keeps its files when no URL is set. */
  DATA_DIR: z.string().default(".data"),
  EMBEDDED_DB_PORT: portSchema.default(54329),
  DB_POOL_MAX: positiveIntSchema.default(10),
  /** Retention (docs/data-lifecycle.md): a deep-research run and a chat conversation are forgotten by both services alike. */
  DEEP_RESEARCH_RETENTION_DAYS: positiveIntSchema.default(30),
  CHAT_CONVERSATION_RETENTION_SECONDS: positiveIntSchema.default(86_400),
};

/**
 * Who may say where a request came from (lib/shared/http/client-address.ts), for both services: nobody but
 * the socket (`none`), or N reverse proxies in front that each append to X-Forwarded-For; and, where
 * `vercel` is allowed (the gateway), Vercel's edge.
 */
export function trustedProxySchema({ vercel }: { vercel: boolean }) {
  return z.string().transform((value, ctx): TrustedProxy => {
    if (value === "none") return { kind: "none" };
    if (vercel && value === "vercel") return { kind: "vercel" };
    const hops = Number(value);
    if (/^\d+$/.test(value) && hops >= 1 && hops <= 10) return { kind: "hops", hops };
    ctx.addIssue({ code: "custom", message: `must be none${vercel ? ", vercel," : ""} or the number (1 to 10) of reverse proxies that append to X-Forwarded-For` });
    return z.NEVER;
  });
}

/**
 * Parses `env` with `schema` and throws a ConfigError naming each bad variable. Object keys of the
 * schema are the variable names, so the issue path is the variable.
 */
export function parseEnv<T extends z.ZodType>(schema: T, env: Env): z.output<T> {
  const result = schema.safeParse(blankAsUndefined(env));
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: issue.path.length > 0 ? issue.path.map(String).join(".") : "(environment)",
      message: issue.message,
    })),
  );
}
