import pg from "pg";
import { log } from "@/lib/shared/log";

export type Queryable = Pick<pg.Pool, "query">;

/** A `pg` pool with bounded waits, so an unreachable database fails a request instead of hanging it. */
export function createPool({ url, max }: { url: string; max: number }): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Fail a query stuck behind a lock instead of holding a request forever.
    statement_timeout: 30_000,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", (err) => log.warn("idle database connection failed", { error: err }));
  return pool;
}
