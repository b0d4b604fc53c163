import { randomUUID } from "node:crypto";
import type { PaymentRequirements } from "@x402/core/types";
import type pg from "pg";
import { erc20Abi, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPool } from "@/lib/shared/db/pool";
import { runMigrations } from "@/lib/shared/db/migrate";
import { gatewayMigrations } from "@/lib/shared/db/migrations/gateway";
import { tokenEventsAbi } from "@/lib/gateway/payments/chain";
import { createPayingFetch } from "@/lib/client/payments/client";
import { LOCAL_FACILITATOR } from "@/lib/shared/payments/local-chain";
import { SettlementEngine } from "@/lib/gateway/payments/settlement/engine";
import { createTestDatabase, databaseKind } from "../support/database";
import { startGatewayProcess, type GatewayProcess } from "../support/gateway-processes";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, chainClients, claimTestPayment, freshAddress, localRequirements, usdcBalance, wallet } from "../support/payments";
import { startRpcProxy, type RpcProxy } from "../support/rpc-proxy";

/**
 * The self-hosted facilitator's settlement engine on the suite's chain: many transfers in flight
 * from several processes without a nonce clash, and every way a transaction goes astray (dropped,
 * stuck under a rising base fee, never broadcast before a crash, refused by the node) recovered
 * with exactly one transfer per authorization. This file's wallets: 70 to 79; its facilitator
 * accounts are wallets of its own, so other files' nonces are not disturbed.
 */

const PUBLIC_URL = "https://gateway.test";

