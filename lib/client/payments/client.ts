import { x402Client } from "@x402/core/client";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { verifyOffer } from "@/lib/client/offer-receipt/verify";
import { namedPayingFetch } from "@/lib/client/payments/named-payments";
import { isCaip2Network } from "@/lib/shared/payments/network";

/**
 * The official x402 paying client over a private key, as any agent would use it: it answers a
 * 402 by signing the requirements and retrying with PAYMENT-SIGNATURE. Local tokens are not in
 * the client's default asset list, so the configured asset is allowed explicitly, capped at
 * `maxAmount` base units per payment (default $1.00, the highest price). Every payment is named
 * (x402 payment-identifier), so an answer lost after payment is asked for again and given once;
 * a 503 the service could not settle is resent with the same signature (named-payments.ts).
 * With `offerSigners` (the keys the service publishes at /.well-known/x402.json), nothing is
 * signed unless the requirements are the terms of an offer one of them signed (x402
 * offer-and-receipt): an offer altered on its way is refused before signing.
 */
export function createPayingFetch({
  privateKey,
  network,
  asset,
  maxAmount = "1000000",
  fetchImpl = fetch,
  offerSigners,
}: {
  privateKey: `0x${string}`;
  network: string;
  asset: string;
  maxAmount?: string;
  fetchImpl?: typeof fetch;
  offerSigners?: readonly string[];
}): { fetch: typeof fetch; address: `0x${string}`; client: x402Client } {
  if (!isCaip2Network(network)) throw new Error(`${network} is not a CAIP-2 network (e.g. eip155:8453)`);
  const account = privateKeyToAccount(privateKey);
  const client = new x402Client()
    .register(network, new ExactEvmScheme(toClientEvmSigner(account)))
    .setSpendControls({ allowedAssets: [{ network, asset, maxAmountPerPayment: maxAmount }] });
  if (offerSigners) {
    client.onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
      const verdict = await verifyOffer({ paymentRequired, requirements: selectedRequirements, signers: offerSigners });
      if (!verdict.ok) return { abort: true, reason: `Refused before signing: the service's payment request ${verdict.problem}.` };
    });
  }
  return { fetch: namedPayingFetch(client, fetchImpl), address: account.address, client };
}
