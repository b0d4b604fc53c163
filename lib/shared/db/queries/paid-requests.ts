import type { PaidRequests } from "@/lib/shared/contracts";
import type { PaidOperationId } from "@/lib/shared/operations";
import type { Queryable } from "@/lib/shared/db/pool";

/**
 * Each paid operation's kind of request, looked up by the stored operation (any text); `satisfies`
 * checks it against the operation ids, so a new operation must be placed here.
 */
const KIND_OF: Partial<Record<string, keyof PaidRequests>> = {
  chat: "chats",
  chatEncrypted: "chats",
  literature: "literatureSearches",
  literatureEncrypted: "literatureSearches",
  deepResearch: "deepResearchRuns",
  deepResearchEncrypted: "deepResearchRuns",
} satisfies Record<PaidOperationId, keyof PaidRequests>;

/** How old the counts the health report gives may be: one count of the ledger per this long per process. */
export const PAID_REQUEST_COUNTS_MAX_AGE_MS = 5_000;

/**
 * The settled payments by kind of request, for the public health report, counted at most once
 * every `maxAgeMs` (concurrent askers share one count): settled payments are kept for ever, so the
 * count scans a ledger that only grows, on a route anyone may call in a loop. A failed count is
 * not kept; the next call counts again. Throws the database's error.
 */
export function createPaidRequestCounts({ maxAgeMs = PAID_REQUEST_COUNTS_MAX_AGE_MS, now = Date.now }: { maxAgeMs?: number; now?: () => number } = {}) {
  let cached: { counts: PaidRequests; at: number } | null = null;
  let inFlight: Promise<PaidRequests> | null = null;
  return ({ db }: { db: Queryable }): Promise<PaidRequests> => {
    if (cached && now() - cached.at < maxAgeMs) return Promise.resolve(cached.counts);
    inFlight ??= db
      .query<{ operation: string; count: string }>("SELECT operation, count(*)::text AS count FROM gateway.payments WHERE status = 'settled' GROUP BY operation")
      .then(({ rows }) => {
        const counts: PaidRequests = { chats: 0, literatureSearches: 0, deepResearchRuns: 0 };
        for (const row of rows) {
          const kind = KIND_OF[row.operation];
          if (kind) counts[kind] += Number(row.count);
        }
        cached = { counts, at: now() };
        return counts;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}
