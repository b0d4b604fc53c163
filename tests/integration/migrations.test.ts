import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPool } from "@/lib/shared/db/pool";
import { MigrationError, runMigrations, type Migration } from "@/lib/shared/db/migrate";
import { gatewayMigrations } from "@/lib/shared/db/migrations/gateway";
import { countConversationsByStatus, upsertConversationStatus } from "@/lib/shared/db/queries/conversations";
import { createTestDatabase, databaseKind, NEEDS_SERVER } from "../support/database";

describe("migrations", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const pools: pg.Pool[] = [];
  const pool = () => {
    const p = createPool({ url: database.url, max: 4 });
    pools.push(p);
    return p;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await database.drop();
  });

  it("applies the gateway migrations once, and a second run does nothing", async () => {
    const db = pool();
    const all = gatewayMigrations.map((m) => m.version);
    expect(await runMigrations(db, { schema: "gateway", migrations: gatewayMigrations })).toEqual(all);
    expect(await runMigrations(db, { schema: "gateway", migrations: gatewayMigrations })).toEqual([]);
    const { rows } = await db.query("SELECT version FROM gateway.schema_migrations ORDER BY version");
    expect(rows.map((r) => r.version)).toEqual(all);
  });

  it("creates the conversation table with its statuses, counted for health", async () => {
    const db = pool();
    await upsertConversationStatus({ db, conversationId: "c1", status: "queued" });
    await upsertConversationStatus({ db, conversationId: "c2", status: "queued" });
    await upsertConversationStatus({ db, conversationId: "c3", status: "timeout" });
    await upsertConversationStatus({ db, conversationId: "c2", status: "completed" });
    expect(await countConversationsByStatus({ db })).toEqual({ total: 3, byStatus: { completed: 1, queued: 1, timeout: 1 } });
    await expect(upsertConversationStatus({ db, conversationId: "c4", status: "bogus" })).rejects.toThrow(/check constraint/);
  });

  it("refuses a migration whose SQL changed after it was applied", async () => {
    const changed: Migration[] = gatewayMigrations.map((m, i) => (i === 0 ? { ...m, sql: m.sql + "\n-- edited" } : m));
    await expect(runMigrations(pool(), { schema: "gateway", migrations: changed })).rejects.toThrow(MigrationError);
  });

  it("rolls back a failing migration whole", async () => {
    const broken: Migration[] = [
      { version: 1, name: "ok", sql: "CREATE TABLE rollback_test.a (id int)" },
      { version: 2, name: "broken", sql: "CREATE TABLE rollback_test.b (id int); SELECT no_such_function()" },
    ];
    await expect(runMigrations(pool(), { schema: "rollback_test", migrations: broken })).rejects.toThrow(/no_such_function/);
    const { rows } = await pool().query("SELECT to_regclass('rollback_test.a') AS a");
    expect(rows[0].a).toBeNull();
  });

  it("applies each migration exactly once when several processes start at the same moment", async ({ skip }) => {
    skip(databaseKind() === "pglite", NEEDS_SERVER);
    const migrations: Migration[] = [
      { version: 1, name: "counter", sql: "CREATE TABLE race.counter (n int); INSERT INTO race.counter VALUES (1)" },
      { version: 2, name: "slow", sql: "SELECT pg_sleep(0.2); UPDATE race.counter SET n = n + 1" },
    ];
    // Eight separate pools are eight independent clients, as eight processes would be.
    const results = await Promise.all(Array.from({ length: 8 }, () => runMigrations(pool(), { schema: "race", migrations })));
    expect(results.flat().sort()).toEqual([1, 2]);
    const { rows } = await pool().query("SELECT n FROM race.counter");
    expect(rows).toEqual([{ n: 2 }]);
  });
});
