import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { issueHolderKey } from "@/agent/premium/keys";
import { createPrivateRun } from "@/agent/private/deep-research";
import { deepResearchAcceptedSchema, deepResearchConversationSchema, rateLimitedBodySchema } from "@/lib/shared/contracts";
import { createRecoveryKey, portablePrimitives } from "@/lib/shared/sealing";
import { agentRequest, seedLibrary, startTestAgent, TEST_SERVICE_KEY } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { freePort } from "../support/postgres";
import { chain, wallet } from "../support/payments";
import { requestFrom } from "../support/request-from";
import { freshHolder, mintServiceToken, moveServiceToken, tokens } from "../support/service-token";

const DAY_MS = 24 * 60 * 60 * 1000;
const RECHECK_SECONDS = 60;
/** An id no conversation has: a live key reads it as 404, a dead key is refused before the lookup. */
const UNKNOWN_CONVERSATION = "00000000-0000-4000-8000-000000000000";

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
      SERVICE_TOKEN_ADDRESS: chain().serviceToken,
      SERVICE_TOKEN_RPC_URL: chain().rpcUrl,
      SERVICE_TOKEN_MIN_BALANCE: String(1000n * 10n ** 18n),
      PREMIUM_HOLDING_RECHECK_SECONDS: String(RECHECK_SECONDS),
      PREMIUM_CHAT_RATE_LIMIT: "3",
      PREMIUM_DEEP_RESEARCH_RATE_LIMIT: "2",
      PREMIUM_PRIVATE_RATE_LIMIT: "2",
    });
    await seedLibrary(agent.pool);
  });
  afterAll(async () => {
    await agent?.stop();
    await database?.drop();
  });
  // Tests that move the clock (only Date: the agent's timers and sockets keep real time) put it back.
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A chat over a socket of its own, from a loopback address standing for a client (tests/support/request-from.ts). */
  const chat = (headers: Record<string, string>, from = "127.0.0.61") => requestFrom({ url: `${agent.url}/api/chat`, from, headers, body: { message: "telomeres" } });

  async function obtainKey(privateKey: `0x${string}`, signWith: `0x${string}` = privateKey) {
    const address = privateKeyToAccount(privateKey).address;
    const challenge = (await (await agentRequest(agent.app, "/api/premium/challenge", { body: { wallet: address }, key: null })).json()) as { challengeId: string; message: string };
    const signature = await privateKeyToAccount(signWith).signMessage({ message: challenge.message });
    const response = await agentRequest(agent.app, "/api/premium/keys", { body: { challengeId: challenge.challengeId, signature }, key: null });
    return { response, challenge, signature };
  }

  it("limits free chat per client address with 429 and retryAfterSeconds; the service key is never limited", async () => {
    const from = "127.0.0.62";
    for (let i = 0; i < 3; i++) expect((await chat({}, from)).status).toBe(202);
    const limited = await chat({}, from);
    expect(limited.status).toBe(429);
    const body = rateLimitedBodySchema.parse(await limited.json());
    expect(limited.headers.get("retry-after")).toBe(String(body.retryAfterSeconds));
    expect((await chat({}, "127.0.0.63")).status).toBe(202);
    for (let i = 0; i < 5; i++) expect((await chat({ authorization: `Bearer ${TEST_SERVICE_KEY}` }, from)).status).toBe(202);
  });

  it("gives a premium key to a wallet holding enough of the service token; the key lifts the limit and opens deep research", async () => {
    const { response } = await obtainKey(holder.privateKey as `0x${string}`);
    expect(response.status).toBe(201);
    const { key } = (await response.json()) as { key: string };
    expect(key).toMatch(/^lra_premium_[A-Za-z0-9_-]{43}$/);
    const stored = await agent.pool.query("SELECT key_hash FROM agent.premium_keys");
    expect(JSON.stringify(stored.rows)).not.toContain(key); // only the hash is kept
    const from = "127.0.0.62"; // an address already over the free limit
    expect((await chat({}, from)).status).toBe(429);
    expect((await chat({ authorization: `Bearer ${key}` }, from)).status).toBe(202);
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

  /** A live key reads an unknown conversation as 404; a dead one is refused first (401 or 403). */
  const probe = async (key: string, app = agent.app) => {
    const response = await agentRequest(app, `/api/deep-research/${UNKNOWN_CONVERSATION}`, { key });
    return { status: response.status, reason: ((await response.json()) as { reason?: string }).reason };
  };
  const LIVE = { status: 404, reason: "not_found" };
  const EXPIRED = { status: 401, reason: "premium_key_expired" };
  const REVOKED = { status: 401, reason: "premium_key_revoked" };
  const HOLDING_GONE = { status: 403, reason: "insufficient_service_token" };

  /** A fresh wallet holding `amount` of the service token, and its premium key. */
  /** Who the agent recorded as a conversation's starter (ownerOf), to start a sealed run as the same caller. */
  async function ownerOfConversation(conversationId: string): Promise<string> {
    const { rows } = await agent.pool.query<{ owner: string }>("SELECT owner FROM agent.dr_conversations WHERE id = $1", [conversationId]);
    return rows[0]!.owner;
  }
  async function holderWithKey(amount = tokens(1000)) {
    const holder = await freshHolder();
    await mintServiceToken(holder.address, amount);
    return { ...holder, key: await keyFor(holder.privateKey) };
  }
  async function keyFor(privateKey: `0x${string}`): Promise<string> {
    const { response } = await obtainKey(privateKey);
    const body = (await response.json()) as { key: string; expiresAt: string };
    expect(response.status, JSON.stringify(body)).toBe(201);
    return body.key;
  }
  const advanceClock = (ms: number) => vi.setSystemTime(Date.now() + ms);

  describe("premium keys: a term, the holding re-checked, one live key per holding", () => {
    it("a key stops working after its term (PREMIUM_KEY_TTL_DAYS, 30 days): 401 premium_key_expired", async () => {
      const { key } = await holderWithKey();
      expect(await probe(key)).toEqual(LIVE);
      advanceClock(29 * DAY_MS);
      expect(await probe(key)).toEqual(LIVE);
      advanceClock(DAY_MS + 60_000);
      expect(await probe(key)).toEqual(EXPIRED);
    });

    it("an operator's key (npm run premium-key) expires too", async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", path.resolve(import.meta.dirname, "../../scripts/premium-key.ts"), "create", "--label", "partner", "--days", "7"],
        { env: { ...process.env, POSTGRES_URL: database.url, LOG_SILENT: "1" } },
      );
      const key = /lra_premium_[A-Za-z0-9_-]{43}/.exec(stdout)?.[0];
      expect(key, stdout).toBeDefined();
      expect(stdout).toMatch(/expires \d{4}-\d{2}-\d{2}T/);
      expect(await probe(key!)).toEqual(LIVE);
      advanceClock(7 * DAY_MS + 60_000);
      expect(await probe(key!)).toEqual(EXPIRED);
    });

    it("a new key for a wallet revokes its previous one, even when two are asked for at the same moment", async () => {
      const holder = await holderWithKey();
      const second = await keyFor(holder.privateKey);
      expect(await probe(holder.key)).toEqual(REVOKED);
      expect(await probe(second)).toEqual(LIVE);

      // Issued at the same moment, they meet on the unique index; the losers try again and win in turn.
      const together = await Promise.all(
        Array.from({ length: 5 }, () => issueHolderKey({ db: agent.pool, termDays: 30, wallet: holder.address, checkedBlock: 1n })),
      );
      const states = await Promise.all(together.map(({ key }) => probe(key)));
      expect(states.filter((s) => s.status === LIVE.status)).toHaveLength(1);
      expect(states.filter((s) => s.reason === REVOKED.reason)).toHaveLength(4);
      expect(await probe(second)).toEqual(REVOKED);
    });

    it("the same tokens moved to another wallet never keep both wallets' keys alive, and moving them back revives nothing", async () => {
      const a = await holderWithKey();
      const b = await freshHolder();
      await moveServiceToken(a.privateKey, b.address, tokens(1000));
      const bKey = await keyFor(b.privateKey);
      expect(await probe(a.key)).toEqual(HOLDING_GONE);
      expect(await probe(bKey)).toEqual(LIVE);

      // Back to A: A's old key stays dead (its holding was broken), and A's new key ends B's.
      await moveServiceToken(b.privateKey, a.address, tokens(1000));
      expect(await probe(a.key)).toEqual(HOLDING_GONE);
      const aKey = await keyFor(a.privateKey);
      expect(await probe(bKey)).toEqual(HOLDING_GONE);
      expect(await probe(aKey)).toEqual(LIVE);
    });

    it("tokens passed through a third wallet end the first key at its next re-check, not on every request", async () => {
      const a = await holderWithKey();
      const relay = await freshHolder();
      const b = await freshHolder();
      await moveServiceToken(a.privateKey, relay.address, tokens(1000));
      await moveServiceToken(relay.privateKey, b.address, tokens(1000));
      const bKey = await keyFor(b.privateKey);
      // Checked at issuance less than PREMIUM_HOLDING_RECHECK_SECONDS ago: not asked again yet.
      expect(await probe(a.key)).toEqual(LIVE);
      advanceClock((RECHECK_SECONDS + 1) * 1000);
      expect(await probe(a.key)).toEqual(HOLDING_GONE);
      expect(await probe(bKey)).toEqual(LIVE);
    });

    it("a holding that dipped below the minimum and came back has still ended its key", async () => {
      const a = await holderWithKey();
      const other = await freshHolder();
      await moveServiceToken(a.privateKey, other.address, tokens(1));
      await moveServiceToken(other.privateKey, a.address, tokens(1));
      advanceClock((RECHECK_SECONDS + 1) * 1000);
      expect(await probe(a.key)).toEqual(HOLDING_GONE);
    });

    it("a holding that cannot be read is a 503 with Retry-After, never a pass; the last reading is shared by every agent process", async () => {
      const { key } = await holderWithKey();
      const blind = await startTestAgent({
        POSTGRES_URL: database.url,
        LITERATURE_SOURCES: "local",
        SERVICE_TOKEN_ADDRESS: chain().serviceToken,
        SERVICE_TOKEN_RPC_URL: `http://127.0.0.1:${await freePort()}`,
        PREMIUM_HOLDING_RECHECK_SECONDS: String(RECHECK_SECONDS),
      });
      try {
        expect(await probe(key, blind.app)).toEqual(LIVE); // read at issuance, by the other process
        advanceClock((RECHECK_SECONDS + 1) * 1000);
        const response = await agentRequest(blind.app, `/api/deep-research/${UNKNOWN_CONVERSATION}`, { key });
        expect(response.status).toBe(503);
        expect(await response.json()).toMatchObject({ reason: "service_token_unavailable" });
        expect(response.headers.get("retry-after")).toBe("5");
        expect(await probe(key)).toEqual(LIVE); // a process that can read the chain still serves it
      } finally {
        await blind.stop();
      }
    });

    it("a wallet that keeps at least the minimum keeps its key across re-checks", async () => {
      const a = await holderWithKey(tokens(1500));
      const other = await freshHolder();
      await moveServiceToken(a.privateKey, other.address, tokens(500));
      advanceClock((RECHECK_SECONDS + 1) * 1000);
      expect(await probe(a.key)).toEqual(LIVE);
      await moveServiceToken(a.privateKey, other.address, tokens(1));
      expect(await probe(a.key)).toEqual(LIVE); // within the interval: not asked again
      advanceClock((RECHECK_SECONDS + 1) * 1000);
      expect(await probe(a.key)).toEqual(HOLDING_GONE);
    });
  });

  describe("premium keys: per-key limits", () => {
    async function expectLimited(response: Response) {
      expect(response.status).toBe(429);
      const body = rateLimitedBodySchema.parse(await response.json());
      expect(body.retryAfterSeconds).toBeGreaterThan(0);
      expect(response.headers.get("retry-after")).toBe(String(body.retryAfterSeconds));
    }

    it("limits deep-research starts per holding (PREMIUM_DEEP_RESEARCH_RATE_LIMIT); a new key for the same wallet does not reset it; the service key is not limited", async () => {
      const holder = await holderWithKey();
      const start = (key: string) => agentRequest(agent.app, "/api/deep-research/start", { body: { message: "telomeres" }, key });
      for (let i = 0; i < 2; i++) expect((await start(holder.key)).status).toBe(202);
      await expectLimited(await start(holder.key));
      await expectLimited(await start(await keyFor(holder.privateKey)));
      for (let i = 0; i < 3; i++) expect((await start(TEST_SERVICE_KEY)).status).toBe(202);
    });

    it("limits private-route requests per holding (PREMIUM_PRIVATE_RATE_LIMIT)", async () => {
      const { key } = await holderWithKey();
      const send = () => agentRequest(agent.app, "/api/private/literature", { body: { not: "an envelope" }, key });
      for (let i = 0; i < 2; i++) expect((await send()).status).toBe(400);
      await expectLimited(await send());
    });

    it("limits chat per holding (PREMIUM_CHAT_RATE_LIMIT); a new key for the same wallet does not reset it", async () => {
      const holder = await holderWithKey();
      for (let i = 0; i < 3; i++) expect((await chat({ authorization: `Bearer ${holder.key}` })).status).toBe(202);
      await expectLimited(await chat({ authorization: `Bearer ${holder.key}` }));
      await expectLimited(await chat({ authorization: `Bearer ${await keyFor(holder.privateKey)}` }));
    });
  });

  describe("deep research belongs to whoever started it", () => {
    const start = async (key: string, conversationId?: string) =>
      deepResearchAcceptedSchema.parse(
        await (await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "telomeres", ...(conversationId ? { conversationId } : {}) }, key })).json(),
      );
    const statusOf = async (conversationId: string, key = TEST_SERVICE_KEY) =>
      deepResearchConversationSchema.parse(await (await agentRequest(agent.app, `/api/deep-research/${conversationId}`, { key })).json()).status;
    const cancel = (conversationId: string, key: string) => agentRequest(agent.app, `/api/deep-research/${conversationId}/cancel`, { method: "POST", key });

    it("a premium key cannot cancel, read or continue a conversation another caller started (404, as if unknown); each cancels its own", async () => {
      const mine = await holderWithKey();
      const theirs = await holderWithKey();
      const gateways = await start(TEST_SERVICE_KEY);
      const premium = await start(mine.key);

      for (const [conversationId, key] of [
        [gateways.conversationId, mine.key],
        [premium.conversationId, theirs.key],
        [premium.conversationId, TEST_SERVICE_KEY],
      ] as const) {
        const refused = await cancel(conversationId, key);
        expect(refused.status).toBe(404);
        expect(await refused.json()).toMatchObject({ reason: "not_found" });
        expect((await agentRequest(agent.app, `/api/deep-research/${conversationId}`, { key })).status).toBe(404);
        expect((await agentRequest(agent.app, "/api/deep-research/start", { body: { message: "more", conversationId }, key })).status).toBe(404);
      }
      expect(await statusOf(gateways.conversationId)).not.toBe("cancelled");
      expect(await statusOf(premium.conversationId, mine.key)).not.toBe("cancelled");

      expect((await cancel(premium.conversationId, mine.key)).status).toBe(204);
      expect(await statusOf(premium.conversationId, mine.key)).toBe("cancelled");
      expect((await cancel(gateways.conversationId, TEST_SERVICE_KEY)).status).toBe(204);
      expect(await statusOf(gateways.conversationId)).toBe("cancelled");
    });

    it("many turns' statuses in one call (the gateway's settlement cron): only the caller's own turns and sealed runs, unknown ids left out", async () => {
      const mine = await holderWithKey();
      const gateways = await start(TEST_SERVICE_KEY);
      const premium = await start(mine.key);
      const run = randomUUID();
      await createPrivateRun({ db: agent.pool, messageId: run, message: "a sealed question", recoveryKey: createRecoveryKey(portablePrimitives), owner: "service" });
      const holdersRun = randomUUID();
      await createPrivateRun({ db: agent.pool, messageId: holdersRun, message: "another sealed question", recoveryKey: createRecoveryKey(portablePrimitives), owner: await ownerOfConversation(premium.conversationId) });
      const statuses = async (key: string | null, messageIds: string[]) => agentRequest(agent.app, "/api/deep-research/statuses", { body: { messageIds }, key });
      const asked = [gateways.messageId, premium.messageId, run, holdersRun, randomUUID(), "not-a-uuid"];

      const service = await statuses(TEST_SERVICE_KEY, asked);
      expect(service.status).toBe(200);
      expect(await service.json()).toEqual({ turns: [{ messageId: gateways.messageId, status: expect.any(String) }], runs: [{ messageId: run, status: "queued" }] });
      const holder = await statuses(mine.key, asked);
      expect(await holder.json()).toEqual({ turns: [{ messageId: premium.messageId, status: expect.any(String) }], runs: [{ messageId: holdersRun, status: "queued" }] });
      expect((await statuses(null, asked)).status).toBe(401);
      expect((await statuses(TEST_SERVICE_KEY, [])).status).toBe(400);
      expect((await statuses(TEST_SERVICE_KEY, Array.from({ length: 501 }, () => randomUUID()))).status).toBe(400);
    });

    it("a holder's new key keeps its conversations", async () => {
      const holder = await holderWithKey();
      const started = await start(holder.key);
      const renewed = await keyFor(holder.privateKey);
      expect(await statusOf(started.conversationId, renewed)).not.toBe("cancelled");
      expect((await cancel(started.conversationId, renewed)).status).toBe(204);
    });
  });
});
