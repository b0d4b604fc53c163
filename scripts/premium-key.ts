/**
 * `npm run premium-key -- create [--label TEXT] [--wallet 0x…] [--days N]`: an operator creates a
 * premium API key for the agent (higher chat limits, deep research). It expires after N days
 * (default PREMIUM_KEY_TTL_DAYS, 30): an operator's key is no more permanent than a holder's. The
 * key is printed once; only its hash is stored. `--wallet` is a note of whom it is for: the key
 * does not depend on that wallet's holding. Uses the agent's database like `npm run agent`
 * (POSTGRES_URL, or DATA_DIR's embedded one).
 */
import { loadAgentConfig } from "../agent/config";
import { agentMigrations } from "../agent/db/migrations";
import { createOperatorKey } from "../agent/premium/keys";
import { runMigrations } from "../lib/shared/db/migrate";
import { createPool } from "../lib/shared/db/pool";
import { openAgentScriptDatabase } from "./lib/agent-database";

const USAGE = "Usage: npm run premium-key -- create [--label TEXT] [--wallet 0x…] [--days N]";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args[0] !== "create") {
    console.error(USAGE);
    return 2;
  }
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? (args[i + 1] ?? null) : null;
  };
  const config = loadAgentConfig(process.env);
  const days = option("days");
  if (days !== null && !/^[1-9]\d{0,3}$/.test(days)) {
    console.error(`--days must be a whole number of days from 1 to 9999\n${USAGE}`);
    return 2;
  }
  const database = await openAgentScriptDatabase(config.database);
  const pool = createPool({ url: database.url, max: 2 });
  try {
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
    const { id, key, expiresAt } = await createOperatorKey({
      db: pool,
      termDays: days === null ? config.access.premium.termDays : Number(days),
      label: option("label"),
      wallet: option("wallet"),
    });
    console.log(`Premium key ${id}, expires ${expiresAt.toISOString()} (shown once; store it now):\n${key}`);
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
