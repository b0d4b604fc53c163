import pg from "pg";
import type { Queryable } from "@/lib/shared/db/pool";

/** A connection inside a transaction opened by withTransaction. */
export type Transaction = Queryable & { readonly pendingAfterCommit: (() => void)[] };

const transactions = new WeakSet<Queryable>();

/**
 * Runs `work` in one transaction on one connection of `db` (a pool or a client), committing when
 * it resolves and rolling back when it throws (the error is rethrown). Throws on any other Queryable. What `work` registered
 * with afterCommit runs once the commit succeeded, never after a rollback.
 */
export async function withTransaction<T>(db: Queryable, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if (!(db instanceof pg.Pool) && !(db instanceof pg.Client)) throw new Error("withTransaction needs a pg Pool or Client");
  const client = db instanceof pg.Pool ? await db.connect() : db;
  const tx: Transaction = { query: client.query.bind(client) as Queryable["query"], pendingAfterCommit: [] };
  transactions.add(tx);
  try {
    await client.query("BEGIN");
    const result = await work(tx);
    await client.query("COMMIT");
    tx.pendingAfterCommit.forEach((run) => run());
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    transactions.delete(tx);
    if (client !== db) (client as pg.PoolClient).release();
  }
}

/** Runs `effect` once `db`'s transaction commits, or at once when `db` is not in one of withTransaction's. */
export function afterCommit(db: Queryable, effect: () => void): void {
  if (transactions.has(db)) (db as Transaction).pendingAfterCommit.push(effect);
  else effect();
}
