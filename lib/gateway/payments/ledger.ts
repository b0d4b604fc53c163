import { randomUUID } from "node:crypto";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { SignedReceipt } from "@x402/extensions/offer-receipt";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";
import type { PaidOperation } from "@/lib/shared/operations";
import type { AttemptSlot } from "@/lib/gateway/payments/rate-limit";
import type { CheckedPayment } from "@/lib/gateway/payments/verify-locally";

/**
 * The payment ledger: one row per authorization, unique on (network, asset, payer, nonce), so a
 * signature is used once whatever happens around it, and on (network, asset, payer, payment_id)
 * for a payment its client named (x402 `payment-identifier`), so an id pays once whatever the
 * signature. It is the source of truth for what was verified, scheduled, settled, voided or
 * expired, and it keeps the answer given for each paid request so a client that lost it can have
 * it again for free.
 */

export type PaymentStatus = "received" | "verified" | "scheduled" | "settling" | "settled" | "unsettled" | "voided" | "expired" | "failed";

export type StoredResponse = { status: number; body: unknown; headers: Record<string, string> };

/** What the paid work answered (before any payment header): recorded before settlement. */
export type WorkAnswer = { status: number; body: unknown };

export type PaymentRow = {
  id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  signature: string;
  operation: PaidOperation["id"];
  route: string;
  amount: string;
  requestDigest: string;
  /** The client's name for this payment (x402 `payment-identifier`), when it gave one. */
  paymentId: string | null;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  validAfter: number;
  validBefore: number;
  status: PaymentStatus;
  settleStartedAt: Date | null;
  settleAttempts: number;
  txHash: string | null;
  failureReason: string | null;
  failureMessage: string | null;
  upstreamJobId: string | null;
  conversationId: string | null;
  messageId: string | null;
  response: StoredResponse | null;
  work: WorkAnswer | null;
  /** Since when a settlement attempt's outcome is unknown (it may have transferred). */
  outcomeUnknownSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
  settledAt: Date | null;
  /** A deferred payment's signed receipt (x402 offer-and-receipt), once a poll showed it settled (lib/gateway/deep-research/receipts.ts). */
  signedReceipt: SignedReceipt | null;
};

const COLUMNS = `id, network, asset, payer, nonce, signature, operation, route, amount::text AS amount, request_digest, payment_id,
  payload, requirements, valid_after, valid_before, status, settle_started_at, settle_attempts, tx_hash,
  failure_reason, failure_message, upstream_job_id, conversation_id, message_id, response_status, response_body,
  response_headers, work_status, work_body, outcome_unknown_since, created_at, updated_at, settled_at, signed_receipt`;

/**
 * A payments row as pg returns COLUMNS: the table's shape written once (lib/shared/db/migrations/gateway.ts),
 * so the mapper below converts without a cast. bigint columns arrive as text, numeric as text (cast
 * in COLUMNS), jsonb parsed, timestamptz as Date.
 */
type PaymentRecord = {
  id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  signature: string;
  operation: PaidOperation["id"];
  route: string;
  amount: string;
  request_digest: string;
  payment_id: string | null;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  valid_after: string;
  valid_before: string;
  status: PaymentStatus;
  settle_started_at: Date | null;
  settle_attempts: number;
  tx_hash: string | null;
  failure_reason: string | null;
  failure_message: string | null;
  upstream_job_id: string | null;
  conversation_id: string | null;
  message_id: string | null;
  response_status: number | null;
  response_body: unknown;
  response_headers: Record<string, string> | null;
  work_status: number | null;
  work_body: unknown;
  outcome_unknown_since: Date | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
  signed_receipt: SignedReceipt | null;
};

/** A statement that reserves an attempt (rate-limit.ts) beside its write: every column null when it wrote nothing. */
type ReservedRecord = { reserved: number } & ({ id: null } | PaymentRecord);

