import fs from "node:fs";
import path from "node:path";
import { WholeStatementQueue } from "@/lib/shared/db/whole-statement-queue";
import { errorCode, errorMessage, isRecord } from "@/lib/shared/narrow";

/**
 * The embedded database: PGlite (PostgreSQL compiled to WASM) in a data folder, served over the
 * Postgres wire protocol on loopback so every process (gateway, agent, scripts) uses the same `pg`
 * client code as against a real server. One process owns a data folder at a time: it holds
 * `owner.json` there, and a second owner is refused with a message naming the first.
 */

export type EmbeddedPostgres = {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
};

export type EmbeddedPostgresOptions = {
  dataDir: string;
  port: number;
  host?: string;
  /** Connections the socket server accepts at once; PGlite still runs one query at a time. */
  maxConnections?: number;
};

type OwnerRecord = { pid: number; url: string; startedAt: string };

/** Another live process owns the data folder. */
export class DataDirInUseError extends Error {
  readonly owner: OwnerRecord;
  constructor(dataDir: string, owner: OwnerRecord) {
    super(
      `The embedded database in ${dataDir} is in use by process ${owner.pid} (since ${owner.startedAt}), ` +
        `which serves it at ${owner.url}. Stop that process, use another DATA_DIR, ` +
        `or share it by setting POSTGRES_URL=${owner.url}.`,
    );
    this.name = "DataDirInUseError";
    this.owner = owner;
  }
}

/**
 * Settings that keep PGlite's memory down: it is one connection with one backend, so the server
 * defaults sized for many backends only cost resident memory. Measured with `npm run bench`.
 */
const LOW_MEMORY_CONF = [
  "shared_buffers=8MB",
  "work_mem=1MB",
  "maintenance_work_mem=8MB",
  "temp_buffers=1MB",
  "wal_buffers=256kB",
  "max_wal_size=64MB",
  "min_wal_size=32MB",
];

/**
 * Opens (or creates) the database in `dataDir` and serves it on `host:port`.
 * Throws DataDirInUseError when another live process owns the folder, and a plain Error when the
 * port is taken.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const host = options.host ?? "127.0.0.1";
  const url = `postgres://postgres@${host}:${options.port}/postgres`;
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = acquireOwnerLock(dataDir, { pid: process.pid, url, startedAt: new Date().toISOString() });

  try {
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite-socket"),
    ]);
    const db = await PGlite.create(path.join(dataDir, "pglite"), { postgresqlconf: LOW_MEMORY_CONF });
    const server = new PGLiteSocketServer({
      db,
      host,
      port: options.port,
      maxConnections: options.maxConnections ?? 64,
    });
    // Each connection's statements run whole (lib/shared/db/whole-statement-queue.ts): handlers take the
    // server's queue when they attach, so it is replaced before the server accepts any. The field is
    // private in pglite-socket's types: cast to reach it.
    (server as unknown as { queryQueue: WholeStatementQueue }).queryQueue = new WholeStatementQueue(db);
    try {
      await server.start();
    } catch (err) {
      await db.close();
      throw new Error(
        `Cannot serve the embedded database on ${host}:${options.port}: ${errorMessage(err)}. ` +
          `Set EMBEDDED_DB_PORT to a free port.`,
        { cause: err },
      );
    }
    let stopped = false;
    return {
      url,
      dataDir,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        try {
          await server.stop();
          await db.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Reads who owns a data folder, or null when nobody alive does. */
export function readLiveOwner(dataDir: string): OwnerRecord | null {
  const owner = readOwner(path.join(path.resolve(dataDir), "owner.json"));
  return owner && isAlive(owner.pid) ? owner : null;
}

function acquireOwnerLock(dataDir: string, record: OwnerRecord): { release: () => void } {
  const file = path.join(dataDir, "owner.json");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // "wx" creates the file only if it does not exist: atomic between processes.
      fs.writeFileSync(file, JSON.stringify(record, null, 2), { flag: "wx" });
      const release = () => {
        const current = readOwner(file);
        if (current?.pid === record.pid) fs.rmSync(file, { force: true });
        process.removeListener("exit", release);
      };
      process.on("exit", release);
      return { release };
    } catch (err) {
      if (errorCode(err) !== "EEXIST") throw err;
      const owner = readOwner(file);
      if (owner && isAlive(owner.pid) && owner.pid !== process.pid) throw new DataDirInUseError(dataDir, owner);
      // The owner died without cleaning up (or the file is unreadable): the lock is stale.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take ownership of ${dataDir}: another process keeps claiming it`);
}

function readOwner(file: string): OwnerRecord | null {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    if (isRecord(value) && typeof value.pid === "number" && typeof value.url === "string") {
      return { pid: value.pid, url: value.url, startedAt: String(value.startedAt ?? "unknown") };
    }
    return null;
  } catch {
    return null;
  }
}

/** Whether process `pid` is running (this user's or another's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(err) === "EPERM";
  }
}
