import { decodePaymentRequiredHeader } from "@x402/core/http";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import { describe, expect, it } from "vitest";
import { signInRequiredSchema } from "@/lib/shared/contracts";
import { signInRequiredResponse } from "@/lib/gateway/history/sign-in-with-x";

/**
 * The sign-in 402 of the history routes (lib/gateway/history/sign-in-with-x.ts): its PAYMENT-REQUIRED
 * header, where the official client reads the challenge, stays within the bytes a paid route's
 * does (docs/payments.md, "Headers that fit": 2560), whatever a refused proof made it say, on a
 * long public origin, for the longest path a challenge names (a fixed one: with-sign-in.ts).
 */
const PUBLIC_URL = "https://longevity-research-agent.gateway.example.org";
const PAYMENT_REQUIRED_MAX = 2560;

describe("the sign-in 402", () => {
  it("fits in 2560 bytes of PAYMENT-REQUIRED on a 50-character origin, a refusal quoting a client's 8 KB URI cut short there and whole in the body", async () => {
    const quoted = `URI mismatch: expected origin "${PUBLIC_URL}", got "https://${"e".repeat(8000)}.example"`;
    for (const refusal of [{}, { reason: "invalid_siwx_uri_mismatch", message: quoted }, { reason: "invalid_siwx_issued_at_too_old", message: "Message too old: 400s exceeds 300s limit" }]) {
      const response = await signInRequiredResponse({ publicUrl: PUBLIC_URL, network: "eip155:8453", path: "/api/history/session", ...refusal });
      const header = response.headers.get("payment-required")!;
      expect(header.length, JSON.stringify(refusal).slice(0, 60)).toBeLessThanOrEqual(PAYMENT_REQUIRED_MAX);
      const body = signInRequiredSchema.parse(await response.json());
      const decoded = decodePaymentRequiredHeader(header) as unknown as typeof body;
      // The header is the body, its words cut short: the same challenge, the same reason.
      expect(decoded.extensions[SIGN_IN_WITH_X]).toEqual(body.extensions[SIGN_IN_WITH_X]);
      expect(decoded.reason).toBe(body.reason);
      if ("message" in refusal) expect(body.message).toBe(refusal.message);
    }
  });
});
