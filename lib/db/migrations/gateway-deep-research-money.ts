import type { Migration } from "../migrate";

/**
 * Issue 24, deep research settled after its work: who started a conversation. Appended to the gateway's migrations (gateway.ts); never edit
 * one that has shipped.
 */
export const deepResearchMoneyMigrations: Migration[] = [
  {
    version: 9,
    name: "deep research: the payer who started each conversation",
    sql: `
      -- Only the payer who started a conversation through the gateway continues it
      -- (lib/deep-research/conversations.ts), as chat threads already are.
      ALTER TABLE gateway.deep_research_conversations ADD COLUMN payer text;
      UPDATE gateway.deep_research_conversations c
         SET payer = (SELECT p.payer FROM gateway.payments p WHERE p.conversation_id = c.conversation_id ORDER BY p.created_at LIMIT 1);
    `,
  },
];
