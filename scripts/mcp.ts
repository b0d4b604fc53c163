/**
 * `npm run -s mcp` (or `bin/longevity-mcp.mjs`, or `npx`): the local MCP server for people's
 * assistants, on stdio. It pays the service's HTTP routes with the user's own key, within a cap
 * per call and per day, and follows the work to its answer (lib/client/mcp-local/). Configured by the
 * environment (lib/client/mcp-local/config.ts, documented in docs/mcp.md); stdout carries the protocol
 * alone, so everything this prints goes to stderr.
 */
import fs from "node:fs";
import path from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { privateKeyToAccount } from "viem/accounts";
import { ConfigError } from "../lib/shared/config/env";
import { loadLocalMcpConfig } from "../lib/client/mcp-local/config";
import { formatUsd } from "../lib/shared/contracts/money";
import { createLocalMcpServer } from "../lib/client/mcp-local/server";

const root = path.resolve(import.meta.dirname, "..");

async function main(): Promise<void> {
  let config;
  try {
    config = loadLocalMcpConfig(process.env, { root });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`longevity-mcp: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const server = createLocalMcpServer({ config, version });
  await server.connect(new StdioServerTransport());
  const payer = config.privateKey
    ? `paying from ${privateKeyToAccount(config.privateKey).address}, at most ${formatUsd(config.maxPerCall)} per call and ${formatUsd(config.maxPerDay)} per 24 hours`
    : "no LONGEVITY_MCP_PRIVATE_KEY: the paid tools will say how to set it; the status tools work";
  console.error(`longevity-mcp: serving ${config.baseUrl} on stdio, ${payer} (ledger in ${config.stateDir}).`);
}

void main();
