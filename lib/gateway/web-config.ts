import "server-only";
import { privateKeyToAccount } from "viem/accounts";
import { getConfig } from "@/lib/gateway/config";
import { LOCAL_NETWORK } from "@/lib/shared/payments/local-chain";
import { PAID_OPERATIONS } from "@/lib/shared/operations";
import type { WebConfig } from "@/lib/web/types";

/**
 * What the page needs to pay and show prices, from the gateway's configuration. The local test
 * wallet's key is included only in local mode (the gateway runs the local chain), where it is a
 * public Hardhat-derived test key funded by the demo; configuration refuses it on any other network.
 */
export function getWebConfig(): WebConfig {
  const config = getConfig();
  const { payments, web } = config;
  const local = payments.network === LOCAL_NETWORK;
  return {
    network: payments.network,
    chainId: payments.chainId,
    chainName: local ? "Local chain (Hardhat)" : payments.chainId === 8453 ? "Base" : payments.chainId === 84532 ? "Base Sepolia" : `Chain ${payments.chainId}`,
    rpcUrl: local ? payments.rpcUrl : null,
    asset: payments.asset,
    assetSymbol: "USDC",
    localMode: local,
    testWallet: local && web.localTestWalletKey ? { address: privateKeyToAccount(web.localTestWalletKey).address, privateKey: web.localTestWalletKey } : null,
    walletConnectProjectId: web.walletConnectProjectId,
    explorerTxUrl: web.explorerTxUrl,
    prices: Object.fromEntries(PAID_OPERATIONS.map((op) => [op.id, { price: op.price, amount: op.amount, summary: op.summary }])) as WebConfig["prices"],
  };
}
