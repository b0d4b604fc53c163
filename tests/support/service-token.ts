import { createPublicClient, createWalletClient, http, parseAbi, parseEther, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { LOCAL_DEPLOYER } from "@/lib/shared/payments/local-chain";
import { localViemChain } from "../../scripts/lib/local-chain";
import { chain as workerChain } from "./payments";

/**
 * The suite's service token (the ERC-20 whose holders get premium keys): fresh wallets, minting and
 * moving it. Fresh wallets keep each test's holdings its own; the deployer is the token's minter
 * (scripts/lib/local-chain.ts).
 */

/** `n` whole tokens in base units (18 decimals). */
export const tokens = (n: bigint | number) => BigInt(n) * 10n ** 18n;

function clients() {
  const { rpcUrl, chainId, serviceToken } = workerChain();
  const chain = localViemChain(rpcUrl, chainId);
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  const walletFor = (privateKey: Hex) => createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(privateKey) });
  return { publicClient, walletFor, token: serviceToken as Address };
}

/** A new wallet with gas money and no service token. */
export async function freshHolder(): Promise<{ address: Address; privateKey: Hex }> {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  await clients().publicClient.request({ method: "hardhat_setBalance", params: [address, `0x${parseEther("1").toString(16)}`] } as never);
  return { address, privateKey };
}

async function send(privateKey: Hex, functionName: "mint" | "transfer", to: Address, amount: bigint): Promise<void> {
  const { publicClient, walletFor, token } = clients();
  const abi = parseAbi(["function mint(address to, uint256 amount) returns (bool)", "function transfer(address to, uint256 amount) returns (bool)"]);
  const hash = await walletFor(privateKey).writeContract({ address: token, abi, functionName, args: [to, amount] });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`service token ${functionName} reverted`);
}

export const mintServiceToken = (to: Address, amount: bigint) => send(LOCAL_DEPLOYER.privateKey, "mint", to, amount);

/** `from` sends `amount` of the service token to `to` (mined before this returns). */
export const moveServiceToken = (from: Hex, to: Address, amount: bigint) => send(from, "transfer", to, amount);
