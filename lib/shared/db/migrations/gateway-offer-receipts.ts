import type { Migration } from "@/lib/shared/db/migrate";

/**
 * Gateway migration 15: x402 offer-and-receipt (lib/gateway/offer-receipt). A deep-research payment is
 * settled after its 202, so its signed receipt is written into its row the first time a poll shows
 * the settled turn, and every later poll shows that same receipt. Never change its text: the
 * migrations' checksums include it.
 */
export const offerReceiptsMigration: Migration = {
  version: 15,
  name: "x402 offer-and-receipt: a deferred payment's signed receipt",
  sql: `
      ALTER TABLE gateway.payments ADD COLUMN signed_receipt jsonb;
  `,
};
