import type { Migration } from "@/lib/shared/db/migrate";

/**
 * Issue 24, deep research settled after its work: what a payer has outstanding, the cron's order,
 * and who started a conversation. Appended to the gateway's migrations (gateway.ts); never edit
 * one that has shipped.
 */
export const deepResearchMoneyMigrations: Migration[] = [
  {
    version: 10,
    name: "deep research: the payer who started each conversation",
    sql: `
      -- Only the payer who started a conversation through the gateway continues it
      -- (lib/gateway/deep-research/conversations.ts), as chat threads already are.
      ALTER TABLE gateway.deep_research_conversations ADD COLUMN payer text;
      UPDATE gateway.deep_research_conversations c
         SET payer = (SELECT p.payer FROM gateway.payments p WHERE p.conversation_id = c.conversation_id ORDER BY p.created_at LIMIT 1);
    `,
  },
  {
    version: 11,
    name: "deep research: what a payer and a client address have outstanding",
    sql: `
      -- A deferred payment (deep research) holds its amount against its payer's balance, and a
      -- place among its payer's and its client address's unsettled turns, from when it was admitted
      -- until it is final (lib/gateway/payments/deferred-holds.ts). The client it was admitted for:
      ALTER TABLE gateway.payments ADD COLUMN held_for_client text;
      CREATE INDEX payments_held_by_payer ON gateway.payments (payer)
        WHERE held_for_client IS NOT NULL AND status IN ('received', 'verified', 'scheduled', 'settling');
      CREATE INDEX payments_held_by_client ON gateway.payments (held_for_client)
        WHERE held_for_client IS NOT NULL AND status IN ('received', 'verified', 'scheduled', 'settling');
      -- Turns admitted before this existed hold what they owe too (their client unknown: their payer's).
      UPDATE gateway.payments SET held_for_client = 'payer:' || payer
        WHERE operation IN ('deepResearch', 'deepResearchEncrypted') AND status IN ('received', 'verified', 'scheduled', 'settling');
    `,
  },
  {
    version: 12,
    name: "the cron: when it last looked at each payment",
    sql: `
      -- The cron takes what it looked at longest ago first, so a payment it cannot move yet never
      -- keeps it from the ones behind (lib/gateway/payments/cron.ts).
      ALTER TABLE gateway.payments ADD COLUMN cron_checked_at timestamptz;
      CREATE INDEX payments_scheduled_by_check ON gateway.payments (cron_checked_at NULLS FIRST, created_at) WHERE status = 'scheduled';
    `,
  },
];
