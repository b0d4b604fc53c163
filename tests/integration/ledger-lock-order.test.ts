import type { PaymentRequirements } from "@x402/core/types";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "@/lib/shared/db/migrate";
import { gatewayMigrations } from "@/lib/shared/db/migrations/gateway";
import { createPool } from "@/lib/shared/db/pool";
import { claimPayment, markSettled, reopenPayment } from "@/lib/gateway/payments/ledger";
import type { AttemptSlot } from "@/lib/gateway/payments/rate-limit";
import { verifyPaymentLocally, decodePaymentHeader } from "@/lib/gateway/payments/verify-locally";
import { createTestDatabase, databaseKind, NEEDS_SERVER } from "../support/database";
import { chain, localRequirements, signPayment, wallet } from "../support/payments";
import { until } from "../support/until";

/**
 * Two requests holding one payment at once (a payment-identifier named twice, a signature sent
 * again while its first request settles) write the payment's row and its client's attempt window
 * in the same instant. Every write that takes both locks must take them in one order, the payment's
 * row first: the settling request's write (writePayment: the row, then the window it held) and the
 * retry's reopening (its slot in the window, then the row) once took them in opposite orders, and
 * PostgreSQL broke the deadlock by failing one of them: a 500 on a paid request.
 */
describe.skipIf(databaseKind() === "pglite")(`the ledger's writes lock a payment's row before its attempt window (${NEEDS_SERVER})`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let requirements: PaymentRequirements;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool({ url: database.url, max: 4 });
    await runMigrations(pool, { schema: "gateway", migrations: gatewayMigrations });
    requirements = localRequirements({ amount: "30000" });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it("a retry reopening a payment while the request holding it ends it: both finish, neither is failed as a deadlock", async () => {
    const now = Date.now();
    const slot: AttemptSlot = { key: `invalid-payment:lock-order-${now}`, windowStart: new Date(now - 1_000), windowEnd: new Date(now + 60_000), limit: 100 };
    const { header } = await signPayment({ privateKey: wallet(0).privateKey, requirements });
    const checked = await verifyPaymentLocally({ payload: decodePaymentHeader(header), requirements, chainId: chain().chainId, nowSeconds: Math.floor(now / 1000), minRemainingSeconds: 0 });
    const claim = await claimPayment({ db: pool, checked, requirements, operation: "literature", route: "literature", requestDigest: "digest", slot });
    if (!("row" in claim) || !claim.claimed) throw new Error("the payment was not claimed");
    const id = claim.row.id;

    // The request holding the payment ends it as writePayment does, one lock at a time: its row,
    // then (below) the window its attempt held.
    const holder = new pg.Client(database.url);
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM gateway.payments WHERE id = $1 FOR UPDATE", [id]);
      // The retry: takes a slot in the same window and reopens the payment if it may.
      const retry = reopenPayment({ db: pool, id, from: ["received"], staleSeconds: 90, slot }).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      await until(async () => (await waitingForLocks(pool)) > 0, { what: "the retry to wait for the payment's row" });
      const ended = await holder.query(
        "UPDATE gateway.rate_limits SET held = held - 1, count = count - 1 WHERE key = $1 AND window_start = $2 AND held > 0",
        [slot.key, slot.windowStart],
      );
      expect(ended.rowCount).toBe(1);
      await holder.query("UPDATE gateway.payments SET status = 'settled', attempt_key = NULL, attempt_window = NULL WHERE id = $1", [id]);
      await holder.query("COMMIT");
      const outcome = await retry;
      expect(outcome).toEqual({ ok: true, value: null });
    } finally {
      await holder.end();
    }
    const { rows } = await pool.query<{ count: number; held: number }>("SELECT count, held FROM gateway.rate_limits WHERE key = $1", [slot.key]);
    // The retry reserved nothing for a payment it could not reopen; the holder's attempt was released.
    expect(rows).toEqual([{ count: 0, held: 0 }]);
    expect(await markSettled({ db: pool, id, txHash: null })).toBe(false);
  });

  it("the same payment claimed again while the request holding it ends it: the claim finds it, neither is failed as a deadlock", async () => {
    const now = Date.now();
    const slot: AttemptSlot = { key: `invalid-payment:claim-order-${now}`, windowStart: new Date(now - 1_000), windowEnd: new Date(now + 60_000), limit: 100 };
    const { header } = await signPayment({ privateKey: wallet(1).privateKey, requirements });
    const checked = await verifyPaymentLocally({ payload: decodePaymentHeader(header), requirements, chainId: chain().chainId, nowSeconds: Math.floor(now / 1000), minRemainingSeconds: 0 });
    const claim = () => claimPayment({ db: pool, checked, requirements, operation: "literature", route: "literature", requestDigest: "digest", paymentId: `pay_lock_order_${now}_abcdef`, slot });
    const first = await claim();
    if (!("row" in first) || !first.claimed) throw new Error("the payment was not claimed");
    const id = first.row.id;

    const holder = new pg.Client(database.url);
    await holder.connect();
    try {
      // writePayment's first half: the payment's row written (not yet committed)...
      await holder.query("BEGIN");
      await holder.query("UPDATE gateway.payments SET status = 'settling', updated_at = now() WHERE id = $1", [id]);
      // ...while the same signature (and id) is claimed again.
      let done = false;
      const again = claim().then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      void again.then(() => (done = true));
      // Either the claim waits on the row, or it is already done: then nothing can deadlock.
      await until(async () => done || (await waitingForLocks(pool)) > 0, { what: "the second claim to wait or finish" });
      // ...and its second half: the window its attempt held.
      const ended = await holder.query("UPDATE gateway.rate_limits SET held = held - 1 WHERE key = $1 AND window_start = $2 AND held > 0", [slot.key, slot.windowStart]);
      expect(ended.rowCount).toBe(1);
      await holder.query("UPDATE gateway.payments SET attempt_key = NULL, attempt_window = NULL WHERE id = $1", [id]);
      await holder.query("COMMIT");
      const outcome = await again;
      expect(outcome.ok).toBe(true);
      if (outcome.ok) expect(outcome.value).toMatchObject({ claimed: false, by: "authorization", row: { id } });
    } finally {
      await holder.end();
    }
    // The claim that found the payment holds no attempt: the window counts the first one only.
    const { rows } = await pool.query<{ count: number; held: number }>("SELECT count, held FROM gateway.rate_limits WHERE key = $1", [slot.key]);
    expect(rows).toEqual([{ count: 1, held: 0 }]);
  });
});

/** How many statements on the pool's database wait for a lock (a row another transaction holds). */
async function waitingForLocks(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
  return rows[0]?.n ?? 0;
}
