import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedLibrary, startTestAgent } from "../support/agent";
import { createTestDatabase } from "../support/database";
import { requestFrom } from "../support/request-from";

type Agent = Awaited<ReturnType<typeof startTestAgent>>;

const CHAT_LIMIT = 3;
const CHALLENGES_PER_CLIENT = 2;
const CHALLENGES_MAX = 6;
/** The proxy in front of the agent connects from here (a loopback address of its own). */
const PROXY = "127.0.0.21";

/**
 * Who the agent counts as a public caller (issue 24, item 6): the gateway's rule, one function
 * (lib/shared/http/client-address.ts): the socket's address, or the hop AGENT_TRUSTED_PROXY proxies
 * before it, never an entry the client wrote itself; IPv6 per /64. Requests go over real sockets
 * from loopback addresses of our choosing, as clients' would.
 */
describe("the agent's client address: free chat and premium challenges", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let direct: Agent;
  let behindProxy: Agent;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      POSTGRES_URL: database.url,
      LITERATURE_SOURCES: "local",
      CHAT_RATE_LIMIT: String(CHAT_LIMIT),
      CHAT_RATE_WINDOW_SECONDS: "600",
      SERVICE_TOKEN_ADDRESS: "0x000000000000000000000000000000000000dEaD",
      PREMIUM_CHALLENGES_PER_CLIENT: String(CHALLENGES_PER_CLIENT),
      PREMIUM_CHALLENGES_MAX: String(CHALLENGES_MAX),
    };
    direct = await startTestAgent(env);
    // One reverse proxy in front (nginx's $proxy_add_x_forwarded_for): it appends the address it saw.
    behindProxy = await startTestAgent({ ...env, AGENT_TRUSTED_PROXY: "1" });
    await seedLibrary(direct.pool);
  });
  afterAll(async () => {
    await direct?.stop();
    await behindProxy?.stop();
    await database?.drop();
  });

  const chat = (agent: Agent, { from, forwardedFor }: { from: string; forwardedFor?: string }) =>
    requestFrom({ url: `${agent.url}/api/chat`, from, headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {}, body: { message: "telomeres" } }).then((r) => r.status);
  const challenge = (agent: Agent, { from, forwardedFor }: { from: string; forwardedFor?: string }) =>
    requestFrom({
      url: `${agent.url}/api/premium/challenge`,
      from,
      headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
      body: { wallet: "0x000000000000000000000000000000000000bEEF" },
    }).then((r) => r.status);
  /** `count` requests one after another; their statuses. */
  const inTurn = async (count: number, send: (i: number) => Promise<number>) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push(await send(i));
    return statuses;
  };
  const limited = (allowed: number, extra: number) => [...Array<number>(allowed).fill(-1), ...Array<number>(extra).fill(429)];
  const asLimited = (statuses: number[], ok: number) => statuses.map((s) => (s === ok ? -1 : s));

  describe("with no proxy trusted (the default)", () => {
    it("counts each socket address, whatever X-Forwarded-For it writes: free chat reaches 429", async () => {
      const statuses = await inTurn(CHAT_LIMIT + 2, (i) => chat(direct, { from: "127.0.0.31", forwardedFor: `198.51.100.${i + 1}` }));
      expect(asLimited(statuses, 202)).toEqual(limited(CHAT_LIMIT, 2));
      // Another socket, even one claiming to be the limited client, is served as itself.
      expect(await chat(direct, { from: "127.0.0.32", forwardedFor: "127.0.0.31" })).toBe(202);
    });
  });

  describe("behind one proxy (AGENT_TRUSTED_PROXY=1)", () => {
    it("counts the hop the proxy appended, never the entries the client wrote before it: free chat reaches 429", async () => {
      // The client writes X-Forwarded-For itself; the proxy appends 203.0.113.9, the address it saw.
      const statuses = await inTurn(CHAT_LIMIT + 3, (i) => chat(behindProxy, { from: PROXY, forwardedFor: `198.51.100.${i + 1}, 203.0.113.9` }));
      expect(asLimited(statuses, 202)).toEqual(limited(CHAT_LIMIT, 3));
      expect(await chat(behindProxy, { from: PROXY, forwardedFor: "203.0.113.10" })).toBe(202);
    });

    it("counts an IPv6 client by its /64: rotating addresses within it reaches 429, another /64 is served", async () => {
      const statuses = await inTurn(CHAT_LIMIT + 3, (i) => chat(behindProxy, { from: PROXY, forwardedFor: `2001:db8:24:6:${(i + 1).toString(16)}::${i + 7}` }));
      expect(asLimited(statuses, 202)).toEqual(limited(CHAT_LIMIT, 3));
      expect(await chat(behindProxy, { from: PROXY, forwardedFor: "2001:db8:24:7::1" })).toBe(202);
      // The same client's IPv4-mapped form of an address is that IPv4 address.
      await inTurn(CHAT_LIMIT, () => chat(behindProxy, { from: PROXY, forwardedFor: "203.0.113.77" }));
      expect(await chat(behindProxy, { from: PROXY, forwardedFor: "::ffff:203.0.113.77" })).toBe(429);
    });

    it("trusts nothing a request that bypassed the proxy wrote: all such requests share one count", async () => {
      // Straight to the agent with no X-Forwarded-For: the chain is shorter than the proxies, so
      // there is no trusted client hop; every such request is one client, never a fresh one.
      const statuses = await inTurn(CHAT_LIMIT + 1, (i) => chat(behindProxy, { from: `127.0.0.${40 + i}` }));
      expect(asLimited(statuses, 202)).toEqual(limited(CHAT_LIMIT, 1));
    });
  });

  describe("premium challenges (no credentials needed to ask)", () => {
    beforeEach(async () => {
      await direct.pool.query("DELETE FROM agent.premium_challenges");
    });

    it("one client cannot take every challenge by writing X-Forwarded-For entries or rotating its /64: others still get one", async () => {
      const spoofed = await inTurn(CHALLENGES_MAX, (i) => challenge(behindProxy, { from: PROXY, forwardedFor: `198.51.100.${i + 1}, 203.0.113.20` }));
      expect(asLimited(spoofed, 200)).toEqual(limited(CHALLENGES_PER_CLIENT, CHALLENGES_MAX - CHALLENGES_PER_CLIENT));
      const rotated = await inTurn(CHALLENGES_MAX, (i) => challenge(behindProxy, { from: PROXY, forwardedFor: `2001:db8:24:9::${(i + 1).toString(16)}` }));
      expect(asLimited(rotated, 200)).toEqual(limited(CHALLENGES_PER_CLIENT, CHALLENGES_MAX - CHALLENGES_PER_CLIENT));
      const direct1 = await inTurn(CHALLENGES_MAX, (i) => challenge(direct, { from: "127.0.0.51", forwardedFor: `198.51.100.${i + 1}` }));
      expect(asLimited(direct1, 200)).toEqual(limited(CHALLENGES_PER_CLIENT, CHALLENGES_MAX - CHALLENGES_PER_CLIENT));
      // Three clients hold two each: the total (six) is reached only now, by three clients.
      expect(await challenge(direct, { from: "127.0.0.52" })).toBe(429);
      const { rows } = await direct.pool.query<{ client: string; n: number }>("SELECT client, count(*)::int AS n FROM agent.premium_challenges GROUP BY client ORDER BY client");
      expect(rows).toEqual([
        { client: "127.0.0.51", n: 2 },
        { client: "2001:db8:24:9::/64", n: 2 },
        { client: "203.0.113.20", n: 2 },
      ]);
    });

    it("one client's requests at the same moment take no more than its share", async () => {
      const statuses = await Promise.all(Array.from({ length: 30 }, () => challenge(direct, { from: "127.0.0.53" })));
      expect(statuses.filter((s) => s === 200)).toHaveLength(CHALLENGES_PER_CLIENT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30 - CHALLENGES_PER_CLIENT);
      expect(await challenge(direct, { from: "127.0.0.54" })).toBe(200);
    });
  });
});
