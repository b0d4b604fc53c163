import { describe, expect, it } from "vitest";
import { resendOnUnavailable } from "@/lib/client/payments/resend";

const unavailable = (reason: string) =>
  new Response(JSON.stringify({ error: "later", reason }), { status: 503, headers: { "content-type": "application/json", "retry-after": "5" } });

describe("a paying client after a 503", () => {
  it("sends the same request with the same PAYMENT-SIGNATURE again after Retry-After, until it is served", async () => {
    const seen: { signature: string | null; body: string }[] = [];
    const waits: number[] = [];
    const answers = [unavailable("settlement_unavailable"), unavailable("payment_in_progress"), new Response("{}", { status: 202 })];
    const fetchOnce: typeof fetch = async (input) => {
      const request = input as Request;
      seen.push({ signature: request.headers.get("payment-signature"), body: await request.text() });
      return answers.shift()!;
    };
    const send = resendOnUnavailable(fetchOnce, { sleep: async (ms) => void waits.push(ms) });
    const response = await send("https://gateway.test/api/chat", { method: "POST", headers: { "payment-signature": "sig-1" }, body: '{"message":"q"}' });
    expect(response.status).toBe(202);
    expect(seen).toEqual(Array(3).fill({ signature: "sig-1", body: '{"message":"q"}' }));
    expect(waits).toEqual([5_000, 5_000]);
  });

  it("gives up after its attempts, and leaves other 503s and unpaid requests alone", async () => {
    let calls = 0;
    const always: typeof fetch = async () => (calls++, unavailable("settlement_unavailable"));
    const send = resendOnUnavailable(always, { attempts: 2, sleep: async () => undefined });
    expect((await send("https://g.test/api/chat", { headers: { "payment-signature": "s" } })).status).toBe(503);
    expect(calls).toBe(3);
    calls = 0;
    expect((await resendOnUnavailable(always, { sleep: async () => undefined })("https://g.test/api/chat")).status).toBe(503);
    expect(calls).toBe(1);
    calls = 0;
    const enclave: typeof fetch = async () => (calls++, new Response(JSON.stringify({ error: "private_chat_unavailable", reason: "private_mode_not_ready" }), { status: 503 }));
    expect((await resendOnUnavailable(enclave, { sleep: async () => undefined })("https://g.test/x", { headers: { "payment-signature": "s" } })).status).toBe(503);
    expect(calls).toBe(1);
  });
});
