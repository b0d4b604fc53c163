import "server-only";
import { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX, type HistoryItem, type HistoryPage } from "@/lib/shared/contracts/history";
import { formatUsd } from "@/lib/shared/contracts/money";
import type { Queryable } from "@/lib/shared/db";
import { isUuid } from "@/lib/shared/db/uuid";
import { ApiError } from "@/lib/shared/http";
import { PAID_OPERATIONS, type PaidOperation } from "@/lib/shared/operations";

/**
 * A wallet's paid requests, found through the payment ledger (its payer column): those it paid
 * or is paying for (settled, settling, deep research scheduled until delivered), newest first, a
 * page at a time, each with what its history row keeps (wallet_history: the question, a result).
 * A sealed request shows its kind and time, nothing of its words; a forgotten one is not listed.
 */

/** One ledger row as the history reads it, with its history row's columns. */
export type HistoryRow = {
  id: string;
  operation: string;
  amount: string;
  status: string;
  tx_hash: string | null;
  created_at: Date;
  /** created_at in microseconds since 1970, exactly: the cursor's key. */
  created_us: string;
  conversation_id: string | null;
  message_id: string | null;
  upstream_job_id: string | null;
  work_status: number | null;
  work_body: unknown;
  question: string | null;
  history_conversation_id: string | null;
  result: unknown;
};

const LISTED = "('scheduled', 'settling', 'settled')";

/** The query of a wallet's rows; `$1` is the payer, `$2` the operations read. */
export const HISTORY_SELECT = `SELECT p.id, p.operation, p.amount::text AS amount, p.status, p.tx_hash, p.created_at, (extract(epoch FROM p.created_at) * 1000000)::bigint::text AS created_us,
    p.conversation_id, p.message_id, p.upstream_job_id, p.work_status, p.work_body, h.question, h.conversation_id AS history_conversation_id, h.result
  FROM gateway.payments p LEFT JOIN gateway.wallet_history h ON h.payment_id = p.id
  WHERE p.payer = $1 AND p.operation = ANY($2) AND p.status IN ${LISTED} AND h.forgotten_at IS NULL`;

export const OPERATION_IDS = PAID_OPERATIONS.map((op) => op.id);

/** The paid operation a row is of. */
function operationOf(row: Pick<HistoryRow, "operation">): PaidOperation {
  return PAID_OPERATIONS.find((op) => op.id === row.operation)!;
}

/** A row as the wallet sees it: a sealed one without its words or its ids. */
export function historyItemOf(row: HistoryRow): HistoryItem {
  const op = operationOf(row);
  const sealed = op.history.sealed;
  return {
    id: row.id,
    kind: op.history.kind,
    operation: op.id,
    sealed,
    createdAt: row.created_at.toISOString(),
    price: formatUsd(BigInt(row.amount)),
    paid: row.status === "settled" ? "settled" : "pending",
    transaction: row.tx_hash,
    content: sealed ? "sealed" : row.question !== null ? "kept" : "not_kept",
    question: sealed ? null : row.question,
    conversationId: sealed ? null : (row.conversation_id ?? row.history_conversation_id),
    messageId: sealed ? null : row.message_id,
  };
}

/** GET /api/history's query: `limit` (1 to 100, default 20) and the `cursor` of the page before. Throws ApiError 400. */
export function readHistoryQuery(url: URL): { limit: number; cursor: Cursor | null } {
  const rawLimit = url.searchParams.get("limit");
  const limit = rawLimit === null || rawLimit === "" ? HISTORY_PAGE_DEFAULT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_PAGE_MAX) {
    throw new ApiError("bad_request", `limit must be a whole number from 1 to ${HISTORY_PAGE_MAX}`, { reason: "invalid_limit" });
  }
  const rawCursor = url.searchParams.get("cursor");
  return { limit, cursor: rawCursor === null || rawCursor === "" ? null : decodeCursor(rawCursor) };
}

/** The last item of a page: when it was paid for, in microseconds since 1970, and its id. */
type Cursor = { createdUs: string; id: string };

/** Microseconds a cursor may name: from 1970 to 2255 (2^53), exact in any arithmetic, never out of PostgreSQL's range. */
const MICROSECONDS = /^\d{1,16}$/;

function encodeCursor(row: HistoryRow): string {
  return Buffer.from(JSON.stringify([row.created_us, row.id])).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const read: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (Array.isArray(read) && read.length === 2) {
      const [createdUs, id]: unknown[] = read;
      if (typeof createdUs === "string" && MICROSECONDS.test(createdUs) && Number(createdUs) <= Number.MAX_SAFE_INTEGER && typeof id === "string" && isUuid(id)) return { createdUs, id };
    }
  } catch {
    // refused below
  }
  throw new ApiError("bad_request", "cursor must be the nextCursor of an earlier page", { reason: "invalid_cursor" });
}

/** A page of `wallet`'s history, newest first. */
export async function listHistory({ db, wallet, limit, cursor }: { db: Queryable; wallet: string; limit: number; cursor: Cursor | null }): Promise<Omit<HistoryPage, "address">> {
  const after = cursor ? "AND (p.created_at, p.id) < (timestamptz 'epoch' + $3::bigint * interval '1 microsecond', $4::uuid)" : "";
  const values: unknown[] = [wallet, OPERATION_IDS, ...(cursor ? [cursor.createdUs, cursor.id] : [])];
  const { rows } = await db.query<HistoryRow>(`${HISTORY_SELECT} ${after} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit + 1}`, values);
  const page = rows.slice(0, limit);
  return { items: page.map(historyItemOf), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null };
}
