/**
 * The page's wallet code: loaded only when someone connects a wallet, uses the local test wallet
 * or pays (components import it with `import()`), so the first page load carries none of viem,
 * wagmi or the x402 client. Wallets connect through wagmi 3: injected wallets, and WalletConnect
 * when a project id is configured (its SDK is loaded by the connector only when chosen).
 * Payments are the official x402 client signing the EIP-3009 authorization as EIP-712 typed data
 * through the wallet, once the terms are checked against the service's signed offer, and each
 * settlement's signed receipt is checked against the keys the service publishes; signing in to the wallet's history, the official client signing a
 * sign-in-with-x challenge (an EIP-191 message). @wagmi/core is pinned to 3.4.9 with @wagmi/connectors 8.0.10: later pairs
 * need `accounts`, whose optional peers do not resolve beside this project's viem (npm ERESOLVE).
 */
import { connect, createConfig, disconnect, getConnection, getWalletClient, injected, switchChain, type Config } from "@wagmi/core";
import { walletConnect } from "@wagmi/connectors";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { extractReceiptFromResponse } from "@x402/extensions/offer-receipt";
import { createSIWxClientHook, type EVMSigner } from "@x402/extensions/sign-in-with-x";
import { toClientEvmSigner, type ClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, defineChain, erc20Abi, http, type Chain } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base, baseSepolia } from "viem/chains";
import { namedPayingFetch } from "@/lib/client/payments/named-payments";
import { checkReceipt, ServiceSigners, verifyOffer } from "@/lib/client/offer-receipt/verify";
import { SESSION_PATH } from "@/lib/shared/contracts/history-paths";
import type { Payer, ReceiptCheck, WebConfig } from "@/lib/web/types";
import { readJsonObject } from "@/lib/web/response-json";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { WrongNetworkError } from "@/lib/web/wrong-network-error";

/** The chain payments are made on, as viem and the wallet know it (the local chain is defined here). */
function chainOf(config: WebConfig): Chain {
  if (config.chainId === base.id) return base;
  if (config.chainId === baseSepolia.id) return baseSepolia;
  return defineChain({
    id: config.chainId,
    name: config.chainName,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl ?? "http://127.0.0.1:8545"] } },
    testnet: true,
  });
}

/**
 * The keys this service publishes for its offers and receipts (x402 offer-and-receipt), read from
 * the page's own origin's /.well-known/x402.json, once per page and again when one is not listed.
 */
let serviceSigners: ServiceSigners | undefined;

function payerFor(config: WebConfig, { signer, messages }: { signer: ClientEvmSigner; messages: EVMSigner }, kind: Payer["kind"]): Payer {
  const { network } = config;
  const signers = (serviceSigners ??= new ServiceSigners(location.origin));
  /** The resource each route's 402 named, by path: what that route's receipt must name. */
  const resources = new Map<string, string>();
  const client = new x402Client()
    .register(network, new ExactEvmScheme(signer))
    // Never more than the dearest operation, in this deployment's token only.
    .setSpendControls({ allowedAssets: [{ network, asset: config.asset, maxAmountPerPayment: config.prices.deepResearch.amount }] })
    // Signed only when the terms are an offer the service signed with a key it publishes: terms
    // changed on the way (another payee, price or token) are refused before the wallet is asked.
    .onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
      if (paymentRequired.resource?.url) resources.set(new URL(paymentRequired.resource.url).pathname, paymentRequired.resource.url);
      let published: string[];
      try {
        published = await signers.current();
      } catch (err) {
        return { abort: true, reason: `Refused before signing: the service's published keys could not be read to check its payment request (${err instanceof Error ? err.message : String(err)}).` };
      }
      // A deployment that signs no offers has nothing to check them against.
      if (published.length === 0) return;
      let verdict = await verifyOffer({ paymentRequired, requirements: selectedRequirements, signers: published });
      if (!verdict.ok && verdict.kind === "unknown_signer") verdict = await verifyOffer({ paymentRequired, requirements: selectedRequirements, signers: await signers.refreshed() });
      if (!verdict.ok) return { abort: true, reason: `Refused before signing: the service's payment request ${verdict.problem}.` };
    });
  const receiptOf = async (response: Response, path: string): Promise<ReceiptCheck | null> => {
    const header = response.headers.get("payment-response");
    const settlement = header ? decodePaymentResponseHeader(header) : null;
    if (!settlement?.success || !settlement.transaction) return null;
    const pathname = new URL(path, location.origin).pathname;
    const expected = { resourceUrl: resources.get(pathname) ?? new URL(pathname, location.origin).toString(), payer: signer.address, network, transaction: settlement.transaction };
    const verdict = await checkReceipt({ receipt: extractReceiptFromResponse(response) ?? null, expected, signers });
    return verdict.ok ? { verified: true, signer: verdict.signer } : { verified: false, problem: verdict.problem };
  };
  // Every payment named (x402 payment-identifier): an answer lost after payment is asked again and
  // given once; a 503 the service could not settle is resent with the same signature, never re-signed.
  return { kind, address: signer.address, payFetch: namedPayingFetch(client, fetch), messageSigner: messages, receiptOf };
}

