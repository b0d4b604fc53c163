import { randomUUID } from "node:crypto";
import type { PaymentRequirements } from "@x402/core/types";
import { eip3009ABI } from "@x402/evm";
import { createPublicClient, createWalletClient, erc20Abi, http, parseAbi, parseEther, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { inject } from "vitest";
import type { Queryable } from "@/lib/shared/db";
import { claimPayment } from "@/lib/gateway/payments/ledger";
import { LOCAL_DEPLOYER } from "@/lib/shared/payments/local-chain";
import type { PaidOperation } from "@/lib/shared/operations";
import { signExactPayment } from "@/lib/client/payments/sign";
import { decodePaymentHeader, verifyPaymentLocally } from "@/lib/gateway/payments/verify-locally";
import { localViemChain } from "../../scripts/lib/local-chain";
import { workerChainIndex } from "../integration/setup/workers";

/** Helpers to pay, and to forge the wrong payments, against the suite's local chain. */

/** This worker's local chain (tests/integration/setup/workers.ts). */
export const chain = () => {
  const chains = inject("chains");
  return chains[workerChainIndex(chains.length)]!;
};

export function chainClients() {
  const { rpcUrl, chainId } = chain();
  const viemChain = localViemChain(rpcUrl, chainId);
  const publicClient = createPublicClient({ chain: viemChain, transport: http(rpcUrl), pollingInterval: 50 });
  const walletFor = (privateKey: Hex) =>
    createWalletClient({ chain: viemChain, transport: http(rpcUrl), account: privateKeyToAccount(privateKey) });
  return { publicClient, walletFor };
}

/** USDC balance (base units) of `address` on the local chain. */
export async function usdcBalance(address: string): Promise<bigint> {
  const { publicClient } = chainClients();
  return publicClient.readContract({ address: chain().asset as Hex, abi: erc20Abi, functionName: "balanceOf", args: [address as Hex] });
}

/** Whether the token has seen this authorization used. */
export async function authorizationUsed(payer: string, nonce: string): Promise<boolean> {
  const { publicClient } = chainClients();
  return (await publicClient.readContract({
    address: chain().asset as Hex,
    abi: eip3009ABI,
    functionName: "authorizationState",
    args: [payer as Hex, nonce as Hex],
  })) as boolean;
}

/** Moves all of `privateKey`'s USDC elsewhere (to make a verified payment unsettleable). */
export async function drainWallet(privateKey: Hex): Promise<void> {
  const { publicClient, walletFor } = chainClients();
  const wallet = walletFor(privateKey);
  const balance = await usdcBalance(wallet.account.address);
  const hash = await wallet.writeContract({
    address: chain().asset as Hex,
    abi: erc20Abi,
    functionName: "transfer",
    args: [privateKeyToAccount(generatePrivateKey()).address, balance],
  });
  await publicClient.waitForTransactionReceipt({ hash });
}

/**
 * A payer of its own: a fresh key holding `usdc` base units, sent from the funded test wallet
 * `from`, and gas, so emptying it (or what it has outstanding) touches no other test's wallet.
 */
export async function fundedPayer({ usdc, from }: { usdc: bigint; from: Hex }): Promise<Hex> {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  const { publicClient, walletFor } = chainClients();
  await publicClient.request({ method: "hardhat_setBalance" as never, params: [address, `0x${parseEther("1").toString(16)}`] as never });
  const hash = await walletFor(from).writeContract({ address: chain().asset as Hex, abi: erc20Abi, functionName: "transfer", args: [address, usdc] });
  await publicClient.waitForTransactionReceipt({ hash });
  return privateKey;
}

/**
 * The payer cancels an authorization it signed (EIP-3009 `cancelAuthorization`), which also makes
 * `authorizationState` true without any transfer.
 */
export async function cancelAuthorization(privateKey: Hex, nonce: Hex): Promise<void> {
  const { publicClient, walletFor } = chainClients();
  const wallet = walletFor(privateKey);
  const signature = await wallet.account.signTypedData({
    domain: { name: "USD Coin", version: "2", chainId: chain().chainId, verifyingContract: chain().asset as Hex },
    types: { CancelAuthorization: [{ name: "authorizer", type: "address" }, { name: "nonce", type: "bytes32" }] },
    primaryType: "CancelAuthorization",
    message: { authorizer: wallet.account.address, nonce },
  });
  const hash = await wallet.writeContract({
    address: chain().asset as Hex,
    abi: parseAbi(["function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)"]),
    functionName: "cancelAuthorization",
    args: [wallet.account.address, nonce, signature],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error("cancelAuthorization reverted");
}

/**
 * A fresh wallet holding `usdc` (base units) and ETH for its own gas, minted by the chain's
 * deployer: for a test that empties or outbids with its payer, whatever the shared wallets hold.
 */
export async function fundedWallet(usdc: bigint): Promise<{ address: Hex; privateKey: Hex }> {
  const { publicClient, walletFor } = chainClients();
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  await publicClient.request({ method: "hardhat_setBalance", params: [address, "0x8ac7230489e80000"] } as never);
  const hash = await walletFor(LOCAL_DEPLOYER.privateKey).writeContract({
    address: chain().asset as Hex,
    abi: parseAbi(["function mint(address to, uint256 amount) returns (bool)"]),
    functionName: "mint",
    args: [address, usdc],
  });
  await publicClient.waitForTransactionReceipt({ hash });
  return { address, privateKey };
}

/** A fresh address, so one test file's payee balance is its own. */
export const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/** Exact-scheme requirements for the suite's USDC on this worker's chain, paying `payTo`. */
export function localRequirements({ amount, payTo = freshAddress(), maxTimeoutSeconds = 300 }: { amount: string; payTo?: string; maxTimeoutSeconds?: number }): PaymentRequirements {
  return { scheme: "exact", network: chain().network as PaymentRequirements["network"], amount, asset: chain().asset, payTo, maxTimeoutSeconds, extra: { name: "USD Coin", version: "2" } };
}

/** Signs a payment on the suite's chain (see lib/client/payments/sign.ts). */
export function signPayment(args: Omit<Parameters<typeof signExactPayment>[0], "chainId"> & { chainId?: number }) {
  return signExactPayment({ ...args, chainId: args.chainId ?? chain().chainId });
}

/** A funded wallet of the suite, by index (each test file takes its own range). */
export function wallet(index: number): { address: string; privateKey: Hex } {
  const w = chain().wallets[index];
  if (!w) throw new Error(`no test wallet ${index}`);
  return w as { address: string; privateKey: Hex };
}

/**
 * A payment signed by `privateKey` and claimed in the ledger, as the paid route leaves it before
 * the work (as if its process stopped right there): the row, and what was signed.
 */
export async function claimTestPayment({
  db,
  requirements,
  privateKey,
  operation = "chat",
  requestDigest = randomUUID(),
  paymentId = null,
}: {
  db: Queryable;
  requirements: PaymentRequirements;
  privateKey: Hex;
  operation?: PaidOperation["id"];
  requestDigest?: string;
  /** The client's name for the payment (x402 payment-identifier). */
  paymentId?: string | null;
}) {
  const { header, nonce } = await signPayment({ privateKey, requirements });
  const checked = await verifyPaymentLocally({
    payload: decodePaymentHeader(header),
    requirements,
    chainId: chain().chainId,
    nowSeconds: Math.floor(Date.now() / 1000),
    minRemainingSeconds: 0,
  });
  const { row } = await claimPayment({ db, checked, requirements, operation, route: operation, requestDigest, paymentId });
  return { row, header, nonce, payload: checked.payload, payer: checked.payer };
}
