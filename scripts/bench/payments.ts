/**
 * The payment figures of the payments issue, each against a reference measured in the same run:
 *
 * 1. The unpaid 402 path: POST /api/chat without payment, against @x402/next's `withX402` wrapping
 *    the same handler (bench/reference-app), both under `next start`.
 * 2. A paid round trip (402, sign, paid request, 202) through the official client, against the same
 *    flow through the reference, same facilitator code and chain; and the gateway's own share of
 *    each paid request (everything but the facilitator's verify and settle, from Server-Timing).
 * 3. The settlement cron over 100 and then 500 scheduled deep-research payments: time per payment.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import pg from "pg";
import { mnemonicToAccount, privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { startEmbeddedPostgres } from "../../lib/shared/db/embedded";
import { runMigrations } from "../../lib/shared/db/migrate";
import { gatewayMigrations } from "../../lib/shared/db/migrations/gateway";
import { createPayingFetch } from "../../lib/client/payments/client";
import { claimPayment, updatePayment } from "../../lib/gateway/payments/ledger";
import { DEV_MNEMONIC } from "../../lib/shared/payments/local-chain";
import { signExactPayment } from "../../lib/client/payments/sign";
import { decodePaymentHeader, verifyPaymentLocally } from "../../lib/gateway/payments/verify-locally";
import { findPostgresBin, freePort, startThrowawayPostgres } from "../../tests/support/postgres";
import { startLocalChain } from "../lib/local-chain";
import { ensureBuild, gatewayServerArgs, nextBin, startService, waitForHttp, type Service } from "../lib/processes";
import { connections, load, percentile, printTable, root, saveResults, seconds, type Figure } from "./common";

const CRON_SECRET = "bench-cron-secret-0123456789";
const PAID_ROUNDS = Number(process.env.BENCH_PAID_ROUNDS ?? 40);
const CHAT_BODY = JSON.stringify({ message: "Does rapamycin extend lifespan in mice?" });

/**
 * The agent as the gateway sees it: says a literature source can answer (counting how often it is
 * asked), accepts chat jobs, and reports every deep-research turn finished.
 */
async function startAgentDouble(): Promise<{ url: string; reachCalls: () => number; close: () => Promise<void> }> {
  let reachCalls = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const match = /^\/api\/deep-research\/([^/]+)$/.exec(req.url ?? "");
      let body: unknown = { requestId: randomUUID(), status: "queued" };
      let status = 202;
      if (req.method === "POST" && req.url === "/api/deep-research/statuses") {
        // The settlement cron asks which turns have ended: all of them.
        const { messageIds } = JSON.parse(Buffer.concat(chunks).toString()) as { messageIds: string[] };
        status = 200;
        body = { turns: messageIds.map((messageId) => ({ messageId, status: "completed" })), runs: [] };
      } else if (req.method === "GET" && req.url?.startsWith("/api/literature/reach")) {
        reachCalls++;
        status = 200;
        body = { available: true, localLibrary: "has_records", sources: [], retryAfterSeconds: null, message: null };
      } else if (req.method === "GET" && match) {
        const id = decodeURIComponent(match[1]!);
        status = 200;
        body = {
          conversationId: id,
          status: "completed",
          worldState: { findings: [] },
          turns: [{ messageId: `m-${id}`, objective: "o", reply: "r [1]", citations: [{ ordinal: 1 }], status: "completed", isFinal: true }],
        };
      }
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, reachCalls: () => reachCalls, close: () => new Promise((r) => server.close(() => r())) };
}

/** The gateway as `npm start` runs it, or (with `dir`) another Next.js app under `next start`. */
function nextStart(name: string, dir: string, port: number, env: Record<string, string>): Service {
  return startService({
    name,
    command: process.execPath,
    args: dir === root ? gatewayServerArgs(root) : [nextBin(root), "start", dir, "-p", String(port)],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_SILENT: "1", ...env, PORT: String(port), NODE_ENV: "production" },
    quiet: true,
  });
}

