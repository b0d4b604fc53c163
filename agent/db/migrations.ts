import type { Migration } from "@/lib/shared/db/migrate";
import { addWindowEndSql } from "@/lib/shared/rate-limit/fixed-window";
import { libraryMigrationSql } from "../library/migration";

/**
 * The agent's tables, in the `agent` schema of the shared database (the gateway keeps its own).
 * Append new migrations; never edit one that has shipped.
 */
export const agentMigrations: Migration[] = [
  {
    version: 1,
    name: "jobs",
    sql: `
      CREATE TABLE agent.jobs (
        id uuid PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('literature', 'chat', 'deep_research')),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        -- The request, and for private work nothing readable: sealed input goes in sealed_input.
        input jsonb NOT NULL,
        result jsonb,
        error text,
        progress jsonb,
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL DEFAULT 3,
        -- The lease: a worker owns a running job until locked_until; after it, another may take it.
        locked_by text,
        locked_until timestamptz,
        caller text,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX jobs_claimable_idx ON agent.jobs (created_at) WHERE status IN ('queued', 'running');
    `,
  },
  { version: 2, name: "local library", sql: libraryMigrationSql },
  {
    version: 3,
    name: "chat conversations",
    sql: `
      CREATE TABLE agent.conversations (
        id uuid PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE agent.chat_turns (
        request_id uuid PRIMARY KEY,
        conversation_id uuid NOT NULL REFERENCES agent.conversations (id) ON DELETE CASCADE,
        message text NOT NULL,
        answer text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX chat_turns_conversation_idx ON agent.chat_turns (conversation_id, created_at);
    `,
  },
  {
    version: 4,
    name: "deep research",
    sql: `
      CREATE TABLE agent.dr_conversations (
        id uuid PRIMARY KEY,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled')),
        world_state jsonb NOT NULL DEFAULT '{}',
        session_status text NOT NULL DEFAULT 'queued',
        active_message_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE agent.dr_turns (
        message_id uuid PRIMARY KEY,
        conversation_id uuid NOT NULL REFERENCES agent.dr_conversations (id) ON DELETE CASCADE,
        objective text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled')),
        reply text,
        citations jsonb NOT NULL DEFAULT '[]',
        is_final boolean NOT NULL DEFAULT false,
        -- Finished iterations, so a run taken over after a crash resumes instead of starting again.
        iterations jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX dr_turns_conversation_idx ON agent.dr_turns (conversation_id, created_at);
    `,
  },
  {
    version: 5,
    name: "rate limits and premium keys",
    sql: `
      CREATE TABLE agent.rate_limits (
        key text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (key, window_start)
      );
      CREATE TABLE agent.premium_keys (
        id uuid PRIMARY KEY,
        -- Only the SHA-256 of a key is kept: the key itself is shown once, to whoever created it.
        key_hash text NOT NULL UNIQUE,
        wallet text,
        label text,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE TABLE agent.premium_challenges (
        id uuid PRIMARY KEY,
        wallet text NOT NULL,
        message text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
    `,
  },
  {
    version: 6,
    name: "enclave key",
    sql: `
      -- The enclave's X25519 key when not given by configuration: generated once, its private half
      -- sealed under a key-encryption key kept outside the database (ENCLAVE_KEK_FILE).
      CREATE TABLE agent.enclave_keys (
        id integer PRIMARY KEY CHECK (id = 1),
        public_key text NOT NULL,
        sealed_private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 7,
    name: "private conversations",
    sql: `
      -- Private conversations, found by an id derived from the client's recovery key and encrypted
      -- under a key derived from it: the database alone reads nothing.
      CREATE TABLE agent.private_conversations (
        lookup_id text PRIMARY KEY,
        sealed text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      ALTER TABLE agent.jobs DROP CONSTRAINT jobs_kind_check;
      ALTER TABLE agent.jobs ADD CONSTRAINT jobs_kind_check CHECK (kind IN ('literature', 'chat', 'deep_research', 'private_chat'));
    `,
  },
  {
    version: 8,
    name: "private literature and deep research",
    sql: `
      ALTER TABLE agent.jobs DROP CONSTRAINT jobs_kind_check;
      ALTER TABLE agent.jobs ADD CONSTRAINT jobs_kind_check
        CHECK (kind IN ('literature', 'chat', 'deep_research', 'private_chat', 'private_literature', 'private_deep_research'));
      -- A private deep-research run: readable only with the recovery key that started it. The
      -- lookup id (derived from the key) lets a poll find it; everything else, question included,
      -- is in "sealed", encrypted under the key's storage key. The status is not private.
      CREATE TABLE agent.private_runs (
        message_id uuid PRIMARY KEY,
        lookup_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        sealed text,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX private_runs_lookup ON agent.private_runs (lookup_id);
      -- The retention sweep deletes finished private jobs by age.
      CREATE INDEX jobs_private_finished ON agent.jobs (finished_at) WHERE kind LIKE 'private%';
    `,
  },
  {
    version: 9,
    name: "premium key terms, holdings and conversation owners",
    sql: `
      -- A holder's key rests on the service token its wallet holds; an operator's on nothing but
      -- the operator's word. Both expire. A holder's holding is re-read at a bounded cadence:
      -- holding_checked_block is the block up to which it is known to have stayed at the minimum.
      ALTER TABLE agent.premium_keys
        ADD COLUMN kind text NOT NULL DEFAULT 'operator' CHECK (kind IN ('operator', 'holder')),
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN revoked_reason text CHECK (revoked_reason IN ('superseded', 'holding_lost', 'operator')),
        ADD COLUMN holding_checked_at timestamptz,
        ADD COLUMN holding_checked_block bigint;
      -- POST /api/premium/keys labelled its keys so. Their holding has no checked block: their next
      -- use reads the balance alone, and continuity is followed from there.
      UPDATE agent.premium_keys SET kind = 'holder' WHERE label = 'service token holder' AND wallet IS NOT NULL;
      -- Keys made before terms get the default term from their creation (older ones have expired).
      UPDATE agent.premium_keys SET expires_at = created_at + interval '30 days';
      ALTER TABLE agent.premium_keys ALTER COLUMN expires_at SET NOT NULL, ALTER COLUMN kind DROP DEFAULT;
      -- One live key per holding: of a wallet's earlier keys only the newest stays.
      UPDATE agent.premium_keys k SET revoked_at = now(), revoked_reason = 'superseded'
       WHERE k.kind = 'holder' AND k.revoked_at IS NULL
         AND EXISTS (SELECT 1 FROM agent.premium_keys n
                      WHERE n.kind = 'holder' AND n.wallet = k.wallet AND n.revoked_at IS NULL AND (n.created_at, n.id) > (k.created_at, k.id));
      CREATE UNIQUE INDEX premium_keys_one_live_per_wallet ON agent.premium_keys (wallet) WHERE kind = 'holder' AND revoked_at IS NULL;
      -- Who started a conversation ('service', 'wallet:0x…' for a holder, 'key:<id>' for an
      -- operator's key): only they may read, continue or cancel it. Earlier ones go to the gateway:
      -- which key started them was not recorded.
      ALTER TABLE agent.dr_conversations ADD COLUMN owner text NOT NULL DEFAULT 'service';
    `,
  },
  {
    version: 10,
    name: "public chat retention",
    sql: `
      -- The retention sweep deletes finished public chat jobs by age, every few seconds.
      CREATE INDEX jobs_chat_created ON agent.jobs (created_at) WHERE kind = 'chat';
    `,
  },
  {
    version: 11,
    name: "data lifecycle: retention sweeps, hot-query indexes, bounded premium challenges",
    sql: `
      -- Every private poll, the cancel route and every sweep find a job by its input's messageId.
      CREATE INDEX IF NOT EXISTS jobs_message_id ON agent.jobs (kind, (input->>'messageId')) WHERE (input->>'messageId') IS NOT NULL;
      -- What the retention sweeps delete by age (agent/lifecycle.ts).
      CREATE INDEX IF NOT EXISTS jobs_literature_created ON agent.jobs (created_at) WHERE kind = 'literature';
      CREATE INDEX IF NOT EXISTS conversations_created ON agent.conversations (created_at);
      CREATE INDEX IF NOT EXISTS dr_conversations_updated ON agent.dr_conversations (updated_at);
      CREATE INDEX IF NOT EXISTS private_conversations_updated ON agent.private_conversations (updated_at);
      CREATE INDEX IF NOT EXISTS private_runs_updated ON agent.private_runs (updated_at);
      CREATE INDEX IF NOT EXISTS premium_keys_expires ON agent.premium_keys (expires_at);
      -- A rate-limit window says when it ends, so the sweep needs no knowledge of window lengths.
      ${addWindowEndSql("agent.rate_limits")}
      -- Who asked for a challenge (its client address), so one client cannot hold more than a few.
      ALTER TABLE agent.premium_challenges ADD COLUMN IF NOT EXISTS client text;
      CREATE INDEX IF NOT EXISTS premium_challenges_expires ON agent.premium_challenges (expires_at);
      CREATE INDEX IF NOT EXISTS premium_challenges_client ON agent.premium_challenges (client, expires_at);
    `,
  },
  {
    version: 12,
    name: "job lanes",
    sql: `
      -- Workers take the highest lane first (2 paid, 1 premium key, 0 free public chat), then the
      -- oldest: a burst of free chat no longer delays work someone paid for (agent/jobs/queue.ts).
      -- A constant default adds the column without rewriting the table.
      ALTER TABLE agent.jobs ADD COLUMN IF NOT EXISTS priority smallint NOT NULL DEFAULT 0;
      -- Work waiting when this runs keeps its place: the gateway's (and sealed work, which it
      -- sends) as paid, a premium key's deep research as premium. Finished jobs stay 0, unread.
      UPDATE agent.jobs SET priority = CASE
          WHEN caller IN ('service', 'private') THEN 2
          WHEN caller = 'premium' OR kind = 'deep_research' THEN 1
          ELSE 0 END
        WHERE status IN ('queued', 'running');
      CREATE INDEX IF NOT EXISTS jobs_claim_order_idx ON agent.jobs (priority DESC, created_at) WHERE status IN ('queued', 'running');
    `,
  },
  {
    version: 13,
    name: "private work answers its starter alone",
    sql: `
      -- Who started a private run ('service' for the gateway, or a premium key's owner, as
      -- dr_conversations.owner): only they may read it. Private chat and literature jobs keep
      -- theirs in agent.jobs.caller, which said 'private' for all of them until now. Earlier runs
      -- and jobs go to the gateway: which key started them was not recorded.
      ALTER TABLE agent.private_runs ADD COLUMN IF NOT EXISTS owner text NOT NULL DEFAULT 'service';
      UPDATE agent.jobs SET caller = 'service' WHERE caller = 'private';
    `,
  },
  {
    version: 14,
    name: "deep research progress as data",
    sql: `
      -- A running turn's step (RunProgress: the iteration of how many, or writing), beside its
      -- line in words: the gateway shows unpaid progress from this, never by parsing the line.
      ALTER TABLE agent.dr_conversations ADD COLUMN IF NOT EXISTS progress jsonb;
    `,
  },
  {
    version: 15,
    name: "library records: where in the journal",
    sql: `
      -- Volume, issue and pages, as a citation gives them (agent/library/prepare-record.ts), so a
      -- reference manager can cite a library record; null for records imported before them.
      ALTER TABLE agent.library_records ADD COLUMN IF NOT EXISTS volume text;
      ALTER TABLE agent.library_records ADD COLUMN IF NOT EXISTS issue text;
      ALTER TABLE agent.library_records ADD COLUMN IF NOT EXISTS pages text;
    `,
  },
];