describe("settlement engine", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let requirements: PaymentRequirements;
  const payTo = freshAddress();
  const { publicClient } = chainClients();
  const rpc = (method: string, params: unknown[] = []) => publicClient.request({ method, params } as never);
  const engines: SettlementEngine[] = [];
  const proxies: RpcProxy[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool({ url: database.url, max: 10 });
    await runMigrations(pool, { schema: "gateway", migrations: gatewayMigrations });
    requirements = localRequirements({ amount: "20000", payTo });
  });
  afterEach(async () => {
    await rpc("evm_setAutomine", [true]);
    await rpc("evm_setIntervalMining", [0]);
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  /** An engine with facilitator accounts of its own (funded test wallets). */
  function engine({ keys, rpcUrl = chain().rpcUrl, mode, stuckBlocks = 2 }: { keys: Hex[]; rpcUrl?: string; mode?: "serial"; stuckBlocks?: number }) {
    const made = new SettlementEngine({
      rpcUrl,
      chainId: chain().chainId,
      network: chain().network,
      privateKeys: keys,
      getPool: async () => pool,
      pollMs: 25,
      stuckBlocks,
      ...(mode ? { mode } : {}),
    });
    engines.push(made);
    return made;
  }

  /** A claimed payment of `payer`, as the paid route leaves it before settling. */
  async function payment(payerIndex: number) {
    const { row, payload, nonce, payer } = await claimTestPayment({ db: pool, requirements, privateKey: wallet(payerIndex).privateKey });
    return { paymentId: row.id, payload, requirements, nonce, payer };
  }

  /** Transfers of `payer`'s authorization `nonce` on chain (each is one AuthorizationUsed). */
  async function transfersOf(payer: string, nonce: string): Promise<number> {
    const logs = await publicClient.getLogs({ address: chain().asset as Hex, event: tokenEventsAbi[1], args: { authorizer: payer as Hex, nonce: nonce as Hex }, fromBlock: 0n });
    return logs.length;
  }

  /** Mines a block each time the chain is asked to, until `done` settles (automine off). */
  async function mineUntil<T>(done: Promise<T>): Promise<T> {
    let finished = false;
    void done.finally(() => (finished = true));
    while (!finished) {
      await rpc("evm_mine");
      await new Promise((r) => setImmediate(r));
      await Promise.race([done.catch(() => undefined), new Promise((r) => setTimeout(r, 20))]);
    }
    return done;
  }

  async function rows(paymentId: string) {
    const { rows } = await pool.query<{ hash: string; nonce: string; status: string; address: string }>(
      "SELECT hash, nonce::text AS nonce, status, address FROM gateway.settlement_transactions WHERE payment_id = $1 ORDER BY created_at",
      [paymentId],
    );
    return rows;
  }

  it("sends many transfers at once from one account, consecutive nonces, one transfer each", async () => {
    const key = wallet(70).privateKey;
    const settling = engine({ keys: [key] });
    const before = await usdcBalance(payTo);
    const nonceBefore = await publicClient.getTransactionCount({ address: wallet(70).address as Hex });
    const payments = await Promise.all(Array.from({ length: 12 }, (_, i) => payment(71 + (i % 8))));
    const results = await Promise.all(payments.map((p) => settling.settle({ ...p, waitMs: 30_000 })));
    expect(results.map((r) => r.kind)).toEqual(Array(12).fill("settled"));
    expect((await usdcBalance(payTo)) - before).toBe(12n * 20_000n);
    expect((await publicClient.getTransactionCount({ address: wallet(70).address as Hex })) - nonceBefore).toBe(12);
    for (const p of payments) expect(await transfersOf(p.payer, p.nonce)).toBe(1);
  });

  it("re-sends a transaction the node dropped, at the same nonce, and pays once", async () => {
    const settling = engine({ keys: [wallet(71).privateKey] });
    const p = await payment(72);
    await rpc("evm_setAutomine", [false]);
    const result = settling.settle({ ...p, waitMs: 60_000 });
    await expect.poll(async () => (await rows(p.paymentId)).map((r) => r.status), { timeout: 10_000 }).toEqual(["pending"]);
    const [sent] = await rows(p.paymentId);
    await rpc("hardhat_dropTransaction", [sent!.hash]);
    expect(await publicClient.getTransaction({ hash: sent!.hash as Hex }).catch(() => null)).toBeNull();
    expect(await mineUntil(result)).toEqual({ kind: "settled", transaction: sent!.hash });
    expect(await transfersOf(p.payer, p.nonce)).toBe(1);
  });

  it("replaces a transaction stuck under a rising base fee with a higher fee at the same nonce, and pays once", async () => {
    const settling = engine({ keys: [wallet(73).privateKey] });
    const p = await payment(74);
    const before = await usdcBalance(payTo);
    await rpc("evm_setAutomine", [false]);
    const result = settling.settle({ ...p, waitMs: 60_000 });
    await expect.poll(async () => (await rows(p.paymentId)).map((r) => r.status), { timeout: 10_000 }).toEqual(["pending"]);
    // The next blocks cost far more than the transaction offers: it cannot be included.
    const { rows: sent } = await pool.query<{ cap: string }>("SELECT max_fee_per_gas::text AS cap FROM gateway.settlement_transactions WHERE payment_id = $1", [p.paymentId]);
    await rpc("hardhat_setNextBlockBaseFeePerGas", [`0x${(BigInt(sent[0]!.cap) * 4n).toString(16)}`]);
    const outcome = await mineUntil(result);
    expect(outcome.kind).toBe("settled");
    const attempts = await rows(p.paymentId);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts.map((a) => a.nonce)).size).toBe(1);
    expect(attempts.filter((a) => a.status === "mined")).toHaveLength(1);
    expect(attempts.find((a) => a.status === "mined")?.hash).toBe((outcome as { transaction: string }).transaction);
    expect(await transfersOf(p.payer, p.nonce)).toBe(1);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
  });

  it("never reports a transfer whose nonce another transaction took (the repair's filler) as on its way: it can never land, so it is unavailable, not broadcast", async () => {
    const key = wallet(73).privateKey;
    const settling = engine({ keys: [key] });
    const p = await payment(74);
    await rpc("evm_setAutomine", [false]);
    // Waits longer than the test needs to put the filler in: the outcome is read after the wait.
    const result = settling.settle({ ...p, waitMs: 20_000 });
    await expect.poll(async () => (await rows(p.paymentId)).map((r) => r.status), { timeout: 10_000 }).toEqual(["pending"]);
    const [sent] = await rows(p.paymentId);
    const ours = await publicClient.getTransaction({ hash: sent!.hash as Hex });
    // An empty transaction at the same nonce with higher fees, as the repair sends, is mined instead.
    await chainClients()
      .walletFor(key)
      .sendTransaction({
        to: wallet(73).address as Hex,
        value: 0n,
        gas: 21_000n,
        nonce: Number(sent!.nonce),
        maxFeePerGas: ours.maxFeePerGas! * 2n,
        maxPriorityFeePerGas: ours.maxPriorityFeePerGas! * 2n + 1n,
      });
    await rpc("evm_mine");
    expect((await result).kind).toBe("unavailable");
    expect(await transfersOf(p.payer, p.nonce)).toBe(0);
  });

  it("reports a transfer another process replaced at the same nonce as settled once the replacement is mined, never as a nonce taken with nothing transferred", async () => {
    const key = wallet(76).privateKey;
    const p = await payment(72);
    const before = await usdcBalance(payTo);
    await rpc("evm_setAutomine", [false]);
    // This process follows its transaction and would not replace it for a long while…
    const first = engine({ keys: [key], stuckBlocks: 1_000 }).settle({ ...p, waitMs: 15_000 });
    await expect.poll(async () => (await rows(p.paymentId)).map((r) => r.status), { timeout: 10_000 }).toEqual(["pending"]);
    const { rows: sent } = await pool.query<{ cap: string }>("SELECT max_fee_per_gas::text AS cap FROM gateway.settlement_transactions WHERE payment_id = $1", [p.paymentId]);
    await rpc("hardhat_setNextBlockBaseFeePerGas", [`0x${(BigInt(sent[0]!.cap) * 4n).toString(16)}`]);
    // …while another one following the same payment (a resent request) replaces it with a higher fee, and that is mined.
    const second = engine({ keys: [key] }).settle({ ...p, waitMs: 60_000 });
    const [outcome, replaced] = await mineUntil(Promise.all([first, second]));
    expect(replaced.kind).toBe("settled");
    expect(outcome).toEqual(replaced);
    const attempts = await rows(p.paymentId);
    expect(attempts.filter((a) => a.status === "mined").map((a) => a.hash)).toEqual([(replaced as { transaction: string }).transaction]);
    expect(await transfersOf(p.payer, p.nonce)).toBe(1);
    expect((await usdcBalance(payTo)) - before).toBe(20_000n);
  });

  it("after a restart, sends the transaction a dead process recorded but never broadcast, and pays once", async () => {
    const proxy = await startRpcProxy(chain().rpcUrl);
    proxies.push(proxy);
    // The first process's broadcast never reaches the node: the connection drops while sending.
    proxy.setHook((call) => (call.method === "eth_sendRawTransaction" ? { kind: "hang-up" } : { kind: "forward" }));
    const key = wallet(75).privateKey;
    const p = await payment(76);
    const first = await engine({ keys: [key], rpcUrl: proxy.url }).settle({ ...p, waitMs: 5_000 });
    expect(first.kind === "unavailable" || first.kind === "broadcast").toBe(true);
    const [recorded] = await rows(p.paymentId);
    expect(recorded).toBeDefined();
    expect(await publicClient.getTransaction({ hash: recorded!.hash as Hex }).catch(() => null)).toBeNull();

    const restarted = engine({ keys: [key] });
    expect(await restarted.settle({ ...p, waitMs: 30_000 })).toEqual({ kind: "settled", transaction: recorded!.hash });
    expect(await transfersOf(p.payer, p.nonce)).toBe(1);
  });

  it("fills a nonce the node refused with an empty transaction, so the ones after it are mined", async () => {
    const proxy = await startRpcProxy(chain().rpcUrl);
    proxies.push(proxy);
    let refused = 0;
    proxy.setHook((call) => (call.method === "eth_sendRawTransaction" && refused++ === 0 ? { kind: "error", code: -32000, message: "txpool is full" } : { kind: "forward" }));
    const key = wallet(77).privateKey;
    const address = wallet(77).address as Hex;
    const nonceBefore = await publicClient.getTransactionCount({ address });
    const p = await payment(78);
    const result = await engine({ keys: [key], rpcUrl: proxy.url }).settle({ ...p, waitMs: 30_000 });
    expect(result.kind).toBe("settled");
    expect(await transfersOf(p.payer, p.nonce)).toBe(1);
    // The refused nonce was taken by an empty transaction to the account itself.
    const filler = await pool.query<{ hash: Hex }>("SELECT hash FROM gateway.settlement_transactions WHERE address = $1 AND nonce = $2 AND payment_id IS NULL", [
      address.toLowerCase(),
      nonceBefore,
    ]);
    expect(filler.rows).toHaveLength(1);
    const receipt = await publicClient.getTransactionReceipt({ hash: filler.rows[0]!.hash });
    expect(receipt).toMatchObject({ status: "success", from: address.toLowerCase(), to: address.toLowerCase() });
    expect(await publicClient.getTransactionCount({ address })).toBe(nonceBefore + 2);
  });

  it("spreads settlements over several facilitator accounts", async () => {
    const keys = [wallet(70).privateKey, wallet(71).privateKey];
    const settling = engine({ keys });
    const payments = await Promise.all(Array.from({ length: 6 }, (_, i) => payment(72 + i)));
    const results = await Promise.all(payments.map((p) => settling.settle({ ...p, waitMs: 30_000 })));
    expect(results.every((r) => r.kind === "settled")).toBe(true);
    const senders = new Set((await Promise.all(payments.map((p) => rows(p.paymentId)))).flat().map((r) => r.address));
    expect(senders).toEqual(new Set([wallet(70).address.toLowerCase(), wallet(71).address.toLowerCase()]));
  });

  it("refuses, without sending anything, a transfer that would revert", async () => {
    const settling = engine({ keys: [wallet(70).privateKey] });
    const p = await payment(79);
    const { walletFor } = chainClients();
    // The payer spends the same authorization's funds elsewhere first.
    const payer = walletFor(wallet(79).privateKey);
    const balance = await usdcBalance(wallet(79).address);
    const hash = await payer.writeContract({
      address: chain().asset as Hex,
      abi: erc20Abi,
      functionName: "transfer",
      args: [freshAddress(), balance],
    });
    await publicClient.waitForTransactionReceipt({ hash });
    const result = await settling.settle({ ...p, waitMs: 5_000 });
    expect(result).toMatchObject({ kind: "refused", reason: "insufficient_funds" });
    expect(await rows(p.paymentId)).toEqual([]);
  });
});

