/**
 * `npm run library:import -- FILE [FILE...]`: imports PubMed XML (.xml) or JSON Lines (.jsonl) files,
 * plain or gzipped, into the agent's local library, then prints what each file added and every
 * rejected line with its reason.
 *
 * The database is the agent's: POSTGRES_URL (or DATABASE_URL) when set, else the embedded PGlite
 * in DATA_DIR (default .data). When a running process (the agent, the gateway, the demo) owns that
 * folder, the import connects to the URL it serves instead of failing; otherwise this process
 * opens the folder itself for the length of the import. The agent's migrations are applied first.
 *
 * Exit status: 0 when every file was read (rejected lines do not fail the import), 1 when a file
 * could not be read or imported, 2 for a usage error.
 */
import type pg from "pg";
import { loadAgentConfig } from "../agent/config";
import { agentMigrations } from "../agent/db/migrations";
import { importLibraryFile, LibraryImportError, type ImportSummary } from "../agent/library/import";
import { runMigrations } from "../lib/shared/db/migrate";
import { createPool } from "../lib/shared/db/pool";
import { openAgentScriptDatabase } from "./lib/agent-database";

/** Rejected lines printed per file; the rest are counted. */
const MAX_PRINTED_REJECTIONS = 200;

async function main(): Promise<number> {
  const files = process.argv.slice(2).filter((a) => a !== "--");
  if (files.length === 0 || files.some((f) => f === "-h" || f === "--help")) {
    console.error("Usage: npm run library:import -- FILE [FILE...]   (PubMed XML .xml or JSON Lines .jsonl, optionally .gz)");
    return 2;
  }
  const config = loadAgentConfig(process.env);
  const database = await openAgentScriptDatabase(config.database);
  console.error(`Database: ${database.label}`);
  const pool = createPool({ url: database.url, max: 2 });
  let failed = 0;
  try {
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
    for (const file of files) {
      if (!(await importOne({ pool, file }))) failed++;
    }
  } finally {
    await pool.end();
    await database.stop();
  }
  if (files.length > 1) console.log(`\n${files.length - failed} of ${files.length} files imported.`);
  return failed > 0 ? 1 : 0;
}

/** Imports one file and prints its summary; false when it could not be read or stored. */
async function importOne({ pool, file }: { pool: pg.Pool; file: string }): Promise<boolean> {
  const started = performance.now();
  let lastReport = started;
  let summary: ImportSummary;
  try {
    summary = await importLibraryFile({
      db: pool,
      file,
      onProgress: (p) => {
        // A progress line every few seconds on large files, on stderr so stdout stays the summary.
        if (performance.now() - lastReport < 5_000) return;
        lastReport = performance.now();
        console.error(`  ${file}: ${p.inserted} inserted, ${p.duplicates} duplicates, ${p.rejected} rejected so far`);
      },
    });
  } catch (err) {
    console.error(`${file}: ${describeFailure(err)}`);
    return false;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${file}: ${summary.inserted} inserted, ${summary.duplicates} duplicates, ${summary.rejected.length} rejected (${seconds} s)`);
  for (const r of summary.rejected.slice(0, MAX_PRINTED_REJECTIONS)) console.log(`  line ${r.line}: ${r.reason}`);
  if (summary.rejected.length > MAX_PRINTED_REJECTIONS) console.log(`  … and ${summary.rejected.length - MAX_PRINTED_REJECTIONS} more rejected lines`);
  return true;
}

function describeFailure(err: unknown): string {
  if (err instanceof LibraryImportError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  if (code === "EISDIR") return "is a directory, not a file";
  return `import failed: ${(err as Error).message}`;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
