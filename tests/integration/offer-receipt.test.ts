import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import {
  createEIP712OfferReceiptIssuer,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  signReceiptEIP712,
  verifyOfferSignatureEIP712,
  type EIP712SignedOffer,
  type EIP712SignedReceipt,
} from "@x402/extensions/offer-receipt";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedSignersSchema } from "@/lib/shared/contracts";
import { PAID_OPERATIONS } from "@/lib/shared/operations";
import { createPayingFetch } from "@/lib/client/payments/client";
import { fetchPublishedSigners, verifyReceipt } from "@/lib/client/offer-receipt/verify";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startAcceptingAgent } from "../support/agent-double";
import type { HttpDouble } from "../support/http-double";
import { chain, freshAddress, fundedWallet, usdcBalance } from "../support/payments";
import { gatewayFetch, postJson, routeFetch } from "../support/routes";

/**
 * x402 offer-and-receipt, attacked (issue 28, item 4): every 402 carries offers signed by the key
 * /.well-known/x402.json publishes, every settled payment a signed receipt, and the verification a
 * paying client uses (lib/client/offer-receipt/verify.ts, the SDK's helpers) refuses a tampered receipt,
 * one signed by another key, a genuine receipt of another payment or resource, and an offer
 * altered in flight (the official client then signs nothing). Paid on the local chain.
 */
const PUBLIC_URL = "https://gateway.test";
const CHAT = `${PUBLIC_URL}/api/chat`;
const LITERATURE = `${PUBLIC_URL}/api/literature`;
const json = { "content-type": "application/json" };