/** The local test wallet (local mode only): signs with its key in the page. */
export function testWalletPayer(config: WebConfig): Payer {
  if (!config.testWallet) throw new Error("There is no local test wallet in this deployment");
  const account = privateKeyToAccount(config.testWallet.privateKey);
  return payerFor(config, { signer: toClientEvmSigner(account), messages: account }, "test");
}

let wagmi: Config | undefined;

function wagmiConfig(config: WebConfig): Config {
  const chain = chainOf(config);
  wagmi ??= createConfig({
    chains: [chain],
    connectors: [injected(), ...(config.walletConnectProjectId ? [walletConnect({ projectId: config.walletConnectProjectId, showQrModal: true })] : [])],
    transports: { [chain.id]: http(config.rpcUrl ?? undefined) },
    ssr: false,
  });
  return wagmi;
}


/** Whether the browser has an injected wallet (a browser extension). */
function hasInjectedWallet(): boolean {
  return typeof window !== "undefined" && "ethereum" in window && Boolean(window.ethereum);
}

export type WalletKind = "injected" | "walletConnect";

/**
 * Connects a wallet and makes sure it is on the payment chain (asking it to switch, and to add
 * the chain first when it does not know it: the local chain in local mode).
 */
export async function connectWallet(config: WebConfig, kind: WalletKind = "injected"): Promise<Payer> {
  const wc = wagmiConfig(config);
  const connector = wc.connectors.find((c) => c.type === kind);
  if (kind === "injected" && (!connector || !hasInjectedWallet())) {
    throw new Error("No browser wallet was found: install one (e.g. a browser extension), use WalletConnect, or use another browser");
  }
  if (!connector) throw new Error("WalletConnect is not configured on this service");
  const current = getConnection(wc);
  if (current.status !== "connected") await connect(wc, { connector, chainId: config.chainId });
  await ensureChain(config);
  const walletClient = await getWalletClient(wc, { chainId: config.chainId });
  const address = walletClient.account.address;
  const signer = toClientEvmSigner({
    address,
    // The SDK hands typed data as loose Records, which viem's typed signTypedData cannot take: cast for the SDK.
    signTypedData: (m) => walletClient.signTypedData({ account: address, ...(m as Parameters<typeof walletClient.signTypedData>[0]) }),
  });
  // A sign-in message is signed as the wallet signs any message (EIP-191 personal_sign).
  const messages: EVMSigner = { address, signMessage: ({ message }) => walletClient.signMessage({ account: address, message }) };
  const payer = payerFor(config, { signer, messages }, "wallet");
  // The person may have switched networks since connecting: ask for the payment chain again
  // before each payment, so the wallet signs for the right chain (or says why not).
  const payFetch: typeof fetch = async (input, init) => {
    try {
      await ensureChain(config);
    } catch (err) {
      throw new WrongNetworkError(config.chainName, err);
    }
    return payer.payFetch(input, init);
  };
  return { ...payer, payFetch };
}

/** Asks the wallet to switch to the payment chain (adding it when unknown). */
async function ensureChain(config: WebConfig): Promise<void> {
  const wc = wagmiConfig(config);
  if (getConnection(wc).chainId === config.chainId) return;
  const chain = chainOf(config);
  await switchChain(wc, {
    chainId: config.chainId,
    addEthereumChainParameter: { chainName: chain.name, nativeCurrency: chain.nativeCurrency, rpcUrls: [...chain.rpcUrls.default.http] },
  });
}

export async function disconnectWallet(config: WebConfig): Promise<void> {
  await disconnect(wagmiConfig(config));
}

/**
 * Signs this browser in to the wallet's history (x402 sign-in-with-x): the session route's 402
 * carries a challenge, which the official client hook has the wallet sign (an EIP-191 message; it
 * pays nothing), and the proof sent back opens a session cookie for the history routes. Throws a
 * UserFacingError when the wallet does not sign or the service refuses the proof.
 */
export async function signInToHistory(payer: Payer): Promise<void> {
  const url = new URL(SESSION_PATH, location.origin).toString();
  const challenge = await fetch(url, { method: "POST", credentials: "same-origin" });
  const header = challenge.headers.get("payment-required");
  if (challenge.status !== 402 || !header) throw new UserFacingError(`The service did not offer a sign-in (it answered ${challenge.status}).`, { action: "Try again." });
  const signed = await createSIWxClientHook(payer.messageSigner)({ paymentRequired: decodePaymentRequiredHeader(header), requestUrl: url });
  if (!signed) throw new UserFacingError("The wallet did not sign the sign-in, so this browser is not signed in.", { action: "Press “Sign in with this wallet” again when you are ready to sign; it pays nothing." });
  const answer = await fetch(url, { method: "POST", credentials: "same-origin", headers: signed.headers });
  if (answer.ok) return;
  const body = await readJsonObject(answer);
  throw new UserFacingError(`The service did not accept the sign-in${typeof body.reason === "string" ? ` (${body.reason})` : ""}.`, { action: "Try again: a new challenge will be signed.", status: answer.status });
}

/** The payment token balance of `address`, in base units (6 decimals for USDC). */
export async function tokenBalance(config: WebConfig, address: `0x${string}`): Promise<bigint> {
  const client = createPublicClient({ chain: chainOf(config), transport: http(config.rpcUrl ?? undefined) });
  return client.readContract({ address: config.asset, abi: erc20Abi, functionName: "balanceOf", args: [address] });
}
