import type { PGlite } from "@electric-sql/pglite";

/** One protocol message of one connection, waiting for the database. */
type Queued = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
};

/** Message types that end what a connection started (PostgreSQL frontend protocol). */
const SYNC = 0x53; // 'S': ends an extended-query batch (Parse, Bind, Describe, Execute …)
const QUERY = 0x51; // 'Q': a simple query is whole in itself
const TERMINATE = 0x58; // 'X'

/**
 * The embedded database's queue of protocol messages, in place of pglite-socket's own
 * (QueryQueueManager, 0.2.17), which runs each message of each connection in arrival order. PGlite
 * is one PostgreSQL backend, so a connection's extended-query batch (Parse, Bind, Execute, Sync)
 * must run whole: when another connection's Parse ran between a Parse and its Bind, the Bind's
 * parameters went to the other statement ("bind message supplies 3 parameters, but prepared
 * statement requires 2", "malformed array literal", or silently another connection's rows;
 * electric-sql/pglite#1046). Here the connection that started a batch, or holds a transaction,
 * owns the database until its Sync (or its COMMIT/ROLLBACK): only its messages run, the others
 * wait in order. A failed message no longer stops the queue for everyone (the original returned
 * from its loop on an error and left every later message waiting).
 *
 * Holding until Sync cannot deadlock: a pg client sends a batch's messages together, up to and
 * including its Sync, without waiting on any other connection. A transaction held across awaits on
 * other connections would, as it did with pglite-socket's own queue.
 *
 * It implements the queue interface PGLiteSocketHandler calls (enqueue, clearQueueForHandler,
 * clearTransactionIfNeeded, getQueueLength); lib/shared/db/embedded.ts installs it on the server.
 */
export class WholeStatementQueue {
  private readonly queue: Queued[] = [];
  private processing = false;
  /** The connection whose batch or transaction is under way: only its messages may run. */
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  /**
   * A connection went away: its waiting messages are refused. A batch it left without its Sync is
   * closed with one, so the backend is ready for the next connection (a transaction it held is
   * rolled back by clearTransactionIfNeeded, which the handler calls next).
   */
  clearQueueForHandler(handlerId: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.handlerId !== handlerId) continue;
      this.queue.splice(i, 1)[0]!.reject(new Error("Handler disconnected"));
    }
    if (this.owner === handlerId && !this.db.isInTransaction()) {
      const ignore = () => undefined;
      this.queue.unshift({ handlerId, message: new Uint8Array([SYNC, 0, 0, 0, 4]), onData: ignore, resolve: ignore, reject: ignore });
      void this.process();
    }
  }

  /** A connection went away inside a transaction: it is rolled back, and the others go on. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId || !this.db.isInTransaction()) return;
    await this.db.exec("ROLLBACK");
    this.owner = null;
    void this.process();
  }

  private next(): Queued | undefined {
    const index = this.owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === this.owner);
    return index === -1 || this.queue.length === 0 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0;
        let failed: unknown = null;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (err) {
          failed = err ?? new Error("the embedded database failed");
        }
        this.owner = this.holdsAfter(item) ? item.handlerId : null;
        if (failed !== null) item.reject(failed);
        else item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  /** Whether the connection that sent `item` still owns the database after it ran. */
  private holdsAfter(item: Queued): boolean {
    if (this.db.isInTransaction()) return true;
    const type = item.message[0];
    // A startup or SSL request begins with its length (first byte 0): whole in itself.
    if (type === undefined || type === 0 || type === SYNC || type === QUERY || type === TERMINATE) return false;
    return true;
  }
}
