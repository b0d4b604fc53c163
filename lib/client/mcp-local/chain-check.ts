import { eip3009ABI } from "@x402/evm";
import { createPublicClient, getAddress, http, isHex } from "viem";
import type { LocalMcpConfig } from "@/lib/client/mcp-local/config";

/**
 * What the local MCP server asks the chain about an authorization it signed: whether the token
 * has seen it used (EIP-3009 `authorizationState`: settled, or cancelled by the payer) and the
 * latest block's time. Once that time has passed the authorization's `validBefore` it can never be
 * settled, so an unused one may stop counting against the caps; nothing else releases it (never a
 * service's word that nothing was charged). Read-only: the key never signs anything here.
 */
export type AuthorizationChain = {
  /** The latest block's timestamp, in seconds. */
  latestTimestamp(): Promise<number>;
  /** Whether the token has seen `nonce` of `payer` used (or cancelled). */
  used(args: { asset: string; payer: string; nonce: string }): Promise<boolean>;
};

/**
 * Base's own public endpoints (docs.base.org; viem's chain table names the same), for a user who
 * names none. Written here rather than read from `viem/chains`, whose table of every chain costs
 * the server seconds to load at each start.
 */
const PUBLIC_RPC: Record<string, string | undefined> = {
  "eip155:8453": "https://mainnet.base.org",
  "eip155:84532": "https://sepolia.base.org",
};

/**
 * The RPC to read `network` through: LONGEVITY_MCP_RPC_URL, else the local demo's chain when it is
 * that network, else the network's public endpoint; null when none is known (then nothing signed
 * is released before its day has passed).
 */
export function rpcUrlFor(config: Pick<LocalMcpConfig, "rpcUrl" | "demoChain">, network: string): string | null {
  if (config.rpcUrl) return config.rpcUrl;
  if (config.demoChain && network === `eip155:${config.demoChain.chainId}`) return config.demoChain.rpcUrl;
  return PUBLIC_RPC[network] ?? null;
}

/** The chain behind `rpcUrl`, read with viem. `used` throws on an address or nonce that is not hex, as viem would. */
export function authorizationChain(rpcUrl: string): AuthorizationChain {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 5_000, retryCount: 0 }) });
  return {
    latestTimestamp: async () => Number((await client.getBlock({ blockTag: "latest" })).timestamp),
    used: async ({ asset, payer, nonce }) => {
      if (!isHex(nonce)) throw new Error(`the nonce ${nonce} is not hex`);
      return client.readContract({ address: getAddress(asset), abi: eip3009ABI, functionName: "authorizationState", args: [getAddress(payer), nonce] });
    },
  };
}
