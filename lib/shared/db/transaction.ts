import pg from "pg";
import type { Queryable } from "@/lib/shared/db/pool";

/** A connection inside a transaction opened by withTransaction. */
export type Transaction = Queryable & { readonly pendingAfterCommit: (() => void)[] };

const transactions = new WeakMap<Queryable, Transaction>();

/**
 * Runs `work` in one transaction on one connection of `db` (a pool or a client), committing when
 * it resolves and rolling back when it throws (the error is rethrown). Throws on any other Queryable. What `work` registered
 * with afterCommit runs once the commit succeeded, never after a rollback.
 */
export async function withTransaction<T>(db: Queryable, work: (tx: Transaction) => Promise<T>): Promise<T> {
  if (!(db instanceof pg.Pool) && !(db instanceof pg.Client)) throw new Error("withTransaction needs a pg Pool or Client");
  const pooled = db instanceof pg.Pool ? await db.connect() : null;
  const client = pooled ?? db;
  // pg types a client's query with other overloads than a pool's, though both take the same calls: cast for pg.
  const tx: Transaction = { query: client.query.bind(client) as Queryable["query"], pendingAfterCommit: [] };
  transactions.set(tx, tx);
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
    pooled?.release();
  }
}

/** Runs `effect` once `db`'s transaction commits, or at once when `db` is not in one of withTransaction's. */
export function afterCommit(db: Queryable, effect: () => void): void {
  const tx = transactions.get(db);
  if (tx) tx.pendingAfterCommit.push(effect);
  else effect();
}
