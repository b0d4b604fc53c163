import type { Migration } from "@/lib/shared/db/migrate";

/**
 * Gateway migration 14: x402 `payment-identifier` (lib/gateway/payments/paid-identifier.ts). A payment
 * named by its client keeps the id in its own row, written by the statement that claims it, so
 * no crash can separate the two; the id is the payer's, scoped like the authorization's nonce.
 * Never change its text: the migrations' checksums include it.
 */
export const paymentIdentifierMigration: Migration = {
  version: 14,
  name: "x402 payment-identifier: one payment per id and payer",
  sql: `
      ALTER TABLE gateway.payments ADD COLUMN payment_id text;
      CREATE UNIQUE INDEX payments_payment_identifier_key ON gateway.payments (network, asset, payer, payment_id) WHERE payment_id IS NOT NULL;
  `,
};
