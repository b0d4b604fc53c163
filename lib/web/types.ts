import type { EVMSigner } from "@x402/extensions/sign-in-with-x";
import type { PaidOperation } from "@/lib/shared/operations";
import type { Caip2Network } from "@/lib/shared/payments/network";

/** The page's view of the deployment (see lib/gateway/web-config.ts): serializable, passed to client components. */
export type WebConfig = {
  network: Caip2Network;
  chainId: number;
  chainName: string;
  /** The local chain's RPC (local mode only); other networks use the wallet's or viem's default. */
  rpcUrl: string | null;
  asset: `0x${string}`;
  assetSymbol: string;
  localMode: boolean;
  /** Local mode only: the demo's funded test wallet, offered as a built-in wallet. */
  testWallet: { address: `0x${string}`; privateKey: `0x${string}` } | null;
  /** WalletConnect is offered when set. */
  walletConnectProjectId: string | null;
  /** `{tx}` is replaced by the transaction hash; null when there is no explorer (local chain). */
  explorerTxUrl: string | null;
  prices: Record<PaidOperation["id"], { price: string; amount: string; summary: string }>;
};

/**
 * Who pays: a connected wallet or the local test wallet, with the fetch that answers 402s by paying,
 * and the wallet as a signer of messages, for signing in to its history (x402 sign-in-with-x).
 */
export type Payer = {
  kind: "wallet" | "test";
  address: `0x${string}`;
  payFetch: typeof fetch;
  messageSigner: EVMSigner;
  /**
   * The service's signed receipt of the payment a paid response settled (x402 offer-and-receipt),
   * checked against the keys it publishes; null when the response settled nothing.
   */
  receiptOf?: (response: Response, path: string) => Promise<ReceiptCheck | null>;
};

/** A payment's receipt as the page checked it: signed by a published key, for this payment, or why not. */
export type ReceiptCheck = { verified: true; signer: string } | { verified: false; problem: string };

/** One payment as the page remembers it (kept per wallet in this browser). */
export type PaymentEntry = {
  operation: PaidOperation["id"];
  price: string;
  at: string;
  /** Settled transaction, when the answer carried one (deep research settles on delivery). */
  transaction: string | null;
  status: "paid" | "authorized";
  /** Its receipt as checked when it was paid; absent for payments kept before receipts were checked, and for deep research (settled later). */
  receipt?: ReceiptCheck | null;
};
