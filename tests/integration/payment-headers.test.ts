import { decodePaymentRequiredHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { validateDiscoveryExtension, type DiscoveryExtension } from "@x402/extensions/bazaar";
import { extractOffersFromPaymentRequired, extractReceiptFromResponse } from "@x402/extensions/offer-receipt";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";
import { createPayingFetch } from "@/lib/client/payments/client";
import { startLibraryAgent } from "../support/agent";
import { configureGateway } from "../support/gateway";
import { acceptedBodyFor } from "../support/paid-bodies";
import { namePayments } from "../support/payment-identifier";
import { chain, freshAddress, fundedWallet } from "../support/payments";
import { gatewayFetch, postJson, routeFetch } from "../support/routes";

/**
 * The x402 headers of every paid route (the registry's, so a new route is measured too), as the
 * official client meets them: the 402's PAYMENT-REQUIRED, and the PAYMENT-SIGNATURE the client
 * sends back, which echoes the 402's `extensions`. The limits and why: docs/payments.md, "Headers
 * that fit". A long public origin, since the header carries it.
 */
const PUBLIC_URL = "https://longevity-research-agent.gateway.example.org";
/** PAYMENT-REQUIRED, bytes: a hosted facilitator's verify failed at 3.5 KB and passed at 3.0 KB. */
const PAYMENT_REQUIRED_MAX = 2560;
/** The payment payload as a facilitator receives it (decoded PAYMENT-SIGNATURE, JSON bytes): the same bound. */
const PAYMENT_PAYLOAD_MAX = 2560;
/** PAYMENT-SIGNATURE, bytes: common proxies refuse a request header line above 8 KB; under half of it. */
const PAYMENT_SIGNATURE_MAX = 3584;
/**
 * PAYMENT-RESPONSE, bytes: the settlement and its signed receipt. A proxy reads a response's
 * headers into one buffer (nginx's proxy_buffer_size, 4 KB by default on most systems): well under it.
 */
const PAYMENT_RESPONSE_MAX = 2048;

const json = { "content-type": "application/json" };
type Sizes = { paymentRequired: number; refusedBody: number; refusedPayment: number; paymentSignature: number; payload: number; paymentResponse: number };

describe("the x402 headers of every paid route", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;
  let restore: () => Promise<void>;
  const sizes: Record<string, Partial<Sizes>> = {};

  beforeAll(async () => {
    agent = await startLibraryAgent();
    restore = await configureGateway({
      POSTGRES_URL: agent.database.url,
      UPSTREAM_API_URL: agent.url,
      AGENT_SERVICE_KEY: "agent-service-key-for-tests-0123",
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: freshAddress(),
    });
  });
  afterAll(async () => {
    // The measurements, for the record (docs/payments.md keeps them).
    console.table(sizes);
    await restore?.();
    await agent?.stop();
  });

  const enclaveKey = async () => ((await (await gatewayFetch(new Request(`${PUBLIC_URL}/api/enclave-key`))).json()) as { hpke_public_key: string }).hpke_public_key;
  const post = (op: PaidOperation, body: unknown, headers: Record<string, string> = {}) => postJson(`${PUBLIC_URL}${op.path}`, body, headers);

  it.each(PAID_OPERATIONS.map((op) => [op.id, op] as const))("%s: its 402 header stays under the limit, unpaid or refusing a body, and keeps a bazaar an indexer accepts", async (id, op) => {
    const unpaid = await post(op, op.bodyExample);
    expect(unpaid.status).toBe(402);
    const header = unpaid.headers.get("payment-required")!;
    // A body refused by a field name of its own choosing: what the 402 says of it cannot grow the header.
    const refused = await post(op, { ...op.bodyExample, [`x${"y".repeat(8000)}`]: 1 });
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { error: string }).error).toContain("would then be refused");
    const refusedHeader = refused.headers.get("payment-required")!;
    sizes[id] = { ...sizes[id], paymentRequired: header.length, refusedBody: refusedHeader.length };
    expect(header.length, `${id}: PAYMENT-REQUIRED is ${header.length} bytes (limit ${PAYMENT_REQUIRED_MAX})`).toBeLessThanOrEqual(PAYMENT_REQUIRED_MAX);
    expect(refusedHeader.length, `${id}: PAYMENT-REQUIRED refusing a body is ${refusedHeader.length} bytes (limit ${PAYMENT_REQUIRED_MAX})`).toBeLessThanOrEqual(PAYMENT_REQUIRED_MAX);

    const required = decodePaymentRequiredHeader(header);
    const body = (await unpaid.json()) as typeof required;
    // The header is the body's requirements, word for word; the bazaar it carries is one a facilitator catalogs.
    expect({ ...required, extensions: undefined }).toEqual({ ...body, extensions: undefined });
    expect(validateDiscoveryExtension(required.extensions!.bazaar as DiscoveryExtension)).toEqual({ valid: true });
    // Signed offers fit (x402 offer-and-receipt): one per requirement, in every 402's header.
    for (const [what, value] of [["unpaid", header], ["refusing a body", refusedHeader]] as const) {
      expect(extractOffersFromPaymentRequired(decodePaymentRequiredHeader(value)), `${id} ${what}: the header's signed offers`).toHaveLength(required.accepts.length);
    }
  });

  it.each(PAID_OPERATIONS.map((op) => [op.id, op] as const))("%s: the official client's PAYMENT-SIGNATURE, naming its payment, stays under the limits, and so does the 402 refusing it", async (id, op) => {
    const payer = await fundedWallet(5_000_000n);
    let sent: string | null = null;
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      sent = request.headers.get("payment-signature") ?? sent;
      return routeFetch(request);
    };
    const { fetch: pay, client } = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: recording });
    namePayments(client, () => generatePaymentId());
    const { body } = await acceptedBodyFor(op, { enclaveKey });
    const paid = await pay(`${PUBLIC_URL}${op.path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
    expect(paid.status, await paid.clone().text()).toBeLessThan(300);
    const header = sent!;
    const paymentResponse = paid.headers.get("payment-response");
    const payload = decodePaymentSignatureHeader(header);
    const payloadBytes = Buffer.byteLength(JSON.stringify(payload));

    // The same payment with its signature altered: refused (402), with its reason and message.
    const tampered = { ...payload, payload: { ...payload.payload, signature: `0x${"11".repeat(65)}` } };
    const refused = await post(op, body, { "payment-signature": encodePaymentSignatureHeader(tampered) });
    expect(refused.status).toBe(402);
    const refusedHeader = refused.headers.get("payment-required")!;
    expect(decodePaymentRequiredHeader(refusedHeader)).toMatchObject({ reason: "invalid_signature" });

    expect(extractOffersFromPaymentRequired(decodePaymentRequiredHeader(refusedHeader)), `${id}: the refusal's signed offers`).toHaveLength(1);

    sizes[id] = { ...sizes[id], paymentSignature: header.length, payload: payloadBytes, refusedPayment: refusedHeader.length, ...(paymentResponse ? { paymentResponse: paymentResponse.length } : {}) };
    // Chat and literature settle before they answer: their PAYMENT-RESPONSE carries the signed receipt.
    if (op.settlement === "immediate") {
      expect(paymentResponse, `${id}: PAYMENT-RESPONSE`).not.toBeNull();
      expect(extractReceiptFromResponse(paid), `${id}: the signed receipt`).toBeDefined();
      expect(paymentResponse!.length, `${id}: PAYMENT-RESPONSE is ${paymentResponse!.length} bytes (limit ${PAYMENT_RESPONSE_MAX})`).toBeLessThanOrEqual(PAYMENT_RESPONSE_MAX);
    }
    expect(header.length, `${id}: PAYMENT-SIGNATURE is ${header.length} bytes (limit ${PAYMENT_SIGNATURE_MAX})`).toBeLessThanOrEqual(PAYMENT_SIGNATURE_MAX);
    expect(payloadBytes, `${id}: the payment payload is ${payloadBytes} bytes of JSON (limit ${PAYMENT_PAYLOAD_MAX})`).toBeLessThanOrEqual(PAYMENT_PAYLOAD_MAX);
    expect(refusedHeader.length, `${id}: PAYMENT-REQUIRED refusing the payment is ${refusedHeader.length} bytes (limit ${PAYMENT_REQUIRED_MAX})`).toBeLessThanOrEqual(PAYMENT_REQUIRED_MAX);
  });
});
