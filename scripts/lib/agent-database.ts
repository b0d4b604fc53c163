/**
 * The agent's database for command-line scripts: the configured server, the embedded database of
 * DATA_DIR as served by the live process that owns it (the demo, a running agent), or that
 * folder opened here when nobody owns it.
 */
import net from "node:net";
import type { loadAgentConfig } from "../../agent/config";
import { DataDirInUseError, readLiveOwner, startEmbeddedPostgres, type EmbeddedPostgres } from "../../lib/shared/db/embedded";

export type OpenDatabase = { url: string; label: string; stop: () => Promise<void> };

/** The agent's database: the configured server, the live owner's embedded one, or the embedded one opened here. */
export async function openAgentScriptDatabase(database: ReturnType<typeof loadAgentConfig>["database"]): Promise<OpenDatabase> {
  if (database.kind === "url") return { url: database.url, label: "POSTGRES_URL", stop: async () => undefined };
  const owner = readLiveOwner(database.dataDir);
  if (owner) return sharedEmbedded(database.dataDir, owner);
  let embedded: EmbeddedPostgres;
  try {
    // A port of its own: the configured one may be served by a process using another data folder.
    embedded = await startEmbeddedPostgres({ dataDir: database.dataDir, port: await freePort() });
  } catch (err) {
    // Another process took the folder between the check and the start: share it all the same.
    if (err instanceof DataDirInUseError) return sharedEmbedded(database.dataDir, err.owner);
    throw err;
  }
  return { url: embedded.url, label: `embedded PGlite in ${database.dataDir}`, stop: embedded.stop };
}

function sharedEmbedded(dataDir: string, owner: { pid: number; url: string }): OpenDatabase {
  return { url: owner.url, label: `embedded PGlite in ${dataDir}, served by process ${owner.pid} at ${owner.url}`, stop: async () => undefined };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}