function toRow(r: PaymentRecord): PaymentRow {
  return {
    id: r.id,
    network: r.network,
    asset: r.asset,
    payer: r.payer,
    nonce: r.nonce,
    signature: r.signature,
    operation: r.operation,
    route: r.route,
    amount: r.amount,
    requestDigest: r.request_digest,
    paymentId: r.payment_id,
    payload: r.payload,
    requirements: r.requirements,
    validAfter: Number(r.valid_after),
    validBefore: Number(r.valid_before),
    status: r.status,
    settleStartedAt: r.settle_started_at,
    settleAttempts: r.settle_attempts,
    txHash: r.tx_hash,
    failureReason: r.failure_reason,
    failureMessage: r.failure_message,
    upstreamJobId: r.upstream_job_id,
    conversationId: r.conversation_id,
    messageId: r.message_id,
    response: r.response_status === null ? null : { status: r.response_status, body: r.response_body, headers: r.response_headers ?? {} },
    work: r.work_status === null ? null : { status: r.work_status, body: r.work_body },
    outcomeUnknownSince: r.outcome_unknown_since,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    settledAt: r.settled_at,
    signedReceipt: r.signed_receipt,
  };
}

/**
 * Claims an authorization for one request. Exactly one caller wins for a given (network, asset,
 * payer, nonce), and for a given (network, asset, payer, payment id) when the client named its
 * payment, however many race; the others get the existing row to compare and replay, and `by`
 * says which it shares: the authorization (the same signature again) or only the payment's id (a
 * new signature for it). With `slot`, the claim also reserves the client's attempt
 * (rate-limit.ts) in the same statement, and claims nothing when the window is full (`full`); a
 * reservation that found the payment already claimed is given back.
 */
type ClaimArgs = {
  db: Queryable;
  checked: CheckedPayment;
  requirements: PaymentRequirements;
  operation: PaidOperation["id"];
  route: string;
  requestDigest: string;
  /** The payment's `payment-identifier` id, when its client named it. */
  paymentId?: string | null;
};
type Claim = { claimed: true; row: PaymentRow } | { claimed: false; row: PaymentRow; by: "authorization" | "identifier" };
export async function claimPayment(args: ClaimArgs): Promise<Claim>;
export async function claimPayment(args: ClaimArgs & { slot: AttemptSlot }): Promise<Claim | { claimed: false; full: true }>;
export async function claimPayment({
  db,
  checked,
  requirements,
  operation,
  route,
  requestDigest,
  paymentId = null,
  slot,
}: ClaimArgs & { slot?: AttemptSlot }): Promise<Claim | { claimed: false; full: true }> {
  const values = [
    randomUUID(),
    requirements.network,
    requirements.asset.toLowerCase(),
    checked.payer.toLowerCase(),
    checked.nonce,
    (checked.payload.payload as { signature: string }).signature,
    operation,
    route,
    requirements.amount,
    requestDigest,
    JSON.stringify(checked.payload),
    JSON.stringify(requirements),
    checked.validAfter,
    checked.validBefore,
    paymentId,
  ];
  const insert = `INSERT INTO gateway.payments (id, network, asset, payer, nonce, signature, operation, route, amount, request_digest,
       payload, requirements, valid_after, valid_before, payment_id, status, attempt_key, attempt_window)`;
  // DO NOTHING on either key: the authorization's, or the payment id's (a partial unique index).
  const row = slot
    ? await claimWithSlot(db, insert, values, slot)
    : (await db.query<PaymentRecord>(`${insert} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'received', NULL, NULL)
         ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`, values)).rows[0];
  if (row === "full") return { claimed: false, full: true };
  if (row) return { claimed: true, row: toRow(row) };
  // The authorization's own row first: a signature sent again is that payment, whatever id it names.
  const existing = await db.query<PaymentRecord & { same_authorization: boolean }>(
    `SELECT ${COLUMNS}, nonce = $4 AS same_authorization FROM gateway.payments
      WHERE network = $1 AND asset = $2 AND payer = $3 AND (nonce = $4 OR payment_id = $5)
      ORDER BY (nonce = $4) DESC LIMIT 1`,
    [requirements.network, requirements.asset.toLowerCase(), checked.payer.toLowerCase(), checked.nonce, paymentId],
  );
  const found = existing.rows[0];
  if (!found) throw new Error("payment claim conflicted but no row was found");
  return { claimed: false, row: toRow(found), by: found.same_authorization ? "authorization" : "identifier" };
}

