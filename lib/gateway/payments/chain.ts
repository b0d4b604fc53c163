import { eip3009ABI } from "@x402/evm";
import {
  createPublicClient,
  defineChain,
  erc20Abi,
  getAddress,
  http,
  isAddressEqual,
  isErc6492Signature,
  parseAbi,
  parseEventLogs,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { classifyChainError, reasonForRevert, revertReason, revertText } from "@/lib/gateway/payments/chain-errors";
import type { PaymentReason } from "@/lib/gateway/payments/reasons";
import type { PaymentSettings } from "@/lib/gateway/payments/requirements";

/** The token's events that tell what happened to an authorization, and its transfers. */
export const tokenEventsAbi = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
]);

/** An authorization to transfer `value` of `asset` from `payer` to `payTo`, identified by its nonce. */
export type AuthorizationRef = { asset: string; payer: string; payTo: string; value: string; nonce: Hex; validAfter: number };

/** A transfer of an authorization found on chain. */
type AuthorizationTransfer = { transaction: Hex; blockNumber: bigint; timestamp: number; sender: Hex };

/**
 * What the chain says about an authorization: unused; transferred to the payee (with the
 * transaction that did it); cancelled by the payer; or used without an event we could find (a
 * log search that fell outside the node's range), which is never counted as paid.
 */
export type AuthorizationFate =
  | { state: "unused" }
  | ({ state: "transferred" } & AuthorizationTransfer)
  | { state: "cancelled"; transaction: Hex }
  | { state: "used_unexplained" };

/** Reads the payment token on chain (RPC_URL). */
export type ChainReader = {
  /** `authorizationState(payer, nonce)`: true once used or cancelled. Alone, never proof of payment. */
  authorizationState: (asset: string, payer: string, nonce: Hex) => Promise<boolean>;
  /**
   * Whether the authorization moved `value` to `payTo`: an `AuthorizationUsed` event whose
   * transaction also holds the matching `Transfer`. A cancelled authorization is `cancelled`.
   * Throws when the RPC cannot be reached.
   */
  findAuthorizationFate: (ref: AuthorizationRef) => Promise<AuthorizationFate>;
  /** Whether `receipt` holds the authorization's transfer to the payee. */
  receiptHasTransfer: (receipt: TransactionReceipt, ref: AuthorizationRef) => boolean;
  /**
   * Why a transfer of an authorization still unused failed, when the payer did it (ReasonBlame),
   * or null when nothing the payer did explains it (the service's failure). `at`, where our
   * transaction reverted: the payer's balance just before it (the block's earlier transfers
   * counted, so a payer that moved its funds out ahead of it and back after is found). Then the
   * transfer simulated now (`callData`). Throws when the RPC cannot be reached.
   */
  explainFailedTransfer: (args: { ref: AuthorizationRef; callData: Hex; at?: { blockNumber: bigint; transactionIndex: number } }) => Promise<ReasonBlame | null>;
  /** `balanceOf(owner)` of the token at the latest block. Throws when the RPC cannot be reached. */
  tokenBalance: (asset: string, owner: string) => Promise<bigint>;
  /**
   * Whether `signature` signs `message` (EIP-191) for `address` as the chain judges it: a
   * contract wallet's `isValidSignature` (EIP-1271), or one not deployed yet (an EIP-6492
   * wrapper), or an account's key. Throws when the RPC cannot be reached (save for an undeployed
   * wallet's, which viem's deployless check reads as invalid then).
   */
  verifyMessage: (args: { address: Hex; message: string; signature: Hex }) => Promise<boolean>;
};

/** A payment's failure that the payer caused, with what shows it. */
export type ReasonBlame = { reason: PaymentReason; message: string };

/** Providers cap `eth_getLogs` ranges (often at 10,000 blocks); searches go back in slices. */
const LOG_RANGE = 5_000n;
/** How far back a search may go at most, whatever the estimate says. */
const MAX_SEARCH_BLOCKS = 2_000_000n;

export function createChainReader(settings: Pick<PaymentSettings, "chainId" | "network" | "rpcUrl">): ChainReader {
  const chain = defineChain({
    id: settings.chainId,
    name: settings.network,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(settings.rpcUrl, { timeout: 10_000 }) });
  return createChainReaderFor(client);
}

