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
];