/**
 * The window row's upsert that reserves one attempt while the window has room: a CTE `slot`
 * returning a row only when it did. Parameters $n to $n+3: key, window start, window end, limit.
 */
function reserveSql(n: number, { onlyIf }: { onlyIf?: string } = {}): string {
  const row = `$${n}, $${n + 1}, 1, 1, $${n + 2}`;
  return `slot AS (
    INSERT INTO gateway.rate_limits AS t (key, window_start, count, held, expires_at) ${onlyIf ? `SELECT ${row} FROM ${onlyIf}` : `VALUES (${row})`}
    ON CONFLICT (key, window_start) DO UPDATE SET count = t.count + 1, held = t.held + 1 WHERE t.count < $${n + 3}
    RETURNING count)`;
}

function slotValues(slot: AttemptSlot): unknown[] {
  return [slot.key, slot.windowStart, slot.windowEnd, slot.limit];
}

async function claimWithSlot(db: Queryable, insert: string, values: unknown[], slot: AttemptSlot): Promise<PaymentRecord | "full" | undefined> {
  // A payment already in the ledger is found without reserving a slot first: the insert would
  // wait on its row while holding the window's lock, the reverse of the order in which the
  // request holding it ends it (writePayment), and the two would deadlock.
  const { rows } = await db.query<ReservedRecord & { known: number }>(
    `WITH known AS (SELECT 1 FROM gateway.payments WHERE network = $2 AND asset = $3 AND payer = $4 AND (nonce = $5 OR payment_id = $15)),
     fresh AS (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM known)),
     ${reserveSql(16, { onlyIf: "fresh" })},
     claimed AS (
       ${insert}
       SELECT $1::uuid, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::numeric, $10::text, $11::jsonb, $12::jsonb,
              $13::bigint, $14::bigint, $15::text, 'received', $16::text, $17::timestamptz FROM slot
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS})
     SELECT (SELECT count(*) FROM known)::int AS known, (SELECT count(*) FROM slot)::int AS reserved, claimed.* FROM (SELECT 1) AS one LEFT JOIN claimed ON true`,
    [...values, ...slotValues(slot)],
  );
  const result = rows[0]!;
  if (result.known > 0) return undefined;
  if (result.reserved === 0) return "full";
  if (result.id !== null) return result;
  // Reserved, but the authorization was already claimed: its own request holds (or held) one.
  await releaseSlot(db, slot);
  return undefined;
}

/** Gives back a reservation no payment holds. */
async function releaseSlot(db: Queryable, slot: AttemptSlot): Promise<void> {
  await db.query("UPDATE gateway.rate_limits SET count = count - 1, held = held - 1 WHERE key = $1 AND window_start = $2 AND held > 0", [slot.key, slot.windowStart]);
}

/**
 * How a write ends the attempt a payment holds (rate-limit.ts): `release` when the payment proved
 * valid or failed for the service's reason, `count` when the payer is at fault (the reservation
 * stays counted as an invalid attempt). A payment holding none is written as it is.
 */
export type AttemptEnd = "release" | "count";

/**
 * One UPDATE of one payment (`sets` use $2 on, `values` fill them; `where` narrows it), ending the
 * attempt it holds as `end` says in the same statement: its old hold is read under the row's lock
 * and cleared, and its window row adjusted, so concurrent writers end it once. Returns how many
 * rows changed. Lock order, in every write that takes both: the payment's row, then the window's
 * (claimWithSlot and reopenPayment keep it; tests/integration/ledger-lock-order.test.ts).
 */
