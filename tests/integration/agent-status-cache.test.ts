import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { LiteratureReach } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db";
import { runMigrations } from "@/lib/shared/db/migrate";
import { gatewayMigrations } from "@/lib/shared/db/migrations/gateway";
import { createStatusCache } from "@/lib/gateway/upstream/status-cache";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { startGatewayProcess, type GatewayProcess } from "../support/gateway-processes";
import { startHttpDouble, type HttpDouble } from "../support/http-double";
import { chain, freshAddress } from "../support/payments";
import { routeFetch } from "../support/routes";
import { until } from "../support/until";

const PUBLIC_URL = "https://gateway.test";
const SERVICE_KEY = "service-key-for-tests-0123";
/** The default freshness (AGENT_STATUS_CACHE_MS), and a window longer than any test here. */
const FRESH_MS = 2_000;
const LONG_WINDOW_MS = "600000";

const REACHABLE: LiteratureReach = { available: true, localLibrary: "has_records", sources: [], retryAfterSeconds: null, message: null };
const UNREACHABLE: LiteratureReach = {
  available: false,
  localLibrary: "empty",
  sources: [],
  retryAfterSeconds: 20,
  message: "No literature source can answer right now: PubMed is failing and the local library is empty.",
};

/** Every paid route, posted with no body and no payment: what anyone can send as often as they like. */
const PAID_ROUTES = ["/api/chat", "/api/literature", "/api/deep-research/start", "/api/chat/encrypted", "/api/literature/encrypted", "/api/deep-research/encrypted"];

/**
 * An agent that counts what the gateway asks it before payment (literature reach, private mode),
 * and can hold those answers until told (a gate), to see what arrives while a refresh is under way.
 */
