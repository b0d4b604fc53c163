import type { PaymentRequirements } from "@x402/core/types";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePaymentHeader } from "@/lib/gateway/payments/verify-locally";
import { startFacilitatorDouble, type FacilitatorDouble } from "../support/facilitator-double";
import { chain, freshAddress, signPayment, wallet } from "../support/payments";
import { startRpcProxy, type RpcProxy } from "../support/rpc-proxy";

/**
 * The hosted facilitator stand-in that `npm run chaos` runs in its own process: a chain it cannot
 * reach must get an error answer, never an unhandled rejection that ends the process (issue 24,
 * item 12: a chaos run crashed that way during its chain fault).
 */
describe("the facilitator double with its chain out of reach", () => {
  let proxy: RpcProxy;
  let facilitator: FacilitatorDouble;
  let requirements: PaymentRequirements;

  beforeAll(async () => {
    proxy = await startRpcProxy(chain().rpcUrl);
    facilitator = await startFacilitatorDouble({ rpcUrl: proxy.url, chainId: chain().chainId, privateKey: wallet(55).privateKey, network: chain().network });
    requirements = {
      scheme: "exact",
      network: chain().network as PaymentRequirements["network"],
      asset: getAddress(chain().asset),
      amount: "20000",
      payTo: freshAddress(),
      maxTimeoutSeconds: 60,
      extra: { name: "USD Coin", version: "2" },
    };
  });
  afterAll(async () => {
    await facilitator.close();
    await proxy.close();
  });

  it("answers a verify whose token lookup (eth_getCode of the asset) cannot reach the chain with a 500, and keeps answering", async () => {
    // The payer's own code is read (a plain wallet), then the token's fails: the one lookup the
    // official facilitator does not catch, as when the chain is cut between the two.
    const asset = chain().asset.toLowerCase();
    proxy.setHook((call) =>
      call.method === "eth_getCode" && String(call.params[0]).toLowerCase() === asset ? { kind: "hang-up" } : { kind: "forward" },
    );
    const { header } = await signPayment({ privateKey: wallet(55).privateKey, requirements });
    const post = () =>
      fetch(`${facilitator.url}/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ x402Version: 2, paymentPayload: decodePaymentHeader(header), paymentRequirements: requirements }),
        // A hang guard far above a working call: without an answer the request would wait for ever.
        signal: AbortSignal.timeout(45_000),
      });
    const refused = await post();
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^facilitator error: /);
    expect(proxy.calls.some((c) => c.method === "eth_getCode" && String(c.params[0]).toLowerCase() === asset)).toBe(true);

    // Still alive: with the chain back, the same payment verifies.
    proxy.setHook(() => ({ kind: "forward" }));
    const verified = await post();
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ isValid: true });
  });
});
