/**
 * `npm run premium-key -- create [--label TEXT] [--wallet 0x…]`: an operator creates a premium API
 * key for the agent (higher chat limits, deep research). The key is printed once; only its hash is
 * stored. Uses the agent's database like `npm run agent` (POSTGRES_URL, or DATA_DIR's embedded one).
 */
import { createPremiumKey } from "../agent/access";
import { loadAgentConfig } from "../agent/config";
import { agentMigrations } from "../agent/db/migrations";
import { runMigrations } from "../lib/db/migrate";
import { createPool } from "../lib/db/pool";
import { openAgentScriptDatabase } from "./lib/agent-database";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args[0] !== "create") {
    console.error("Usage: npm run premium-key -- create [--label TEXT] [--wallet 0x…]");
    return 2;
  }
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? (args[i + 1] ?? null) : null;
  };
  const config = loadAgentConfig(process.env);
  const database = await openAgentScriptDatabase(config.database);
  const pool = createPool({ url: database.url, max: 2 });
  try {
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
    const { id, key } = await createPremiumKey({ db: pool, label: option("label"), wallet: option("wallet") });
    console.log(`Premium key ${id} (shown once; store it now):\n${key}`);
    return 0;
  } finally {
    await pool.end();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
