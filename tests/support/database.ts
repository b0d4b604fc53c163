import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export const databaseKind = () => inject("databaseKind");
export const NEEDS_SERVER = "needs competing connections, which PGlite serializes: run with a PostgreSQL server";

/**
 * A database of its own for one test file: a fresh database on a real server, or, on the PGlite
 * fallback (one database only), the shared one with the gateway schema dropped and the stored
 * enclave key forgotten first.
 */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = inject("adminDatabaseUrl");
  if (inject("databaseKind") === "pglite") {
    const client = new pg.Client(admin);
    await client.connect();
    await client.query("DROP SCHEMA IF EXISTS gateway CASCADE");
    // Each file brings its own enclave key-encryption key: a key an earlier file stored would not open.
    await client.query("DO $$ BEGIN IF to_regclass('agent.enclave_keys') IS NOT NULL THEN DELETE FROM agent.enclave_keys; END IF; END $$");
    await client.end();
    return { url: admin, drop: async () => undefined };
  }
  const name = `test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client(admin);
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client(admin);
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
