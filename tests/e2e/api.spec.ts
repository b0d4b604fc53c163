import { expect, test } from "@playwright/test";

// What agents on other origins see of the API, through the real server (next.config headers).

test("a CORS preflight of a paid route allows PAYMENT-SIGNATURE and exposes the x402 headers", async ({ request }) => {
  const response = await request.fetch("/api/chat", {
    method: "OPTIONS",
    headers: {
      Origin: "https://agent.example",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "payment-signature, content-type",
    },
  });
  expect(response.status()).toBe(204);
  const headers = response.headers();
  expect(headers["access-control-allow-origin"]).toBe("*");
  expect(headers["access-control-allow-headers"]).toMatch(/PAYMENT-SIGNATURE/i);
  expect(headers["access-control-expose-headers"]).toMatch(/PAYMENT-REQUIRED/);
  expect(headers["access-control-expose-headers"]).toMatch(/PAYMENT-RESPONSE/);
});

test("an unpaid chat request gets 402 with the requirements in the body and the PAYMENT-REQUIRED header", async ({ request }) => {
  const response = await request.post("/api/chat", { data: { message: "Does rapamycin extend lifespan?" } });
  expect(response.status()).toBe(402);
  const body = await response.json();
  expect(body).toMatchObject({ x402Version: 2, accepts: [{ scheme: "exact", network: "eip155:31337", amount: "20000" }] });
  const header = JSON.parse(Buffer.from(response.headers()["payment-required"]!, "base64").toString("utf8"));
  expect(header).toEqual(body);
  expect(response.headers()["access-control-allow-origin"]).toBe("*");
});
