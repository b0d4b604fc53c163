import type { Hex, PublicClient, TransactionReceipt } from "viem";
import { log } from "@/lib/shared/log";

/**
 * One receipt watcher per process for every settlement in flight: it looks at the chain's head
 * every `pollMs` and, on each new block, asks for the receipts of all awaited transactions in one
 * JSON-RPC batch, so a hundred requests waiting on the same block cost one round trip, not a
 * hundred polling loops. A transaction still missing `stuckBlocks` blocks after it was sent is
 * reported (`onStuck`), so its sender can send it again or replace it with a higher fee. A wait
 * whose transactions share one account's nonce ends as soon as the chain has mined that nonce with
 * none of them: they can never be mined, and waiting out `timeoutMs` would only delay the answer.
 */
export type Wait = {
  /**
   * Resolves with the first receipt of any of the hashes, or null when `timeoutMs` passed first or
   * the chain mined `nonce` without any of them (the caller reads their receipts again to be sure).
   */
  receipt: Promise<TransactionReceipt | null>;
  /** Awaits one more transaction for the same outcome (a replacement at the same nonce). */
  add: (hash: Hex) => void;
  cancel: () => void;
};

/** The account and nonce every awaited transaction of one wait was signed with. */
export type AwaitedNonce = { address: Hex; nonce: bigint };

type Entry = {
  hashes: Set<Hex>;
  nonce?: AwaitedNonce;
  deadline: number;
  sinceBlock: bigint | null;
  onStuck?: (hashes: Hex[]) => Promise<void>;
  stuckRunning: boolean;
  resolve: (receipt: TransactionReceipt | null) => void;
};

export class ReceiptWatcher {
  private readonly entries = new Set<Entry>();
  private lastBlock: bigint | null = null;
  private running = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly client: PublicClient,
    private readonly options: { pollMs: number; stuckBlocks: number },
  ) {}

  watch(hashes: Hex[], { timeoutMs, onStuck, nonce }: { timeoutMs: number; onStuck?: (hashes: Hex[]) => Promise<void>; nonce?: AwaitedNonce }): Wait {
    let resolve!: (receipt: TransactionReceipt | null) => void;
    const receipt = new Promise<TransactionReceipt | null>((r) => (resolve = r));
    const entry: Entry = { hashes: new Set(hashes), nonce, deadline: Date.now() + timeoutMs, sinceBlock: null, onStuck, stuckRunning: false, resolve };
    this.entries.add(entry);
    // Look at once: on a chain that mines on demand the receipt is usually there already.
    this.kick(true);
    return {
      receipt,
      add: (hash) => {
        entry.hashes.add(hash);
        this.kick(true);
      },
      cancel: () => {
        if (this.entries.delete(entry)) entry.resolve(null);
      },
    };
  }

  /** Runs the loop if it is not running; `now` asks for a look before the next interval. */
  private kick(now: boolean): void {
    if (now) this.forceCheck = true;
    if (this.wake) {
      const wake = this.wake;
      this.wake = null;
      wake();
    }
    if (this.running) return;
    this.running = true;
    void this.loop().finally(() => {
      this.running = false;
      if (this.entries.size > 0) this.kick(false);
    });
  }

  private forceCheck = false;

  private async loop(): Promise<void> {
    while (this.entries.size > 0) {
      try {
        const block = await this.client.getBlockNumber({ cacheTime: 0 });
        if (this.forceCheck || block !== this.lastBlock) {
          this.forceCheck = false;
          this.lastBlock = block;
          await this.check(block);
        }
      } catch (err) {
        log.warn("settlement watcher could not read the chain", { error: err });
      }
      const now = Date.now();
      for (const entry of this.entries) {
        if (entry.deadline <= now) {
          this.entries.delete(entry);
          entry.resolve(null);
        }
      }
      if (this.entries.size === 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.wake = null;
          resolve();
        }, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async check(block: bigint): Promise<void> {
    const wanted = new Set<Hex>();
    for (const entry of this.entries) for (const hash of entry.hashes) wanted.add(hash);
    // Issued together, so the batching transport sends them as one JSON-RPC batch.
    const found = await Promise.all(
      [...wanted].map(async (hash) => [hash, await this.client.getTransactionReceipt({ hash }).catch(() => null)] as const),
    );
    const receipts = new Map(found.filter((entry): entry is [Hex, TransactionReceipt] => entry[1] !== null));
    // Read after the receipts: a nonce mined by one of ours in between is found by the caller's second look.
    const minedNonces = await this.minedNonces([...this.entries].filter((e) => e.nonce && ![...e.hashes].some((h) => receipts.has(h))));
    for (const entry of this.entries) {
      const receipt = [...entry.hashes].map((h) => receipts.get(h)).find((r) => r !== undefined);
      if (receipt) {
        this.entries.delete(entry);
        entry.resolve(receipt);
        continue;
      }
      if (entry.nonce && (minedNonces.get(entry.nonce.address) ?? 0n) > entry.nonce.nonce) {
        this.entries.delete(entry);
        entry.resolve(null);
        continue;
      }
      entry.sinceBlock ??= block;
      if (entry.onStuck && !entry.stuckRunning && block - entry.sinceBlock >= BigInt(this.options.stuckBlocks)) {
        entry.stuckRunning = true;
        entry.sinceBlock = block;
        void entry
          .onStuck([...entry.hashes])
          .catch((err: unknown) => log.warn("could not unstick a settlement transaction", { error: err }))
          .finally(() => (entry.stuckRunning = false));
      }
    }
  }

  /** How many transactions each account of `entries` has mined (its latest nonce + 1); unreadable ones are left out. */
  private async minedNonces(entries: Entry[]): Promise<Map<Hex, bigint>> {
    const addresses = [...new Set(entries.map((e) => e.nonce!.address))];
    const counts = await Promise.all(
      addresses.map(async (address) => [address, await this.client.getTransactionCount({ address, blockTag: "latest" }).catch(() => null)] as const),
    );
    return new Map(counts.filter(([, n]) => n !== null).map(([address, n]) => [address, BigInt(n!)]));
  }
}
