import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { rateLimitedBodySchema } from "@/lib/contracts";
import { agentRequest, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { chain, wallet } from "../support/payments";

describe("the agent's access rules: rate limits and premium keys", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: Awaited<ReturnType<typeof startTestAgent>>;
  const holder = wallet(0); // holds 10,000 of the service token (scripts/lib/local-chain.ts)
  const poor = wallet(1);

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startTestAgent({
      POSTGRES_URL: database.url,
      LITERATURE_SOURCES: "local",
      CHAT_RATE_LIMIT: "3",
      CHAT_RATE_WINDOW_SECONDS: "600",
      AGENT_TRUST_PROXY: "true",
      SERVICE_TOKEN_ADDRESS: chain().serviceToken,
      SERVICE_TOKEN_RPC_URL: chain().rpcUrl,
      SERVICE_TOKEN_MIN_BALANCE: String(1000n * 10n ** 18n),
    });
  });
  afterAll(async () => {
    await agent?.stop();
    await database?.drop();
  });

  const chat = (headers: Record<string, string>) =>
    agent.app.fetch(new Request("http://agent.test/api/chat", { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ message: "telomeres" }) }));

  async function obtainKey(privateKey: `0x${string}`, signWith: `0x${string}` = privateKey) {
    const address = privateKeyToAccount(privateKey).address;
    const challenge = (await (await agentRequest(agent.app, "/api/premium/challenge", { body: { wallet: address }, key: null })).json()) as { challengeId: string; message: string };
    const signature = await privateKeyToAccount(signWith).signMessage({ message: challenge.message });
    const response = await agentRequest(agent.app, "/api/premium/keys", { body: { challengeId: challenge.challengeId, signature }, key: null });
    return { response, challenge, signature };
  }

  it("limits free chat per client address with 429 and retryAfterSeconds; the service key is never limited", async () => {
    const from = { "x-forwarded-for": "203.0.113.9" };
    for (let i = 0; i < 3; i++) expect((await chat(from)).status).toBe(202);
    const limited = await chat(from);
    expect(limited.status).toBe(429);
    const body = rateLimitedBodySchema.parse(await limited.json());
    expect(limited.headers.get("retry-after")).toBe(String(body.retryAfterSeconds));
    expect((await chat({ "x-forwarded-for": "198.51.100.7" })).status).toBe(202);
    for (let i = 0; i < 5; i++) expect((await chat({ ...from, authorization: `Bearer ${TEST_SERVICE_KEY}` })).status).toBe(202);
  });

  it("gives a premium key to a wallet holding enough of the service token; the key lifts the limit and opens deep research", async () => {
    const { response } = await obtainKey(holder.privateKey as `0x${string}`);
    expect(response.status).toBe(201);
    const { key } = (await response.json()) as { key: string };
    expect(key).toMatch(/^lra_premium_[A-Za-z0-9_-]{43}$/);
    const stored = await agent.pool.query("SELECT key_hash FROM agent.premium_keys");
    expect(JSON.stringify(stored.rows)).not.toContain(key); // only the hash is kept
    const from = { "x-forwarded-for": "203.0.113.9" }; // an address already over the free limit
    expect((await chat(from)).status).toBe(429);
    expect((await chat({ ...from, authorization: `Bearer ${key}` })).status).toBe(202);
    const dr = await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "telomeres" }, key });
    expect(dr.status).toBe(202);
    expect((await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "t" }, key: null })).status).toBe(401);
    expect((await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "t" }, key: "lra_premium_" + "x".repeat(43) })).status).toBe(401);
  });

  it("refuses a wallet holding too little, a replayed challenge, and a signature from another wallet", async () => {
    const { response: tooLittle } = await obtainKey(poor.privateKey as `0x${string}`);
    expect(tooLittle.status).toBe(403);
    expect(await tooLittle.json()).toMatchObject({ reason: "insufficient_service_token" });

    const first = await obtainKey(holder.privateKey as `0x${string}`);
    expect(first.response.status).toBe(201);
    const replay = await agentRequest(agent.app, "/api/premium/keys", { body: { challengeId: first.challenge.challengeId, signature: first.signature }, key: null });
    expect(replay.status).toBe(403);
    expect(await replay.json()).toMatchObject({ reason: "invalid_challenge" });

    const { response: forged } = await obtainKey(holder.privateKey as `0x${string}`, generatePrivateKey());
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ reason: "invalid_signature" });
  });
});
