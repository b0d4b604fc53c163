import { FacilitatorResponseError, FacilitatorTimeoutError } from "@x402/core/http";
import { SettleError, VerifyError } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { classifyHostedError } from "@/lib/gateway/payments/facilitator";

/**
 * The official HTTP facilitator client throws on any non-2xx answer. What each exception means
 * decides who is at fault: a refusal of the payment (402) or the service (503), and whether a
 * transfer may have happened anyway.
 */
describe("a hosted facilitator's exceptions", () => {
  it("are refusals when the facilitator refused the payment (4xx about the payment)", () => {
    expect(classifyHostedError(new SettleError(400, { success: false, errorReason: "invalid_exact_evm_insufficient_balance", transaction: "", network: "eip155:8453" }), "settle")).toMatchObject({
      kind: "refused",
      reason: "insufficient_funds",
    });
    expect(classifyHostedError(new VerifyError(402, { isValid: false, invalidReason: "invalid_exact_evm_signature" }), "verify")).toMatchObject({ kind: "refused", reason: "invalid_signature" });
    expect(classifyHostedError(new Error("Facilitator settle failed (400): {\"error\":\"empty wallet\"}"), "settle")).toMatchObject({ kind: "refused", reason: "payment_invalid" });
  });

  it("are the service's fault for its credentials, its URL, its rate, a 5xx, a timeout or no answer", () => {
    for (const status of [401, 403, 404, 429, 500, 503]) {
      expect(classifyHostedError(new Error(`Facilitator settle failed (${status}): nope`), "settle").kind).toBe("unavailable");
      expect(classifyHostedError(new SettleError(status, { success: false, errorReason: "x", transaction: "", network: "eip155:8453" }), "settle").kind).toBe("unavailable");
    }
    expect(classifyHostedError(new FacilitatorTimeoutError("verify", 1000), "verify")).toMatchObject({ kind: "unavailable", mayHaveTransferred: false });
    expect(classifyHostedError(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") }), "settle")).toMatchObject({ kind: "unavailable", mayHaveTransferred: false });
  });

  it("say a settlement may have transferred when it timed out, failed on the facilitator's side or answered garbage", () => {
    expect(classifyHostedError(new FacilitatorTimeoutError("settle", 1000), "settle")).toMatchObject({ kind: "unavailable", mayHaveTransferred: true });
    expect(classifyHostedError(new FacilitatorResponseError("Facilitator settle returned invalid JSON"), "settle")).toMatchObject({ mayHaveTransferred: true });
    expect(classifyHostedError(new SettleError(502, { success: false, errorReason: "x", transaction: "", network: "eip155:8453" }), "settle")).toMatchObject({ mayHaveTransferred: true });
  });

  it("keep a broadcast transfer as broadcast", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(classifyHostedError(new SettleError(500, { success: false, errorReason: "settlement_pending", transaction: hash, network: "eip155:8453" }), "settle")).toEqual({ kind: "broadcast", transaction: hash });
  });
});
