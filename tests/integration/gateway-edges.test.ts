import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayingFetch } from "@/lib/client/payments/client";
import { startLibraryAgent } from "../support/agent";
import { configureGatewayFor } from "../support/gateway";
import { chain, freshAddress, usdcBalance, wallet } from "../support/payments";
import { routeFetch } from "../support/routes";

/**
 * Text PostgreSQL cannot store, sent by a paying client through the gateway: a 400 naming the
 * field before anything is settled (it was a 502 once the agent's database refused it), so the
 * payer is never charged for a request that could not be served.
 */
describe("unstorable text through the gateway", () => {
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

  it.each([
    { route: "/api/chat", body: { message: "a\u0000b" }, field: "message", problem: "NUL" },
    { route: "/api/chat", body: { message: "a\ud800b" }, field: "message", problem: "unpaired surrogate" },
    { route: "/api/literature", body: { question: "\udc00rapamycin" }, field: "question", problem: "unpaired surrogate" },
    { route: "/api/literature", body: { question: "rapamycin", tags: ["mtor\u0000"] }, field: "tags.0", problem: "NUL" },
    { route: "/api/deep-research/start", body: { message: "\ud83e" }, field: "message", problem: "unpaired surrogate" },
  ])("answers $field with $problem on $route 400 naming it, and charges nothing", async ({ route, body, field, problem }) => {
    const { fetch: pay } = createPayingFetch({ privateKey: wallet(31).privateKey, network: chain().network, asset: chain().asset, fetchImpl: routeFetch });
    const response = await pay(`https://gateway.test${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { error: string; reason: string };
    expect({ status: response.status, reason: answer.reason }).toEqual({ status: 400, reason: "invalid_body" });
    expect(answer.error).toContain(`${field}: `);
    expect(answer.error).toContain(problem);
    expect(await usdcBalance(payTo)).toBe(0n);
    const client = new pg.Client(agent.database.url);
    await client.connect();
    try {
      // The gateway's tables are made on its first database use, which a refused body never reaches.
      const ledger = (await client.query("SELECT to_regclass('gateway.payments') AS t")).rows[0].t;
      if (ledger) expect((await client.query("SELECT count(*)::int AS n FROM gateway.payments")).rows[0].n).toBe(0);
      expect((await client.query("SELECT count(*)::int AS n FROM agent.jobs")).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});
