import type pg from "pg";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/shared/db/embedded";
import { runMigrations } from "@/lib/shared/db/migrate";
import { createPool } from "@/lib/shared/db/pool";
import type { AgentConfig } from "../config";
import { agentMigrations } from "./migrations";

export type AgentDatabase = { pool: pg.Pool; url: string; close: () => Promise<void> };

/**
 * Opens the agent's database and applies its migrations. With POSTGRES_URL (or DATABASE_URL) that
 * server; without, this process owns the embedded PGlite of DATA_DIR (a second owner is refused
 * with a message naming the first). Throws DataDirInUseError, MigrationError or the connection error.
 */
export async function openAgentDatabase(config: Pick<AgentConfig, "database">): Promise<AgentDatabase> {
  let embedded: EmbeddedPostgres | undefined;
  let url: string;
  if (config.database.kind === "url") {
    url = config.database.url;
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: config.database.dataDir, port: config.database.port });
    url = embedded.url;
  }
  const pool = createPool({ url, max: config.database.poolMax });
  try {
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
  } catch (err) {
    await pool.end().catch(() => undefined);
    await embedded?.stop();
    throw err;
  }
  return {
    pool,
    url,
    close: async () => {
      await pool.end();
      await embedded?.stop();
    },
  };
}
