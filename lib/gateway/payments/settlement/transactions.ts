import type pg from "pg";
import type { Queryable } from "@/lib/shared/db";

/**
 * The self-hosted facilitator's transactions, in Postgres so every gateway process shares them:
 * the next nonce of each account (`gateway.facilitator_accounts`) and every transaction signed
 * (`gateway.settlement_transactions`), recorded before it is broadcast. A nonce is taken and its
 * transaction recorded in one database transaction, so no nonce is ever handed out without a
 * signed transaction that a restart can find and send again.
 */

export type SettlementTxStatus = "signed" | "pending" | "mined" | "reverted" | "replaced" | "rejected";

export type SettlementTx = {
  hash: `0x${string}`;
  chain: string;
  address: string;
  nonce: bigint;
  /** The payment this transfers; null for a filler that only consumes a nonce. */
  paymentId: string | null;
  raw: `0x${string}`;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  status: SettlementTxStatus;
  error: string | null;
  blockNumber: bigint | null;
  createdAt: Date;
};

export type SignedTx = { hash: `0x${string}`; raw: `0x${string}`; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

const COLUMNS = `hash, chain, address, nonce::text AS nonce, payment_id, raw, max_fee_per_gas::text AS max_fee_per_gas,
  max_priority_fee_per_gas::text AS max_priority_fee_per_gas, status, error, block_number::text AS block_number, created_at`;

/** A settlement_transactions row as pg returns COLUMNS (numbers too large for JS cast to text there). */
type TxRecord = {
  hash: `0x${string}`;
  chain: string;
  address: string;
  nonce: string;
  payment_id: string | null;
  raw: `0x${string}`;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  status: SettlementTxStatus;
  error: string | null;
  block_number: string | null;
  created_at: Date;
};

function toTx(r: TxRecord): SettlementTx {
  return {
    hash: r.hash,
    chain: r.chain,
    address: r.address,
    nonce: BigInt(r.nonce),
    paymentId: r.payment_id,
    raw: r.raw,
    maxFeePerGas: BigInt(r.max_fee_per_gas),
    maxPriorityFeePerGas: BigInt(r.max_priority_fee_per_gas),
    status: r.status,
    error: r.error,
    blockNumber: r.block_number === null ? null : BigInt(r.block_number),
    createdAt: r.created_at,
  };
}

/**
 * Makes sure the account has a nonce counter at least as far as the chain's own count of its
 * transactions (a restart after someone else used the key, or the first start): never lowers it,
 * because nonces the database handed out may not have reached the chain yet.
 */
export async function syncAccountNonce({ db, chain, address, chainNonce }: { db: Queryable; chain: string; address: string; chainNonce: bigint }): Promise<bigint> {
  const { rows } = await db.query<{ next_nonce: string }>(
    `INSERT INTO gateway.facilitator_accounts (chain, address, next_nonce) VALUES ($1, $2, $3)
     ON CONFLICT (chain, address) DO UPDATE
       SET next_nonce = GREATEST(gateway.facilitator_accounts.next_nonce, EXCLUDED.next_nonce), updated_at = now()
     RETURNING next_nonce::text AS next_nonce`,
    [chain, address.toLowerCase(), chainNonce.toString()],
  );
  return BigInt(rows[0]!.next_nonce);
}

export async function getAccountNextNonce({ db, chain, address }: { db: Queryable; chain: string; address: string }): Promise<bigint | null> {
  const { rows } = await db.query<{ next_nonce: string }>("SELECT next_nonce::text AS next_nonce FROM gateway.facilitator_accounts WHERE chain = $1 AND address = $2", [
    chain,
    address.toLowerCase(),
  ]);
  return rows[0] ? BigInt(rows[0].next_nonce) : null;
}

/**
 * Takes the account's next nonce and records the transaction `sign` makes with it, atomically:
 * the counter's row lock is held only while signing (local, about a millisecond), so many
 * processes take consecutive nonces without ever taking the same one.
 */
export async function allocateNonceAndRecord({
  pool,
  chain,
  address,
  paymentId,
  sign,
}: {
  pool: pg.Pool;
  chain: string;
  address: string;
  paymentId: string | null;
  sign: (nonce: bigint) => Promise<SignedTx>;
}): Promise<SettlementTx> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ nonce: string }>(
      `UPDATE gateway.facilitator_accounts SET next_nonce = next_nonce + 1, updated_at = now()
        WHERE chain = $1 AND address = $2 RETURNING (next_nonce - 1)::text AS nonce`,
      [chain, address.toLowerCase()],
    );
    if (!rows[0]) throw new Error(`facilitator account ${address} has no nonce counter on ${chain}`);
    const nonce = BigInt(rows[0].nonce);
    const signed = await sign(nonce);
    const inserted = await client.query<TxRecord>(
      `INSERT INTO gateway.settlement_transactions (hash, chain, address, nonce, payment_id, raw, max_fee_per_gas, max_priority_fee_per_gas, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'signed') RETURNING ${COLUMNS}`,
      [signed.hash, chain, address.toLowerCase(), nonce.toString(), paymentId, signed.raw, signed.maxFeePerGas.toString(), signed.maxPriorityFeePerGas.toString()],
    );
    await client.query("COMMIT");
    return toTx(inserted.rows[0]!);
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Records a transaction at a nonce the account already holds (a fee bump, or a filler for a hole). */
export async function recordTransactionAtNonce({
  db,
  chain,
  address,
  nonce,
  paymentId,
  signed,
}: {
  db: Queryable;
  chain: string;
  address: string;
  nonce: bigint;
  paymentId: string | null;
  signed: SignedTx;
}): Promise<SettlementTx> {
  const { rows } = await db.query<TxRecord>(
    `INSERT INTO gateway.settlement_transactions (hash, chain, address, nonce, payment_id, raw, max_fee_per_gas, max_priority_fee_per_gas, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'signed')
     ON CONFLICT (hash) DO UPDATE SET updated_at = now() RETURNING ${COLUMNS}`,
    [signed.hash, chain, address.toLowerCase(), nonce.toString(), paymentId, signed.raw, signed.maxFeePerGas.toString(), signed.maxPriorityFeePerGas.toString()],
  );
  return toTx(rows[0]!);
}

