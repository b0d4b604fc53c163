import type { Migration } from "@/lib/shared/db/migrate";

/**
 * Gateway migration 16: x402 sign-in-with-x, a wallet's history (lib/gateway/history). The ledger says
 * who paid for what; beside each plain payment, its question and, once the gateway saw it, its
 * answer, for its payer to reopen from any client (swept after HISTORY_RETENTION_DAYS; a row
 * forgotten by its payer keeps only that fact). The nonces of sign-in proofs accepted, each
 * used once, until no proof could carry it any more; and browsers' sign-in sessions, by the
 * hash of their token. Never change its text: the migrations' checksums include it.
 */
export const walletHistoryMigration: Migration = {
  version: 16,
  name: "x402 sign-in-with-x: a wallet's history, sign-in nonces and sessions",
  sql: `
      CREATE TABLE gateway.wallet_history (
        payment_id uuid PRIMARY KEY REFERENCES gateway.payments (id) ON DELETE CASCADE,
        question text,
        conversation_id text,
        result jsonb,
        result_at timestamptz,
        forgotten_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX wallet_history_created ON gateway.wallet_history (created_at) WHERE forgotten_at IS NULL;
      -- A payer's paid requests, newest first (GET /api/history); a job's payment, by the agent's id (its status polls).
      CREATE INDEX payments_history ON gateway.payments (payer, created_at DESC, id DESC) WHERE status IN ('scheduled', 'settling', 'settled');
      CREATE INDEX payments_upstream_job ON gateway.payments (upstream_job_id) WHERE upstream_job_id IS NOT NULL;

      CREATE TABLE gateway.sign_in_nonces (
        nonce text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_nonces_expires ON gateway.sign_in_nonces (expires_at);

      CREATE TABLE gateway.sign_in_sessions (
        token_hash text PRIMARY KEY,
        payer text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sign_in_sessions_expires ON gateway.sign_in_sessions (expires_at);
  `,
};