describe("offer-and-receipt: signed offers and receipts, and the client's verification", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: HttpDouble;
  let env: Record<string, string>;
  let restore: () => Promise<void>;
  const payTo = freshAddress();

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startAcceptingAgent();
    env = {
      POSTGRES_URL: database.url,
      UPSTREAM_API_URL: agent.url,
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: payTo,
      AGENT_SERVICE_KEY: "service-key-for-tests-0123",
      INVALID_PAYMENT_LIMIT: "1000",
    };
    restore = await configureGateway(env);
  });
  afterAll(async () => {
    await restore?.();
    await agent?.close();
    await database?.drop();
  });

  const signers = () => fetchPublishedSigners(PUBLIC_URL, (input, init) => gatewayFetch(new Request(input, init)));

  /** Pays `url` with the official client; returns the answer, the payer and the receipt it carried. */
  async function pay(url: string, body: unknown) {
    const payer = await fundedWallet(1_000_000n);
    const { fetch: paying } = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
    const response = await paying(url, { method: "POST", headers: json, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBe(202);
    const settlement = decodePaymentResponseHeader(response.headers.get("payment-response")!);
    return { payer, settlement, receipt: extractReceiptFromResponse(response) as EIP712SignedReceipt | undefined };
  }

  /** A genuine chat receipt, with what it must verify as. */
  async function genuineReceipt() {
    const { payer, settlement, receipt } = await pay(CHAT, { message: "Does rapamycin extend lifespan in mice?" });
    expect(receipt, "PAYMENT-RESPONSE carries no offer-receipt receipt").toBeDefined();
    return { receipt: receipt!, expected: { resourceUrl: CHAT, payer: payer.address, network: chain().network, transaction: settlement.transaction } };
  }

  it("every paid route's 402 carries, in its body and its header, a signed offer of its terms by the key /.well-known/x402.json publishes", async () => {
    const manifest = (await (await gatewayFetch(new Request(`${PUBLIC_URL}/.well-known/x402.json`))).json()) as Record<string, unknown>;
    const published = publishedSignersSchema.parse(manifest["offer-receipt"]);
    const current = published.signers.filter((s) => s.status === "current");
    expect(current).toHaveLength(1);
    for (const op of PAID_OPERATIONS) {
      const unpaid = await postJson(`${PUBLIC_URL}${op.path}`, op.bodyExample);
      expect(unpaid.status, op.id).toBe(402);
      const body = (await unpaid.json()) as PaymentRequired;
      const header = decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!);
      for (const required of [body, header]) {
        const [offer, ...more] = extractOffersFromPaymentRequired(required) as EIP712SignedOffer[];
        expect(more, op.id).toEqual([]);
        expect(offer, `${op.id}: no signed offer`).toMatchObject({ format: "eip712", acceptIndex: 0 });
        const { scheme, network, asset, payTo: to, amount, maxTimeoutSeconds } = required.accepts[0]!;
        expect(offer!.payload).toMatchObject({ version: 1, resourceUrl: `${PUBLIC_URL}${op.path}`, scheme, network, asset, payTo: to, amount });
        // The service holds its terms for at least half the authorization's window.
        expect(offer!.payload.validUntil - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(maxTimeoutSeconds / 2 - 5);
        const { signer } = await verifyOfferSignatureEIP712(offer!);
        expect(signer).toBe(current[0]!.address);
      }
    }
  });

  it("a settled payment's PAYMENT-RESPONSE carries a signed receipt of that transaction, payer and resource, which the client's verification accepts", async () => {
    const keys = await signers();
    for (const [url, body] of [
      [CHAT, { message: "Does metformin slow aging?" }],
      [LITERATURE, { question: "metformin aging" }],
    ] as const) {
      const { payer, settlement, receipt } = await pay(url, body);
      expect(receipt, `${url}: no receipt`).toMatchObject({ format: "eip712", payload: { resourceUrl: url, transaction: settlement.transaction, network: chain().network } });
      const verdict = await verifyReceipt({ receipt, signers: keys, expected: { resourceUrl: url, payer: payer.address, network: chain().network, transaction: settlement.transaction } });
      expect(verdict).toMatchObject({ ok: true, signer: keys[0] });
    }
  });

  it("a tampered receipt is refused: each field of its payload changed, the signature kept", async () => {
    const { receipt, expected } = await genuineReceipt();
    const keys = await signers();
    expect(await verifyReceipt({ receipt, signers: keys, expected })).toMatchObject({ ok: true });
    const changes: Record<string, unknown>[] = [
      { transaction: `0x${"ab".repeat(32)}` },
      { payer: freshAddress() },
      { resourceUrl: LITERATURE },
      { network: "eip155:8453" },
      { issuedAt: receipt.payload.issuedAt + 86_400 },
    ];
    for (const change of changes) {
      const tampered = { ...receipt, payload: { ...receipt.payload, ...change } };
      // Even checked against what the tampered payload claims, the signature no longer recovers to a published key.
      const claimed = { resourceUrl: tampered.payload.resourceUrl, payer: tampered.payload.payer, network: tampered.payload.network, transaction: tampered.payload.transaction };
      const verdict = await verifyReceipt({ receipt: tampered, signers: keys, expected: claimed });
      expect(verdict, JSON.stringify(change)).toMatchObject({ ok: false, problem: expect.stringMatching(/not by a key the service publishes/) });
    }
    // One digit of r changed (not v: v 27 and yParity 0 are one signature, so rewriting the last byte proves nothing half the time).
    const digit = receipt.signature[10] === "0" ? "1" : "0";
    const altered = { ...receipt, signature: `${receipt.signature.slice(0, 10)}${digit}${receipt.signature.slice(11)}` };
    expect(await verifyReceipt({ receipt: altered, signers: keys, expected })).toMatchObject({ ok: false });
  });

  it("a receipt signed by another key is refused, even over the genuine payload", async () => {
    const { receipt, expected } = await genuineReceipt();
    const forger = privateKeyToAccount(generatePrivateKey());
    const issuer = createEIP712OfferReceiptIssuer(`did:pkh:eip155:1:${forger.address}`, (data) => forger.signTypedData(data as Parameters<typeof forger.signTypedData>[0]));
    const keys = await signers();
    // A receipt of its own for this payment, and the genuine payload signed again by its key.
    const forged = await issuer.issueReceipt(expected.resourceUrl, expected.payer, expected.network, expected.transaction);
    const resigned = { ...receipt, signature: await signReceiptEIP712(receipt.payload, (data) => forger.signTypedData(data as Parameters<typeof forger.signTypedData>[0])) };
    for (const candidate of [forged, resigned]) {
      const verdict = await verifyReceipt({ receipt: candidate, signers: keys, expected });
      expect(verdict).toMatchObject({ ok: false, kind: "unknown_signer", problem: expect.stringContaining(`signed by ${forger.address}`) });
    }
  });

  it("a genuine receipt is refused for another payment and for another resource", async () => {
    const first = await genuineReceipt();
    const second = await genuineReceipt();
    const keys = await signers();
    // The first payment's receipt shown for the second payment (same resource, same kind of payment).
    const forOther = await verifyReceipt({ receipt: first.receipt, signers: keys, expected: second.expected });
    expect(forOther).toMatchObject({ ok: false, problem: expect.stringMatching(/^the receipt is for another payment: .*transaction/) });
    // A chat receipt passed off as a literature search's.
    const asLiterature = await verifyReceipt({ receipt: first.receipt, signers: keys, expected: { ...first.expected, resourceUrl: LITERATURE } });
    expect(asLiterature).toMatchObject({ ok: false, problem: expect.stringMatching(/resource .*\/api\/chat, not .*\/api\/literature/) });
    // No receipt at all is not a receipt.
    expect(await verifyReceipt({ receipt: undefined, signers: keys, expected: first.expected })).toMatchObject({ ok: false });
  });

  describe("an offer altered in flight", () => {
    const attacker = privateKeyToAccount(generatePrivateKey());
    const attackerIssuer = createEIP712OfferReceiptIssuer(`did:pkh:eip155:1:${attacker.address}`, (data) =>
      attacker.signTypedData(data as Parameters<typeof attacker.signTypedData>[0]),
    );

    /** Every alteration an intermediary could make to the 402 between the service and the client. */
    const alterations: [string, (required: PaymentRequired) => Promise<PaymentRequired>][] = [
      ["the payee changed, the offer left as signed", async (r) => ({ ...r, accepts: [{ ...r.accepts[0]!, payTo: attacker.address }] })],
      [
        "the payee changed in the offer too, the service's signature kept",
        async (r) => {
          const [offer] = extractOffersFromPaymentRequired(r) as EIP712SignedOffer[];
          const altered = { ...offer!, payload: { ...offer!.payload, payTo: attacker.address } };
          return { ...r, accepts: [{ ...r.accepts[0]!, payTo: attacker.address }], extensions: { ...r.extensions, "offer-receipt": { info: { offers: [altered] } } } };
        },
      ],
      [
        "a new offer for the attacker's payee, signed by the attacker's key",
        async (r) => {
          const accepted = { ...r.accepts[0]!, payTo: attacker.address };
          const offer = await attackerIssuer.issueOffer(r.resource!.url, { acceptIndex: 0, ...accepted, offerValiditySeconds: 300 });
          return { ...r, accepts: [accepted], extensions: { ...r.extensions, "offer-receipt": { info: { offers: [offer] } } } };
        },
      ],
      ["the offers removed", async (r) => ({ ...r, extensions: Object.fromEntries(Object.entries(r.extensions ?? {}).filter(([key]) => key !== "offer-receipt")) })],
    ];

    it.each(alterations.map(([name]) => [name]))("is refused before anything is signed: %s", async (name) => {
      const alter = alterations.find(([n]) => n === name)![1];
      const payer = await fundedWallet(100_000n);
      const sent: string[] = [];
      // An intermediary where a CDN or TLS terminator stands: it rewrites the 402, body and header.
      const intermediary: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        if (request.headers.has("payment-signature")) sent.push(request.headers.get("payment-signature")!);
        const response = await routeFetch(request);
        if (response.status !== 402) return response;
        const altered = await alter(decodePaymentRequiredHeader(response.headers.get("payment-required")!));
        return new Response(JSON.stringify(altered), { status: 402, headers: { "content-type": "application/json", "payment-required": encodePaymentRequiredHeader(altered) } });
      };
      const keys = await signers();
      const before = await usdcBalance(payer.address);
      const { fetch: paying } = createPayingFetch({ privateKey: payer.privateKey, network: chain().network, asset: chain().asset, fetchImpl: intermediary, offerSigners: keys });
      const outcome = await paying(CHAT, { method: "POST", headers: json, body: JSON.stringify({ message: "q" }) }).then(
        (response) => `answered ${response.status}`,
        (err: Error) => err.message,
      );
      expect(outcome).toMatch(/offer/);
      expect(sent, "a payment was signed and sent").toEqual([]);
      expect(await usdcBalance(payer.address)).toBe(before);
    });
  });

  it("a key rotated out stays listed as previous: receipts it signed still verify, and stop verifying once it is no longer listed", async () => {
    const [keyA, keyB] = [generatePrivateKey(), generatePrivateKey()];
    const [a, b] = [privateKeyToAccount(keyA).address, privateKeyToAccount(keyB).address];
    await restore();
    restore = await configureGateway({ ...env, OFFER_RECEIPT_SIGNING_KEY: keyA });
    const signedByA = await genuineReceipt();
    expect(await signers()).toEqual([a]);

    // Rotated: B signs, A is still published for what it signed.
    await restore();
    restore = await configureGateway({ ...env, OFFER_RECEIPT_SIGNING_KEY: keyB, OFFER_RECEIPT_PREVIOUS_SIGNERS: a });
    const manifest = (await (await gatewayFetch(new Request(`${PUBLIC_URL}/.well-known/x402.json`))).json()) as Record<string, unknown>;
    expect(publishedSignersSchema.parse(manifest["offer-receipt"]).signers.map((s) => [s.address, s.status])).toEqual([
      [b, "current"],
      [a, "previous"],
    ]);
    expect(await verifyReceipt({ receipt: signedByA.receipt, signers: await signers(), expected: signedByA.expected })).toMatchObject({ ok: true, signer: a });
    const signedByB = await genuineReceipt();
    expect(await verifyReceipt({ receipt: signedByB.receipt, signers: await signers(), expected: signedByB.expected })).toMatchObject({ ok: true, signer: b });
    const offer = extractOffersFromPaymentRequired(decodePaymentRequiredHeader((await postJson(CHAT, { message: "q" })).headers.get("payment-required")!))[0] as EIP712SignedOffer;
    expect((await verifyOfferSignatureEIP712(offer)).signer).toBe(b);

    // A no longer listed: what it signed is no longer the service's word.
    await restore();
    restore = await configureGateway({ ...env, OFFER_RECEIPT_SIGNING_KEY: keyB });
    expect(await verifyReceipt({ receipt: signedByA.receipt, signers: await signers(), expected: signedByA.expected })).toMatchObject({
      ok: false,
      problem: expect.stringContaining(`signed by ${a}`),
    });
  });
});
