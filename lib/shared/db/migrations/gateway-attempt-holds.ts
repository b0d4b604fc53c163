import type { Migration } from "@/lib/shared/db/migrate";

/**
 * Gateway migration 9: the invalid-payment limit reserves an attempt before any work starts
 * (lib/gateway/payments/rate-limit.ts). A window's `held` counts the attempts reserved and not yet judged
 * (within `count`); a payment holding one names its window, so the write that judges it, valid or
 * not, settles the reservation in the same statement (lib/gateway/payments/ledger.ts). Never change its
 * text: the migrations' checksums include it.
 */
export const attemptHoldsMigration: Migration = {
  version: 9,
  name: "invalid-payment limit: attempts reserved before the work, held by their payment",
  sql: `
      ALTER TABLE gateway.rate_limits ADD COLUMN held integer NOT NULL DEFAULT 0;
      ALTER TABLE gateway.payments ADD COLUMN attempt_key text;
      ALTER TABLE gateway.payments ADD COLUMN attempt_window timestamptz;
      -- A settled payment whose work was cancelled (its transfer landed after a 503) has its work
      -- done again by one retry: the one that set this (lib/gateway/payments/paid-retry.ts).
      ALTER TABLE gateway.payments ADD COLUMN work_claimed_at timestamptz;
  `,
};