/** Every transaction signed for one payment, oldest first. */
export async function listPaymentTransactions({ db, paymentId }: { db: Queryable; paymentId: string }): Promise<SettlementTx[]> {
  const { rows } = await db.query<TxRecord>(`SELECT ${COLUMNS} FROM gateway.settlement_transactions WHERE payment_id = $1 ORDER BY created_at, nonce`, [paymentId]);
  return rows.map(toTx);
}

/** Every transaction of the account not known to be final (signed or pending), by nonce. */
export async function listOpenTransactions({ db, chain, address }: { db: Queryable; chain: string; address: string }): Promise<SettlementTx[]> {
  const { rows } = await db.query<TxRecord>(
    `SELECT ${COLUMNS} FROM gateway.settlement_transactions
      WHERE chain = $1 AND address = $2 AND status IN ('signed', 'pending') ORDER BY nonce, created_at`,
    [chain, address.toLowerCase()],
  );
  return rows.map(toTx);
}

/** Every transaction of the account at the given nonces, whatever their status. */
export async function listTransactionsAtNonces({ db, chain, address, nonces }: { db: Queryable; chain: string; address: string; nonces: bigint[] }): Promise<SettlementTx[]> {
  if (nonces.length === 0) return [];
  const { rows } = await db.query<TxRecord>(
    `SELECT ${COLUMNS} FROM gateway.settlement_transactions WHERE chain = $1 AND address = $2 AND nonce = ANY($3::bigint[]) ORDER BY nonce, created_at`,
    [chain, address.toLowerCase(), nonces.map(String)],
  );
  return rows.map(toTx);
}

/** Moves transactions to a status; a final status (mined, reverted) is never overwritten. */
export async function markTransactions({
  db,
  hashes,
  status,
  error = null,
  blockNumber = null,
}: {
  db: Queryable;
  hashes: string[];
  status: SettlementTxStatus;
  error?: string | null;
  blockNumber?: bigint | null;
}): Promise<void> {
  if (hashes.length === 0) return;
  await db.query(
    `UPDATE gateway.settlement_transactions
        SET status = $2, error = coalesce($3, error), block_number = coalesce($4, block_number), updated_at = now()
      WHERE hash = ANY($1::text[]) AND status NOT IN ('mined', 'reverted')`,
    [hashes, status, error, blockNumber === null ? null : blockNumber.toString()],
  );
}
