import { createHash, randomBytes, randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentMigrations } from "@/agent/db/migrations";
import { runMigrations } from "@/lib/shared/db/migrate";
import { createPool } from "@/lib/shared/db/pool";
import { agentRequest, startTestAgent } from "../support/agent";
import { createTestDatabase, databaseKind } from "../support/database";
import { chain } from "../support/payments";
import { freshHolder, mintServiceToken, tokens } from "../support/service-token";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("the premium-key migration on keys issued before it", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool({ url: database.url, max: 2 });
    // PGlite has one database, migrated by earlier files: start the agent schema again.
    if (databaseKind() === "pglite") await pool.query("DROP SCHEMA IF EXISTS agent CASCADE");
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it("gives every earlier key a term, keeps one live key per holder's wallet, leaves earlier conversations to the gateway, and reads an earlier holder key's holding on its first use", async () => {
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations.filter((m) => m.version < 9) });
    const wallet = "0x" + "ab".repeat(20); // holds nothing
    const holder = await freshHolder();
    await mintServiceToken(holder.address, tokens(1000));
    const presented = new Map<string, string>();
    const key = async (label: string, ageDays: number, holderWallet: string | null = wallet) => {
      const id = randomUUID();
      const secret = "lra_premium_" + randomBytes(32).toString("base64url");
      presented.set(id, secret);
      await pool.query("INSERT INTO agent.premium_keys (id, key_hash, wallet, label, created_at) VALUES ($1, $2, $3, $4, $5)", [
        id,
        createHash("sha256").update(secret, "utf8").digest("hex"),
        holderWallet,
        label,
        new Date(Date.now() - ageDays * DAY_MS),
      ]);
      return id;
    };
    // The old route minted any number of keys for one wallet, and none expired.
    const oldest = await key("service token holder", 40);
    const older = await key("service token holder", 2);
    const newest = await key("service token holder", 1);
    const operator = await key("partner", 1, null);
    const holders = await key("service token holder", 3, holder.address.toLowerCase());
    const conversation = randomUUID();
    await pool.query("INSERT INTO agent.dr_conversations (id, status) VALUES ($1, 'running')", [conversation]);

    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });

    const { rows } = await pool.query<{ id: string; kind: string; revoked_reason: string | null; expires_at: Date; created_at: Date }>(
      "SELECT id, kind, revoked_reason, expires_at, created_at FROM agent.premium_keys",
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) expect(r.expires_at.getTime() - r.created_at.getTime()).toBe(30 * DAY_MS);
    expect(byId.get(oldest)).toMatchObject({ kind: "holder", revoked_reason: "superseded" });
    expect(byId.get(older)).toMatchObject({ kind: "holder", revoked_reason: "superseded" });
    expect(byId.get(newest)).toMatchObject({ kind: "holder", revoked_reason: null });
    expect(byId.get(operator)).toMatchObject({ kind: "operator", revoked_reason: null });
    const owner = await pool.query("SELECT owner FROM agent.dr_conversations WHERE id = $1", [conversation]);
    expect(owner.rows[0]).toEqual({ owner: "service" });
    // From now on the database itself refuses a second live key for one wallet.
    await expect(pool.query("UPDATE agent.premium_keys SET revoked_at = NULL, revoked_reason = NULL WHERE id = $1", [older])).rejects.toThrow(/unique/);

    // An earlier holder's key has no reading yet: its first use reads the balance, and serves only a holder.
    const agent = await startTestAgent({ POSTGRES_URL: database.url, LITERATURE_SOURCES: "local", SERVICE_TOKEN_ADDRESS: chain().serviceToken, SERVICE_TOKEN_RPC_URL: chain().rpcUrl });
    try {
      const probe = async (id: string) => (await agentRequest(agent.app, "/api/deep-research/00000000-0000-4000-8000-000000000000", { key: presented.get(id)! })).status;
      expect(await probe(holders)).toBe(404);
      expect(await probe(newest)).toBe(403);
      expect(await probe(operator)).toBe(404);
      expect(await probe(oldest)).toBe(401);
    } finally {
      await agent.stop();
    }
  });
});