async function startCountingAgent() {
  let reach: LiteratureReach = REACHABLE;
  let gate: Promise<void> | null = null;
  let open: () => void = () => undefined;
  const double: HttpDouble = await startHttpDouble(async (req) => {
    if (req.path.startsWith("/api/literature/reach")) {
      await gate;
      return { status: 200, body: reach };
    }
    if (req.path === "/api/private/status") {
      await gate;
      return { status: 200, body: { privateMode: "ready", privateLiterature: "enabled", attested: false } };
    }
    return { status: 404, body: { error: "not_found" } };
  });
  const calls = (prefix: string) => double.requests.filter((r) => r.path.startsWith(prefix)).length;
  return {
    url: double.url,
    close: double.close,
    /** Reach asked for a chat's sources (?mode=fast) and for every source; private mode. */
    calls: () => ({ fast: calls("/api/literature/reach?mode=fast"), all: calls("/api/literature/reach") - calls("/api/literature/reach?mode=fast"), privateStatus: calls("/api/private/status") }),
    say: (next: LiteratureReach) => void (reach = next),
    hold: () => void (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => {
      gate = null;
      open();
    },
  };
}

const unpaid = (base: string, route: string) => (base === PUBLIC_URL ? routeFetch(`${base}${route}`, { method: "POST" }) : fetch(`${base}${route}`, { method: "POST" }));
const statuses = async (responses: Promise<Response>[]) => (await Promise.all(responses)).map((r) => r.status);

/**
 * Issue 24, item 11: an unpaid request must not cost the agent a call. What the gateway checks
 * before payment (can a literature source answer, is private mode ready) is read from a short-lived
 * cache shared by its processes (lib/gateway/upstream/agent-status.ts), so the agent is asked once per
 * freshness window, whatever arrives.
 */
describe("the unpaid path does not call the agent per request", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const env = () => ({ POSTGRES_URL: database.url, AGENT_SERVICE_KEY: SERVICE_KEY, PUBLIC_URL, RPC_URL: chain().rpcUrl, PAY_TO_ADDRESS: freshAddress() });

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  describe("in one gateway process", () => {
    let agent: Awaited<ReturnType<typeof startCountingAgent>>;
    let restore: () => Promise<void>;
    afterEach(async () => {
      vi.useRealTimers();
      agent?.release();
      await restore?.();
      await agent?.close();
    });

    it("asks the agent once per window, however many unpaid requests arrive, one after another or together, with a body or none", async () => {
      agent = await startCountingAgent();
      restore = await configureGateway({ ...env(), UPSTREAM_API_URL: agent.url, AGENT_STATUS_CACHE_MS: LONG_WINDOW_MS });
      for (let i = 0; i < 20; i++) {
        const response = await routeFetch(`${PUBLIC_URL}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "q" }) });
        expect(response.status).toBe(402);
      }
      const together = await statuses(Array.from({ length: 120 }, (_, i) => unpaid(PUBLIC_URL, PAID_ROUTES[i % PAID_ROUTES.length]!)));
      expect(together.every((s) => s === 402)).toBe(true);
      expect(agent.calls()).toEqual({ fast: 1, all: 1, privateStatus: 1 });
    });

    it("keeps the honest 503 before payment from the cached answer, with Retry-After, and still asks once", async () => {
      agent = await startCountingAgent();
      agent.say(UNREACHABLE);
      restore = await configureGateway({ ...env(), UPSTREAM_API_URL: agent.url, AGENT_STATUS_CACHE_MS: LONG_WINDOW_MS });
      const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => unpaid(PUBLIC_URL, ["/api/chat", "/api/literature", "/api/deep-research/start"][i % 3]!)));
      for (const response of responses) {
        expect(response.status).toBe(503);
        expect(response.headers.get("payment-required")).toBeNull();
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        expect(await response.json()).toMatchObject({ error: "literature_unavailable", reason: "no_source_reachable", message: expect.stringContaining("Nothing was charged") });
      }
      expect(agent.calls()).toMatchObject({ fast: 1, all: 1 });
    });

    it("does not stampede the agent when the answer expires: requests arriving together start one refresh, and are not held by it", async () => {
      agent = await startCountingAgent();
      agent.say(UNREACHABLE);
      // Only Date is moved: the agent's answers, timers and the database keep real time.
      vi.useFakeTimers({ toFake: ["Date"] });
      restore = await configureGateway({ ...env(), UPSTREAM_API_URL: agent.url });
      expect((await unpaid(PUBLIC_URL, "/api/chat")).status).toBe(503);
      expect(agent.calls().fast).toBe(1);

      // Just past its freshness: one refresh starts, held at the agent (which now says a source can
      // answer); every request meanwhile is answered at once from the answer in hand (503), none
      // waits for the refresh (which would give 402).
      agent.say(REACHABLE);
      agent.hold();
      vi.setSystemTime(Date.now() + FRESH_MS + 1);
      const duringRefresh = await statuses(Array.from({ length: 60 }, () => unpaid(PUBLIC_URL, "/api/chat")));
      expect(duringRefresh.every((s) => s === 503)).toBe(true);
      await until(() => agent.calls().fast === 2, { what: "the one refresh to reach the agent" });
      agent.release();
      await until(async () => (await unpaid(PUBLIC_URL, "/api/chat")).status === 402, { what: "the refreshed answer to be used" });
      expect(agent.calls().fast).toBe(2);

      agent.say(UNREACHABLE);
      vi.setSystemTime(Date.now() + FRESH_MS + 1);
      await until(async () => (await unpaid(PUBLIC_URL, "/api/chat")).status === 503, { what: "the next window's answer" });
      expect(agent.calls().fast).toBe(3);

      // Long past its freshness (too old to use): requests wait for the one refresh together, and
      // none is answered from the old answer (which would give 503).
      agent.say(REACHABLE);
      agent.hold();
      vi.setSystemTime(Date.now() + 10 * FRESH_MS);
      const waiting = Promise.all(Array.from({ length: 60 }, () => unpaid(PUBLIC_URL, "/api/chat")));
      await until(() => agent.calls().fast === 4, { what: "the refresh to reach the agent" });
      agent.release();
      expect((await waiting).map((r) => r.status).every((s) => s === 402)).toBe(true);
      expect(agent.calls().fast).toBe(4);
    });
  });

  it("asks again at once after the agent contradicted it, even before the shared row says so", async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    try {
      await runMigrations(pool, { schema: "gateway", migrations: gatewayMigrations });
      // The shared row is told late (here: never) that the answer was forgotten.
      const db: Queryable = { query: ((text: string, values?: unknown[]) => (text.startsWith("UPDATE") ? new Promise(() => undefined) : pool.query(text, values))) as Queryable["query"] };
      const cache = createStatusCache({ agentUrl: `http://forget.test/${Date.now()}`, freshMs: Number(LONG_WINDOW_MS), db: async () => db });
      let asked = 0;
      const key = (answer: LiteratureReach) => ({ name: "literature_reach:fast", ask: async () => (asked++, answer), parse: (v: unknown) => v as LiteratureReach });
      expect((await cache.read(key(REACHABLE))).value).toEqual(REACHABLE);
      expect((await cache.read(key(REACHABLE))).value).toEqual(REACHABLE);
      expect(asked).toBe(1);
      void cache.forget(["literature_reach:fast"]);
      expect((await cache.read(key(UNREACHABLE))).value).toEqual(UNREACHABLE);
      expect(asked).toBe(2);
    } finally {
      await pool.end();
    }
  });

  describe("in several gateway processes", () => {
    let agent: Awaited<ReturnType<typeof startCountingAgent>>;
    let gateways: GatewayProcess[] = [];
    beforeAll(async () => {
      agent = await startCountingAgent();
      gateways = await Promise.all(
        Array.from({ length: 3 }, () => startGatewayProcess({ ...env(), UPSTREAM_API_URL: agent.url, AGENT_STATUS_CACHE_MS: LONG_WINDOW_MS })),
      );
    });
    afterAll(async () => {
      await Promise.all(gateways.map((g) => g.kill()));
      await agent?.close();
    });

    it("share one answer through the database: the agent is asked once for all of them", async () => {
      // All at once, cold: one process takes the lease and asks; the others answer without waiting for it.
      const first = await statuses(gateways.flatMap((g) => Array.from({ length: 20 }, () => unpaid(g.url, "/api/chat"))));
      expect(first.every((s) => s === 402)).toBe(true);
      const again = await statuses(gateways.flatMap((g) => PAID_ROUTES.map((route) => unpaid(g.url, route))));
      expect(again.every((s) => s === 402)).toBe(true);
      expect(agent.calls()).toEqual({ fast: 1, all: 1, privateStatus: 1 });
      // A bound on a hang only: each process compiles its routes on its first request, which on a
      // busy 2-core machine takes tens of seconds.
    }, 300_000);
  });
});
