import { x402Client } from "@x402/core/client";
import type { Network, PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { validateDiscoveryExtension, type DiscoveryExtension } from "@x402/extensions/bazaar";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BazaarExtension } from "@/lib/gateway/discovery/bazaar";
import type { DiscoveryManifest } from "@/lib/gateway/discovery/manifest";
import { PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";
import { sealRequest } from "@/lib/shared/sealing";
import { startLibraryAgent } from "../support/agent";
import { configureGatewayFor } from "../support/gateway";
import { acceptedBodyFor } from "../support/paid-bodies";
import { expectHeaderSaysBody } from "../support/payment-required";
import { chain, freshAddress, wallet } from "../support/payments";
import { gatewayFetch, routeFetch } from "../support/routes";

/**
 * /.well-known/x402.json and /llms.txt as the gateway serves them (the proxy's API edge, then the
 * route handlers), held to the live 402 of every paid route; then each paid route paid the way
 * llms.txt tells a client to, on the local chain, and its 202 held to what the 402's bazaar
 * extension declared: the output schema, and a status route that answers with a declared status.
 */
const PUBLIC_URL = "https://gateway.test";
const json = { "content-type": "application/json" };

describe("the discovery documents, against the live 402s and paid requests", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;
  let restore: () => Promise<void>;
  const payTo = freshAddress();

  beforeAll(async () => {
    agent = await startLibraryAgent();
    restore = await configureGatewayFor({ agentUrl: agent.url, databaseUrl: agent.database.url, rpcUrl: chain().rpcUrl, payTo });
  });
  afterAll(async () => {
    await restore?.();
    await agent?.stop();
  });

  const get = (path: string, method = "GET") => gatewayFetch(new Request(`${PUBLIC_URL}${path}`, { method }));

  /** The 402 of `op` for its example body, as any client first sees it; the header says the same, its extensions lighter. */
  async function live402(op: PaidOperation): Promise<PaymentRequired> {
    const response = await gatewayFetch(new Request(`${PUBLIC_URL}${op.path}`, { method: "POST", headers: json, body: JSON.stringify(op.bodyExample) }));
    expect(response.status, op.path).toBe(402);
    const body = (await response.json()) as PaymentRequired;
    expectHeaderSaysBody(response, body);
    return body;
  }

  async function llmsTxt(): Promise<string> {
    const response = await get("/llms.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    return response.text();
  }

  it("serves a manifest whose items say what the live 402 of every paid route says, and nothing else", async () => {
    const response = await get("/.well-known/x402.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const manifest = (await response.json()) as DiscoveryManifest;
    expect(manifest.x402Version).toBe(2);
    expect(manifest.items).toHaveLength(PAID_OPERATIONS.length);
    for (const op of PAID_OPERATIONS) {
      const required = await live402(op);
      const bazaar = required.extensions!.bazaar as BazaarExtension;
      const item = manifest.items.find((i) => i.resource.url === required.resource.url);
      expect(item, op.path).toBeDefined();
      // Price, asset, network, payee, timeout and token domain, exactly as the 402 asks.
      expect(item!.accepts).toEqual(required.accepts);
      expect(item!.accepts[0]).toMatchObject({ amount: op.amount, network: chain().network, payTo });
      expect(item!.resource).toEqual(required.resource);
      expect(item!.input).toEqual({ method: bazaar.info.input.method, bodyType: bazaar.info.input.bodyType, body: bazaar.schema.properties.input.properties.body });
      expect(item!.input.method).toBe(op.method);
      expect(item!.output).toEqual({
        mimeType: required.resource.mimeType,
        example: bazaar.info.output.example,
        schema: bazaar.schema.properties.output.properties.example,
        asyncPolling: bazaar.info.output.asyncPolling,
      });
    }
  });

  it("serves llms.txt pricing every paid route as its live 402 does, with the 402's asset, network and payee", async () => {
    const text = await llmsTxt();
    const lines = text.split("\n");
    for (const op of PAID_OPERATIONS) {
      const required = await live402(op);
      const [accepts] = required.accepts;
      const line = lines.find((l) => l.startsWith(`- [POST ${op.path}](${required.resource.url})`));
      expect(line, op.path).toBeDefined();
      const dollars = `$${(Number(accepts!.amount) / 1e6).toFixed(2)}`;
      expect(line).toContain(`${dollars} (${accepts!.amount} base units)`);
      const polling = (required.extensions!.bazaar as BazaarExtension).info.output.asyncPolling;
      expect(text).toContain(`${polling.pollMethod} ${polling.pollUrlTemplate}`);
      expect(text).toContain(accepts!.asset);
      expect(text).toContain(accepts!.network);
      expect(text).toContain(accepts!.payTo);
    }
  });

  it("answers another method 405 with Allow, HEAD without a body, through the gateway's edge", async () => {
    for (const path of ["/llms.txt", "/.well-known/x402.json"]) {
      const refused = await get(path, "POST");
      expect(refused.status, path).toBe(405);
      expect(refused.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(await refused.json()).toMatchObject({ reason: "method_not_allowed" });
      const head = await get(path, "HEAD");
      expect(head.status).toBe(200);
      expect(await head.text()).toBe("");
    }
  });

  describe("paying as llms.txt says", () => {
    let pay: (payer: number) => typeof fetch;

    beforeAll(async () => {
      const text = await llmsTxt();
      const network = JSON.parse(/\.register\(("[^"]+")/.exec(text)![1]!) as Network;
      const spendControls = JSON.parse(/\.setSpendControls\((.*)\);/.exec(text)![1]!) as Parameters<x402Client["setSpendControls"]>[0];
      pay = (payer) => {
        const signer = toClientEvmSigner(privateKeyToAccount(wallet(payer).privateKey));
        return wrapFetchWithPayment(routeFetch, new x402Client().register(network, new ExactEvmScheme(signer)).setSpendControls(spendControls));
      };
    });

    it("needs the spend controls: without them the official client refuses the local token before signing", async () => {
      const bare = wrapFetchWithPayment(routeFetch, new x402Client().register(chain().network as Network, new ExactEvmScheme(toClientEvmSigner(privateKeyToAccount(wallet(10).privateKey)))));
      await expect(bare(`${PUBLIC_URL}/api/chat`, { method: "POST", headers: json, body: JSON.stringify({ message: "q" }) })).rejects.toThrow(/spendControls/);
    });

    const enclaveKey = async () => ((await (await get("/api/enclave-key")).json()) as { hpke_public_key: string }).hpke_public_key;

    const bodyFor = (op: PaidOperation) => acceptedBodyFor(op, { enclaveKey });

    it.each(PAID_OPERATIONS.map((op, i) => [op.id, op, 11 + i] as const))("%s: the 202 fits the declared output, and the declared status route answers a declared status", async (_id, op, payer) => {
      const required = await live402(op);
      const bazaar = required.extensions!.bazaar as BazaarExtension;
      const polling = bazaar.info.output.asyncPolling;
      const { body, recoveryKey } = await bodyFor(op);
      const response = await pay(payer)(`${PUBLIC_URL}${op.path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
      const answer = (await response.json()) as Record<string, string>;
      if (response.status === 200) {
        // Answered at once (sealed chat, when the answer was ready): only where the 402 said it may.
        expect(polling.synchronousStatus).toBe(200);
        return;
      }
      expect(response.status, JSON.stringify(answer)).toBe(polling.acceptedStatus);
      const asIfExample = { ...bazaar, info: { ...bazaar.info, output: { ...bazaar.info.output, example: answer } } };
      expect(validateDiscoveryExtension(asIfExample as unknown as DiscoveryExtension)).toEqual({ valid: true });

      const url = polling.pollUrlTemplate.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(answer[name]!));
      if (polling.pollUrlField) expect(answer[polling.pollUrlField]).toBe(url);
      const poll = await gatewayFetch(
        polling.pollMethod === "GET"
          ? new Request(url)
          : new Request(url, { method: "POST", headers: json, body: JSON.stringify(sealRequest({ enclavePublicKey: await enclaveKey(), plaintext: { recoveryKey } }).envelope) }),
      );
      expect(poll.status).toBe(200);
      const { status } = (await poll.json()) as { status: string };
      expect([...polling.pendingStatuses, ...polling.finalStatuses]).toContain(status);
    });
  });
});
