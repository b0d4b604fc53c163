import type { Migration } from "../migrate";

/**
 * The gateway's tables, in the `gateway` schema (the agent keeps its own). Append new migrations;
 * never edit one that has shipped (the migrator refuses a changed checksum).
 */
export const gatewayMigrations: Migration[] = [
  {
    version: 1,
    name: "deep research conversations",
    sql: `
      CREATE TABLE gateway.deep_research_conversations (
        conversation_id text PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled', 'timeout')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX deep_research_conversations_status_idx ON gateway.deep_research_conversations (status);
    `,
  },
  {
    version: 2,
    name: "payment ledger and invalid-payment rate limits",
    sql: `
      CREATE TABLE gateway.payments (
        id uuid PRIMARY KEY,
        network text NOT NULL,
        asset text NOT NULL,
        payer text NOT NULL,
        nonce text NOT NULL,
        signature text NOT NULL,
        operation text NOT NULL,
        route text NOT NULL,
        amount numeric(78, 0) NOT NULL,
        request_digest text NOT NULL,
        payload jsonb NOT NULL,
        requirements jsonb NOT NULL,
        valid_after bigint NOT NULL,
        valid_before bigint NOT NULL,
        status text NOT NULL CHECK (status IN ('received', 'verified', 'scheduled', 'settling', 'settled', 'voided', 'expired', 'failed')),
        settle_started_at timestamptz,
        settle_attempts integer NOT NULL DEFAULT 0,
        -- The cron's claim on a row it is looking at, so overlapping runs split the work.
        cron_claimed_until timestamptz,
        tx_hash text,
        failure_reason text,
        failure_message text,
        upstream_job_id text,
        conversation_id text,
        message_id text,
        response_status integer,
        response_body jsonb,
        response_headers jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        -- One use per authorization: the nonce is the payer's, scoped to the token and its chain.
        CONSTRAINT payments_authorization_key UNIQUE (network, asset, payer, nonce)
      );
      CREATE INDEX payments_due_idx ON gateway.payments (created_at) WHERE status IN ('received', 'verified', 'scheduled', 'settling');
      CREATE INDEX payments_conversation_idx ON gateway.payments (conversation_id) WHERE conversation_id IS NOT NULL;

      CREATE TABLE gateway.rate_limits (
        key text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (key, window_start)
      );
    `,
  },
  {
    version: 3,
    name: "encrypted deep-research payments by run",
    sql: `
      -- An encrypted deep-research run has no public conversation: its payment is found by the run's id.
      CREATE INDEX payments_message_idx ON gateway.payments (message_id) WHERE message_id IS NOT NULL;
    `,
  },
];