export async function runPaymentsBench(): Promise<void> {
  console.log("\n## Payments\n");
  const referenceDir = path.join(root, "bench/reference-app");
  await ensureBuild(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
  await ensureBuild(root, { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, {
    dir: referenceDir,
    inputs: ["bench/reference-app/app", "bench/reference-app/next.config.ts", "lib", "package.json", "package-lock.json"],
  });

  const chain = await startLocalChain({ port: await freePort(), walletCount: 12, usdcPerWallet: 10_000n * 10n ** 6n });
  const agent = await startAgentDouble();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-bench-pay-"));
  const database = await openBenchDatabase(dataDir);
  const databaseUrl = database.url;
  console.log(`Database: ${database.label}\n`);
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const referenceFacilitator = `0x${Buffer.from(mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 3 }).getHdKey().privateKey!).toString("hex")}`;
  const common = { UPSTREAM_API_URL: agent.url, RPC_URL: chain.rpcUrl, X402_ASSET: chain.asset, PAY_TO_ADDRESS: payTo };

  const gatewayPort = await freePort();
  const referencePort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const referenceUrl = `http://127.0.0.1:${referencePort}`;
  const gateway = nextStart("gateway", root, gatewayPort, {
    ...common,
    POSTGRES_URL: databaseUrl,
    CRON_SECRET,
    PUBLIC_URL: gatewayUrl,
    INVALID_PAYMENT_LIMIT: "1000000000",
    CRON_BATCH_SIZE: "100",
  });
  const reference = nextStart("reference", referenceDir, referencePort, { ...common, FACILITATOR_PRIVATE_KEY: referenceFacilitator });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });

  try {
    // Bounds on a hang only: on a busy machine `next start` takes tens of seconds to answer.
    await waitForHttp(`${gatewayUrl}/api/health`, { statuses: [200, 503], timeoutMs: 300_000 });
    await waitForHttp(`${referenceUrl}/api/chat`, { statuses: [402, 405], timeoutMs: 300_000 });

    // 1. The unpaid 402 path: three alternating rounds each, the median round reported.
    console.log(`### Unpaid 402 path (${connections} connections, ${seconds} s per round, 3 alternating rounds)\n`);
    const post = { method: "POST" as const, body: CHAT_BODY, headers: { "content-type": "application/json" } };
    const rounds: Record<"reference" | "gateway", Figure[]> = { reference: [], gateway: [] };
    const reachCallsBefore = agent.reachCalls();
    for (let round = 0; round < 3; round++) {
      rounds.reference.push(await load("reference: withX402 (@x402/next) POST /api/chat", `${referenceUrl}/api/chat`, { ...post, cpuPid: reference.child.pid }));
      rounds.gateway.push(await load("gateway POST /api/chat", `${gatewayUrl}/api/chat`, { ...post, cpuPid: gateway.child.pid }));
    }
    // Its literature-reach check before the 402 reads a short-lived cache (lib/gateway/upstream/status-cache.ts), not the agent.
    const reachCalls = agent.reachCalls() - reachCallsBefore;
    const medianRound = (figures: Figure[]) => [...figures].sort((a, b) => a.rps - b.rps)[1]!;
    const unpaid = [medianRound(rounds.reference), medianRound(rounds.gateway)];
    printTable(unpaid, unpaid[0]!);
    console.log(`\nRounds (req/s): reference ${rounds.reference.map((f) => f.rps).join(", ")}; gateway ${rounds.gateway.map((f) => f.rps).join(", ")}`);
    console.log(`The agent was asked about literature reach ${reachCalls} times during the gateway's rounds.`);
    const cpu = (figures: Figure[]) => percentile(figures.map((f) => f.cpuMsPerRequest ?? NaN), 50);
    const cpuMs = { reference: cpu(rounds.reference), gateway: cpu(rounds.gateway) };
    console.log(`Server CPU per request (median round): reference ${cpuMs.reference} ms, gateway ${cpuMs.gateway} ms (${(cpuMs.gateway / cpuMs.reference).toFixed(3)}×).`);

    // 2. Paid round trips, alternating between the two servers.
    console.log(`\n### Paid round trip: 402, sign, paid request, 202 (${PAID_ROUNDS} each, alternating)\n`);
    const times: Record<"gateway" | "reference", number[]> = { gateway: [], reference: [] };
    const share: number[] = [];
    const parts: Record<string, number[]> = {};
    for (let i = 0; i < PAID_ROUNDS * 2; i++) {
      const target = i % 2 === 0 ? "gateway" : "reference";
      const wallet = chain.testWallets[i % chain.testWallets.length]!;
      const { fetch: pay } = createPayingFetch({ privateKey: wallet.privateKey, network: chain.network, asset: chain.asset });
      const started = performance.now();
      const response = await pay(`${target === "gateway" ? gatewayUrl : referenceUrl}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: CHAT_BODY,
      });
      const elapsed = performance.now() - started;
      await response.arrayBuffer();
      if (response.status !== 202) throw new Error(`${target} answered ${response.status} to a paid request`);
      if (i >= 2) times[target].push(elapsed); // the first of each warms up
      const timing = response.headers.get("server-timing");
      if (target === "gateway" && timing && i >= 2) {
        const dur = (name: string) => Number(new RegExp(`${name};dur=([\\d.]+)`).exec(timing)?.[1]);
        share.push(dur("total") - dur("verify") - dur("settle"));
        for (const name of ["checks", "claim", "upstream"]) (parts[name] ??= []).push(dur(name));
      }
    }
    const median = (v: number[]) => percentile(v, 50);
    const paid = {
      gatewayP50: median(times.gateway),
      referenceP50: median(times.reference),
      gatewayP99: percentile(times.gateway, 99),
      referenceP99: percentile(times.reference, 99),
      gatewayShareP50: median(share),
      gatewayShareP99: percentile(share, 99),
    };
    console.log("| | p50 ms | p99 ms |");
    console.log("|---|---:|---:|");
    console.log(`| reference round trip | ${paid.referenceP50.toFixed(1)} | ${paid.referenceP99.toFixed(1)} |`);
    console.log(`| gateway round trip | ${paid.gatewayP50.toFixed(1)} | ${paid.gatewayP99.toFixed(1)} |`);
    console.log(`| gateway's own share of the paid request | ${paid.gatewayShareP50.toFixed(1)} | ${paid.gatewayShareP99.toFixed(1)} |`);
    for (const [name, values] of Object.entries(parts)) console.log(`| … of which ${name} | ${median(values).toFixed(1)} | ${percentile(values, 99).toFixed(1)} |`);
    console.log(`\nGateway / reference round trip at p50: ${(paid.gatewayP50 / paid.referenceP50).toFixed(3)}×`);

    // 3. The cron over scheduled deep-research payments.
    console.log("\n### Settlement cron over scheduled deep-research payments\n");
    await runMigrations(pool, { schema: "gateway", migrations: gatewayMigrations });
    const requirements = decodePaymentRequiredHeader(
      (await fetch(`${gatewayUrl}/api/deep-research/start`, { method: "POST", body: "{}" })).headers.get("payment-required")!,
    ).accepts[0]!;
    const cron: { count: number; seconds: number; msPerPayment: number; runs: number }[] = [];
    for (const count of [100, 500]) {
      await seedScheduled({ pool, requirements, count, wallets: chain.testWallets, chainId: chain.chainId });
      const started = performance.now();
      let runs = 0;
      let settled = 0;
      for (;;) {
        const response = await fetch(`${gatewayUrl}/api/cron`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
        const result = (await response.json()) as { checked: number; settled: number; errors: number };
        runs++;
        settled += result.settled;
        if (result.errors) throw new Error(`cron reported ${result.errors} errors`);
        if (result.checked === 0) break;
      }
      const elapsed = (performance.now() - started) / 1000;
      if (settled !== count) throw new Error(`cron settled ${settled} of ${count}`);
      cron.push({ count, seconds: elapsed, msPerPayment: (elapsed * 1000) / count, runs });
    }
    console.log("| scheduled payments | cron runs | total s | ms per payment |");
    console.log("|---:|---:|---:|---:|");
    for (const c of cron) console.log(`| ${c.count} | ${c.runs} | ${c.seconds.toFixed(2)} | ${c.msPerPayment.toFixed(1)} |`);
    console.log(`\nTime per payment, 500 against 100: ${(cron[1]!.msPerPayment / cron[0]!.msPerPayment).toFixed(3)}×`);

    saveResults("payments", { seconds, connections, unpaid, rounds, reachCalls, cpuMs, paid, paidRounds: PAID_ROUNDS, cron });
  } finally {
    await pool.end();
    await gateway.stop();
    await reference.stop();
    await agent.close();
    await chain.stop();
    await database.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The database of the payments bench: POSTGRES_URL when given; else, as production runs, a real
 * PostgreSQL (a throwaway cluster from the installed binaries); BENCH_DATABASE=pglite (or no
 * PostgreSQL installed) measures the embedded PGlite of the demo instead.
 */
async function openBenchDatabase(dataDir: string): Promise<{ url: string; label: string; stop: () => Promise<void> }> {
  if (process.env.POSTGRES_URL) return { url: process.env.POSTGRES_URL, label: "POSTGRES_URL", stop: async () => undefined };
  const bin = process.env.BENCH_DATABASE === "pglite" ? null : findPostgresBin();
  if (bin) {
    const server = await startThrowawayPostgres(bin);
    return { url: server.url, label: "PostgreSQL (throwaway cluster)", stop: server.stop };
  }
  const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  return { url: embedded.url, label: "embedded PGlite", stop: embedded.stop };
}

/** Inserts `count` verified deep-research payments, each scheduled on a finished conversation. */
async function seedScheduled({
  pool,
  requirements,
  count,
  wallets,
  chainId,
}: {
  pool: pg.Pool;
  requirements: PaymentRequirements;
  count: number;
  wallets: { privateKey: `0x${string}` }[];
  chainId: number;
}): Promise<void> {
  for (let i = 0; i < count; i++) {
    const { header } = await signExactPayment({ privateKey: wallets[i % wallets.length]!.privateKey, requirements, chainId });
    const checked = await verifyPaymentLocally({
      payload: decodePaymentHeader(header),
      requirements,
      chainId,
      nowSeconds: Math.floor(Date.now() / 1000),
      minRemainingSeconds: 0,
    });
    const { row } = await claimPayment({ db: pool, checked, requirements, operation: "deepResearch", route: "POST /api/deep-research/start", requestDigest: randomUUID() });
    const conversationId = randomUUID();
    await updatePayment({ db: pool, id: row.id, status: "scheduled", fields: { conversationId, messageId: `m-${conversationId}` } });
  }
}
