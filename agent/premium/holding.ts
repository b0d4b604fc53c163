import { createPublicClient, defineChain, erc20Abi, getAddress, http, parseAbiItem, type Address, type PublicClient } from "viem";
import { ApiError } from "@/lib/shared/http";
import { log } from "@/lib/shared/log";
import type { AgentConfig } from "../config";

/**
 * What the agent reads of the service token: a wallet's balance at a block, and its Transfer
 * events. A holding is bound to the block it was read at: a key stays good only while its wallet
 * has held the minimum at every moment since, so tokens that leave (even to come back) end it and
 * the same tokens never back two live keys for longer than one re-check interval. This assumes a
 * plain ERC-20 whose balances change only with a Transfer event (no rebasing).
 */

export type ServiceToken = NonNullable<AgentConfig["access"]["serviceToken"]>;

const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

export type ServiceTokenChain = { token: ServiceToken; client: PublicClient };

const chains = new WeakMap<ServiceToken, ServiceTokenChain>();

/** One client per configured token, shared by every request of this agent. */
export function serviceTokenChain(token: ServiceToken): ServiceTokenChain {
  let chain = chains.get(token);
  if (!chain) {
    const client: PublicClient = createPublicClient({
      chain: defineChain({ id: token.chainId, name: "service token chain", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [token.rpcUrl] } } }),
      transport: http(token.rpcUrl, { timeout: 10_000 }),
    });
    chain = { token, client };
    chains.set(token, chain);
  }
  return chain;
}

/**
 * Runs reads of the chain. A failed RPC is a 503 the client may retry: a holding that cannot be
 * read is never taken as held, and the RPC's own error (with its URL) never reaches the client.
 */
export async function readChain<T>(context: Record<string, unknown>, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    log.warn("service token chain read failed", { ...context, error: err });
    throw new ApiError("unavailable", "The service token's chain cannot be read now", { reason: "service_token_unavailable", headers: { "retry-after": "5" } });
  }
}

export async function balanceAt({ token, client }: ServiceTokenChain, wallet: string, blockNumber: bigint): Promise<bigint> {
  return client.readContract({ address: token.address, abi: erc20Abi, functionName: "balanceOf", args: [getAddress(wallet)], blockNumber });
}

type Transfer = { from: string; to: string; value: bigint; blockNumber: bigint; logIndex: number };

/** Transfers from or to `wallet` in blocks (after, upTo], in chunks the RPC accepts. */
async function transfers({ token, client }: ServiceTokenChain, wallet: Address, direction: "from" | "to", after: bigint, upTo: bigint): Promise<Transfer[]> {
  const found: Transfer[] = [];
  for (let fromBlock = after + 1n; fromBlock <= upTo; fromBlock += token.logBlockRange) {
    const toBlock = fromBlock + token.logBlockRange - 1n < upTo ? fromBlock + token.logBlockRange - 1n : upTo;
    const logs = await client.getLogs({ address: token.address, event: transferEvent, args: direction === "from" ? { from: wallet } : { to: wallet }, fromBlock, toBlock });
    for (const log of logs) {
      if (log.blockNumber === null || log.logIndex === null) continue; // pending: not in (after, upTo]
      found.push({ from: log.args.from!.toLowerCase(), to: log.args.to!.toLowerCase(), value: log.args.value!, blockNumber: log.blockNumber, logIndex: log.logIndex });
    }
  }
  return found;
}

/**
 * The lowest balance `wallet` had at any moment in blocks (after, upTo]: its balance at `upTo`,
 * walked back through every transfer in and out of it. Throws the RPC's error.
 */
export async function lowestBalanceSince(chain: ServiceTokenChain, { wallet, after, upTo }: { wallet: string; after: bigint; upTo: bigint }): Promise<bigint> {
  const address = getAddress(wallet);
  const [current, outgoing, incoming] = await Promise.all([
    balanceAt(chain, address, upTo),
    transfers(chain, address, "from", after, upTo),
    transfers(chain, address, "to", after, upTo),
  ]);
  // A transfer to itself is found both ways: count it once (it changes nothing).
  const byPosition = new Map<string, Transfer>();
  for (const t of [...outgoing, ...incoming]) byPosition.set(`${t.blockNumber}:${t.logIndex}`, t);
  const newestFirst = [...byPosition.values()].sort((a, b) => (a.blockNumber === b.blockNumber ? b.logIndex - a.logIndex : a.blockNumber > b.blockNumber ? -1 : 1));
  const self = address.toLowerCase();
  let balance = current;
  let lowest = current;
  for (const t of newestFirst) {
    // Undo the transfer: what remains is the balance just before it, itself a moment of the range.
    if (t.from === self) balance += t.value;
    if (t.to === self) balance -= t.value;
    if (balance < lowest) lowest = balance;
  }
  return lowest;
}

/** The wallets that sent `wallet` the token in blocks (after, upTo]. Throws the RPC's error. */
export async function sendersTo(chain: ServiceTokenChain, { wallet, after, upTo }: { wallet: string; after: bigint; upTo: bigint }): Promise<string[]> {
  const incoming = await transfers(chain, getAddress(wallet), "to", after, upTo);
  return [...new Set(incoming.map((t) => t.from))];
}
