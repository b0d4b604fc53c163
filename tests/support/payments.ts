import { randomBytes } from "node:crypto";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { authorizationTypes, eip3009ABI } from "@x402/evm";
import { createPublicClient, createWalletClient, erc20Abi, getAddress, http, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { inject } from "vitest";

/** Helpers to pay, and to forge the wrong payments, against the suite's local chain. */

export const chain = () => inject("chain");

export function chainClients() {
  const { rpcUrl, chainId } = chain();
  const viemChain = { ...hardhat, id: chainId, rpcUrls: { default: { http: [rpcUrl] } } };
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

/** A fresh address, so one test file's payee balance is its own. */
export const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Signs an EIP-3009 authorization for `requirements` the way the official client does, with
 * overrides for building wrong payments (another amount, an expired window, ...).
 */
export async function signPayment({
  privateKey,
  requirements,
  accepted = requirements,
  resource,
  overrides = {},
  chainId = chain().chainId,
}: {
  privateKey: Hex;
  requirements: PaymentRequirements;
  accepted?: PaymentRequirements;
  resource?: PaymentRequired["resource"];
  overrides?: Partial<{ to: string; value: string; validAfter: number; validBefore: number; nonce: Hex; from: string }>;
  chainId?: number;
}): Promise<{ payload: PaymentPayload; header: string; nonce: Hex; payer: string }> {
  const account = privateKeyToAccount(privateKey);
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: getAddress(overrides.from ?? account.address),
    to: getAddress(overrides.to ?? requirements.payTo),
    value: overrides.value ?? requirements.amount,
    validAfter: String(overrides.validAfter ?? now - 600),
    validBefore: String(overrides.validBefore ?? now + requirements.maxTimeoutSeconds),
    nonce: overrides.nonce ?? (`0x${randomBytes(32).toString("hex")}` as Hex),
  };
  const signature = await account.signTypedData({
    domain: {
      name: requirements.extra.name as string,
      version: requirements.extra.version as string,
      chainId,
      verifyingContract: getAddress(requirements.asset),
    },
    types: authorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      from: authorization.from,
      to: authorization.to,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  });
  const payload: PaymentPayload = {
    x402Version: 2,
    ...(resource ? { resource } : {}),
    accepted,
    payload: { signature, authorization },
  };
  return { payload, header: encodePaymentSignatureHeader(payload), nonce: authorization.nonce, payer: authorization.from };
}

/** A funded wallet of the suite, by index (each test file takes its own range). */
export function wallet(index: number): { address: string; privateKey: Hex } {
  const w = chain().wallets[index];
  if (!w) throw new Error(`no test wallet ${index}`);
  return w as { address: string; privateKey: Hex };
}
