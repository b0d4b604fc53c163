/**
 * `npm run demo`: the whole service on this machine with no configuration. It owns the embedded
 * database (PGlite in DATA_DIR, served on loopback), starts the local chain (Hardhat, chain id
 * 31337, Circle's USDC, funded test wallets) unless X402_NETWORK names another network, starts the
 * agent on AGENT_PORT (3001) with a fresh service key, builds the gateway if needed, starts it on PORT (3000), calls the cron every minute as Vercel's scheduler
 * would, and writes what it started to `.demo/stack.json`. Ctrl-C stops everything it started.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../lib/gateway/config";
import { importLibraryFile } from "../agent/library/import";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/shared/db/embedded";
import { createPool } from "../lib/shared/db/pool";
import { LOCAL_NETWORK, LOCAL_RPC_PORT } from "../lib/shared/payments/local-chain";
import { startLocalChain, type LocalChain } from "./lib/local-chain";
import { ensureBuild, gatewayServerArgs, startService, waitForHttp, type Service } from "./lib/processes";

const root = path.resolve(import.meta.dirname, "..");
// DEMO_DIR moves the launcher's state (the browser tests use it so a running demo is left alone).
const stackFile = path.join(path.resolve(root, process.env.DEMO_DIR ?? ".demo"), "stack.json");
const CRON_INTERVAL_MS = 60_000;

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const cronSecret = config.cronSecret ?? randomBytes(24).toString("hex");
  const gatewayUrl = `http://localhost:${config.port}`;
  const publicUrl = process.env.PUBLIC_URL ?? gatewayUrl;

  let embedded: EmbeddedPostgres | undefined;
  let localChain: LocalChain | undefined;
  let gateway: Service | undefined;
  let agent: Service | undefined;
  let cronTimer: NodeJS.Timeout | undefined;
  let stopping = false;

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (cronTimer) clearInterval(cronTimer);
    console.log("\nStopping…");
    await gateway?.stop();
    await agent?.stop();
    await localChain?.stop();
    await embedded?.stop();
    fs.rmSync(stackFile, { force: true });
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  try {
    let databaseUrl: string;
    if (config.database.kind === "embedded") {
      console.log(`Opening the embedded database in ${path.relative(root, config.database.dataDir) || "."}…`);
      embedded = await startEmbeddedPostgres({ dataDir: config.database.dataDir, port: config.database.port });
      databaseUrl = embedded.url;
    } else {
      databaseUrl = config.database.url;
    }

    const chainEnv: Record<string, string> = {};
    if (config.payments.network === LOCAL_NETWORK) {
      const port = Number(process.env.CHAIN_PORT ?? LOCAL_RPC_PORT);
      console.log(`Starting the local chain on port ${port} (Hardhat, chain id 31337, Circle's USDC)…`);
      localChain = await startLocalChain({ port, walletCount: 5 });
      chainEnv.RPC_URL = localChain.rpcUrl;
      chainEnv.X402_ASSET = localChain.asset;
      chainEnv.PAY_TO_ADDRESS = config.payments.payTo;
      // The page's built-in test wallet (local mode only, clearly labelled there): the second one,
      // so the CLI (the first) and the browser do not share a wallet.
      chainEnv.LOCAL_TEST_WALLET_PRIVATE_KEY = localChain.testWallets[1]!.privateKey;
    }

    // The agent: its own process, sharing the database, reached by the gateway with the service key.
    const agentPort = Number(process.env.AGENT_PORT ?? 3001);
    const agentUrl = `http://127.0.0.1:${agentPort}`;
    const serviceKey = process.env.AGENT_SERVICE_KEY ?? randomBytes(24).toString("hex");
    console.log(`Starting the agent on port ${agentPort}…`);
    agent = startService({
      name: "agent",
      command: process.execPath,
      args: ["--import", "tsx", path.join(root, "agent/main.ts")],
      env: {
        ...process.env,
        POSTGRES_URL: databaseUrl,
        AGENT_PORT: String(agentPort),
        AGENT_SERVICE_KEY: serviceKey,
        AGENT_PUBLIC_URL: agentUrl,
        // Records without PMID, DOI or NCT id link to the gateway's public record page, not to the agent.
        LIBRARY_RECORD_PAGE_URL: `${publicUrl}/library/records`,
        // Holders of the local service token may get premium keys (the first test wallet holds enough).
        ...(localChain ? { SERVICE_TOKEN_ADDRESS: localChain.serviceToken, SERVICE_TOKEN_RPC_URL: localChain.rpcUrl, SERVICE_TOKEN_CHAIN_ID: String(localChain.chainId) } : {}),
      },
    });
    agent.child.once("exit", (code) => {
      if (!stopping) {
        console.error(`The agent exited unexpectedly (code ${code}).`);
        void stop(1);
      }
    });
    await waitForHttp(`${agentUrl}/api/health`, { statuses: [200] });
    await importDemoLibrary(databaseUrl);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...chainEnv,
      UPSTREAM_API_URL: agentUrl,
      AGENT_SERVICE_KEY: serviceKey,
      NEXT_TELEMETRY_DISABLED: "1",
      POSTGRES_URL: databaseUrl,
      CRON_SECRET: cronSecret,
      PUBLIC_URL: publicUrl,
      PORT: String(config.port),
    };
    console.log("Building the gateway (skipped when the build is up to date)…");
    await ensureBuild(root, env);

    gateway = startService({ name: "gateway", command: process.execPath, args: gatewayServerArgs(root), env });
    gateway.child.once("exit", (code) => {
      if (!stopping) {
        console.error(`The gateway exited unexpectedly (code ${code}).`);
        void stop(1);
      }
    });
    // Either answer means the gateway is up (503 reports a component down, which the page shows).
    await waitForHttp(`${gatewayUrl}/api/health`, { statuses: [200, 503] });

    const stack = {
      gatewayUrl,
      publicUrl,
      agentUrl,
      cronSecret,
      databaseUrl,
      ...(localChain
        ? {
            rpcUrl: localChain.rpcUrl,
            chainId: localChain.chainId,
            network: localChain.network,
            asset: localChain.asset,
            payTo: config.payments.payTo,
            serviceToken: localChain.serviceToken,
            testWalletsNote: "LOCAL TEST KEYS for the local chain only (chain id 31337). Never send real funds to them.",
            testWallets: localChain.testWallets,
          }
        : {}),
      startedAt: new Date().toISOString(),
      pid: process.pid,
    };
    fs.mkdirSync(path.dirname(stackFile), { recursive: true });
    fs.writeFileSync(stackFile, JSON.stringify(stack, null, 2) + "\n", { mode: 0o600 });

    cronTimer = setInterval(() => void tickCron(gatewayUrl, cronSecret), CRON_INTERVAL_MS);

    console.log(
      [
        "",
        `Gateway:   ${gatewayUrl}`,
        `Agent:     ${agentUrl} (literature search; sources need the internet, the local library does not)`,
        `Health:    ${gatewayUrl}/api/health`,
        `OpenAPI:   ${gatewayUrl}/api/openapi.json`,
        `Database:  ${databaseUrl}${embedded ? " (embedded PGlite)" : ""}`,
        ...(localChain
          ? [
              `Chain:     ${localChain.rpcUrl} (chain id ${localChain.chainId}, USDC ${localChain.asset})`,
              `Wallet:    ${localChain.testWallets[0]?.address} holds 1000 test USDC (local test key in ${path.relative(root, stackFile)})`,
              `Try:       npm run ask -- chat "Does rapamycin extend lifespan?"`,
            ]
          : []),
        `Cron:      GET /api/cron every minute (secret in ${path.relative(root, stackFile)})`,
        "",
        "Press Ctrl-C to stop.",
      ].join("\n"),
    );
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    await stop(1);
  }
}

async function tickCron(gatewayUrl: string, secret: string): Promise<void> {
  try {
    const response = await fetch(`${gatewayUrl}/api/cron`, {
      headers: { authorization: `Bearer ${secret}` },
      signal: AbortSignal.timeout(55_000),
    });
    if (!response.ok) console.error(`[cron] answered ${response.status}: ${await response.text()}`);
  } catch (err) {
    console.error(`[cron] failed: ${(err as Error).message}`);
  }
}

void main();

/**
 * DEMO_LIBRARY_FILES (comma-separated PubMed XML or JSON Lines files) are imported into the
 * agent's local library once it is up: the only literature an offline demo, and private chat,
 * can answer from. Importing is idempotent, so a restart re-imports nothing new.
 */
async function importDemoLibrary(databaseUrl: string): Promise<void> {
  const files = (process.env.DEMO_LIBRARY_FILES ?? "").split(",").map((f) => f.trim()).filter(Boolean);
  if (files.length === 0) return;
  const pool = createPool({ url: databaseUrl, max: 1 });
  try {
    for (const file of files) {
      const summary = await importLibraryFile({ db: pool, file: path.resolve(root, file) });
      console.log(`Library:   ${path.relative(root, path.resolve(root, file))}: ${summary.inserted} added, ${summary.duplicates} already there, ${summary.rejected.length} rejected`);
    }
  } finally {
    await pool.end();
  }
}
