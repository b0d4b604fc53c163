import { createHash } from "node:crypto";
import type { Pool } from "pg";

/** One versioned migration: plain SQL, portable between PostgreSQL and PGlite. */
export type Migration = { version: number; name: string; sql: string };

/** An applied migration no longer matches its source, or the list is malformed. */
export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

/**
 * Applies the pending migrations of one schema in a single transaction under an advisory lock,
 * so running it twice, or from two processes at once, applies each migration exactly once (the
 * second process waits on the lock, then finds nothing to do). A migration whose SQL changed after
 * it was applied is refused rather than silently skipped.
 *
 * Throws MigrationError, or the database's error (and nothing is applied).
 */
export async function runMigrations(pool: Pool, { schema, migrations }: { schema: string; migrations: Migration[] }): Promise<number[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new MigrationError(`Invalid schema name "${schema}"`);
  checkOrder(migrations);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [lockKey(schema)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         checksum text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number; checksum: string }>(
      `SELECT version, checksum FROM ${schema}.schema_migrations`,
    );
    const applied = new Map(rows.map((r) => [r.version, r.checksum]));
    const newlyApplied: number[] = [];
    for (const migration of migrations) {
      const checksum = sha256(migration.sql);
      const existing = applied.get(migration.version);
      if (existing !== undefined) {
        if (existing !== checksum) {
          throw new MigrationError(
            `Migration ${schema} ${migration.version} (${migration.name}) was changed after it was applied; add a new migration instead`,
          );
        }
        continue;
      }
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${schema}.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.name,
        checksum,
      ]);
      newlyApplied.push(migration.version);
    }
    await client.query("COMMIT");
    return newlyApplied;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

function checkOrder(migrations: Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new MigrationError(`Migrations must be numbered 1, 2, 3...; found ${m.version} at position ${i + 1}`);
  });
}

/** A stable 63-bit advisory lock key per schema. */
function lockKey(schema: string): string {
  return BigInt.asIntN(64, BigInt("0x" + sha256(`migrations:${schema}`).slice(0, 16))).toString();
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
