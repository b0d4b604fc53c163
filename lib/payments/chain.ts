import { eip3009ABI } from "@x402/evm";
import { createPublicClient, defineChain, http, type PublicClient } from "viem";
import type { PaymentSettings } from "./requirements";

/** Reads the payment token on chain (RPC_URL): whether an authorization has been used. */
export type ChainReader = { isAuthorizationUsed: (payer: string, nonce: string) => Promise<boolean> };

export function createChainReader(settings: PaymentSettings): ChainReader {
  const chain = defineChain({
    id: settings.chainId,
    name: settings.network,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(settings.rpcUrl, { timeout: 10_000 }) }) as PublicClient;
  return {
    isAuthorizationUsed: async (payer, nonce) =>
      (await client.readContract({
        address: settings.asset,
        abi: eip3009ABI,
        functionName: "authorizationState",
        args: [payer as `0x${string}`, nonce as `0x${string}`],
      })) as boolean,
  };
}
