import { decodePaymentRequiredHeader } from "@x402/core/http";
import fc from "fast-check";
import { buildSIWxSchema, parseSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import type { Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { historyEntrySchema, historyPageSchema, signInRequiredSchema, signInSessionSchema, type HistoryItem, type HistoryPage } from "@/lib/shared/contracts";
import { getDb } from "@/lib/gateway/db";
import type { DiscoveryManifest } from "@/lib/gateway/discovery/manifest";
import { PAID_OPERATIONS } from "@/lib/shared/operations";
import { createPayingFetch } from "@/lib/client/payments/client";
import { createRecoveryKey, portablePrimitives, sealRequest } from "@/lib/shared/sealing";
import { startLibraryAgent } from "../support/agent";
import { awkwardText } from "../support/fuzz";
import { configureGateway } from "../support/gateway";
import { chain, freshAddress, fundedWallet } from "../support/payments";
import { gatewayFetch } from "../support/routes";
import { challengeOf, proofFor, signingInFetch } from "../support/sign-in";
import { pollFor } from "../support/until";

/**
 * x402 sign-in-with-x (CAIP-122), attacked: a wallet that paid proves it is the same wallet by
 * signing the challenge of GET /api/history's 402, and lists and reopens its own results, from any
 * client, without paying again. Each attack is a proof a client could send: signed by another
 * wallet, sent twice (one after the other, and at the same instant), too old, expired, not yet
 * valid, for another domain, origin or chain, or tampered after signing; and a wallet signed in
 * reaching for another wallet's results. Sealed requests stay sealed: listed, never their words.
 * Paid with the official client on the local chain, against the real agent on the synthetic library.
 */
const PUBLIC_URL = "https://gateway.test";
const HISTORY = `${PUBLIC_URL}/api/history`;
const SESSION = `${HISTORY}/session`;
const json = { "content-type": "application/json" };
const gateway = (input: RequestInfo | URL, init?: RequestInit) => gatewayFetch(new Request(input, init));

type Item = HistoryItem;
type Page = HistoryPage;
type Refusal = { error: string; reason?: string; accepts: unknown[]; extensions: Record<string, unknown> };

describe("sign-in-with-x: a wallet lists and reopens its own results", () => {
  let agent: Awaited<ReturnType<typeof startLibraryAgent>>;
  let restore: () => Promise<void>;
  let alice: { address: Hex; privateKey: Hex };
  let bob: { address: Hex; privateKey: Hex };
  const questions = {
    chat: "Does rapamycin extend lifespan in mice?",
    literature: "metformin aging humans",
    research: "What do caloric restriction trials in primates show?",
    sealed: "A private question: does my own biomarker panel suggest faster aging?",
    sealedResearch: "A private research question about my family's longevity",
    bob: "Bob's question: does spermidine extend lifespan?",
  };
  const ids: Record<string, string> = {};

  const enclaveKey = async () => ((await (await gateway(`${PUBLIC_URL}/api/enclave-key`)).json()) as { hpke_public_key: string }).hpke_public_key;
  const seal = async (plaintext: unknown) => sealRequest({ enclavePublicKey: await enclaveKey(), plaintext }).envelope;
  const pay = (privateKey: Hex) => createPayingFetch({ privateKey, network: chain().network, asset: chain().asset, fetchImpl: gateway }).fetch;
  const post = (fetcher: typeof fetch, path: string, body: unknown) => fetcher(`${PUBLIC_URL}${path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
  /** The history as the official client reads it, signing in with `privateKey` (a fresh challenge and proof per request). */
  const history = (privateKey: Hex, url = HISTORY, init?: RequestInit) => signingInFetch(privateKey, gateway)(url, init);
  const listOf = async (privateKey: Hex, query = ""): Promise<Page> => {
    const response = await history(privateKey, `${HISTORY}${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    // Every page is what the contract says it is (lib/shared/contracts/history.ts).
    return historyPageSchema.parse(await response.json());
  };
  const challenge = () => challengeOf(HISTORY, gateway);
  const withProof = (proof: string, url = HISTORY) => gateway(url, { headers: { [SIGN_IN_WITH_X]: proof } });

  beforeAll(async () => {
    agent = await startLibraryAgent();
    restore = await configureGateway({
      POSTGRES_URL: agent.database.url,
      UPSTREAM_API_URL: agent.url,
      AGENT_SERVICE_KEY: "agent-service-key-for-tests-0123",
      PUBLIC_URL,
      RPC_URL: chain().rpcUrl,
      PAY_TO_ADDRESS: freshAddress(),
      INVALID_PAYMENT_LIMIT: "1000",
    });
    // One after the other: the chain's deployer mints for both.
    alice = await fundedWallet(5_000_000n);
    bob = await fundedWallet(1_000_000n);
    // Alice pays for a chat, a literature search, deep research, a sealed chat and a sealed run; Bob for a chat.
    const paidBy = pay(alice.privateKey);
    const started = async (path: string, body: unknown) => {
      const response = await post(paidBy, path, body);
      expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
      return (await response.json()) as Record<string, string>;
    };
    ids.chat = (await started("/api/chat", { message: questions.chat })).requestId!;
    ids.literature = (await started("/api/literature", { question: questions.literature })).jobId!;
    const research = await started("/api/deep-research/start", { message: questions.research });
    ids.conversation = research.conversationId!;
    ids.messageId = research.messageId!;
    await started("/api/chat/encrypted", await seal({ message: questions.sealed }));
    await started("/api/deep-research/encrypted", await seal({ message: questions.sealedResearch, recoveryKey: createRecoveryKey(portablePrimitives) }));
    const bobs = await post(pay(bob.privateKey), "/api/chat", { message: questions.bob });
    expect(bobs.status).toBe(202);
  });
  afterAll(async () => {
    await restore?.();
    await agent?.stop();
  });

  it("GET /api/history without a proof is a 402 with a fresh sign-in-with-x challenge bound to this origin and chain, asking no payment", async () => {
    const first = await gateway(HISTORY);
    expect(first.status).toBe(402);
    const body = signInRequiredSchema.parse(await first.json()) as Refusal;
    const header = decodePaymentRequiredHeader(first.headers.get("payment-required")!);
    expect(body.accepts).toEqual([]);
    expect(header.accepts).toEqual([]);
    const declared = header.extensions![SIGN_IN_WITH_X] as SIWxExtension;
    expect(body.extensions[SIGN_IN_WITH_X]).toEqual(declared);
    expect(declared.info).toMatchObject({ domain: "gateway.test", uri: HISTORY, version: "1", resources: [HISTORY] });
    expect(declared.info.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(declared.info.expirationTime!)).toBeGreaterThan(Date.parse(declared.info.issuedAt));
    expect(declared.supportedChains).toEqual([{ chainId: chain().network, type: "eip191" }]);
    expect(declared.schema).toEqual(buildSIWxSchema());
    const second = decodePaymentRequiredHeader((await gateway(HISTORY)).headers.get("payment-required")!).extensions![SIGN_IN_WITH_X] as SIWxExtension;
    expect(second.info.nonce).not.toBe(declared.info.nonce);
  });

  it("is declared in every paid route's 402 body, pointing at where a payer signs in, and in /.well-known/x402.json; the paid routes' header stays without it", async () => {
    const manifest = (await (await gateway(`${PUBLIC_URL}/.well-known/x402.json`)).json()) as DiscoveryManifest;
    for (const op of PAID_OPERATIONS) {
      const unpaid = await gateway(`${PUBLIC_URL}${op.path}`, { method: "POST", headers: json, body: JSON.stringify(op.bodyExample) });
      expect(unpaid.status, op.id).toBe(402);
      const declared = ((await unpaid.json()) as Refusal).extensions[SIGN_IN_WITH_X] as SIWxExtension;
      expect(declared.info, op.id).toMatchObject({ domain: "gateway.test", uri: HISTORY, version: "1" });
      expect(declared.supportedChains, op.id).toEqual([{ chainId: chain().network, type: "eip191" }]);
      expect(declared.schema, op.id).toEqual(buildSIWxSchema());
      // The official client signs any sign-in-with-x its header carries before it pays: never on a paid route.
      expect(decodePaymentRequiredHeader(unpaid.headers.get("payment-required")!).extensions?.[SIGN_IN_WITH_X], op.id).toBeUndefined();
      const item = manifest.items.find((i) => i.resource.url === `${PUBLIC_URL}${op.path}`) as { extensions?: Record<string, unknown> } | undefined;
      expect(item?.extensions?.[SIGN_IN_WITH_X], op.id).toEqual(declared);
    }
  });

  it("the official client signs in and lists its own results, newest first, a page at a time, each with its question; sealed ones without theirs", async () => {
    const page = await listOf(alice.privateKey);
    expect(page.address.toLowerCase()).toBe(alice.address.toLowerCase());
    expect(page.items.map((i) => i.operation)).toEqual(["deepResearchEncrypted", "chatEncrypted", "deepResearch", "literature", "chat"]);
    expect(page.items.map((i) => i.createdAt)).toEqual([...page.items.map((i) => i.createdAt)].sort().reverse());
    expect(page.items.map((i) => i.question)).toEqual([null, null, questions.research, questions.literature, questions.chat]);
    expect(page.items.map((i) => i.content)).toEqual(["sealed", "sealed", "kept", "kept", "kept"]);
    expect(page.items.find((i) => i.operation === "deepResearch")).toMatchObject({ conversationId: ids.conversation, messageId: ids.messageId, kind: "deepResearch" });
    expect(page.nextCursor).toBeNull();

    // Two at a time: the same items, in the same order, over three pages.
    const seen: Item[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const next: Page = await listOf(alice.privateKey, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(next.items.length).toBeLessThanOrEqual(2);
      seen.push(...next.items);
      cursor = next.nextCursor;
    }
    expect(seen.map((i) => i.id)).toEqual(page.items.map((i) => i.id));
  });

  it("sealed requests show that they exist and when, never their question or answer, listed or reopened", async () => {
    const page = await listOf(alice.privateKey);
    const sealed = page.items.filter((i) => i.sealed);
    expect(sealed.map((i) => i.kind).sort()).toEqual(["chat", "deepResearch"]);
    for (const item of sealed) {
      expect(item).toMatchObject({ question: null, content: "sealed", conversationId: null, messageId: null });
      const reopened = await history(alice.privateKey, `${HISTORY}/${item.id}`);
      expect(reopened.status).toBe(200);
      const text = await reopened.text();
      expect(historyEntrySchema.parse(JSON.parse(text))).toMatchObject({ id: item.id, sealed: true, answer: { status: "sealed" } });
      for (const words of [questions.sealed, questions.sealedResearch, "biomarker", "family"]) expect(text).not.toContain(words);
    }
    expect(JSON.stringify(page)).not.toContain("biomarker");
  });

  it("reopens a chat, a literature search and a deep-research turn with what was bought, and keeps a chat's answer after the agent forgot it", async () => {
    const page = await listOf(alice.privateKey);
    const chatItem = page.items.find((i) => i.operation === "chat")!;
    // The payer follows its chat to the end, as any client does.
    const finished = await pollFor(
      async () => (await (await gateway(`${PUBLIC_URL}/api/chat/status/${ids.chat}`)).json()) as { status: string; result?: { answer: string } },
      (s) => s.status === "completed",
      { what: "the chat's answer" },
    );
    const reopened = (await (await history(alice.privateKey, `${HISTORY}/${chatItem.id}`)).json()) as Item & { answer: { status: string; result?: { answer: string } } };
    expect(reopened).toMatchObject({ id: chatItem.id, question: questions.chat, answer: { status: "completed" } });
    expect(reopened.answer.result!.answer).toBe(finished.result!.answer);

    // The agent forgets a chat after an hour; the payer's history keeps what it bought.
    await agent.pool.query("DELETE FROM agent.jobs WHERE id = $1", [ids.chat]);
    expect((await gateway(`${PUBLIC_URL}/api/chat/status/${ids.chat}`)).status).toBe(404);
    const kept = (await (await history(alice.privateKey, `${HISTORY}/${chatItem.id}`)).json()) as typeof reopened;
    expect(kept.answer.result!.answer).toBe(finished.result!.answer);

    const literatureItem = page.items.find((i) => i.operation === "literature")!;
    const literature = await pollFor(
      async () => (await (await history(alice.privateKey, `${HISTORY}/${literatureItem.id}`)).json()) as { answer: { status: string; result?: { references?: unknown[] } } },
      (r) => r.answer.status === "completed",
      { what: "the literature search, reopened" },
    );
    expect(literature.answer.result!.references!.length).toBeGreaterThan(0);

    const researchItem = page.items.find((i) => i.operation === "deepResearch")!;
    const research = (await (await history(alice.privateKey, `${HISTORY}/${researchItem.id}`)).json()) as { answer: { status: string; pollUrl: string } };
    expect(research.answer).toEqual({ status: "in_conversation", pollUrl: `${PUBLIC_URL}/api/deep-research/${ids.conversation}` });
  });

  it("a wallet signed in sees none of another wallet's results: not listed, not reopened, not forgotten for it (404, as for no result at all)", async () => {
    const bobs = await listOf(bob.privateKey);
    expect(bobs.items.map((i) => i.question)).toEqual([questions.bob]);
    const alices = await listOf(alice.privateKey);
    expect(JSON.stringify(bobs)).not.toContain(questions.chat);
    for (const item of alices.items) {
      const reopened = await history(bob.privateKey, `${HISTORY}/${item.id}`);
      expect(reopened.status, item.operation).toBe(404);
      expect(await reopened.text()).not.toContain(alice.address.slice(2).toLowerCase());
      const forgotten = await history(bob.privateKey, `${HISTORY}/${item.id}`, { method: "DELETE" });
      expect(forgotten.status, item.operation).toBe(404);
    }
    expect((await listOf(alice.privateKey)).items.map((i) => i.id)).toEqual(alices.items.map((i) => i.id));
    // A wallet that never paid signs in to an empty history.
    expect((await listOf(generatePrivateKey())).items).toEqual([]);
  });

  it("a proof signed by another wallet than the one it names is refused: 402 invalid_siwx_signature, nothing of that wallet's shown", async () => {
    const forged = await proofFor(await challenge(), { signer: bob.privateKey, address: alice.address });
    const refused = await withProof(forged);
    expect(refused.status).toBe(402);
    const body = (await refused.json()) as Refusal;
    expect(body).toMatchObject({ reason: "invalid_siwx_signature", accepts: [] });
    expect(body.extensions[SIGN_IN_WITH_X]).toBeDefined();
    expect(JSON.stringify(body)).not.toContain(questions.chat);
    // A proof changed after it was signed (its nonce, its address) is refused alike.
    const honest = await challenge();
    const renamed = await proofFor(honest, { signer: alice.privateKey, after: { address: bob.address } });
    expect(((await (await withProof(renamed)).json()) as Refusal).reason).toBe("invalid_siwx_signature");
    const renonced = await proofFor(await challenge(), { signer: alice.privateKey, after: { nonce: honest.info.nonce } });
    expect(((await (await withProof(renonced)).json()) as Refusal).reason).toBe("invalid_siwx_signature");
  });

  it("a proof is used once: sent again it is refused (invalid_siwx_nonce), and sent five times at the same instant it is answered once", async () => {
    const proof = await proofFor(await challenge(), { signer: alice.privateKey });
    expect((await withProof(proof)).status).toBe(200);
    const again = await withProof(proof);
    expect(again.status).toBe(402);
    expect(((await again.json()) as Refusal).reason).toBe("invalid_siwx_nonce");

    const racing = await proofFor(await challenge(), { signer: alice.privateKey });
    const answers = await Promise.all(Array.from({ length: 5 }, () => withProof(racing)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 402, 402, 402, 402]);
    // One nonce signs in one wallet once: the same challenge signed by a second wallet is refused too.
    const shared = await challenge();
    expect((await withProof(await proofFor(shared, { signer: alice.privateKey }))).status).toBe(200);
    expect(((await (await withProof(await proofFor(shared, { signer: bob.privateKey }))).json()) as Refusal).reason).toBe("invalid_siwx_nonce");
  });

  it.each([
    ["issued more than five minutes ago", "invalid_siwx_issued_at_too_old", { issuedAt: new Date(Date.now() - 6 * 60_000).toISOString() }],
    ["issued in the future", "invalid_siwx_issued_at_in_future", { issuedAt: new Date(Date.now() + 60 * 60_000).toISOString() }],
    ["expired", "invalid_siwx_expired", { expirationTime: new Date(Date.now() - 1000).toISOString() }],
    ["not valid yet", "invalid_siwx_not_yet_valid", { notBefore: new Date(Date.now() + 60 * 60_000).toISOString() }],
    ["for another domain", "invalid_siwx_domain_mismatch", { domain: "evil.example" }],
    ["for another origin's URI", "invalid_siwx_uri_mismatch", { uri: "https://evil.example/api/history" }],
    ["for http instead of https", "invalid_siwx_uri_mismatch", { uri: "http://gateway.test/api/history" }],
    ["for another chain", "invalid_siwx_unsupported_chain", { chainId: "eip155:1" }],
  ] as const)("a proof %s is refused (%s), even correctly signed", async (_what, reason, changes) => {
    const proof = await proofFor(await challenge(), { signer: alice.privateKey, changes });
    const refused = await withProof(proof);
    expect(refused.status).toBe(402);
    const body = (await refused.json()) as Refusal;
    expect(body.reason).toBe(reason);
    expect(JSON.stringify(body)).not.toContain(questions.chat);
    expect(parseSIWxHeader(proof).nonce).toMatch(/^[0-9a-f]{32}$/);
  });

  it("a page it cannot read (limit, cursor) is 400, never 500: a cursor made up to name any time or id reads only the wallet's own list", async () => {
    const cursor = (value: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(value)).toString("base64url"));
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=2.5",
      "limit=ten",
      `cursor=${cursor(["2026-13-45 25:61:61+00", crypto.randomUUID()])}`,
      `cursor=${cursor(["99999999999999999999", crypto.randomUUID()])}`,
      `cursor=${cursor(["1", "not-a-uuid"])}`,
      `cursor=${cursor({ createdUs: "1" })}`,
      `cursor=${cursor(7)}`,
      "cursor=%25%25%25",
    ]) {
      const response = await history(alice.privateKey, `${HISTORY}?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { reason: string }).reason, query).toMatch(/^invalid_(limit|cursor)$/);
    }
    // A cursor at the end of time lists the wallet's own items, and no one else's.
    const page = await listOf(alice.privateKey, `?cursor=${cursor([String(Number.MAX_SAFE_INTEGER), "ffffffff-ffff-4fff-bfff-ffffffffffff"])}`);
    expect(page.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(page)).not.toContain(questions.bob);
  });

  it("a header that is not a proof is refused, not answered 500", async () => {
    for (const header of ["not base64 at all!", Buffer.from("{}").toString("base64"), Buffer.from("[1,2]").toString("base64"), "e30"]) {
      const refused = await withProof(header);
      expect(refused.status, header).toBe(402);
      expect(((await refused.json()) as Refusal).reason, header).toBe("invalid_siwx_header");
    }
  });

  it("a proof with any field changed to anything a client can write is refused 402 with a reason, or, when the message it signs is unchanged (an empty optional field), signs in its signer alone; never a 500", async () => {
    const fields = ["domain", "address", "statement", "uri", "version", "chainId", "type", "nonce", "issuedAt", "expirationTime", "notBefore", "requestId", "resources", "signatureScheme", "signature"] as const;
    const odd = fc.oneof(
      awkwardText,
      fc.string({ maxLength: 40 }),
      fc.constantFrom("", "0x", "0xZZ", bob.address, alice.address.toLowerCase(), "https://gateway.test/api/history\nURI: https://evil.example", "ed25519", "eip155:31337\n", "1\nNonce: x", "9999-99-99T99:99:99Z", "1970-01-01T00:00:00Z"),
      fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }),
      fc.integer(),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), odd, async (field, value) => {
        // A fresh challenge each time, so the nonce check never hides the others.
        const honest = parseSIWxHeader(await proofFor(await challenge(), { signer: alice.privateKey }));
        const response = await withProof(Buffer.from(JSON.stringify({ ...honest, [field]: value })).toString("base64"));
        const body = (await response.json()) as Refusal & Partial<Page>;
        if (response.status === 200) expect(body.address, `${field}: ${JSON.stringify(value)}`).toBe(alice.address.toLowerCase());
        else {
          expect(response.status, `${field}: ${JSON.stringify(value)}`).toBe(402);
          expect(body.reason, `${field}: ${JSON.stringify(value)}`).toMatch(/^invalid_siwx_/);
        }
      }),
      { seed: 28_03, numRuns: 120 },
    );
  });

  it("a browser signs in once: POST /api/history/session sets an HttpOnly, SameSite=Strict cookie that reads only its wallet's history, until it signs out", async () => {
    const signIn = await history(alice.privateKey, SESSION, { method: "POST" });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    expect(signInSessionSchema.parse(await signIn.clone().json()).address).toBe(alice.address.toLowerCase());
    const cookie = signIn.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/Path=\/api\/history/i);
    const session = cookie.split(";")[0]!;
    const listed = await gateway(HISTORY, { headers: { cookie: session } });
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as Page;
    expect(page.address.toLowerCase()).toBe(alice.address.toLowerCase());
    expect(page.items.some((i) => i.question === questions.chat)).toBe(true);
    // Another wallet's result through Alice's session: 404.
    const bobsId = (await listOf(bob.privateKey)).items[0]!.id;
    expect((await gateway(`${HISTORY}/${bobsId}`, { headers: { cookie: session } })).status).toBe(404);
    // A made-up session is no session.
    const [name] = session.split("=");
    expect((await gateway(HISTORY, { headers: { cookie: `${name}=${"A".repeat(43)}` } })).status).toBe(402);
    // Signing out ends it, whoever kept the cookie.
    const out = await gateway(SESSION, { method: "DELETE", headers: { cookie: session } });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/i);
    expect((await gateway(HISTORY, { headers: { cookie: session } })).status).toBe(402);
  });

  it("a copy of the sessions table signs nobody in: it holds each token's hash, never the token", async () => {
    const signIn = await history(alice.privateKey, SESSION, { method: "POST" });
    expect(signIn.status).toBe(200);
    const session = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const [name, token] = session.split("=") as [string, string];
    const { rows } = await (await getDb()).query<{ token_hash: string }>("SELECT token_hash FROM gateway.sign_in_sessions");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    for (const { token_hash } of rows) expect((await gateway(HISTORY, { headers: { cookie: `${name}=${token_hash}` } })).status).toBe(402);
    expect((await gateway(HISTORY, { headers: { cookie: session } })).status).toBe(200);
  });

  it("a result forgotten by its payer is neither listed nor reopened again", async () => {
    const wallet = await fundedWallet(1_000_000n);
    const started = await post(pay(wallet.privateKey), "/api/chat", { message: "A question to forget" });
    expect(started.status).toBe(202);
    const [item] = (await listOf(wallet.privateKey)).items;
    const forgotten = await history(wallet.privateKey, `${HISTORY}/${item!.id}`, { method: "DELETE" });
    expect(forgotten.status).toBe(204);
    expect((await listOf(wallet.privateKey)).items).toEqual([]);
    expect((await history(wallet.privateKey, `${HISTORY}/${item!.id}`)).status).toBe(404);
  });
});