// Competing processes need a real server: PGlite serializes every connection.
describe.skipIf(databaseKind() === "pglite")("two gateway processes settling at the same moment", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let gateways: GatewayProcess[] = [];
  const payTo = freshAddress();

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startHttpDouble((req) => {
      if (req.path.startsWith("/api/chat/cancel/")) return { status: 204 };
      if (req.path === "/api/chat") return { status: 202, body: { requestId: randomUUID(), status: "queued" } };
      return { status: 404, body: { error: "unknown" } };
    });
    const env = {
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      FACILITATOR_PRIVATE_KEY: LOCAL_FACILITATOR.privateKey,
    };
    gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.kill()));
    await agent.close();
    await database.drop();
  });

  it("thirty payers split over two processes at once: all served, thirty transfers, consecutive nonces", async () => {
    const before = await usdcBalance(payTo);
    const nonceBefore = await chainClients().publicClient.getTransactionCount({ address: LOCAL_FACILITATOR.address });
    const responses = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const gateway = gateways[i % 2]!;
        // Wallet 79 was emptied above.
        const { fetch: pay } = createPayingFetch({ privateKey: wallet(70 + (i % 9)).privateKey, network: chain().network, asset: chain().asset });
        const response = await pay(`${gateway.url}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: `payer ${i}` }) });
        return response.status === 202 ? 202 : `${response.status} ${await response.text()}`;
      }),
    );
    expect(responses).toEqual(Array(30).fill(202));
    expect((await usdcBalance(payTo)) - before).toBe(30n * 20_000n);
    expect((await chainClients().publicClient.getTransactionCount({ address: LOCAL_FACILITATOR.address })) - nonceBefore).toBe(30);
  });
});