async function writePayment({ db, id, sets, values = [], where = "", end }: { db: Queryable; id: string; sets: string[]; values?: unknown[]; where?: string; end?: AttemptEnd }): Promise<number> {
  if (!end) {
    const { rowCount } = await db.query(`UPDATE gateway.payments SET ${sets.join(", ")} WHERE id = $1 ${where}`, [id, ...values]);
    return rowCount ?? 0;
  }
  const { rows } = await db.query<{ n: number }>(
    `WITH done AS (
       UPDATE gateway.payments p SET ${sets.join(", ")}, attempt_key = NULL, attempt_window = NULL
         FROM (SELECT id, attempt_key, attempt_window FROM gateway.payments WHERE id = $1 FOR UPDATE) AS old
        WHERE p.id = old.id ${where}
       RETURNING old.attempt_key AS held_key, old.attempt_window AS held_window),
     ended AS (
       UPDATE gateway.rate_limits t SET held = t.held - 1, count = t.count - $${values.length + 2}
         FROM done WHERE t.key = done.held_key AND t.window_start = done.held_window AND t.held > 0)
     SELECT count(*)::int AS n FROM done`,
    [id, ...values, end === "release" ? 1 : 0],
  );
  return rows[0]?.n ?? 0;
}

export async function getPayment({ db, id }: { db: Queryable; id: string }): Promise<PaymentRow | null> {
  const { rows } = await db.query<PaymentRecord>(`SELECT ${COLUMNS} FROM gateway.payments WHERE id = $1`, [id]);
  return rows[0] ? toRow(rows[0]) : null;
}

/** Updates a payment's status and the fields given, ending the attempt it holds as `end` says. */
export async function updatePayment({
  db,
  id,
  status,
  fields = {},
  end,
}: {
  db: Queryable;
  id: string;
  status?: PaymentStatus;
  fields?: Partial<{
    txHash: string | null;
    failureReason: string | null;
    failureMessage: string | null;
    upstreamJobId: string | null;
    conversationId: string | null;
    messageId: string | null;
    response: StoredResponse | null;
    settledAt: Date | null;
    settleStartedAt: Date | null;
    work: WorkAnswer | null;
    outcomeUnknownSince: Date | null;
  }>;
  end?: AttemptEnd;
}): Promise<void> {
  const sets: string[] = ["updated_at = now()"];
  const values: unknown[] = [];
  const set = (column: string, value: unknown) => {
    values.push(value);
    sets.push(`${column} = $${values.length + 1}`);
  };
  if (status) set("status", status);
  if ("txHash" in fields) set("tx_hash", fields.txHash);
  if ("failureReason" in fields) set("failure_reason", fields.failureReason);
  if ("failureMessage" in fields) set("failure_message", fields.failureMessage);
  if ("upstreamJobId" in fields) set("upstream_job_id", fields.upstreamJobId);
  if ("conversationId" in fields) set("conversation_id", fields.conversationId);
  if ("messageId" in fields) set("message_id", fields.messageId);
  if ("settledAt" in fields) set("settled_at", fields.settledAt);
  if ("settleStartedAt" in fields) set("settle_started_at", fields.settleStartedAt);
  if ("outcomeUnknownSince" in fields) set("outcome_unknown_since", fields.outcomeUnknownSince);
  if ("work" in fields) {
    set("work_status", fields.work?.status ?? null);
    set("work_body", fields.work ? JSON.stringify(fields.work.body) : null);
  }
  if ("response" in fields) {
    set("response_status", fields.response?.status ?? null);
    set("response_body", fields.response ? JSON.stringify(fields.response.body) : null);
    set("response_headers", fields.response ? JSON.stringify(fields.response.headers) : null);
  }
  await writePayment({ db, id, sets, values, ...(end ? { end } : {}) });
}

/** How long a settlement may run before another worker may take it over (a crashed worker's). */
const SETTLE_LEASE_SECONDS = 120;