export function createChainReaderFor(client: PublicClient): ChainReader {
  const receiptHasTransfer = (receipt: TransactionReceipt, ref: AuthorizationRef) => {
    if (receipt.status !== "success") return false;
    const events = parseEventLogs({ abi: tokenEventsAbi, logs: receipt.logs, strict: false });
    const fromToken = events.filter((e) => isAddressEqual(e.address, getAddress(ref.asset)));
    const used = fromToken.some(
      (e) => e.eventName === "AuthorizationUsed" && sameAddress(e.args.authorizer, ref.payer) && (e.args.nonce ?? "").toLowerCase() === ref.nonce.toLowerCase(),
    );
    const transferred = fromToken.some(
      (e) =>
        e.eventName === "Transfer" && sameAddress(e.args.from, ref.payer) && sameAddress(e.args.to, ref.payTo) && e.args.value === BigInt(ref.value),
    );
    return used && transferred;
  };

  const authorizationState = async (asset: string, payer: string, nonce: Hex) =>
    client.readContract({
      address: getAddress(asset),
      abi: eip3009ABI,
      functionName: "authorizationState",
      args: [getAddress(payer), nonce],
    });

  const explainFailedTransfer: ChainReader["explainFailedTransfer"] = async ({ ref, callData, at }) => {
    const token = getAddress(ref.asset);
    const payer = getAddress(ref.payer);
    const value = BigInt(ref.value);
    if (at && at.blockNumber > 0n) {
      const block = { fromBlock: at.blockNumber, toBlock: at.blockNumber, address: token, event: tokenEventsAbi[0], strict: false } as const;
      const [before, out, into] = await Promise.all([
        client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [payer], blockNumber: at.blockNumber - 1n }),
        client.getLogs({ ...block, args: { from: payer } }),
        client.getLogs({ ...block, args: { to: payer } }),
      ]);
      const earlier = (logs: typeof out) => logs.filter((l) => l.transactionIndex !== null && l.transactionIndex < at.transactionIndex).reduce((sum, l) => sum + (l.args.value ?? 0n), 0n);
      const balance = before - earlier(out) + earlier(into);
      if (balance < value) {
        return { reason: "insufficient_funds", message: `the payer held ${balance} of the ${value} due when the transfer ran: it moved its funds in the same block, ahead of it` };
      }
    }
    try {
      await client.call({ to: token, data: callData });
    } catch (err) {
      if (classifyChainError(err).kind === "unreachable") throw err;
      const text = revertText(err);
      return { reason: reasonForRevert(text), message: `the transfer would revert now: ${revertReason(err) ?? text.slice(0, 200)}` };
    }
    return null;
  };

  return {
    authorizationState,
    receiptHasTransfer,
    explainFailedTransfer,
    tokenBalance: (asset, owner) => client.readContract({ address: getAddress(asset), abi: erc20Abi, functionName: "balanceOf", args: [getAddress(owner)] }),
    verifyMessage: async (args) => {
      // The code at the address first: viem's verifyMessage reads a chain it cannot reach as an
      // invalid signature, and that must not refuse a wallet. An address without code signs
      // only with its own key (already checked by the caller), unless the wallet is not
      // deployed yet and says how it will be (an EIP-6492 wrapper).
      const code = await client.getCode({ address: args.address });
      if ((code === undefined || code === "0x") && !isErc6492Signature(args.signature)) return false;
      return client.verifyMessage(args);
    },
    findAuthorizationFate: async (ref) => {
      if (!(await authorizationState(ref.asset, ref.payer, ref.nonce))) return { state: "unused" };
      const asset = getAddress(ref.asset);
      // Never viem's cached head (kept for its polling interval): a transfer mined since would be missed.
      const latest = await client.getBlockNumber({ cacheTime: 0 });
      const earliest = await estimateBlockAt(client, latest, ref.validAfter);
      for (let to = latest; to >= earliest; to -= LOG_RANGE) {
        const from = to - LOG_RANGE + 1n > earliest ? to - LOG_RANGE + 1n : earliest;
        const range = { address: asset, args: { authorizer: getAddress(ref.payer), nonce: ref.nonce }, fromBlock: from, toBlock: to, strict: false } as const;
        const [used, cancelled] = await Promise.all([
          client.getLogs({ ...range, event: tokenEventsAbi[1] }),
          client.getLogs({ ...range, event: tokenEventsAbi[2] }),
        ]);
        const logs = [...used, ...cancelled];
        const log = logs.at(-1);
        if (!log?.transactionHash) continue;
        if (log.eventName === "AuthorizationCanceled") return { state: "cancelled", transaction: log.transactionHash };
        const receipt = await client.getTransactionReceipt({ hash: log.transactionHash });
        if (!receiptHasTransfer(receipt, ref)) return { state: "used_unexplained" };
        const block = await client.getBlock({ blockNumber: receipt.blockNumber });
        return { state: "transferred", transaction: receipt.transactionHash, blockNumber: receipt.blockNumber, timestamp: Number(block.timestamp), sender: receipt.from };
      }
      return { state: "used_unexplained" };
    },
  };
}

/**
 * The first block worth searching for something that cannot have happened before `seconds`
 * (the authorization's validAfter): estimated from the chain's recent average block time, with
 * a margin, and never further back than MAX_SEARCH_BLOCKS.
 */
async function estimateBlockAt(client: PublicClient, latest: bigint, seconds: number): Promise<bigint> {
  const floor = latest > MAX_SEARCH_BLOCKS ? latest - MAX_SEARCH_BLOCKS : 0n;
  if (latest === 0n) return 0n;
  const sampleBack = latest > 1_000n ? 1_000n : latest;
  const [head, sample] = await Promise.all([client.getBlock({ blockNumber: latest }), client.getBlock({ blockNumber: latest - sampleBack })]);
  const elapsed = Number(head.timestamp - sample.timestamp);
  const secondsPerBlock = elapsed > 0 ? elapsed / Number(sampleBack) : 1;
  const behind = Number(head.timestamp) - seconds;
  if (behind <= 0) return latest > 10n ? latest - 10n : 0n;
  // Half the estimated block time as the divisor: search twice as far back as the estimate says.
  const blocks = BigInt(Math.ceil(behind / (secondsPerBlock / 2))) + 100n;
  const estimate = latest > blocks ? latest - blocks : 0n;
  return estimate > floor ? estimate : floor;
}

function sameAddress(a: string | undefined, b: string): boolean {
  return typeof a === "string" && a.toLowerCase() === b.toLowerCase();
}
