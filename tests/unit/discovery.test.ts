import { validateDiscoveryExtension, type DiscoveryExtension } from "@x402/extensions/bazaar";
import * as offerReceiptHelpers from "@x402/extensions/offer-receipt";
import { OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import { describe, expect, it } from "vitest";
import { chatJobStatuses, deepResearchStatuses, literatureJobStatuses } from "@/lib/shared/contracts";
import { buildBazaarExtension, type BazaarExtension } from "@/lib/gateway/discovery/bazaar";
import { buildLlmsTxt } from "@/lib/gateway/discovery/llms-txt";
import { buildDiscoveryManifest } from "@/lib/gateway/discovery/manifest";
import { asyncPollingSchema, FINAL_STATUSES, statusWordsOf } from "@/lib/shared/discovery/polling";
import { API_ROUTES } from "@/lib/shared/http/api-routes.mjs";
import { buildOpenApiDocument } from "@/lib/gateway/openapi/document";
import { getPaidOperation, PAID_OPERATIONS } from "@/lib/shared/operations";
import { buildPaymentRequired, type PaymentSettings } from "@/lib/gateway/payments/requirements";
import { REQUEST_INFO, RESPONSE_INFO } from "@/lib/shared/sealing/codec";

const PUBLIC_URL = "https://gateway.test";

/** Base mainnet's USDC, paid to an address of the tests. */
function buildSettings(overrides: Partial<PaymentSettings> = {}): PaymentSettings {
  return {
    network: "eip155:8453",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    assetName: "USD Coin",
    assetVersion: "2",
    payTo: "0x00000000000000000000000000000000000d15c0",
    ...overrides,
  } as PaymentSettings;
}

/** The facilitator's check of a bazaar extension: `info` against `schema` (Ajv, JSON Schema 2020-12). */
const facilitatorCheck = (extension: BazaarExtension) => validateDiscoveryExtension(extension as unknown as DiscoveryExtension);

describe("the 402's bazaar extension", () => {
  it.each(PAID_OPERATIONS.map((op) => [op.id] as const))("of %s passes the facilitator's validation, its 202 example included", (operation) => {
    const bazaar = buildBazaarExtension({ operation, publicUrl: PUBLIC_URL });
    expect(facilitatorCheck(bazaar)).toEqual({ valid: true });
    expect(bazaar.info.input).toMatchObject({ type: "http", method: "POST", bodyType: "json" });
    expect(bazaar.info.output.type).toBe("json");
  });

  it("is refused when the example is not what the route answers: the output schema is checked", () => {
    const bazaar = buildBazaarExtension({ operation: "chat", publicUrl: PUBLIC_URL });
    const wrong = { ...bazaar, info: { ...bazaar.info, output: { ...bazaar.info.output, example: { requestId: "r1", status: "done" } } } };
    expect(facilitatorCheck(wrong).valid).toBe(false);
    const undeclared = { ...bazaar, info: { ...bazaar.info, output: { ...bazaar.info.output, asyncPolling: { ...bazaar.info.output.asyncPolling, pollEvery: 3 } } } };
    expect(facilitatorCheck(undeclared).valid).toBe(false);
  });

  it.each(PAID_OPERATIONS.map((op) => [op.id] as const))("of %s shows a 202 its route's contract accepts, and an input example its body schema accepts", (operation) => {
    const op = getPaidOperation(operation);
    expect(op.accepted.safeParse(op.acceptedExample(PUBLIC_URL)).error).toBeUndefined();
    expect(op.body.safeParse(op.bodyExample).error).toBeUndefined();
  });

  it("keeps every PAYMENT-REQUIRED header under 2.5 KiB on a long origin, with a bazaar extension a facilitator accepts (docs/payments.md, \"Headers that fit\")", () => {
    for (const op of PAID_OPERATIONS) {
      const { header, headerBody } = buildPaymentRequired({ operation: op.id, settings: buildSettings(), publicUrl: `https://${"long-origin.".repeat(8)}example` });
      expect(header.length, op.id).toBeLessThanOrEqual(2560);
      expect(validateDiscoveryExtension(headerBody.extensions!.bazaar as DiscoveryExtension), op.id).toEqual({ valid: true });
      expect(headerBody.extensions!.bazaar, op.id).toMatchObject({ info: { input: { type: "http", method: op.method, bodyType: "json", body: op.bodyExample } } });
    }
  });
});

describe("the polling table", () => {
  it("reads each route's status words from the contract, final ones apart", () => {
    const polling = (operation: (typeof PAID_OPERATIONS)[number]["id"]) => buildBazaarExtension({ operation, publicUrl: PUBLIC_URL }).info.output.asyncPolling;
    expect(statusWordsOf("chat")).toEqual([...chatJobStatuses]);
    expect(statusWordsOf("literature")).toEqual([...literatureJobStatuses]);
    expect(new Set(statusWordsOf("deepResearch"))).toEqual(new Set(deepResearchStatuses));
    expect(polling("chat")).toMatchObject({ pendingStatuses: ["queued", "active"], finalStatuses: ["completed", "failed"] });
    expect(polling("deepResearch")).toMatchObject({ pendingStatuses: ["queued", "running", "cancelling"], finalStatuses: ["completed", "failed", "cancelled", "timeout"] });
    expect(polling("literatureEncrypted")).toMatchObject({ pendingStatuses: ["pending", "active"], finalStatuses: ["completed", "failed"] });
    expect(polling("deepResearchEncrypted")).toMatchObject({ pollMethod: "POST", pendingStatuses: ["queued", "running"], finalStatuses: ["completed", "failed"] });
    for (const op of PAID_OPERATIONS) {
      const { pendingStatuses, finalStatuses } = polling(op.id);
      expect(finalStatuses, op.id).toContain("completed");
      expect(finalStatuses.every((s) => (FINAL_STATUSES as readonly string[]).includes(s)), op.id).toBe(true);
      expect(pendingStatuses.length, op.id).toBeGreaterThan(0);
    }
  });

  it.each(PAID_OPERATIONS.map((op) => [op.id] as const))("sends %s's client to a status route the gateway serves, named by a field of the 202", (operation) => {
    const polling = asyncPollingSchema.parse(buildBazaarExtension({ operation, publicUrl: PUBLIC_URL }).info.output.asyncPolling);
    expect(polling.pollUrlTemplate.startsWith(PUBLIC_URL)).toBe(true);
    const template = polling.pollUrlTemplate.slice(PUBLIC_URL.length);
    expect(API_ROUTES.find((r) => r.path === template)?.methods, template).toContain(polling.pollMethod);
    const example = getPaidOperation(operation).acceptedExample(PUBLIC_URL);
    const filled = polling.pollUrlTemplate.replace(/\{(\w+)\}/g, (_, name: string) => String(example[name]));
    expect(filled).not.toMatch(/undefined|\{/);
    if (polling.pollUrlField) expect(example[polling.pollUrlField]).toBe(filled);
    expect(polling.intervalSeconds).toBeLessThan(polling.typicalSeconds);
    expect(polling.typicalSeconds).toBeLessThanOrEqual(polling.maxSeconds);
  });
});

describe("the discovery manifest", () => {
  const settings = buildSettings();
  const manifest = buildDiscoveryManifest({ settings, publicUrl: PUBLIC_URL });

  it("has the draft's shape: x402Version, lastUpdated in seconds, one http item per paid route", () => {
    expect(manifest.x402Version).toBe(2);
    expect(Number.isInteger(manifest.lastUpdated)).toBe(true);
    expect(manifest.lastUpdated).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(manifest.items.map((item) => item.resource.url)).toEqual(PAID_OPERATIONS.map((op) => `${PUBLIC_URL}${op.path}`));
    for (const item of manifest.items) {
      expect(Object.keys(item).sort()).toEqual(["accepts", "extensions", "input", "output", "resource", "type"]);
      expect(item.type).toBe("http");
      expect(item.input).toMatchObject({ method: "POST", bodyType: "json", body: expect.objectContaining({ type: "object" }) });
      expect(item.output).toMatchObject({ mimeType: "application/json", schema: expect.objectContaining({ type: "object" }) });
    }
  });

  it("says what each route's 402 says, price and payee included", () => {
    for (const [i, op] of PAID_OPERATIONS.entries()) {
      const { body } = buildPaymentRequired({ operation: op.id, settings, publicUrl: PUBLIC_URL });
      const bazaar = body.extensions?.bazaar as BazaarExtension;
      const item = manifest.items[i]!;
      expect(item.accepts).toEqual(body.accepts);
      expect(item.accepts[0]).toMatchObject({ amount: op.amount, asset: settings.asset, network: settings.network, payTo: settings.payTo });
      expect(item.resource).toEqual(body.resource);
      expect(item.output.example).toEqual(bazaar.info.output.example);
      expect(item.output.asyncPolling).toEqual(bazaar.info.output.asyncPolling);
      expect(item.extensions).toEqual({ "payment-identifier": body.extensions?.["payment-identifier"], "sign-in-with-x": body.extensions?.["sign-in-with-x"] });
    }
  });

  it("follows the deployment: another payee or asset is another manifest", () => {
    const other = buildDiscoveryManifest({ settings: buildSettings({ payTo: "0x0000000000000000000000000000000000000bee" }), publicUrl: "https://other.test" });
    expect(other.items.every((item) => item.accepts[0]!.payTo === "0x0000000000000000000000000000000000000bee")).toBe(true);
    expect(other.items[0]!.resource.url.startsWith("https://other.test/")).toBe(true);
  });
});

describe("llms.txt", () => {
  const settings = buildSettings();
  const text = buildLlmsTxt({ settings, publicUrl: PUBLIC_URL, maxBodyBytes: 256 * 1024 });
  const lines = text.split("\n");

  it("opens as the convention asks: a title, then a one-paragraph summary in a blockquote", () => {
    expect(lines[0]).toBe("# Longevity Research Agent");
    expect(lines[2]).toMatch(/^> .*x402/);
    expect(text).not.toMatch(/undefined|\[object Object\]|NaN/);
  });

  it("prices every paid route from the price table and says where and how to poll it", () => {
    for (const op of PAID_OPERATIONS) {
      const line = lines.findIndex((l) => l.startsWith(`- [POST ${op.path}](${PUBLIC_URL}${op.path})`));
      expect(line, op.path).toBeGreaterThan(0);
      expect(lines[line]).toContain(`${op.price} (${op.amount} base units)`);
      const polling = buildBazaarExtension({ operation: op.id, publicUrl: PUBLIC_URL }).info.output.asyncPolling;
      expect(lines[line + 1]).toContain(`${polling.pollMethod} ${polling.pollUrlTemplate}`);
      expect(lines[line + 2]).toContain(`stop at ${polling.finalStatuses.join(", ")}. Every ${polling.intervalSeconds} s`);
    }
  });

  it("points at the OpenAPI document and the manifest, and lists every other free route of the OpenAPI document, not the cron", () => {
    expect(text).toContain(`${PUBLIC_URL}/api/openapi.json`);
    expect(text).toContain(`${PUBLIC_URL}/.well-known/x402.json`);
    const { paths } = buildOpenApiDocument({ publicUrl: PUBLIC_URL, maxBodyBytes: 256 * 1024 }) as { paths: Record<string, unknown> };
    for (const path of Object.keys(paths)) expect(text.includes(`${PUBLIC_URL}${path}`), path).toBe(path !== "/api/cron" && path !== "/llms.txt");
    for (const route of API_ROUTES.filter((r) => r.path.includes("/status/") || r.path.includes("/jobs/"))) {
      expect(text, route.path).toContain(`${route.methods[0]} ${PUBLIC_URL}${route.path}`);
    }
  });

  it("says how to name a payment (x402 payment-identifier) with the extension the 402 declares and the SDK's helper, and the 409", () => {
    const { body } = buildPaymentRequired({ operation: "chat", settings, publicUrl: PUBLIC_URL });
    expect(body.extensions?.[PAYMENT_IDENTIFIER]).toBeDefined();
    expect(text).toContain(`extensions["${PAYMENT_IDENTIFIER}"].info.id`);
    expect(text).toContain("appendPaymentIdentifierToExtensions");
    expect(text).toContain("409 `payment_identifier_conflict`");
  });

  it("says where the signed offers and receipts are (x402 offer-and-receipt), which helpers of the SDK check them, and where the keys are published", () => {
    const section = text.slice(text.indexOf("## Signed offers and receipts"), text.indexOf("## Paid routes"));
    expect(section).toContain(`extensions["${OFFER_RECEIPT}"].info.offers`);
    expect(section).toContain(`extensions["${OFFER_RECEIPT}"].info.receipt`);
    expect(section).toContain(`"${OFFER_RECEIPT}".signers\` of ${PUBLIC_URL}/.well-known/x402.json`);
    for (const helper of ["verifyOfferSignatureEIP712", "verifyReceiptSignatureEIP712", "findAcceptsObjectFromSignedOffer"]) {
      expect(section).toContain(helper);
      expect(typeof (offerReceiptHelpers as Record<string, unknown>)[helper], helper).toBe("function");
    }
  });

  it("says how a payer lists and reopens what it bought (x402 sign-in-with-x): where, the header, the SDK's helper, and that sealed requests stay sealed", () => {
    const { body } = buildPaymentRequired({ operation: "chat", settings, publicUrl: PUBLIC_URL });
    const declared = body.extensions?.[SIGN_IN_WITH_X] as { info: { uri: string } };
    const section = text.slice(text.indexOf("## Your results, from any client"), text.indexOf("## Paid routes"));
    expect(section).toContain(`GET ${declared.info.uri} answers 402`);
    expect(section).toContain(`extensions["${SIGN_IN_WITH_X}"]`);
    expect(section).toContain("SIGN-IN-WITH-X header");
    expect(section).toContain("createSIWxClientExtension");
    expect(section).toContain(`${declared.info.uri}/{id}`);
    expect(section).toContain("its words stay sealed");
  });

  it("describes private mode with the sealing scheme's own constants and the enclave key route", () => {
    const section = text.slice(text.indexOf("## Private mode"), text.indexOf("## Spend controls"));
    expect(section).toContain(`${PUBLIC_URL}/api/enclave-key`);
    expect(section).toContain(REQUEST_INFO);
    expect(section).toContain(RESPONSE_INFO);
    expect(section).toContain("XChaCha20-Poly1305");
  });

  it("allows this asset in the official client's spend controls, capped at the highest price", () => {
    const match = /\.setSpendControls\((.*)\);/.exec(text);
    expect(JSON.parse(match![1]!)).toEqual({ allowedAssets: [{ network: settings.network, asset: settings.asset, maxAmountPerPayment: "1000000" }] });
    expect(Math.max(...PAID_OPERATIONS.map((op) => Number(op.amount)))).toBe(1_000_000);
  });
});
