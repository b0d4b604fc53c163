import type pg from "pg";
import { getAddress } from "viem";
import { recordMined, type Account, type Sender } from "@/lib/gateway/payments/settlement/sender";
import { getAccountNextNonce, listOpenTransactions, listTransactionsAtNonces, markTransactions, type SettlementTx } from "@/lib/gateway/payments/settlement/transactions";

/** How old a transaction must be before the repair touches it (a request may still be following it). */
const REPAIR_GRACE_MS = 30_000;

export type RepairReport = { confirmed: number; resent: number; filled: number };

/**
 * Brings every account's transactions in line with the chain, for the cron and after a
 * restart: receipts of everything in flight are recorded, transactions the node forgot are sent
 * again, stuck ones are replaced with a higher fee, transactions of payments that were given up
 * (answered 503 or 402) are cancelled by an empty transaction at their nonce, and nonces whose
 * transaction never reached the chain are filled. One process repairs an account at a time.
 */
export async function repairAccounts({ pool, chain, accounts, sender }: { pool: pg.Pool; chain: string; accounts: Account[]; sender: Sender }): Promise<RepairReport> {
  const report: RepairReport = { confirmed: 0, resent: 0, filled: 0 };
  for (const account of accounts) {
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS locked", [`settlement-repair:${chain}:${account.address}`]);
      if (!rows[0]?.locked) continue;
      try {
        await repairAccount({ pool, chain, account, sender, report });
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`settlement-repair:${chain}:${account.address}`]);
      }
    } finally {
      client.release();
    }
  }
  return report;
}

async function repairAccount({ pool, chain, account, sender, report }: { pool: pg.Pool; chain: string; account: Account; sender: Sender; report: RepairReport }): Promise<void> {
  const address = getAddress(account.address);
  // In this order: every nonce below `nextNonce` has its transaction recorded (taken atomically).
  const nextNonce = (await getAccountNextNonce({ db: pool, chain, address: account.address })) ?? 0n;
  const latestNonce = BigInt(await sender.client.getTransactionCount({ address, blockTag: "latest" }));
  const open = await listOpenTransactions({ db: pool, chain, address: account.address });

  const receipts = await sender.receipts(open.map((t) => t.hash));
  await recordMined(pool, receipts, open);
  report.confirmed += receipts.size;
  const consumed = open.filter((t) => !receipts.has(t.hash) && t.nonce < latestNonce);
  await markTransactions({ db: pool, hashes: consumed.map((t) => t.hash), status: "replaced", error: "nonce used by another transaction" });

  const upcoming: bigint[] = [];
  for (let nonce = latestNonce; nonce < nextNonce; nonce++) upcoming.push(nonce);
  const atNonce = await listTransactionsAtNonces({ db: pool, chain, address: account.address, nonces: upcoming });
  const abandoned = await abandonedPayments(pool, atNonce);
  // A request may still be following a recent transaction: leave those to it.
  const settledDown = Date.now() - REPAIR_GRACE_MS;
  for (const nonce of upcoming) {
    const live = atNonce.filter((t) => t.nonce === nonce && (t.status === "signed" || t.status === "pending") && !receipts.has(t.hash));
    const newest = live.at(-1);
    if (newest && newest.createdAt.getTime() > settledDown) {
      // Too recent to replace, but the nonce every later one waits for must be in the node's
      // pool: sending the same signed bytes again is harmless ("already known") and unblocks a
      // node that cannot queue ahead of a gap.
      if (nonce === latestNonce && !(await sender.client.getTransaction({ hash: newest.hash }).catch(() => null))) {
        await sender.broadcast(newest);
        report.resent++;
      }
      continue;
    }
    if (!newest || (newest.paymentId !== null && abandoned.has(newest.paymentId))) {
      // A hole (its transaction was refused by the node), or a transfer of a payment that was
      // given up: an empty transaction takes the nonce, outbidding whatever may sit in a pool.
      await sender.fill({ pool, chain, account, nonce, floor: newest ?? null });
      report.filled++;
    } else {
      await sender.unstick({ pool, chain, account, txs: live });
      report.resent++;
    }
  }
}

/** Payments among `txs` that were given up (answered without being charged): their transfers must not land later. */
async function abandonedPayments(pool: pg.Pool, txs: SettlementTx[]): Promise<Set<string>> {
  const ids = [...new Set(txs.map((t) => t.paymentId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Set();
  const { rows } = await pool.query<{ id: string }>(
    "SELECT id FROM gateway.payments WHERE id = ANY($1::uuid[]) AND status IN ('unsettled', 'failed', 'voided', 'expired')",
    [ids],
  );
  return new Set(rows.map((r) => r.id));
}
