import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { baseUrlSchema, parseEnv, privateKeySchema, type Env } from "@/lib/shared/config/env";
import { isRecord } from "@/lib/shared/narrow";
import { parseUsd } from "@/lib/shared/contracts/money";

/**
 * The configuration of the local MCP server (`npm run mcp`, `bin/longevity-mcp.mjs`), the one
 * place that reads its environment. Everything has a default except the paying key: without it
 * the server still starts and its free tools work, and every paid tool answers with how to set it.
 */

const usdSchema = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      try {
        return parseUsd(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: err instanceof Error ? err.message : String(err) });
        return z.NEVER;
      }
    });

const localMcpEnvSchema = z.object({
  LONGEVITY_MCP_PRIVATE_KEY: privateKeySchema.optional(),
  LONGEVITY_MCP_URL: baseUrlSchema.optional(),
  LONGEVITY_MCP_MAX_PER_CALL: usdSchema("1.00"),
  LONGEVITY_MCP_MAX_PER_DAY: usdSchema("5.00"),
  LONGEVITY_MCP_STATE_DIR: z.string().optional(),
  LONGEVITY_MCP_NETWORK: z.string().regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, "must be a CAIP-2 network such as eip155:8453").optional(),
  LONGEVITY_MCP_ASSET: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be the token's 0x address").optional(),
  LONGEVITY_MCP_PAY_TO: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address").optional(),
  LONGEVITY_MCP_RPC_URL: baseUrlSchema.optional(),
  XDG_STATE_HOME: z.string().optional(),
  LOCALAPPDATA: z.string().optional(),
});

/** Where the payments go, as far as the user pinned it; the rest is learnt from the service. */
export type DestinationPins = { network?: string; asset?: string; payTo?: string };

export type LocalMcpConfig = {
  /** The paying key; never logged, used only to sign payments. */
  privateKey: `0x${string}` | null;
  /** The service, without a trailing slash. */
  baseUrl: string;
  /** Largest single payment, in base units of the token. */
  maxPerCall: bigint;
  /** Most spent in any 24 hours, in base units. */
  maxPerDay: bigint;
  /** The spend ledger and the destinations first seen per service live here. */
  stateDir: string;
  pins: DestinationPins;
  /** Where to read the chain (LONGEVITY_MCP_RPC_URL); unset, chain-check.ts picks one per network. */
  rpcUrl: string | null;
  /** The local demo's chain, when this clone started one (`.demo/stack.json`). */
  demoChain: { rpcUrl: string; chainId: number } | null;
};

type DemoStack = { gatewayUrl?: unknown; rpcUrl?: unknown; chainId?: unknown };

/** The demo this clone started (`.demo/stack.json`), or nothing. */
function readDemoStack(root: string): DemoStack {
  try {
    const stack: unknown = JSON.parse(fs.readFileSync(path.join(root, ".demo", "stack.json"), "utf8"));
    return isRecord(stack) ? stack : {};
  } catch {
    return {}; // No demo started from this clone.
  }
}

const httpUrl = (value: unknown): value is string => typeof value === "string" && /^https?:\/\//.test(value);

/** The default service: the demo this clone started, else the demo's usual address. */
function defaultBaseUrl(stack: DemoStack): string {
  return httpUrl(stack.gatewayUrl) ? stack.gatewayUrl.replace(/\/+$/, "") : "http://localhost:3000";
}

/** `$XDG_STATE_HOME/longevity-mcp`, else `~/.local/state/longevity-mcp` (`%LOCALAPPDATA%\longevity-mcp` on Windows). */
export function defaultStateDir(env: { XDG_STATE_HOME?: string | undefined; LOCALAPPDATA?: string | undefined }): string {
  if (env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)) return path.join(env.XDG_STATE_HOME, "longevity-mcp");
  if (process.platform === "win32" && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, "longevity-mcp");
  return path.join(os.homedir(), ".local", "state", "longevity-mcp");
}

/**
 * Reads the local server's environment. Throws ConfigError naming each bad variable (never its
 * value: one of them is a private key).
 */
export function loadLocalMcpConfig(env: Env, { root }: { root: string }): LocalMcpConfig {
  const raw = parseEnv(localMcpEnvSchema, env);
  const stack = readDemoStack(root);
  return {
    privateKey: raw.LONGEVITY_MCP_PRIVATE_KEY ?? null,
    baseUrl: raw.LONGEVITY_MCP_URL ?? defaultBaseUrl(stack),
    maxPerCall: raw.LONGEVITY_MCP_MAX_PER_CALL,
    maxPerDay: raw.LONGEVITY_MCP_MAX_PER_DAY,
    stateDir: path.resolve(raw.LONGEVITY_MCP_STATE_DIR ?? defaultStateDir(raw)),
    pins: {
      ...(raw.LONGEVITY_MCP_NETWORK ? { network: raw.LONGEVITY_MCP_NETWORK } : {}),
      ...(raw.LONGEVITY_MCP_ASSET ? { asset: raw.LONGEVITY_MCP_ASSET } : {}),
      ...(raw.LONGEVITY_MCP_PAY_TO ? { payTo: raw.LONGEVITY_MCP_PAY_TO } : {}),
    },
    rpcUrl: raw.LONGEVITY_MCP_RPC_URL ?? null,
    demoChain: httpUrl(stack.rpcUrl) && typeof stack.chainId === "number" ? { rpcUrl: stack.rpcUrl, chainId: stack.chainId } : null,
  };
}
