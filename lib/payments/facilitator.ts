import { AsyncLocalStorage } from "node:async_hooks";
import { x402Facilitator, type PendingSettlementStore } from "@x402/core/facilitator";
import { HTTPFacilitatorClient } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, defineChain, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { PaymentSettings } from "./requirements";

/**
 * Verification and settlement, by a hosted facilitator (FACILITATOR_URL) or one self-hosted in
 * this process against RPC_URL, paying gas with FACILITATOR_PRIVATE_KEY.
 */
export interface PaymentFacilitator {
  readonly kind: "hosted" | "self-hosted";
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  /**
   * Settles. `broadcasts` learns each transaction hash as soon as it is sent (self-hosted only),
   * so a crash between broadcast and receipt leaves the hash in the ledger; `resume` gives the
   * hash of an earlier broadcast for the same authorization, so it is awaited again, never re-sent.
   */
  settle(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    hooks?: { onBroadcast?: (txHash: string) => Promise<void>; resumeTxHash?: string | null },
  ): Promise<SettleResponse>;
}

/** The facilitator could not be asked (network failure, timeout): the payer is not at fault. */
export class FacilitatorUnavailableError extends Error {
  constructor(operation: "verify" | "settle", cause: unknown) {
    super(`The payment facilitator could not ${operation}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = "FacilitatorUnavailableError";
  }
}

type SettleScope = { onBroadcast?: (txHash: string) => Promise<void>; resumeTxHash?: string | null };

export function createFacilitator(settings: PaymentSettings): PaymentFacilitator {
  if (settings.facilitator.kind === "hosted") {
    const client = new HTTPFacilitatorClient({ url: settings.facilitator.url, timeoutMs: 30_000 });
    return {
      kind: "hosted",
      verify: (payload, requirements) =>
        client.verify(payload, requirements).catch((err: unknown) => {
          throw new FacilitatorUnavailableError("verify", err);
        }),
      settle: (payload, requirements) =>
        client.settle(payload, requirements).catch((err: unknown) => {
          throw new FacilitatorUnavailableError("settle", err);
        }),
    };
  }
  return createSelfHostedFacilitator(settings, settings.facilitator.privateKey);
}

/**
 * The viem wallet the self-hosted facilitator settles with, as the x402 EVM scheme expects it
 * (also used by the benchmark's reference server, so both run the same facilitator).
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
      readContract: (args) => client.readContract(args as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => client.writeContract(args as never),
      sendTransaction: (args) => client.sendTransaction(args as never),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args as never),
      getCode: (args) => client.getCode(args as never),
    },
    { confirmationTimeoutMs },
  );
}

function createSelfHostedFacilitator(settings: PaymentSettings, privateKey: `0x${string}`): PaymentFacilitator {
  const scope = new AsyncLocalStorage<SettleScope>();
  const base = createEvmFacilitatorSigner({
    rpcUrl: settings.rpcUrl,
    chainId: settings.chainId,
    network: settings.network,
    privateKey,
    confirmationTimeoutMs: settings.confirmationTimeoutMs,
  });
  // Record every broadcast in the ledger before waiting for its receipt.
  const signer = {
    ...base,
    writeContract: async (args: Parameters<typeof base.writeContract>[0]) => {
      const hash = await base.writeContract(args);
      await scope.getStore()?.onBroadcast?.(hash);
      return hash;
    },
    sendTransaction: async (args: Parameters<typeof base.sendTransaction>[0]) => {
      const hash = await base.sendTransaction(args);
      await scope.getStore()?.onBroadcast?.(hash);
      return hash;
    },
  };
  // The scheme asks this store, keyed by signature, for an earlier broadcast before sending one:
  // the ledger answers, so a pending settlement is resumed, never signed twice.
  const pendingStore: PendingSettlementStore = {
    get: async () => scope.getStore()?.resumeTxHash ?? undefined,
    set: async (_key, txHash) => {
      await scope.getStore()?.onBroadcast?.(txHash);
    },
    delete: async () => undefined,
  };
  const facilitator = new x402Facilitator().register(
    settings.network as PaymentRequirements["network"],
    new ExactEvmScheme(signer, { pendingSettlementStore: pendingStore }),
  );
  return {
    kind: "self-hosted",
    verify: (payload, requirements) =>
      facilitator.verify(payload, requirements).catch((err: unknown) => {
        throw new FacilitatorUnavailableError("verify", err);
      }),
    settle: (payload, requirements, hooks = {}) =>
      scope.run(hooks, () =>
        facilitator.settle(payload, requirements).catch((err: unknown) => {
          throw new FacilitatorUnavailableError("settle", err);
        }),
      ),
  };
}
