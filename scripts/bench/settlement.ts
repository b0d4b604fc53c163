/**
 * `npm run bench -- settlement`: N distinct payers arriving at once, each paying for a chat with
 * the official x402 client, against the gateway as `npm start` runs it (the self-hosted
 * facilitator's pipelined settlement engine), side by side with the same gateway and facilitator
 * settling one transfer at a time (FACILITATOR_SETTLEMENT_MODE=serial, the usual fix for nonce
 * clashes, as the reference). On automine (a block per transaction) and on interval mining with
 * Base-like 2-second blocks. Reported per run: accepted/N, the payee's balance change in prices,
 * p50/p99 of the paid round trip (402, sign, paid request, 202), settlements per second, and how
 * many blocks after arrival the last transfer landed. BENCH_SETTLEMENT_N (10,50,100,200) and
 * BENCH_SERIAL_MAX_SECONDS (150: serial runs projected to take longer at 2-second blocks are
 * reported as not run, with their projection) change the runs; BENCH_LOGS=1 shows the gateways' logs.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { erc20Abi, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createPayingFetch } from "../../lib/client/payments/client";
import { findPostgresBin, freePort, startThrowawayPostgres } from "../../tests/support/postgres";
import { startLocalChain, type LocalChain } from "../lib/local-chain";
import { gatewayServerArgs, startService, waitForHttp, type Service } from "../lib/processes";
import { percentile, root, saveResults } from "./common";

const SIZES = (process.env.BENCH_SETTLEMENT_N ?? "10,50,100,200").split(",").map(Number);
const SERIAL_MAX_SECONDS = Number(process.env.BENCH_SERIAL_MAX_SECONDS ?? 150);
const BLOCK_MS = 2_000;
const PRICE = 20_000n;

type Mining = "automine" | "2 s blocks";
type Engine = "pipelined" | "serial";
type Run = {
  mining: Mining;
  engine: Engine;
  n: number;
  accepted: number;
  payeeGainPrices: number;
  p50: number;
  p99: number;
  settlementsPerSecond: number;
  blocksToLastTransfer: number;
  seconds: number;
};

async function startAgentDouble(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const cancel = req.url?.startsWith("/api/chat/cancel/");
      res.writeHead(cancel ? 204 : 202, { "content-type": "application/json" });
      res.end(cancel ? undefined : JSON.stringify({ requestId: randomUUID(), status: "queued" }));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

export async function runSettlementBench(): Promise<void> {
  console.log("\n## Settlement: many payers at once\n");
  const bin = findPostgresBin();
  if (!bin) throw new Error("the settlement bench needs the PostgreSQL server binaries (apt-get install postgresql)");
  const largest = Math.max(...SIZES);
  console.log(`Starting the chain and funding ${largest + 1} wallets…`);
  const chain = await startLocalChain({ port: await freePort(), walletCount: largest + 1, usdcPerWallet: 100n * 10n ** 6n });
  const pg = await startThrowawayPostgres(bin);
  const agent = await startAgentDouble();
  const rpc = (method: string, params: unknown[] = []) => chain.publicClient.request({ method, params } as never);
  // The serial reference pays gas from an account of its own, so the two never share nonces.
  const [serialFacilitator, ...payers] = chain.testWallets;
  const gateways: Record<Engine, { url: string; payTo: Hex; service: Service }> = {} as never;
  try {
    for (const engine of ["pipelined", "serial"] as const) {
      const port = await freePort();
      const payTo = privateKeyToAccount(generatePrivateKey()).address;
      const service = startService({
        name: `gateway-${engine}`,
        command: process.execPath,
        args: gatewayServerArgs(root),
        env: {
          ...process.env,
          NODE_ENV: "production",
          NEXT_TELEMETRY_DISABLED: "1",
          LOG_SILENT: process.env.BENCH_LOGS ? "0" : "1",
          PORT: String(port),
          POSTGRES_URL: pg.url,
          DB_POOL_MAX: "20",
          UPSTREAM_API_URL: agent.url,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          RPC_URL: chain.rpcUrl,
          X402_ASSET: chain.asset,
          PAY_TO_ADDRESS: payTo,
          INVALID_PAYMENT_LIMIT: "1000000",
          FACILITATOR_SETTLEMENT_MODE: engine,
          ...(engine === "serial" ? { FACILITATOR_PRIVATE_KEY: serialFacilitator!.privateKey } : {}),
        },
        quiet: !process.env.BENCH_LOGS,
      });
      gateways[engine] = { url: `http://127.0.0.1:${port}`, payTo, service };
    }
    for (const { url } of Object.values(gateways)) await waitForHttp(`${url}/api/health`, { statuses: [200, 503] });

    const runs: Run[] = [];
    for (const mining of ["automine", "2 s blocks"] as const) {
      await rpc("evm_setAutomine", [mining === "automine"]);
      await rpc("evm_setIntervalMining", [mining === "automine" ? 0 : BLOCK_MS]);
      // A first payment each warms the servers' code paths and the engines' nonce counters.
      for (const engine of ["pipelined", "serial"] as const) await payAtOnce({ chain, gateway: gateways[engine], payers: payers.slice(0, 1) });
      for (const n of SIZES) {
        for (const engine of ["pipelined", "serial"] as const) {
          const projected = (n * BLOCK_MS) / 1000;
          if (engine === "serial" && mining === "2 s blocks" && projected > SERIAL_MAX_SECONDS) {
            console.log(`  ${mining}, N=${n}, serial: not run (one transfer per block: about ${projected.toFixed(0)} s)`);
            continue;
          }
          const run = await payAtOnce({ chain, gateway: gateways[engine], payers: payers.slice(0, n) });
          runs.push({ mining, engine, n, ...run });
          console.log(`  ${mining}, N=${n}, ${engine}: ${run.accepted}/${n} accepted in ${run.seconds.toFixed(1)} s`);
        }
      }
    }

    console.log("\n| mining | N | engine | accepted | payee gain (prices) | p50 ms | p99 ms | settlements/s | blocks to last transfer |");
    console.log("|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for (const r of runs) {
      console.log(
        `| ${r.mining} | ${r.n} | ${r.engine} | ${r.accepted}/${r.n} | ${r.payeeGainPrices} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.settlementsPerSecond.toFixed(1)} | ${r.blocksToLastTransfer} |`,
      );
    }
    console.log("\nPipelined against serial, settlements per second:");
    for (const mining of ["automine", "2 s blocks"] as const) {
      for (const n of SIZES) {
        const p = runs.find((r) => r.mining === mining && r.n === n && r.engine === "pipelined");
        const s = runs.find((r) => r.mining === mining && r.n === n && r.engine === "serial");
        if (p && s) console.log(`  ${mining}, N=${n}: ${(p.settlementsPerSecond / s.settlementsPerSecond).toFixed(1)}×`);
      }
    }
    const goal = runs.find((r) => r.mining === "2 s blocks" && r.n === 100 && r.engine === "pipelined");
    if (goal) {
      console.log(
        `\nGoal, 100 payers at 2-second blocks: all settled within ${goal.blocksToLastTransfer} block(s) of arrival (goal ≤ 2), p99 round trip ${(goal.p99 / 1000).toFixed(2)} s (goal ≤ 5 s), ${goal.accepted}/100 accepted, payee gained ${goal.payeeGainPrices} prices.`,
      );
    }
    saveResults("settlement", { sizes: SIZES, blockMs: BLOCK_MS, runs });
  } finally {
    await rpc("evm_setIntervalMining", [0]).catch(() => undefined);
    for (const { service } of Object.values(gateways)) await service.stop();
    await agent.close();
    await pg.stop();
    await chain.stop();
  }
}

/** N payers pay for a chat at the same moment, each with the official client; what happened. */
async function payAtOnce({ chain, gateway, payers }: { chain: LocalChain; gateway: { url: string; payTo: Hex }; payers: { privateKey: Hex }[] }) {
  const balance = () => chain.publicClient.readContract({ address: chain.asset, abi: erc20Abi, functionName: "balanceOf", args: [gateway.payTo] });
  const before = await balance();
  const arrivalBlock = await chain.publicClient.getBlockNumber();
  const clients = payers.map((p) => createPayingFetch({ privateKey: p.privateKey, network: chain.network, asset: chain.asset }).fetch);
  const started = performance.now();
  const results = await Promise.all(
    clients.map(async (pay, i) => {
      const t0 = performance.now();
      const response = await pay(`${gateway.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: `payer ${i}: does rapamycin extend lifespan?` }),
      });
      await response.arrayBuffer();
      const header = response.headers.get("payment-response");
      return { ms: performance.now() - t0, ok: response.status === 202, transaction: header ? (decodePaymentResponseHeader(header).transaction as Hex) : null };
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // The last transfer's block (a pending one is waited for: it was broadcast).
  let lastBlock = arrivalBlock;
  for (const r of results) {
    if (!r.transaction) continue;
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: r.transaction, pollingInterval: 100 });
    if (receipt.blockNumber > lastBlock) lastBlock = receipt.blockNumber;
  }
  const times = results.map((r) => r.ms);
  const accepted = results.filter((r) => r.ok).length;
  return {
    accepted,
    payeeGainPrices: Number(((await balance()) - before) / PRICE),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    settlementsPerSecond: accepted / seconds,
    blocksToLastTransfer: Number(lastBlock - arrivalBlock),
    seconds,
  };
}
