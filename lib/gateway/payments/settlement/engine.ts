import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type pg from "pg";
import { createPublicClient, defineChain, getAddress, http, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { log } from "@/lib/shared/log";
import { createChainReaderFor, type AuthorizationRef, type ChainReader } from "@/lib/gateway/payments/chain";
import { classifyChainError, isUnreachable, reasonForRevert, revertReason, revertText } from "@/lib/gateway/payments/chain-errors";
import type { PaymentReason } from "@/lib/gateway/payments/reasons";
import { FeeOracle, type Fees } from "@/lib/gateway/payments/settlement/fees";
import { repairAccounts, type RepairReport } from "@/lib/gateway/payments/settlement/repair";
import { Mutex, recordMined, Sender, type Account } from "@/lib/gateway/payments/settlement/sender";
import { allocateNonceAndRecord, listPaymentTransactions, markTransactions, syncAccountNonce, type SettlementTx } from "@/lib/gateway/payments/settlement/transactions";
import { authorizationRef, transferCallData } from "@/lib/gateway/payments/settlement/transfer";
import { ReceiptWatcher } from "@/lib/gateway/payments/settlement/watcher";

export { authorizationRef, transferCallData } from "@/lib/gateway/payments/settlement/transfer";

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
  /**
   * The payment cannot be settled (402), or our transfer failed (`settlement_failed`; where it
   * reverted on chain, `revertedAt` says where, for settle.ts to tell whose doing it was).
   */
  | { kind: "refused"; reason: PaymentReason; message: string; revertedAt?: { blockNumber: bigint; transactionIndex: number } }
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

export class SettlementEngine {
  readonly client: PublicClient;
  readonly chainReader: ChainReader;
  private readonly accounts: Account[];
  private readonly watcher: ReceiptWatcher;
  private readonly fees: FeeOracle;
  private readonly sender: Sender;
  private readonly mode: "pipelined" | "serial";
  private chainKey: Promise<string> | null = null;
  private nextAccount = 0;
  private repairing: Promise<unknown> | null = null;
  private repairAgain = false;

  constructor(private readonly options: EngineOptions) {
    if (options.privateKeys.length === 0) throw new Error("the settlement engine needs at least one facilitator key");
    const chain = defineChain({
      id: options.chainId,
      name: options.network,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [options.rpcUrl] } },
    });
    this.client = createPublicClient({ chain, transport: http(options.rpcUrl, { timeout: 10_000 }), pollingInterval: 250 });
    // The watcher's receipt lookups of one tick travel as one JSON-RPC batch (reads only: a node
    // may answer a batch's calls in any order, which would reorder sends).
    const batching = createPublicClient({ chain, transport: http(options.rpcUrl, { timeout: 10_000, batch: { batchSize: 500, wait: 0 } }) });
    this.chainReader = createChainReaderFor(this.client);
    this.accounts = options.privateKeys.map((key) => {
      const signer = privateKeyToAccount(key);
      return { signer, address: signer.address.toLowerCase(), inFlight: 0, noGasUntil: 0, sending: new Mutex(), serial: new Mutex() };
    });
    this.watcher = new ReceiptWatcher(batching, { pollMs: options.pollMs ?? 200, stuckBlocks: options.stuckBlocks ?? 3 });
    this.fees = new FeeOracle(this.client);
    this.sender = new Sender(this.client, this.fees, options.chainId, options.getPool, () => this.kickRepair());
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
        // Nonces are taken one at a time in this process and handed to the sender in that order
        // (a node that cannot keep a transaction ahead of a missing nonce gets them in order).
        const { tx, sending } = await account.sending.run(async () => {
          const tx = await allocateNonceAndRecord({
            pool,
            chain,
            address: account.address,
            paymentId,
            sign: (nonce) => this.sender.sign(account, { nonce, to, data, gas, fees }),
          });
          return { tx, sending: this.sender.broadcastInOrder(tx) };
        });
        const sent = await sending;
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
          this.kickRepair();
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
    const receipts = await this.sender.receipts(txs.map((t) => t.hash));
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
      const rescued = await this.sender.receipts(dead.map((t) => t.hash));
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
      if ((await this.client.getTransaction({ hash: tx.hash }).catch(() => null)) === null) await this.sender.broadcast(tx);
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
        // Once the chain has mined their nonce without them, they never will be: answered then, not after the wait.
        nonce: { address: getAddress(known[0]!.address), nonce: known[0]!.nonce },
        onStuck: async () => {
          const account = this.accounts.find((a) => a.address === known[0]!.address);
          const replacement = account ? await this.sender.unstick({ pool, chain, account, txs: known }) : null;
          if (replacement) {
            known.push(replacement);
            wait.add(replacement.hash);
          }
        },
      },
    );
    const receipt = await wait.receipt;
    if (!receipt) return this.stillOpen({ pool, ref, txs: known });
    const receipts = new Map([[receipt.transactionHash, receipt]]);
    await recordMined(pool, receipts, known);
    const transfer = this.findTransfer(receipts, ref);
    if (transfer) return { kind: "settled", transaction: transfer };
    return {
      kind: "refused",
      reason: "settlement_failed",
      message: `the transfer ${receipt.transactionHash} reverted on chain`,
      revertedAt: { blockNumber: receipt.blockNumber, transactionIndex: receipt.transactionIndex },
    };
  }

  /**
   * A transfer not mined within the wait counts as on its way only while its nonce is open: once
   * the chain moved past it (the repair filled the nonce with an empty transaction, or a
   * replacement of ours was mined) it can never land, unless one of them is what was mined. When
   * the chain cannot say, the answer is "not now", never a transfer that may not exist. Also asked
   * as soon as the watcher sees the nonce mined without the transactions it followed.
   */
  private async stillOpen({ pool, ref, txs }: { pool: pg.Pool; ref: AuthorizationRef; txs: SettlementTx[] }): Promise<EngineResult> {
    const latest = txs.at(-1)!;
    let mined: bigint;
    try {
      mined = BigInt(await this.client.getTransactionCount({ address: getAddress(latest.address), blockTag: "latest" }));
    } catch (err) {
      return { kind: "unavailable", message: `the chain could not be read to follow the transfer: ${message(err)}`, mayHaveTransferred: true };
    }
    if (mined <= latest.nonce) return { kind: "broadcast", transaction: latest.hash };
    // Every transaction recorded at that nonce for the payment, not only those this wait followed:
    // a replacement another process (or the repair) sent may be the one mined.
    const recorded = latest.paymentId ? await listPaymentTransactions({ db: pool, paymentId: latest.paymentId }) : [];
    const atNonce = [...txs, ...recorded.filter((r) => r.address === latest.address && r.nonce === latest.nonce && !txs.some((t) => t.hash === r.hash))];
    const receipts = await this.sender.receipts(atNonce.map((t) => t.hash));
    await recordMined(pool, receipts, atNonce);
    const transfer = this.findTransfer(receipts, ref);
    if (transfer) return { kind: "settled", transaction: transfer };
    if (receipts.size > 0) return { kind: "refused", reason: "settlement_failed", message: `the transfer ${[...receipts.keys()][0]} reverted on chain` };
    await markTransactions({ db: pool, hashes: atNonce.map((t) => t.hash), status: "replaced", error: "nonce used by another transaction" });
    return { kind: "unavailable", message: `the transfer's nonce ${latest.nonce} was taken by another transaction: it can never land`, mayHaveTransferred: false };
  }

  /**
   * Brings every account's transactions in line with the chain, for the cron and after a
   * restart: receipts of everything in flight are recorded, transactions the node forgot are sent
   * again, stuck ones are replaced with a higher fee, transactions of payments that were given up
   * (answered 503 or 402) are cancelled by an empty transaction at their nonce, and nonces whose
   * transaction never reached the chain are filled. One process repairs an account at a time.
   */
  async repair(): Promise<RepairReport> {
    const chain = await this.ready();
    return repairAccounts({ pool: await this.options.getPool(), chain, accounts: this.accounts, sender: this.sender });
  }

  /**
   * A repair in the background, when something looks stuck. Asks made while one runs are not
   * lost: one more runs after it, with what has changed since.
   */
  private kickRepair(): void {
    if (this.repairing) {
      this.repairAgain = true;
      return;
    }
    this.repairing = this.repair()
      .catch((err: unknown) => log.warn("settlement repair failed", { error: err }))
      .finally(() => {
        this.repairing = null;
        if (this.repairAgain) {
          this.repairAgain = false;
          this.kickRepair();
        }
      });
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

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