/**
 * Takes the right to settle one payment: moves it to `settling` under a lease if it is `from` one
 * of the given statuses, or `settling` with an expired lease. Returns the row when this caller
 * won, null when someone else holds it or it is already final. Taking over an expired lease
 * records the earlier attempt's outcome as unknown since it started (its process may have sent the
 * transfer and stopped before writing it down), so a transfer found on chain counts as this payment's.
 */
export async function takeSettlement({
  db,
  id,
  from,
  upstreamJobId,
  work,
}: {
  db: Queryable;
  id: string;
  from: PaymentStatus[];
  /** Recorded in the same write (the paid route's job and answer), so the fast path costs one round trip less. */
  upstreamJobId?: string | null;
  work?: WorkAnswer | null;
}): Promise<PaymentRow | null> {
  const { rows } = await db.query<PaymentRecord>(
    `UPDATE gateway.payments
        SET status = 'settling', settle_started_at = now(), settle_attempts = settle_attempts + 1, updated_at = now(),
            outcome_unknown_since = CASE WHEN status = 'settling' THEN coalesce(outcome_unknown_since, settle_started_at) ELSE outcome_unknown_since END,
            upstream_job_id = coalesce($4, upstream_job_id),
            work_status = coalesce($5, work_status), work_body = coalesce($6, work_body)
      WHERE id = $1
        AND (status = ANY($2::text[])
             OR (status = 'settling' AND settle_started_at < now() - make_interval(secs => $3)))
      RETURNING ${COLUMNS}`,
    [id, from, SETTLE_LEASE_SECONDS, upstreamJobId ?? null, work?.status ?? null, work ? JSON.stringify(work.body) : null],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * Records a settled payment, whoever confirmed it (the request, a retry, the cron): from any
 * state that was waiting for it, releasing the attempt it held. Returns false when it was
 * already final.
 */
export async function markSettled({ db, id, txHash, response }: { db: Queryable; id: string; txHash: string | null; response?: StoredResponse }): Promise<boolean> {
  const changed = await writePayment({
    db,
    id,
    sets: [
      "status = 'settled'",
      "tx_hash = coalesce($2, tx_hash)",
      "settled_at = now()",
      "failure_reason = NULL",
      "failure_message = NULL",
      "outcome_unknown_since = NULL",
      "updated_at = now()",
      "response_status = coalesce($3, response_status)",
      "response_body = coalesce($4, response_body)",
      "response_headers = coalesce($5, response_headers)",
    ],
    values: [txHash, response?.status ?? null, response ? JSON.stringify(response.body) : null, response ? JSON.stringify(response.headers) : null],
    where: "AND status IN ('received', 'verified', 'scheduled', 'settling', 'unsettled', 'failed', 'voided')",
    end: "release",
  });
  return changed > 0;
}

/**
 * The signed receipt (x402 offer-and-receipt) of payment `id` for `transaction`: `receipt`, unless
 * the row already holds one for that transaction (another answer of the same payment signed it
 * first), which is kept and returned: every answer of a payment shows one receipt. A receipt for
 * another transaction (a replaced one's) gives way.
 */
export async function keepReceipt({ db, id, transaction, receipt }: { db: Queryable; id: string; transaction: string; receipt: SignedReceipt }): Promise<SignedReceipt> {
  const { rows } = await db.query<{ signed_receipt: SignedReceipt }>(
    `UPDATE gateway.payments
        SET signed_receipt = CASE WHEN signed_receipt->'payload'->>'transaction' = $2 THEN signed_receipt ELSE $3::jsonb END
      WHERE id = $1
      RETURNING signed_receipt`,
    [id, transaction, JSON.stringify(receipt)],
  );
  return rows[0]?.signed_receipt ?? receipt;
}

/**
 * The payment cannot be settled (402 with `reason`): `end` says whether the attempt it held counts
 * against the client (the payer's fault) or is given back (a reason that is the service's).
 */
export async function markFailed({ db, id, reason, message, end }: { db: Queryable; id: string; reason: string; message: string; end: AttemptEnd }): Promise<void> {
  await updatePayment({ db, id, status: "failed", fields: { failureReason: reason, failureMessage: message, outcomeUnknownSince: null }, end });
}

/**
 * The service's fault: the settlement could not be completed now (503). Nothing was delivered;
 * the same signature sent again resumes the payment. When a transaction may have left,
 * `outcomeUnknown` keeps the time, so a transfer found later is recognised as this payment's.
 */
export async function markUnsettled({
  db,
  id,
  status,
  message,
  outcomeUnknown,
}: {
  db: Queryable;
  id: string;
  /** `unsettled` for a request answered 503; `scheduled` for deferred settlement, tried again later. */
  status: "unsettled" | "scheduled";
  message: string;
  outcomeUnknown: boolean;
}): Promise<void> {
  // The service's fault: the attempt it held is given back.
  await writePayment({
    db,
    id,
    sets: [
      "status = $2",
      "failure_reason = 'settlement_unavailable'",
      "failure_message = $3",
      "updated_at = now()",
      "outcome_unknown_since = CASE WHEN $4 THEN coalesce(outcome_unknown_since, settle_started_at, now()) ELSE outcome_unknown_since END",
    ],
    values: [status, message, outcomeUnknown],
    end: "release",
  });
}

/**
 * Opens a payment again for the same request sent with the same signature, when its earlier
 * attempt ended without charging (refused, unsettled, voided, or left behind by a crash):
 * back to `received`, its old answer and work forgotten. Only one of concurrent retries wins.
 * With `slot`, the retry reserves its attempt in the same statement (rate-limit.ts), and nothing
 * is reopened when the window is full (`full`).
 */
export async function reopenPayment({
  db,
  id,
  from,
  staleSeconds,
  slot,
}: {
  db: Queryable;
  id: string;
  from: PaymentStatus[];
  staleSeconds: number;
  slot?: AttemptSlot;
}): Promise<PaymentRow | "full" | null> {
  const reopenable = `(status = ANY($2::text[]) OR (status IN ('received', 'verified') AND updated_at < now() - make_interval(secs => $3)))`;
  const reopen = (hold: string, guard: string) => `UPDATE gateway.payments
        SET status = 'received', response_status = NULL, response_body = NULL, response_headers = NULL,
            work_status = NULL, work_body = NULL, upstream_job_id = NULL, failure_reason = NULL, failure_message = NULL, updated_at = now()${hold}
      WHERE id = $1 ${guard} AND ${reopenable}
      RETURNING ${COLUMNS}`;
  if (!slot) {
    const { rows } = await db.query<PaymentRecord>(reopen("", ""), [id, from, staleSeconds]);
    return rows[0] ? toRow(rows[0]) : null;
  }
  // The payment's row is locked first, and a slot reserved only for a payment this retry may
  // reopen: every write holding both locks takes the row's before the window's (writePayment), so
  // a retry and the request ending the payment wait for each other instead of deadlocking.
  const { rows } = await db.query<ReservedRecord & { reopenable: number }>(
    `WITH target AS (SELECT id FROM gateway.payments WHERE id = $1 AND ${reopenable} FOR UPDATE),
     ${reserveSql(4, { onlyIf: "target" })},
     opened AS (${reopen(", attempt_key = $4, attempt_window = $5", "AND EXISTS (SELECT 1 FROM slot)")})
     SELECT (SELECT count(*) FROM target)::int AS reopenable, (SELECT count(*) FROM slot)::int AS reserved, opened.* FROM (SELECT 1) AS one LEFT JOIN opened ON true`,
    [id, from, staleSeconds, ...slotValues(slot)],
  );
  const result = rows[0]!;
  if (result.reopenable === 0) return null;
  if (result.reserved === 0) return "full";
  if (result.id !== null) return toRow(result);
  await releaseSlot(db, slot);
  return null;
}

/** Nothing is owed: the work failed or answered an error, or verification could not be done. The attempt it held is given back. */
export async function voidPayment({ db, id, reason, message, response = null }: { db: Queryable; id: string; reason: string; message?: string | null; response?: StoredResponse | null }): Promise<void> {
  await updatePayment({ db, id, status: "voided", fields: { failureReason: reason, failureMessage: message ?? null, response }, end: "release" });
}

/** A deferred payment, verified and its work accepted: settled when the work is delivered. */
export async function schedulePayment({
  db,
  id,
  work,
  upstreamJobId,
  conversationId,
  messageId,
  response,
}: {
  db: Queryable;
  id: string;
  work: WorkAnswer;
  upstreamJobId: string | null;
  conversationId: string | null;
  messageId: string | null;
  response: StoredResponse;
}): Promise<void> {
  // Verified and accepted: the attempt it held is given back.
  await updatePayment({ db, id, status: "scheduled", fields: { work, upstreamJobId, conversationId, messageId, response }, end: "release" });
}

/**
 * Takes the right to do a settled payment's cancelled work again: one of concurrent retries wins
 * (the others wait for its answer); a claim older than `staleSeconds` (its process died) is taken
 * over. `release` gives it back when the work failed.
 */
export async function claimRedo({ db, id, staleSeconds }: { db: Queryable; id: string; staleSeconds: number }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE gateway.payments SET work_claimed_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'settled' AND work_status IS NULL AND response_status IS NULL
        AND (work_claimed_at IS NULL OR work_claimed_at < now() - make_interval(secs => $2))`,
    [id, staleSeconds],
  );
  return (rowCount ?? 0) > 0;
}

export async function releaseRedo({ db, id }: { db: Queryable; id: string }): Promise<void> {
  await db.query("UPDATE gateway.payments SET work_claimed_at = NULL WHERE id = $1", [id]);
}

/** The work of a payment that was already settled (a retry after its first work was cancelled), with its answer. */
export async function recordPaidWork({ db, id, work, upstreamJobId, response }: { db: Queryable; id: string; work: WorkAnswer; upstreamJobId: string | null; response: StoredResponse }): Promise<void> {
  await updatePayment({ db, id, fields: { work, upstreamJobId, response } });
}

/** Forgets the work of a payment whose job was cancelled (a retry must start it again). */
export async function clearWork({ db, id }: { db: Queryable; id: string }): Promise<void> {
  await db.query("UPDATE gateway.payments SET work_status = NULL, work_body = NULL, upstream_job_id = NULL, updated_at = now() WHERE id = $1", [id]);
}

/** Stores the answer a retry of this request gets back. */
export async function storeResponse({ db, id, response }: { db: Queryable; id: string; response: StoredResponse }): Promise<void> {
  await updatePayment({ db, id, fields: { response } });
}

/**
 * Claims a batch of payments for the cron: deferred ones whose work has ended or whose
 * authorization expired (`readyIds`, found by the cron; one still running is never taken),
 * settlements whose lease expired (a crashed worker), unsettled ones (answered 503) and requests
 * interrupted before they answered. Ready deferred ones come first, then what the cron looked at
 * longest ago (or never), so a payment it cannot move yet never keeps it from the ones behind.
 * The rows are picked with FOR UPDATE SKIP LOCKED and marked claimed for `claimSeconds`, so
 * overlapping cron runs take disjoint batches. (Settling itself is still guarded by takeSettlement.)
 */
export async function claimDuePayments({
  db,
  limit,
  staleSeconds,
  claimSeconds,
  readyIds,
}: {
  db: Queryable;
  limit: number;
  staleSeconds: number;
  claimSeconds: number;
  readyIds: string[];
}): Promise<PaymentRow[]> {
  const { rows } = await db.query<PaymentRecord>(
    `UPDATE gateway.payments SET cron_claimed_until = now() + make_interval(secs => $4), cron_checked_at = now()
      WHERE id IN (
        SELECT id FROM gateway.payments
         WHERE ((status = 'scheduled' AND id = ANY($5::uuid[]))
                OR status = 'unsettled'
                OR (status = 'settling' AND settle_started_at < now() - make_interval(secs => $2))
                OR (status IN ('received', 'verified') AND updated_at < now() - make_interval(secs => $3)))
           AND (cron_claimed_until IS NULL OR cron_claimed_until < now())
         ORDER BY (status = 'scheduled') DESC, cron_checked_at NULLS FIRST, created_at
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
      RETURNING ${COLUMNS}`,
    [limit, SETTLE_LEASE_SECONDS, staleSeconds, claimSeconds, readyIds],
  );
  return rows.map(toRow).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** A scheduled (deferred) payment as the cron first looks at it: what identifies its work, and until when it can be settled. */
export type ScheduledPayment = Pick<PaymentRow, "id" | "conversationId" | "messageId" | "validBefore">;

/**
 * Up to `limit` scheduled payments no cron run holds, the ones the cron looked at longest ago (or
 * never) first: the cron asks the agent which of them have ended, and marks the others looked at
 * (markCronChecked), so however many there are, each is looked at in turn.
 */
export async function listScheduledPayments({ db, limit }: { db: Queryable; limit: number }): Promise<ScheduledPayment[]> {
  const { rows } = await db.query<{ id: string; conversation_id: string | null; message_id: string | null; valid_before: string }>(
    `SELECT id, conversation_id, message_id, valid_before FROM gateway.payments
      WHERE status = 'scheduled' AND (cron_claimed_until IS NULL OR cron_claimed_until < now())
      ORDER BY cron_checked_at NULLS FIRST, created_at
      LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ id: r.id, conversationId: r.conversation_id, messageId: r.message_id, validBefore: Number(r.valid_before) }));
}

