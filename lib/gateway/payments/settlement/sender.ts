import type pg from "pg";
import { getAddress, keccak256, parseTransaction, type Hex, type PrivateKeyAccount, type PublicClient, type TransactionReceipt } from "viem";
import { log } from "@/lib/shared/log";
import { classifyChainError, type TransactionRejection } from "@/lib/gateway/payments/chain-errors";
import { bumpFees, type FeeOracle, type Fees } from "@/lib/gateway/payments/settlement/fees";
import { markTransactions, recordTransactionAtNonce, type SettlementTx, type SignedTx } from "@/lib/gateway/payments/settlement/transactions";

/**
 * Signing and sending the facilitator accounts' transactions, shared by the settlement engine and
 * its repair: a transaction is signed locally, recorded by the caller, then broadcast; refused
 * ones are recorded with why; stuck ones are replaced at the same nonce with higher fees; a
 * nonce can be filled with an empty transaction.
 */

export type Account = {
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
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

type SendQueue = { waiting: { tx: SettlementTx; done: (sent: Broadcast) => void; giveUpAt: number }[]; sending: boolean };

/** What became of a broadcast: the node has it, refused it (and why), or did not answer. */
export type Broadcast = { status: "sent" | "unknown" } | { status: "rejected"; why: TransactionRejection | "reverted" };

export class Sender {
  constructor(
    readonly client: PublicClient,
    readonly fees: FeeOracle,
    private readonly chainId: number,
    private readonly getPool: () => Promise<pg.Pool>,
    /** Called when an earlier nonce seems missing: the engine runs its repair. */
    private readonly onGap: () => void,
  ) {}

  async sign(account: Account, { nonce, to, data, gas, fees }: { nonce: bigint; to: Hex; data: Hex; gas: bigint; fees: Fees }): Promise<SignedTx> {
    const raw = await account.signer.signTransaction({
      type: "eip1559",
      chainId: this.chainId,
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
   * Sends a new transaction (call this in nonce order). Most nodes keep a transaction whose nonce
   * is ahead of the account's until the missing one arrives, so sends go out at once, many in
   * flight. When a node refuses them instead (Hardhat's automine: "nonce too high"), this process
   * sends each account's new transactions one at a time, lowest nonce first, until that queue has
   * drained. While the lowest is still ahead of the account (a nonce taken by
   * another process has not arrived yet) it is tried again shortly and the repair is asked to
   * send or fill the missing one; after a few seconds it is given up, recorded as refused (a
   * hole the repair fills).
   */
  async broadcastInOrder(tx: SettlementTx): Promise<Broadcast> {
    if (this.cannotQueue) return this.enqueue(tx);
    const sent = await this.broadcast(tx, { final: false });
    if (sent.status !== "rejected" || sent.why !== "nonce_too_high") return sent;
    this.cannotQueue = true;
    return this.enqueue(tx);
  }

  /** Whether the node refused a transaction ahead of a missing nonce in this burst (then sends go one at a time). */
  private cannotQueue = false;
  private readonly queues = new Map<string, SendQueue>();

  private enqueue(tx: SettlementTx): Promise<Broadcast> {
    let queue = this.queues.get(tx.address);
    if (!queue) this.queues.set(tx.address, (queue = { waiting: [], sending: false }));
    const sent = new Promise<Broadcast>((done) => queue.waiting.push({ tx, done, giveUpAt: Date.now() + 5_000 }));
    if (!queue.sending) void this.flush(queue);
    return sent;
  }

  /** Sends an account's queue lowest nonce first, one at a time. */
  private async flush(queue: SendQueue): Promise<void> {
    queue.sending = true;
    try {
      for (let ahead = 0; queue.waiting.length > 0; ) {
        queue.waiting.sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : 1));
        const head = queue.waiting[0]!;
        const final = Date.now() >= head.giveUpAt;
        const sent = await this.broadcast(head.tx, { final });
        if (!final && sent.status === "rejected" && sent.why === "nonce_too_high") {
          // The nonce before it has not arrived: ask the repair after a few tries, and wait a little.
          if (++ahead === 3) this.onGap();
          await new Promise((r) => setTimeout(r, Math.min(25 * 2 ** ahead, 400)));
          continue;
        }
        ahead = 0;
        queue.waiting.shift();
        head.done(sent);
      }
    } finally {
      queue.sending = false;
      // Drained: the next burst is sent at once again (the node, or the mining, may have changed).
      this.cannotQueue = false;
    }
  }

  /**
   * Sends a recorded transaction. `sent`: the node has it (or already mined it); `rejected`: it
   * refused it for good, recorded with why; `unknown`: no answer, so it may or may not have arrived.
   */
  async broadcast(tx: SettlementTx, { final = true }: { final?: boolean } = {}): Promise<Broadcast> {
    const sending = this.client.sendRawTransaction({ serializedTransaction: tx.raw });
    const pool = await this.getPool();
    try {
      await sending;
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

  async receipts(hashes: Hex[]): Promise<Map<Hex, TransactionReceipt>> {
    const found = await Promise.all(hashes.map(async (hash) => [hash, await this.client.getTransactionReceipt({ hash }).catch(() => null)] as const));
    return new Map(found.filter((entry): entry is [Hex, TransactionReceipt] => entry[1] !== null));
  }

  /**
   * A transaction that has not been mined for a while: sent again if the node forgot it
   * (dropped), otherwise replaced at the same nonce with fees at least 25% higher and no lower
   * than the chain asks now. Both carry the same transfer, so whichever is mined pays once.
   */
  async unstick({ pool, chain, account, txs }: { pool: pg.Pool; chain: string; account: Account; txs: SettlementTx[] }): Promise<SettlementTx | null> {
    const latest = txs.at(-1)!;
    const address = getAddress(latest.address);
    const chainNonce = BigInt(await this.client.getTransactionCount({ address, blockTag: "latest" }));
    if (chainNonce < latest.nonce) {
      // An earlier nonce is missing (a transaction that never reached the chain): fill it first.
      this.onGap();
    }
    const known = await this.client.getTransaction({ hash: latest.hash }).catch(() => null);
    if (!known) {
      log.warn("settlement transaction dropped by the node; sending it again", { hash: latest.hash, nonce: String(latest.nonce) });
      const sent = await this.broadcast(latest);
      if (sent.status !== "rejected") return null;
    }
    const fees = bumpFees({ maxFeePerGas: latest.maxFeePerGas, maxPriorityFeePerGas: latest.maxPriorityFeePerGas }, await this.fees.current(true));
    const body = parseTransaction(latest.raw);
    const signed = await this.sign(account, { nonce: latest.nonce, to: body.to!, data: body.data ?? "0x", gas: body.gas!, fees });
    const replacement = await recordTransactionAtNonce({ db: pool, chain, address: account.address, nonce: latest.nonce, paymentId: latest.paymentId, signed });
    log.warn("settlement transaction stuck; replacing it with a higher fee", { hash: latest.hash, replacement: replacement.hash, nonce: String(latest.nonce) });
    await this.broadcast(replacement);
    return replacement;
  }

  async fill({ pool, chain, account, nonce, floor }: { pool: pg.Pool; chain: string; account: Account; nonce: bigint; floor: Fees | null }): Promise<void> {
    const current = await this.fees.current(true);
    const fees = floor ? bumpFees(floor, current) : current;
    const signed = await this.sign(account, { nonce, to: getAddress(account.address), data: "0x", gas: 21_000n, fees });
    const tx = await recordTransactionAtNonce({ db: pool, chain, address: account.address, nonce, paymentId: null, signed });
    log.warn("filling a settlement nonce with an empty transaction", { address: account.address, nonce: String(nonce), hash: tx.hash });
    await this.broadcast(tx);
  }

}

/** Records the receipts found: mined or reverted, and every other transaction at their nonce replaced. */
export async function recordMined(pool: pg.Pool, receipts: Map<Hex, TransactionReceipt>, txs: SettlementTx[]): Promise<void> {
  for (const [hash, receipt] of receipts) {
    await markTransactions({ db: pool, hashes: [hash], status: receipt.status === "success" ? "mined" : "reverted", blockNumber: receipt.blockNumber });
    const mined = txs.find((t) => t.hash === hash);
    if (mined) {
      const siblings = txs.filter((t) => t.nonce === mined.nonce && t.address === mined.address && t.hash !== hash).map((t) => t.hash);
      await markTransactions({ db: pool, hashes: siblings, status: "replaced", error: `${hash} was mined at this nonce` });
    }
  }
}

