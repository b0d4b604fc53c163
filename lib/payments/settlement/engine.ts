import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { eip3009ABI } from "@x402/evm";
import type pg from "pg";
import {
  createPublicClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  http,
  keccak256,
  parseErc6492Signature,
  parseSignature,
  parseTransaction,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { log } from "@/lib/log";
import { createChainReaderFor, type AuthorizationRef, type ChainReader } from "../chain";
import { classifyChainError, isUnreachable, revertReason, revertText, type TransactionRejection } from "../chain-errors";
import type { PaymentReason } from "../reasons";
import { FeeOracle, bumpFees, type Fees } from "./fees";
import {
  allocateNonceAndRecord,
  getAccountNextNonce,
  listOpenTransactions,
  listPaymentTransactions,
  listTransactionsAtNonces,
  markTransactions,
  recordTransactionAtNonce,
  syncAccountNonce,
  type SettlementTx,
  type SignedTx,
} from "./transactions";
import { ReceiptWatcher } from "./watcher";

/**
 * The self-hosted facilitator's settlement engine. It sends EIP-3009 transfers from its own
 * accounts and allocates their transaction nonces itself, in Postgres, so any number of transfers
 * are in flight per block, from any number of gateway processes, without two ever taking the same
 * nonce. Every transaction is recorded before it is broadcast; a transaction that is dropped is
 * sent again, one that is stuck is replaced at the same nonce with a higher fee, a nonce whose
 * transaction could not be sent is filled with an empty one, and a restart resumes from the
 * ledger. The token itself guarantees one transfer per authorization, so whatever happens around
 * a payment it is never charged twice.
 */

export type EngineResult =
  /** The transfer is on chain (receipt with the authorization's Transfer). */
  | { kind: "settled"; transaction: Hex }
  /** Broadcast; the receipt did not come within the wait. */
  | { kind: "broadcast"; transaction: Hex }
  /** The payment cannot be settled: the payer's fault (402). */
  | { kind: "refused"; reason: PaymentReason; message: string }
  /** The service could not settle now (503); `mayHaveTransferred` when a transaction may have left. */
  | { kind: "unavailable"; message: string; mayHaveTransferred: boolean };

export type EngineOptions = {
  rpcUrl: string;
  chainId: number;
  network: string;
  privateKeys: Hex[];
  getPool: () => Promise<pg.Pool>;
  /** How often the chain's head is read while settlements wait. */
  pollMs?: number;
  /** Blocks without a receipt before a transaction is sent again or replaced. */
  stuckBlocks?: number;
  /** `serial` sends one transfer per account at a time (the usual fix, kept as the benchmark's reference). */
  mode?: "pipelined" | "serial";
};

/** How old a transaction must be before the repair touches it (a request may still be following it). */
const REPAIR_GRACE_MS = 30_000;

type Account = {
  signer: PrivateKeyAccount;
  address: string;
  inFlight: number;
  noGasUntil: number;
  /** Nonces are taken and sent one at a time per account in this process (milliseconds each). */
  sending: Mutex;
  /** `serial` mode: one whole settlement (send and receipt) at a time. */
  serial: Mutex;
};

/** A promise chain: run() waits for everything started before it. */
class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Revert reasons of Circle's FiatToken (and OpenZeppelin-style tokens) → the payment's reason. */
const REVERT_REASONS: [RegExp, PaymentReason][] = [
  [/exceeds balance|insufficient balance/i, "insufficient_funds"],
  [/authorization is used or canceled|authorization is used|nonce already used/i, "payment_already_used"],
  [/authorization is not yet valid/i, "authorization_not_yet_valid"],
  [/authorization is expired/i, "authorization_expired"],
  [/invalid signature|ECRecover/i, "invalid_signature"],
];

export function reasonForRevert(text: string): PaymentReason {
  return REVERT_REASONS.find(([pattern]) => pattern.test(text))?.[1] ?? "payment_simulation_failed";
}

export class SettlementEngine {
  readonly client: PublicClient;
  readonly chainReader: ChainReader;
  private readonly accounts: Account[];
  private readonly watcher: ReceiptWatcher;
  private readonly fees: FeeOracle;
  private readonly mode: "pipelined" | "serial";
  private chainKey: Promise<string> | null = null;
  private nextAccount = 0;

  constructor(private readonly options: EngineOptions) {
    if (options.privateKeys.length === 0) throw new Error("the settlement engine needs at least one facilitator key");
    const chain = defineChain({
      id: options.chainId,
      name: options.network,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [options.rpcUrl] } },
    });
    // Batching lets the watcher's receipt lookups of one tick travel as one JSON-RPC batch.
    this.client = createPublicClient({ chain, transport: http(options.rpcUrl, { timeout: 10_000, batch: { batchSize: 200, wait: 0 } }), pollingInterval: 250 }) as PublicClient;
    this.chainReader = createChainReaderFor(this.client);
    this.accounts = options.privateKeys.map((key) => {
      const signer = privateKeyToAccount(key);
      return { signer, address: signer.address.toLowerCase(), inFlight: 0, noGasUntil: 0, sending: new Mutex(), serial: new Mutex() };
    });
    this.watcher = new ReceiptWatcher(this.client, { pollMs: options.pollMs ?? 200, stuckBlocks: options.stuckBlocks ?? 3 });
    this.fees = new FeeOracle(this.client);
    this.mode = options.mode ?? "pipelined";
  }

  get addresses(): string[] {
    return this.accounts.map((a) => getAddress(a.address));
  }

  /**
   * The chain's identity for the nonce ledger: its id and genesis hash, so a fresh local chain
   * (same id, new genesis) starts its nonces over instead of inheriting a vanished chain's. On
   * first use it also brings every account's counter up to the chain and, in the background,
   * resumes what an earlier process left in flight.
   */
  private ready(): Promise<string> {
    this.chainKey ??= (async () => {
      const genesis = await this.client.getBlock({ blockNumber: 0n });
      const key = `${this.options.chainId}:${genesis.hash}`;
      const pool = await this.options.getPool();
      for (const account of this.accounts) {
        const chainNonce = BigInt(await this.client.getTransactionCount({ address: getAddress(account.address), blockTag: "pending" }));
        await syncAccountNonce({ db: pool, chain: key, address: account.address, chainNonce });
      }
      return key;
    })().catch((err: unknown) => {
      this.chainKey = null;
      throw err;
    });
    return this.chainKey;
  }

  /**
   * Settles one payment, waiting up to `waitMs` for the receipt. A payment that already has
   * transactions (a retry, a crash, the cron) follows them: it never signs a second transfer
   * while an earlier one may still land.
   */
  async settle({ paymentId, payload, requirements, waitMs }: { paymentId: string; payload: PaymentPayload; requirements: PaymentRequirements; waitMs: number }): Promise<EngineResult> {
    let chain: string;
    try {
      chain = await this.ready();
    } catch (err) {
      if (isUnreachable(err)) return { kind: "unavailable", message: `the chain could not be reached: ${message(err)}`, mayHaveTransferred: false };
      throw err;
    }
    const pool = await this.options.getPool();
    const ref = authorizationRef(payload, requirements);
    const earlier = await listPaymentTransactions({ db: pool, paymentId });
    if (earlier.length > 0) {
      const followed = await this.follow({ chain, pool, ref, txs: earlier, waitMs });
      if (followed) return followed;
    }
    return this.sendTransfer({ chain, pool, paymentId, payload, requirements, ref, waitMs });
  }

  /**
   * Looks at a payment's existing transactions only (the cron, a retried request): the outcome if
   * one is known or still in flight, null when every one of them is finished without a transfer.
   */
  async confirm({
    paymentId,
    payload,
    requirements,
    waitMs,
    resend = true,
  }: {
    paymentId: string;
    payload: PaymentPayload;
    requirements: PaymentRequirements;
    waitMs: number;
    /** False for a payment that was given up: its receipts are read, nothing is sent again. */
    resend?: boolean;
  }): Promise<EngineResult | null> {
    const chain = await this.ready();
    const pool = await this.options.getPool();
    const txs = await listPaymentTransactions({ db: pool, paymentId });
    if (txs.length === 0) return null;
    return this.follow({ chain, pool, ref: authorizationRef(payload, requirements), txs, waitMs, resend });
  }

  private async sendTransfer({
    chain,
    pool,
    paymentId,
    payload,
    requirements,
    ref,
    waitMs,
    retries = 2,
  }: {
    chain: string;
    pool: pg.Pool;
    paymentId: string;
    payload: PaymentPayload;
    requirements: PaymentRequirements;
    ref: AuthorizationRef;
    waitMs: number;
    retries?: number;
  }): Promise<EngineResult> {
    let data: Hex;
    try {
      data = transferCallData(payload);
    } catch (err) {
      return { kind: "refused", reason: "invalid_signature", message: `the signature cannot be decoded: ${message(err)}` };
    }
    const account = this.pickAccount();
    if (!account) return { kind: "unavailable", message: "every facilitator account is out of gas funds", mayHaveTransferred: false };
    const to = getAddress(requirements.asset);

    // The transfer is simulated before a nonce is spent on it: a payment that would revert is
    // refused here, for free, instead of costing gas on chain.
    let gas: bigint;
    let fees: Fees;
    try {
      [gas, fees] = await Promise.all([this.client.estimateGas({ account: getAddress(account.address), to, data }), this.fees.current()]);
    } catch (err) {
      const failure = classifyChainError(err);
      if (failure.kind === "unreachable") return { kind: "unavailable", message: `the chain could not be reached: ${failure.message}`, mayHaveTransferred: false };
      const reason = revertReason(err);
      return { kind: "refused", reason: reasonForRevert(revertText(err)), message: reason ? `the transfer would revert: ${reason}` : `the transfer would fail: ${failure.message}` };
    }
    gas = (gas * 5n) / 4n + 10_000n;

    const run = async (): Promise<EngineResult | "retry"> => {
      account.inFlight++;
      try {
        // Taken and sent in nonce order within this process: nodes that cannot queue a transaction
        // ahead of a missing nonce (Hardhat's automine) would refuse the later one.
        const { tx, sent } = await account.sending.run(async () => {
          const tx = await allocateNonceAndRecord({
            pool,
            chain,
            address: account.address,
            paymentId,
            sign: (nonce) => this.sign(account, { nonce, to, data, gas, fees }),
          });
          return { tx, sent: await this.broadcastInOrder(tx) };
        });
        if (sent.status === "unknown") {
          return { kind: "unavailable", message: "the settlement transaction could not be broadcast (the RPC did not answer)", mayHaveTransferred: true };
        }
        if (sent.status === "rejected") {
          if (sent.why === "no_gas_funds") account.noGasUntil = Date.now() + 30_000;
          if (sent.why === "nonce_too_low" || sent.why === "underpriced") {
            // Something else used this account's nonce: catch the counter up with the chain.
            const chainNonce = BigInt(await this.client.getTransactionCount({ address: getAddress(account.address), blockTag: "pending" }));
            await syncAccountNonce({ db: pool, chain, address: account.address, chainNonce });
          }
          // The nonce may now be a hole: the repair fills it with an empty transaction.
          void this.repair().catch((err: unknown) => log.warn("settlement repair failed", { error: err }));
          if (retries > 0) return "retry";
          return { kind: "unavailable", message: `the chain refused the settlement transaction (${sent.why})`, mayHaveTransferred: false };
        }
        return await this.await({ pool, chain, ref, txs: [tx], waitMs });
      } finally {
        account.inFlight--;
      }
    };
    const result = this.mode === "serial" ? await account.serial.run(run) : await run();
    return result === "retry" ? this.sendTransfer({ chain, pool, paymentId, payload, requirements, ref, waitMs, retries: retries - 1 }) : result;
  }

  /**
   * Follows a payment's existing transactions: settled if one of them transferred; the outcome
   * of the ones still in flight (sent again when the node forgot them); null when all of them are
   * finished without a transfer, so a new one may be signed.
   */
  private async follow({
    chain,
    pool,
    ref,
    txs,
    waitMs,
    resend = true,
  }: {
    chain: string;
    pool: pg.Pool;
    ref: AuthorizationRef;
    txs: SettlementTx[];
    waitMs: number;
    resend?: boolean;
  }): Promise<EngineResult | null> {
    const receipts = await this.receipts(txs.map((t) => t.hash));
    await recordMined(pool, receipts, txs);
    const transfer = this.findTransfer(receipts, ref);
    if (transfer) return { kind: "settled", transaction: transfer };
    const open = txs.filter((t) => !receipts.has(t.hash) && (t.status === "signed" || t.status === "pending"));
    if (open.length === 0) return null;
    // A nonce the chain has moved past without any of our transactions at it: they are dead.
    const byAccount = new Map<string, bigint>();
    for (const tx of open) {
      if (!byAccount.has(tx.address)) byAccount.set(tx.address, BigInt(await this.client.getTransactionCount({ address: getAddress(tx.address), blockTag: "latest" })));
    }
    const dead = open.filter((t) => t.nonce < byAccount.get(t.address)!);
    if (dead.length > 0) {
      const rescued = await this.receipts(dead.map((t) => t.hash));
      await recordMined(pool, rescued, txs);
      const late = this.findTransfer(rescued, ref);
      if (late) return { kind: "settled", transaction: late };
      await markTransactions({ db: pool, hashes: dead.filter((t) => !rescued.has(t.hash)).map((t) => t.hash), status: "replaced", error: "nonce used by another transaction" });
    }
    const live = open.filter((t) => !dead.includes(t));
    if (live.length === 0) return null;
    if (!resend) return { kind: "broadcast", transaction: live.at(-1)!.hash };
    for (const tx of live) {
      // A transaction the node forgot (dropped, or never arrived before a crash) is sent again.
      if ((await this.client.getTransaction({ hash: tx.hash }).catch(() => null)) === null) await this.broadcast(tx);
    }
    return this.await({ pool, chain, ref, txs: live, waitMs });
  }

  /** Waits for any of `txs` (one nonce) to be mined, re-sending or replacing them if they stall. */
  private async await({ pool, chain, ref, txs, waitMs }: { pool: pg.Pool; chain: string; ref: AuthorizationRef; txs: SettlementTx[]; waitMs: number }): Promise<EngineResult> {
    const known = [...txs];
    const wait = this.watcher.watch(
      known.map((t) => t.hash),
      {
        timeoutMs: waitMs,
        onStuck: async () => {
          const replacement = await this.unstick({ pool, chain, txs: known });
          if (replacement) {
            known.push(replacement);
            wait.add(replacement.hash);
          }
        },
      },
    );
    const receipt = await wait.receipt;
    const latest = known.at(-1)!;
    if (!receipt) return { kind: "broadcast", transaction: latest.hash };
    const receipts = new Map([[receipt.transactionHash, receipt]]);
    await recordMined(pool, receipts, known);
    const transfer = this.findTransfer(receipts, ref);
    if (transfer) return { kind: "settled", transaction: transfer };
    return { kind: "refused", reason: "settlement_failed", message: `the transfer ${receipt.transactionHash} reverted on chain` };
  }

  /**
   * A transaction that has not been mined for a while: sent again if the node forgot it
   * (dropped), otherwise replaced at the same nonce with fees at least 25% higher and no lower
   * than the chain asks now. Both carry the same transfer, so whichever is mined pays once.
   */
  private async unstick({ pool, chain, txs }: { pool: pg.Pool; chain: string; txs: SettlementTx[] }): Promise<SettlementTx | null> {
    const latest = txs.at(-1)!;
    const address = getAddress(latest.address);
    const chainNonce = BigInt(await this.client.getTransactionCount({ address, blockTag: "latest" }));
    if (chainNonce < latest.nonce) {
      // An earlier nonce is missing (a transaction that never reached the chain): fill it first.
      void this.repair().catch((err: unknown) => log.warn("settlement repair failed", { error: err }));
    }
    const known = await this.client.getTransaction({ hash: latest.hash }).catch(() => null);
    if (!known) {
      log.warn("settlement transaction dropped by the node; sending it again", { hash: latest.hash, nonce: String(latest.nonce) });
      const sent = await this.broadcast(latest);
      if (sent.status !== "rejected") return null;
    }
    const account = this.accounts.find((a) => a.address === latest.address);
    if (!account) return null;
    const fees = bumpFees({ maxFeePerGas: latest.maxFeePerGas, maxPriorityFeePerGas: latest.maxPriorityFeePerGas }, await this.fees.current(true));
    const body = parseTransaction(latest.raw);
    const signed = await this.sign(account, { nonce: latest.nonce, to: body.to!, data: body.data ?? "0x", gas: body.gas!, fees });
    const replacement = await recordTransactionAtNonce({ db: pool, chain, address: account.address, nonce: latest.nonce, paymentId: latest.paymentId, signed });
    log.warn("settlement transaction stuck; replacing it with a higher fee", { hash: latest.hash, replacement: replacement.hash, nonce: String(latest.nonce) });
    await this.broadcast(replacement);
    return replacement;
  }

  /**
   * Brings every account's transactions in line with the chain, for the cron and after a
   * restart: receipts of everything in flight are recorded, transactions the node forgot are sent
   * again, stuck ones are replaced with a higher fee, transactions of payments that were given up
   * (answered 503 or 402) are cancelled by an empty transaction at their nonce, and nonces whose
   * transaction never reached the chain are filled. One process repairs an account at a time.
   */
  async repair(): Promise<{ confirmed: number; resent: number; filled: number }> {
    const chain = await this.ready();
    const pool = await this.options.getPool();
    const report = { confirmed: 0, resent: 0, filled: 0 };
    for (const account of this.accounts) {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS locked", [`settlement-repair:${chain}:${account.address}`]);
        if (!rows[0]?.locked) continue;
        try {
          await this.repairAccount({ pool, chain, account, report });
        } finally {
          await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`settlement-repair:${chain}:${account.address}`]);
        }
      } finally {
        client.release();
      }
    }
    return report;
  }

  private async repairAccount({ pool, chain, account, report }: { pool: pg.Pool; chain: string; account: Account; report: { confirmed: number; resent: number; filled: number } }): Promise<void> {
    const address = getAddress(account.address);
    // In this order: every nonce below `nextNonce` has its transaction recorded (taken atomically).
    const nextNonce = (await getAccountNextNonce({ db: pool, chain, address: account.address })) ?? 0n;
    const latestNonce = BigInt(await this.client.getTransactionCount({ address, blockTag: "latest" }));
    const open = await listOpenTransactions({ db: pool, chain, address: account.address });

    const receipts = await this.receipts(open.map((t) => t.hash));
    await recordMined(pool, receipts, open);
    report.confirmed += receipts.size;
    const consumed = open.filter((t) => !receipts.has(t.hash) && t.nonce < latestNonce);
    await markTransactions({ db: pool, hashes: consumed.map((t) => t.hash), status: "replaced", error: "nonce used by another transaction" });

    const upcoming: bigint[] = [];
    for (let nonce = latestNonce; nonce < nextNonce; nonce++) upcoming.push(nonce);
    const atNonce = await listTransactionsAtNonces({ db: pool, chain, address: account.address, nonces: upcoming });
    const abandoned = await abandonedPayments(pool, atNonce);
    // A request may still be following a recent transaction: leave those to it.
    const settledDown = Date.now() - REPAIR_GRACE_MS;
    for (const nonce of upcoming) {
      const live = atNonce.filter((t) => t.nonce === nonce && (t.status === "signed" || t.status === "pending") && !receipts.has(t.hash));
      const newest = live.at(-1);
      if (newest && newest.createdAt.getTime() > settledDown) continue;
      if (!newest || (newest.paymentId !== null && abandoned.has(newest.paymentId))) {
        // A hole (its transaction was refused by the node), or a transfer of a payment that was
        // given up: an empty transaction takes the nonce, outbidding whatever may sit in a pool.
        await this.fill({ pool, chain, account, nonce, floor: newest ?? null });
        report.filled++;
      } else {
        await this.unstick({ pool, chain, txs: live });
        report.resent++;
      }
    }
  }

  private async fill({ pool, chain, account, nonce, floor }: { pool: pg.Pool; chain: string; account: Account; nonce: bigint; floor: Fees | null }): Promise<void> {
    const current = await this.fees.current(true);
    const fees = floor ? bumpFees(floor, current) : current;
    const signed = await this.sign(account, { nonce, to: getAddress(account.address), data: "0x", gas: 21_000n, fees });
    const tx = await recordTransactionAtNonce({ db: pool, chain, address: account.address, nonce, paymentId: null, signed });
    log.warn("filling a settlement nonce with an empty transaction", { address: account.address, nonce: String(nonce), hash: tx.hash });
    await this.broadcast(tx);
  }

  private async sign(account: Account, { nonce, to, data, gas, fees }: { nonce: bigint; to: Hex; data: Hex; gas: bigint; fees: Fees }): Promise<SignedTx> {
    const raw = await account.signer.signTransaction({
      type: "eip1559",
      chainId: this.options.chainId,
      nonce: Number(nonce),
      to,
      data,
      gas,
      value: 0n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return { hash: keccak256(raw), raw, ...fees };
  }

  /**
   * Sends a new transaction, waiting while the node says its nonce is ahead of the account's (a
   * lower nonce taken by another process has not arrived yet). A nonce that stays missing is a
   * hole the repair fills; this one is then given up, recorded as refused.
   */
  private async broadcastInOrder(tx: SettlementTx): Promise<Awaited<ReturnType<SettlementEngine["broadcast"]>>> {
    const deadline = Date.now() + 5_000;
    for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
      const sent = await this.broadcast(tx, { final: Date.now() + delay >= deadline });
      if (sent.status !== "rejected" || sent.why !== "nonce_too_high" || Date.now() + delay >= deadline) return sent;
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /**
   * Sends a recorded transaction. `sent`: the node has it (or already mined it); `rejected`: it
   * refused it for good, recorded with why; `unknown`: no answer, so it may or may not have arrived.
   */
  private async broadcast(tx: SettlementTx, { final = true }: { final?: boolean } = {}): Promise<{ status: "sent" | "unknown" } | { status: "rejected"; why: TransactionRejection | "reverted" }> {
    const pool = await this.options.getPool();
    try {
      await this.client.sendRawTransaction({ serializedTransaction: tx.raw });
      await markTransactions({ db: pool, hashes: [tx.hash], status: "pending" });
      return { status: "sent" };
    } catch (err) {
      const failure = classifyChainError(err);
      if (failure.kind === "unreachable") return { status: "unknown" };
      if (failure.kind === "rejected" && failure.rejection === "already_known") {
        await markTransactions({ db: pool, hashes: [tx.hash], status: "pending" });
        return { status: "sent" };
      }
      // Some nodes mine at once and report a revert as an error: the receipt says what happened.
      const receipt = await this.client.getTransactionReceipt({ hash: tx.hash }).catch(() => null);
      if (receipt) {
        await recordMined(pool, new Map([[tx.hash, receipt]]), [tx]);
        return { status: "sent" };
      }
      const why = failure.kind === "rejected" ? failure.rejection : "reverted";
      if (why === "nonce_too_high" && !final) return { status: "rejected", why };
      await markTransactions({ db: pool, hashes: [tx.hash], status: "rejected", error: `${why}: ${failure.message}`.slice(0, 500) });
      log.warn("the node refused a settlement transaction", { hash: tx.hash, nonce: String(tx.nonce), why, error: failure.message });
      return { status: "rejected", why };
    }
  }

  private async receipts(hashes: Hex[]): Promise<Map<Hex, TransactionReceipt>> {
    const found = await Promise.all(hashes.map(async (hash) => [hash, await this.client.getTransactionReceipt({ hash }).catch(() => null)] as const));
    return new Map(found.filter(([, r]) => r !== null) as [Hex, TransactionReceipt][]);
  }

  /** The hash of the transaction among `receipts` that carries the authorization's transfer. */
  private findTransfer(receipts: Map<Hex, TransactionReceipt>, ref: AuthorizationRef): Hex | null {
    for (const receipt of receipts.values()) {
      if (this.chainReader.receiptHasTransfer(receipt, ref)) return receipt.transactionHash;
    }
    return null;
  }

  /** An account that may send: the least busy of those not known to be out of gas funds. */
  private pickAccount(): Account | null {
    const now = Date.now();
    const usable = this.accounts.filter((a) => a.noGasUntil <= now);
    if (usable.length === 0) return null;
    const start = this.nextAccount++ % usable.length;
    const rotated = [...usable.slice(start), ...usable.slice(0, start)];
    return rotated.reduce((best, a) => (a.inFlight < best.inFlight ? a : best), rotated[0]!);
  }
}

/** Records the receipts found: mined or reverted, and every other transaction at their nonce replaced. */
async function recordMined(pool: pg.Pool, receipts: Map<Hex, TransactionReceipt>, txs: SettlementTx[]): Promise<void> {
  for (const [hash, receipt] of receipts) {
    await markTransactions({ db: pool, hashes: [hash], status: receipt.status === "success" ? "mined" : "reverted", blockNumber: receipt.blockNumber });
    const mined = txs.find((t) => t.hash === hash);
    if (mined) {
      const siblings = txs.filter((t) => t.nonce === mined.nonce && t.address === mined.address && t.hash !== hash).map((t) => t.hash);
      await markTransactions({ db: pool, hashes: siblings, status: "replaced", error: `${hash} was mined at this nonce` });
    }
  }
}

/** Payments among `txs` that were given up (answered without being charged): their transfers must not land later. */
async function abandonedPayments(pool: pg.Pool, txs: SettlementTx[]): Promise<Set<string>> {
  const ids = [...new Set(txs.map((t) => t.paymentId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Set();
  const { rows } = await pool.query<{ id: string }>(
    "SELECT id FROM gateway.payments WHERE id = ANY($1::uuid[]) AND status IN ('unsettled', 'failed', 'voided', 'expired')",
    [ids],
  );
  return new Set(rows.map((r) => r.id));
}

/** The token call that settles an EIP-3009 authorization, as the x402 exact EVM scheme sends it. */
export function transferCallData(payload: PaymentPayload): Hex {
  const { signature, authorization: auth } = payload.payload as { signature: Hex; authorization: Record<string, string> };
  // An ERC-6492 wrapper of an already deployed wallet carries the wallet's own signature inside.
  const inner = parseErc6492Signature(signature).signature;
  const base = [getAddress(auth.from!), getAddress(auth.to!), BigInt(auth.value!), BigInt(auth.validAfter!), BigInt(auth.validBefore!), auth.nonce as Hex] as const;
  if (inner.length === 132) {
    const { v, r, s, yParity } = parseSignature(inner);
    return encodeFunctionData({ abi: eip3009ABI, functionName: "transferWithAuthorization", args: [...base, Number(v ?? BigInt(yParity + 27)), r, s] });
  }
  return encodeFunctionData({ abi: eip3009ABI, functionName: "transferWithAuthorization", args: [...base, inner] });
}

export function authorizationRef(payload: PaymentPayload, requirements: PaymentRequirements): AuthorizationRef {
  const auth = (payload.payload as { authorization: Record<string, string> }).authorization;
  return { asset: requirements.asset, payer: auth.from!, payTo: requirements.payTo, value: auth.value!, nonce: auth.nonce!, validAfter: Number(auth.validAfter) };
}


function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
