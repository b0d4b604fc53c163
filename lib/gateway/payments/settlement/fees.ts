import type { PublicClient } from "viem";

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/**
 * EIP-1559 fees for settlement transactions: the node's suggested priority fee, and a fee cap of
 * twice the latest base fee plus that, so a transaction stays includable while the base fee rises
 * for several blocks. Read at most once per `ttlMs` however many settlements ask at once (one
 * lookup per burst, not one per payer).
 */
export class FeeOracle {
  private cached: { at: number; fees: Promise<Fees> } | null = null;

  constructor(
    private readonly client: PublicClient,
    private readonly ttlMs = 1_000,
  ) {}

  current(fresh = false): Promise<Fees> {
    const now = Date.now();
    if (!fresh && this.cached && now - this.cached.at < this.ttlMs) return this.cached.fees;
    const fees = this.read();
    this.cached = { at: now, fees };
    fees.catch(() => {
      if (this.cached?.fees === fees) this.cached = null;
    });
    return fees;
  }

  private async read(): Promise<Fees> {
    const [block, priority] = await Promise.all([
      this.client.getBlock({ blockTag: "latest" }),
      this.client.estimateMaxPriorityFeePerGas().catch(() => null),
    ]);
    const base = block.baseFeePerGas ?? (await this.client.getGasPrice());
    const maxPriorityFeePerGas = priority ?? 1_000_000n;
    return { maxFeePerGas: base * 2n + maxPriorityFeePerGas, maxPriorityFeePerGas };
  }
}

/**
 * Fees for a replacement at the same nonce: nodes accept one only if both fees rise by at least
 * 10%; this raises them by 25% and never below what the chain asks now.
 */
export function bumpFees(previous: Fees, current: Fees): Fees {
  const bump = (value: bigint) => (value * 5n) / 4n + 1n;
  const maxPriorityFeePerGas = max(bump(previous.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const maxFeePerGas = max(max(bump(previous.maxFeePerGas), current.maxFeePerGas), maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
