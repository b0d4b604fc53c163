import { x402Client } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import type { Network } from "@x402/core/types";
import { privateKeyToAccount } from "viem/accounts";
import { resendOnUnavailable } from "./resend";

/**
 * The official x402 paying client over a private key, as any agent would use it: it answers a
 * 402 by signing the requirements and retrying with PAYMENT-SIGNATURE. Local tokens are not in
 * the client's default asset list, so the configured asset is allowed explicitly, capped at
 * `maxAmount` base units per payment (default $1.00, the highest price). A paid request the
 * service could not settle now (503) is sent again with the same signature (lib/payments/resend.ts).
 */
export function createPayingFetch({
  privateKey,
  network,
  asset,
  maxAmount = "1000000",
  fetchImpl = fetch,
}: {
  privateKey: `0x${string}`;
  network: string;
  asset: string;
  maxAmount?: string;
  fetchImpl?: typeof fetch;
}): { fetch: ReturnType<typeof wrapFetchWithPayment>; address: `0x${string}`; client: x402Client } {
  const account = privateKeyToAccount(privateKey);
  const client = new x402Client()
    .register(network as Network, new ExactEvmScheme(toClientEvmSigner(account)))
    .setSpendControls({ allowedAssets: [{ network: network as Network, asset, maxAmountPerPayment: maxAmount }] });
  return { fetch: wrapFetchWithPayment(resendOnUnavailable(fetchImpl), client), address: account.address, client };
}