/** Records that the cron looked at these payments now, which puts them behind the ones it has not. */
export async function markCronChecked({ db, ids }: { db: Queryable; ids: string[] }): Promise<void> {
  if (ids.length === 0) return;
  await db.query("UPDATE gateway.payments SET cron_checked_at = now() WHERE id = ANY($1::uuid[])", [ids]);
}

/** Deferred payments of one conversation (one per paid turn), oldest first. */
export async function listConversationPayments({ db, conversationId }: { db: Queryable; conversationId: string }): Promise<PaymentRow[]> {
  const { rows } = await db.query<PaymentRecord>(
    `SELECT ${COLUMNS} FROM gateway.payments WHERE conversation_id = $1 ORDER BY created_at`,
    [conversationId],
  );
  return rows.map(toRow);
}

/**
 * The deferred payment of one encrypted deep-research run (its messageId is the agent's, a UUID:
 * anything else, such as a path holding NUL that Postgres would refuse, has none).
 */
export async function getRunPayment({ db, messageId }: { db: Queryable; messageId: string }): Promise<PaymentRow | null> {
  if (!isUuid(messageId)) return null;
  const { rows } = await db.query<PaymentRecord>(
    `SELECT ${COLUMNS} FROM gateway.payments WHERE message_id = $1 AND operation = 'deepResearchEncrypted' ORDER BY created_at DESC LIMIT 1`,
    [messageId],
  );
  return rows[0] ? toRow(rows[0]) : null;
}

/**
 * Moves a payment from one of `from` to `to`, only if it is still in one of them (so a void never
 * overwrites a settlement that won the race). Returns whether it moved.
 */
export async function transitionPayment({
  db,
  id,
  from,
  to,
  failureReason = null,
}: {
  db: Queryable;
  id: string;
  from: PaymentStatus[];
  to: PaymentStatus;
  failureReason?: string | null;
}): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE gateway.payments SET status = $3, failure_reason = coalesce($4, failure_reason), updated_at = now()
      WHERE id = $1 AND status = ANY($2::text[])`,
    [id, from, to, failureReason],
  );
  return (rowCount ?? 0) > 0;
}
