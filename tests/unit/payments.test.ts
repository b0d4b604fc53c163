import fs from "node:fs";
import path from "node:path";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { validateDiscoveryExtension, type DiscoveryExtension } from "@x402/extensions/bazaar";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/gateway/config";
import { paymentRequiredBodySchema } from "@/lib/shared/contracts";
import { digestRequest } from "@/lib/gateway/payments/paid-route";
import { PAID_OPERATIONS, pricingByRoute } from "@/lib/shared/operations";
import { mapFacilitatorReason, PaymentError } from "@/lib/gateway/payments/reasons";
import { buildPaymentRequired, buildRequirements, paymentRequiredResponse } from "@/lib/gateway/payments/requirements";
import { signExactPayment } from "@/lib/client/payments/sign";
import { verifyPaymentLocally } from "@/lib/gateway/payments/verify-locally";
import { expectHeaderSaysBody } from "../support/payment-required";

const settings = loadConfig({}).payments;
const PAYER_KEY = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba" as const;

describe("the price table", () => {
  it("holds the contract's fixed prices in 6-decimal base units", () => {
    expect(pricingByRoute()).toEqual({
      "POST /api/deep-research/start": "$1.00",
      "POST /api/deep-research/encrypted": "$1.00",
      "POST /api/chat": "$0.02",
      "POST /api/chat/encrypted": "$0.02",
      "POST /api/literature": "$0.03",
      "POST /api/literature/encrypted": "$0.03",
    });
    for (const op of PAID_OPERATIONS) expect(Number(op.amount) / 1e6).toBe(Number(op.price.slice(1)));
  });

  it("is what the README's table says, route by route", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| [^|]+ \| `(POST [^`]+)` \| (\$[\d.]+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(rows)).toEqual(pricingByRoute());
  });

  it("gives each route its validity window", () => {
    expect(buildRequirements("chat", settings).maxTimeoutSeconds).toBe(300);
    expect(buildRequirements("literature", settings).maxTimeoutSeconds).toBe(300);
    expect(buildRequirements("chatEncrypted", settings).maxTimeoutSeconds).toBe(600);
    expect(buildRequirements("deepResearch", settings).maxTimeoutSeconds).toBe(3600);
  });
});

describe("the 402", () => {
  it("is the contract's body with the requirements, the resource URL from PUBLIC_URL and the discovery extension", async () => {
    const built = buildPaymentRequired({ operation: "literature", settings, publicUrl: "https://research.example" });
    const response = paymentRequiredResponse(built);
    expect(response.status).toBe(402);
    const body = paymentRequiredBodySchema.parse(await response.json());
    expect(body.resource).toEqual({ url: "https://research.example/api/literature", description: "Start literature search ($0.03)", mimeType: "application/json" });
    expect(body.accepts).toEqual([
      { scheme: "exact", network: "eip155:31337", amount: "30000", asset: settings.asset, payTo: settings.payTo, maxTimeoutSeconds: 300, extra: { name: "USD Coin", version: "2" } },
    ]);
    const bazaar = body.extensions?.bazaar as { info: { input: Record<string, unknown> }; schema: { properties: { input: unknown } } };
    expect(bazaar.info.input).toMatchObject({ type: "http", method: "POST", bodyType: "json" });
    expect(JSON.stringify(bazaar.schema)).toContain('"question"');
    // The header: the same requirements; of the bazaar extension, what a facilitator catalogs (no schemas).
    const header = expectHeaderSaysBody(response, body);
    expect(header.extensions?.bazaar).toMatchObject({ info: { input: { type: "http", method: "POST", bodyType: "json", body: { question: expect.any(String) } } } });
    expect(validateDiscoveryExtension(header.extensions?.bazaar as DiscoveryExtension)).toEqual({ valid: true });
    expect(JSON.stringify(header.extensions)).not.toContain('"description"');
  });

  it("carries the reason and message of a refusal in the body and the header", async () => {
    const built = buildPaymentRequired({ operation: "chat", settings, publicUrl: "http://localhost:3000" });
    const response = paymentRequiredResponse(built, { reason: "amount_mismatch", message: "expected 20000" });
    const body = await response.json();
    expect(body).toMatchObject({ reason: "amount_mismatch", message: "expected 20000", error: "The payment amount is not this operation's price" });
    expect(decodePaymentRequiredHeader(response.headers.get("payment-required")!)).toMatchObject({ reason: "amount_mismatch" });
  });

  it("keeps a refusal's reason in the header and its message in the body, whole, however long", async () => {
    const built = buildPaymentRequired({ operation: "chat", settings, publicUrl: "http://localhost:3000" });
    const message = `signed by ${"0x12".repeat(2000)}`;
    const response = paymentRequiredResponse(built, { reason: "invalid_signature", message });
    expect(((await response.clone().json()) as { message: string }).message).toBe(message);
    const header = expectHeaderSaysBody(response, (await response.json()) as object) as { message?: string; reason?: string };
    expect(header).toMatchObject({ reason: "invalid_signature" });
    expect(response.headers.get("payment-required")!.length).toBeLessThan(2560);
  });
});

describe("local payment checks", () => {
  const requirements = buildRequirements("chat", settings);
  const now = Math.floor(Date.now() / 1000);
  const check = async (header: string, minRemainingSeconds = 60) => {
    const { decodePaymentHeader } = await import("@/lib/gateway/payments/verify-locally");
    return verifyPaymentLocally({ payload: decodePaymentHeader(header), requirements, chainId: 31337, nowSeconds: now, minRemainingSeconds });
  };
  const reason = async (promise: Promise<unknown>) => ((await promise.catch((e: unknown) => e)) as PaymentError).reason;

  it("accept a correctly signed payment and name the payer and nonce", async () => {
    const { header, payer, nonce } = await signExactPayment({ privateKey: PAYER_KEY, requirements, chainId: 31337 });
    const checked = await check(header);
    expect(checked.payer).toBe(payer);
    expect(checked.nonce).toBe(nonce.toLowerCase());
  });

  it("refuse a signature made for another chain id", async () => {
    const { header } = await signExactPayment({ privateKey: PAYER_KEY, requirements, chainId: 8453 });
    expect(await reason(check(header))).toBe("invalid_signature");
  });

  it("refuse a window shorter than the route needs", async () => {
    const { header } = await signExactPayment({ privateKey: PAYER_KEY, requirements, chainId: 31337, overrides: { validBefore: now + 30 } });
    expect(await reason(check(header))).toBe("authorization_window_too_short");
    expect(await check(header, 10)).toBeTruthy();
  });

  it("refuse another token domain and another timeout", async () => {
    const wrongName = await signExactPayment({ privateKey: PAYER_KEY, requirements: { ...requirements, extra: { name: "USDC", version: "2" } }, chainId: 31337 });
    expect(await reason(check(wrongName.header))).toBe("invalid_token_domain");
    const longer = await signExactPayment({ privateKey: PAYER_KEY, requirements: { ...requirements, maxTimeoutSeconds: 9999 }, chainId: 31337 });
    expect(await reason(check(longer.header))).toBe("requirements_mismatch");
  });

  it("refuse x402 version 1 and a non-EIP-3009 payload", async () => {
    const { payload } = await signExactPayment({ privateKey: PAYER_KEY, requirements, chainId: 31337 });
    const encode = (p: unknown) => Buffer.from(JSON.stringify(p)).toString("base64");
    expect(await reason(check(encode({ ...payload, x402Version: 1 })))).toBe("unsupported_x402_version");
    expect(await reason(check(encode({ ...payload, payload: { permit2Authorization: {} } })))).toBe("unsupported_payload");
  });
});

describe("facilitator reasons", () => {
  it("map to stable reasons, with a fallback", () => {
    expect(mapFacilitatorReason("invalid_exact_evm_insufficient_balance", "payment_invalid")).toBe("insufficient_funds");
    expect(mapFacilitatorReason("invalid_exact_evm_nonce_already_used", "payment_invalid")).toBe("payment_already_used");
    expect(mapFacilitatorReason("something_new", "settlement_failed")).toBe("settlement_failed");
    expect(mapFacilitatorReason(undefined, "payment_invalid")).toBe("payment_invalid");
  });
});

describe("request digests", () => {
  it("ignore key order and undefined fields, and tell different requests apart", () => {
    const a = digestRequest("POST /api/chat", {}, { message: "m", fast: true });
    expect(digestRequest("POST /api/chat", {}, { fast: true, message: "m", extra: undefined })).toBe(a);
    expect(digestRequest("POST /api/chat", {}, { message: "m", fast: false })).not.toBe(a);
    expect(digestRequest("POST /api/literature", {}, { message: "m", fast: true })).not.toBe(a);
  });
});

describe("a refused payment's message", () => {
  const requirements = buildRequirements("chat", settings);
  const now = Math.floor(Date.now() / 1000);
  const detail = async (change: (payload: any) => unknown) => {
    const { payload } = await signExactPayment({ privateKey: PAYER_KEY, requirements, chainId: 31337 });
    const header = Buffer.from(JSON.stringify(change(structuredClone(payload)))).toString("base64");
    const { decodePaymentHeader } = await import("@/lib/gateway/payments/verify-locally");
    const err = (await verifyPaymentLocally({ payload: decodePaymentHeader(header), requirements, chainId: 31337, nowSeconds: now, minRemainingSeconds: 60 }).catch((e: unknown) => e)) as PaymentError;
    return `${err.reason}: ${err.detail}`;
  };

  it("names a value of the wrong type with its type, wherever it is", async () => {
    expect(await detail((p) => ({ ...p, x402Version: "2" }))).toBe('unsupported_x402_version: x402Version must be the number 2, got the string "2"');
    expect(await detail((p) => ({ ...p, accepted: { ...p.accepted, amount: 20000 } }))).toBe('amount_mismatch: amount must be the string "20000", got the number 20000');
    expect(await detail((p) => ({ ...p, accepted: { ...p.accepted, extra: { name: "USD Coin", version: 2 } } }))).toBe(
      'invalid_token_domain: extra must be {name: "USD Coin", version: "2"}, got name the string "USD Coin", version the number 2',
    );
    expect(await detail((p) => ({ ...p, payload: { ...p.payload, authorization: { ...p.payload.authorization, value: 20000 } } }))).toBe(
      "unsupported_payload: payload.authorization.value must be a string of decimal digits, got the number 20000",
    );
    expect(await detail((p) => ({ ...p, payload: { ...p.payload, signature: 5 } }))).toBe("unsupported_payload: payload.signature must be 0x and hex digits, got the number 5");
    expect(await detail((p) => ({ ...p, payload: { signature: p.payload.signature } }))).toBe("unsupported_payload: payload.authorization must be an object, got nothing");
  });

  it("names the price when the authorization's value is another amount", async () => {
    expect(await detail((p) => ({ ...p, payload: { ...p.payload, authorization: { ...p.payload.authorization, value: "30000" } } }))).toBe(
      'amount_mismatch: authorization.value must be the string "20000" (the price), got the string "30000"',
    );
  });
});
