import type pg from "pg";
import { getConfig } from "@/lib/gateway/config";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/shared/db/embedded";
import { runMigrations } from "@/lib/shared/db/migrate";
import { gatewayMigrations } from "@/lib/shared/db/migrations/gateway";
import { createPool } from "@/lib/shared/db/pool";

declare global {
  // Module state on globalThis survives hot reload (a `var` is how a global is declared).
  var gatewayDb: Promise<pg.Pool> | undefined;
  var gatewayEmbedded: Promise<EmbeddedPostgres> | undefined;
}
const globalForDb = globalThis;

/**
 * The gateway's database pool, migrated. With POSTGRES_URL (or DATABASE_URL) it is that server;
 * without, this process starts and owns the embedded database in DATA_DIR. Cached on globalThis
 * so hot reload does not leak pools; a failed open is forgotten so the next call tries again.
 *
 * Throws DataDirInUseError, MigrationError or the connection error.
 */
export function getDb(): Promise<pg.Pool> {
  globalForDb.gatewayDb ??= openDatabase().catch((err: unknown) => {
    globalForDb.gatewayDb = undefined;
    throw err;
  });
  return globalForDb.gatewayDb;
}

async function openDatabase(): Promise<pg.Pool> {
  const { database } = getConfig();
  let url: string;
  if (database.kind === "url") {
    url = database.url;
  } else {
    globalForDb.gatewayEmbedded ??= startEmbeddedPostgres({ dataDir: database.dataDir, port: database.port }).catch(
      (err: unknown) => {
        globalForDb.gatewayEmbedded = undefined;
        throw err;
      },
    );
    url = (await globalForDb.gatewayEmbedded).url;
  }
  const pool = createPool({ url, max: database.poolMax });
  try {
    await runMigrations(pool, { schema: "gateway", migrations: gatewayMigrations });
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  return pool;
}
