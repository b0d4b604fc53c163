import type pg from "pg";
import { x402Facilitator } from "@x402/core/facilitator";
import { FacilitatorResponseError, FacilitatorTimeoutError, HTTPFacilitatorClient } from "@x402/core/http";
import { SettleError, VerifyError, type PaymentPayload, type PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, defineChain, http, isHex, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { causeMessage, isUnreachable } from "@/lib/gateway/payments/chain-errors";
import { mapFacilitatorReason, type PaymentReason } from "@/lib/gateway/payments/reasons";
import type { PaymentSettings } from "@/lib/gateway/payments/requirements";
import { SettlementEngine, type EngineResult } from "@/lib/gateway/payments/settlement/engine";

/**
 * Verification and settlement, by a hosted facilitator (FACILITATOR_URL, or Coinbase's with CDP
 * credentials) or self-hosted in this process: the official x402 scheme verifies, and the
 * project's settlement engine (lib/gateway/payments/settlement) sends the transfers from
 * FACILITATOR_PRIVATE_KEYS. Every outcome says whose fault a failure is: `refused` is the
 * payment's (402), `unavailable` the service's (503, never counted against the client).
 */
type VerifyResult = { kind: "valid" } | { kind: "refused"; reason: PaymentReason; message: string } | { kind: "unavailable"; message: string };

export type SettleResult = EngineResult;

export type SettleRequest = {
  paymentId: string;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  waitMs: number;
  /** confirm() only: false for a payment that was given up, whose transactions must not be sent again. */
  resend?: boolean;
};

export interface PaymentFacilitator {
  readonly kind: "hosted" | "self-hosted";
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResult>;
  settle(request: SettleRequest): Promise<SettleResult>;
  /**
   * The outcome of transactions this facilitator already sent for the payment, without sending
   * anything new; null when it knows of none in flight (a hosted facilitator keeps no memory).
   */
  confirm(request: SettleRequest): Promise<SettleResult | null>;
  /** Whether `address` is one of this facilitator's own senders (unknown for a hosted one). */
  isOwnSender(address: string): boolean;
  /** The cron's upkeep: for the self-hosted engine, resume and repair its transactions. */
  maintain(): Promise<Record<string, number>>;
}

export function createFacilitator(settings: PaymentSettings, { getPool }: { getPool: () => Promise<pg.Pool> }): PaymentFacilitator {
  if (settings.facilitator.kind === "hosted") return createHostedFacilitator(settings.facilitator, settings.facilitatorTimeoutMs);
  return createSelfHostedFacilitator(settings, settings.facilitator.privateKeys, getPool);
}

type HostedSettings = Extract<PaymentSettings["facilitator"], { kind: "hosted" }>;

function createHostedFacilitator(hosted: HostedSettings, timeoutMs: number): PaymentFacilitator {
  const client = new HTTPFacilitatorClient({
    url: hosted.url,
    timeoutMs,
    createAuthHeaders: async () => {
      const paths = ["verify", "settle", "supported"] as const;
      const headers: Record<string, Record<string, string>> = Object.fromEntries(paths.map((p) => [p, { ...hosted.headers }]));
      if (hosted.cdp) {
        // Loaded only when CDP credentials are configured: it brings the CDP SDK with it.
        const { createCdpAuthHeaders } = await import("@coinbase/x402");
        const cdp = await createCdpAuthHeaders(hosted.cdp.keyId, hosted.cdp.keySecret)!();
        for (const p of paths) Object.assign(headers[p]!, cdp[p]);
      }
      return headers;
    },
  });
  return {
    kind: "hosted",
    verify: async (payload, requirements) => {
      try {
        const result = await client.verify(payload, requirements);
        if (result.isValid) return { kind: "valid" };
        return refusal(result.invalidReason, result.invalidMessage, "payment_invalid");
      } catch (err) {
        const failure = classifyHostedError(err, "verify");
        return failure.kind === "refused" ? failure : { kind: "unavailable", message: failure.kind === "unavailable" ? failure.message : "the facilitator gave no verdict" };
      }
    },
    settle: async ({ payload, requirements }) => {
      try {
        const result = await client.settle(payload, requirements);
        if (result.success) return isHex(result.transaction) ? { kind: "settled", transaction: result.transaction } : unfollowable(result.transaction);
        if (result.errorReason === "settlement_pending" && result.transaction) return isHex(result.transaction) ? { kind: "broadcast", transaction: result.transaction } : unfollowable(result.transaction);
        return refusal(result.errorReason, result.errorMessage, "settlement_failed");
      } catch (err) {
        return classifyHostedError(err, "settle");
      }
    },
    confirm: async () => null,
    isOwnSender: () => false,
    maintain: async () => ({}),
  };
}

/** A hosted facilitator's transfer whose transaction is no hash we could follow on chain: it may have moved the money all the same. */
function unfollowable(transaction: string): Extract<SettleResult, { kind: "unavailable" }> {
  return { kind: "unavailable", message: `the facilitator named a transaction that is not a hash: ${transaction.slice(0, 80)}`, mayHaveTransferred: true };
}

function refusal(reason: string | undefined, message: string | undefined, fallback: PaymentReason): { kind: "refused"; reason: PaymentReason; message: string } {
  return { kind: "refused", reason: mapFacilitatorReason(reason, fallback), message: [reason, message].filter(Boolean).join(": ") || "refused by the facilitator" };
}

/** HTTP statuses that say the request (our credentials, our URL, our rate) was wrong, not the payment. */
const SERVICE_FAULT_STATUSES = new Set([401, 403, 404, 405, 407, 408, 409, 425, 429]);

/**
 * What an exception of the official HTTP facilitator client means. It throws on any non-2xx
 * answer: a 4xx about the payment (400, 402, 422…) is a refusal; our credentials, our URL or its
 * rate limit (401, 403, 404, 429…), a 5xx, a timeout or no answer are the service's fault. A
 * settlement that timed out or failed on the facilitator's side may still have transferred.
 */
export function classifyHostedError(err: unknown, operation: "verify" | "settle"): Exclude<SettleResult, { kind: "settled" }> {
  if (err instanceof SettleError || err instanceof VerifyError) {
    const status = err.statusCode;
    const reason = err instanceof SettleError ? err.errorReason : err.invalidReason;
    const detail = err instanceof SettleError ? err.errorMessage : err.invalidMessage;
    if (err instanceof SettleError && err.errorReason === "settlement_pending" && err.transaction) {
      return isHex(err.transaction) ? { kind: "broadcast", transaction: err.transaction } : unfollowable(err.transaction);
    }
    if (status >= 400 && status < 500 && !SERVICE_FAULT_STATUSES.has(status)) return refusal(reason, detail, operation === "verify" ? "payment_invalid" : "settlement_failed");
    return { kind: "unavailable", message: `the facilitator answered ${status} to ${operation}: ${err.message}`, mayHaveTransferred: operation === "settle" && status >= 500 };
  }
  if (err instanceof FacilitatorTimeoutError) {
    return { kind: "unavailable", message: err.message, mayHaveTransferred: operation === "settle" };
  }
  if (err instanceof FacilitatorResponseError) {
    return { kind: "unavailable", message: err.message, mayHaveTransferred: operation === "settle" };
  }
  const text = err instanceof Error ? err.message : String(err);
  const status = Number(/failed \((\d{3})\)/.exec(text)?.[1] ?? NaN);
  if (status >= 400 && status < 500 && !SERVICE_FAULT_STATUSES.has(status)) return { kind: "refused", reason: "payment_invalid", message: text };
  // Refused connections never reached the facilitator; anything else may have been half-done.
  const neverArrived = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH/.test(`${text} ${causeMessage(err)}`);
  return { kind: "unavailable", message: `the facilitator could not be reached for ${operation}: ${text}`, mayHaveTransferred: operation === "settle" && !neverArrived && !Number.isFinite(status) };
}

/**
 * The viem wallet the official x402 EVM scheme expects (verification here; the benchmark's
 * reference server also settles with it, so both run the same facilitator code).
 */
export function createEvmFacilitatorSigner({
  rpcUrl,
  chainId,
  network,
  privateKey,
  confirmationTimeoutMs,
}: {
  rpcUrl: string;
  chainId: number;
  network: string;
  privateKey: `0x${string}`;
  confirmationTimeoutMs: number;
}) {
  const chain = defineChain({
    id: chainId,
    name: network,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const account = privateKeyToAccount(privateKey);
  const client = createWalletClient({ account, chain, transport: http(rpcUrl, { timeout: 20_000 }) }).extend(publicActions);
  return toFacilitatorEvmSigner(
    {
      address: account.address,
      // The x402 SDK hands an ABI as `unknown[]`, which viem's typed-ABI parameters cannot take: cast for the SDK.
      readContract: (args) => client.readContract(args as never),
      // The SDK's typed data is loose Records, which viem's TypedData parameters cannot take: cast for the SDK.
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      // The ABI as `unknown[]` again (see readContract): cast for the SDK.
      writeContract: (args) => client.writeContract(args as never),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args),
    },
    { confirmationTimeoutMs },
  );
}

function createSelfHostedFacilitator(settings: PaymentSettings, privateKeys: `0x${string}`[], getPool: () => Promise<pg.Pool>): PaymentFacilitator {
  const verifier = new x402Facilitator().register(
    settings.network,
    new ExactEvmScheme(
      createEvmFacilitatorSigner({
        rpcUrl: settings.rpcUrl,
        chainId: settings.chainId,
        network: settings.network,
        privateKey: privateKeys[0]!,
        confirmationTimeoutMs: settings.confirmationTimeoutMs,
      }),
    ),
  );
  const engine = new SettlementEngine({
    rpcUrl: settings.rpcUrl,
    chainId: settings.chainId,
    network: settings.network,
    privateKeys,
    getPool,
    mode: settings.settlementMode,
  });
  const own = new Set(engine.addresses.map((a) => a.toLowerCase()));
  return {
    kind: "self-hosted",
    verify: async (payload, requirements) => {
      try {
        const result = await verifier.verify(payload, requirements);
        if (result.isValid) return { kind: "valid" };
        return refusal(result.invalidReason, result.invalidMessage, "payment_invalid");
      } catch (err) {
        if (isUnreachable(err)) return { kind: "unavailable", message: `the chain could not be reached: ${err instanceof Error ? err.message : String(err)}` };
        // The scheme throws on input it cannot parse (a malformed ERC-6492 wrapper): the payment's fault.
        return { kind: "refused", reason: "payment_invalid", message: `the payment could not be verified: ${err instanceof Error ? err.message : String(err)}` };
      }
    },
    settle: (request) => engine.settle(request),
    confirm: (request) => engine.confirm(request),
    isOwnSender: (address) => own.has(address.toLowerCase()),
    maintain: () => engine.repair(),
  };
}
