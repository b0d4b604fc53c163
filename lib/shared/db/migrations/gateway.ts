import { addWindowEndSql } from "@/lib/shared/rate-limit/fixed-window";
import type { Migration } from "@/lib/shared/db/migrate";
import { attemptHoldsMigration } from "@/lib/shared/db/migrations/gateway-attempt-holds";
import { deepResearchMoneyMigrations } from "@/lib/shared/db/migrations/gateway-deep-research-money";
import { offerReceiptsMigration } from "@/lib/shared/db/migrations/gateway-offer-receipts";
import { paymentIdentifierMigration } from "@/lib/shared/db/migrations/gateway-payment-identifier";
import { walletHistoryMigration } from "@/lib/shared/db/migrations/gateway-wallet-history";

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
  {
    version: 4,
    name: "settlement engine: transaction nonces, settlement transactions, unsettled payments, the work's answer",
    sql: `
      -- 'unsettled': the settlement could not be completed for the service's reason (facilitator or
      -- chain unreachable); nothing was delivered and a retry with the same signature resumes it.
      ALTER TABLE gateway.payments DROP CONSTRAINT payments_status_check;
      ALTER TABLE gateway.payments ADD CONSTRAINT payments_status_check
        CHECK (status IN ('received', 'verified', 'scheduled', 'settling', 'settled', 'unsettled', 'voided', 'expired', 'failed'));
      -- The answer of the work, recorded before settlement, so a paid answer can always be rebuilt.
      ALTER TABLE gateway.payments ADD COLUMN work_status integer;
      ALTER TABLE gateway.payments ADD COLUMN work_body jsonb;
      -- Set when a settlement attempt ended without knowing whether it transferred (a hosted
      -- facilitator that timed out, a crash mid-settlement); cleared by a definite outcome.
      ALTER TABLE gateway.payments ADD COLUMN outcome_unknown_since timestamptz;
      CREATE INDEX payments_unsettled_idx ON gateway.payments (created_at) WHERE status = 'unsettled';

      -- The self-hosted facilitator's own transaction nonces, per chain (chain id and genesis hash,
      -- so a fresh local chain starts over) and account, shared by every gateway process.
      CREATE TABLE gateway.facilitator_accounts (
        chain text NOT NULL,
        address text NOT NULL,
        next_nonce bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (chain, address)
      );

      -- Every transaction the self-hosted facilitator signed, recorded before it is broadcast, so a
      -- crash never loses one: several per nonce when one was re-sent with a higher fee.
      CREATE TABLE gateway.settlement_transactions (
        hash text PRIMARY KEY,
        chain text NOT NULL,
        address text NOT NULL,
        nonce bigint NOT NULL,
        payment_id uuid REFERENCES gateway.payments (id),
        raw text NOT NULL,
        max_fee_per_gas numeric(78, 0) NOT NULL,
        max_priority_fee_per_gas numeric(78, 0) NOT NULL,
        status text NOT NULL CHECK (status IN ('signed', 'pending', 'mined', 'reverted', 'replaced', 'rejected')),
        error text,
        block_number bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX settlement_transactions_open_idx ON gateway.settlement_transactions (chain, address, nonce)
        WHERE status IN ('signed', 'pending');
      CREATE INDEX settlement_transactions_payment_idx ON gateway.settlement_transactions (payment_id) WHERE payment_id IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: "long-polls held per client",
    sql: `
      -- The long-polls each client address holds open, shared by every gateway instance
      -- (lib/gateway/private/long-polls.ts): holder id -> epoch second at which the hold lapses, so the hold
      -- of an instance that died mid-poll frees itself.
      CREATE TABLE gateway.long_polls (
        client text PRIMARY KEY,
        holders jsonb NOT NULL DEFAULT '{}'::jsonb
      );
    `,
  },
  {
    version: 6,
    name: "data lifecycle: rate-limit windows that end, uncharged payments and conversations by age",
    sql: `
      -- A rate-limit window says when it ends, so the sweep needs no knowledge of window lengths.
      ${addWindowEndSql("gateway.rate_limits")}
      -- The sweeps of payments by when their authorization ran out (lib/gateway/lifecycle/sweep.ts): the
      -- answers kept for a retry, and the rows of payments that charged nothing.
      CREATE INDEX IF NOT EXISTS payments_with_answers ON gateway.payments (valid_before) WHERE response_status IS NOT NULL OR work_status IS NOT NULL;
      CREATE INDEX IF NOT EXISTS payments_uncharged ON gateway.payments (valid_before) WHERE status IN ('voided', 'expired', 'failed');
      CREATE INDEX IF NOT EXISTS deep_research_conversations_updated ON gateway.deep_research_conversations (updated_at);
    `,
  },
  {
    version: 7,
    name: "chat conversations by the payer who started them",
    sql: `
      -- Who started each chat conversation through the gateway (lib/gateway/chat/threads.ts): only that
      -- payer address may continue it. Swept from its last use, as the agent sweeps the
      -- conversation itself (lib/gateway/lifecycle/sweep.ts).
      CREATE TABLE gateway.chat_conversations (
        conversation_id text PRIMARY KEY,
        payer text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX chat_conversations_last_used ON gateway.chat_conversations (last_used_at);
    `,
  },
  {
    version: 8,
    name: "deep research: when a poll first carried a turn's PAYMENT-RESPONSE",
    sql: `
      -- A deep-research payment settles after its 202, so its PAYMENT-RESPONSE goes out with the
      -- first poll that shows the settled turn, once (lib/gateway/deep-research/receipts.ts). Payments
      -- settled before this column existed were delivered without one: marked as sent, so no poll
      -- sends a receipt for a result delivered long ago.
      ALTER TABLE gateway.payments ADD COLUMN settlement_receipt_sent_at timestamptz;
      UPDATE gateway.payments SET settlement_receipt_sent_at = COALESCE(settled_at, updated_at)
        WHERE status = 'settled' AND operation IN ('deepResearch', 'deepResearchEncrypted');
    `,
  },
  attemptHoldsMigration,
  ...deepResearchMoneyMigrations,
  {
    version: 13,
    name: "what the agent said before payment, shared by the gateway's processes",
    sql: `
      -- The agent's last answer per question asked before payment (literature reach, private
      -- mode), so that one gateway process asks it per window for all (lib/gateway/upstream/status-cache.ts):
      -- value is null when the agent could not say; lease_until, while a process is asking it.
      CREATE TABLE gateway.agent_status (
        agent_url text NOT NULL,
        key text NOT NULL,
        value jsonb NOT NULL,
        read_at timestamptz NOT NULL,
        lease_until timestamptz NOT NULL,
        PRIMARY KEY (agent_url, key)
      );
    `,
  },
  paymentIdentifierMigration,
  offerReceiptsMigration,
  walletHistoryMigration,
];
