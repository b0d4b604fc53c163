import type { Queryable } from "@/lib/shared/db";
import { sweepRateLimits } from "@/lib/shared/rate-limit/fixed-window";

/**
 * The data lifecycle of the gateway's schema (docs/data-lifecycle.md has the table and the
 * reasons): what each sweep deletes once nothing needs it. Run by the cron, every minute.
 * Settled payments and their settlement transactions are accounting records and are kept.
 */

export type GatewayRetention = {
  /** After a payment's authorization expired, its stored answers (kept for a retry of the same signature) are cleared. */
  paymentAnswerSeconds: number;
  /** After a payment that charged nothing (voided, expired, failed) had its authorization expire, its row is deleted. */
  unchargedPaymentSeconds: number;
  /** A finished deep-research conversation's status row, from its last change. */
  deepResearchSeconds: number;
  /** Who started a chat conversation, from its last use (the agent forgets the conversation as long after its last turn). */
  chatConversationSeconds: number;
  /** A paid request's question and answer kept for its payer's history (lib/gateway/history), from when it was paid for. */
  historySeconds: number;
};

const FINAL_UNCHARGED = "('voided', 'expired', 'failed')";
const FINAL_CHARGED_OR_NOT = "('settled', 'voided', 'expired', 'failed')";

/** Runs every sweep of the gateway's tables; returns how many rows each deleted or cleared. */
export async function sweepGatewayTables({ db, retention }: { db: Queryable; retention: GatewayRetention }): Promise<Record<string, number>> {
  return {
    rateLimits: await sweepRateLimits({ db, table: "gateway.rate_limits" }),
    longPolls: await sweepLongPolls({ db }),
    paymentAnswers: await clearPaymentAnswers({ db, afterSeconds: retention.paymentAnswerSeconds }),
    unchargedPayments: await sweepUnchargedPayments({ db, afterSeconds: retention.unchargedPaymentSeconds }),
    conversations: await sweepConversations({ db, afterSeconds: retention.deepResearchSeconds }),
    chatConversations: await sweepChatConversations({ db, afterSeconds: retention.chatConversationSeconds }),
    agentStatus: await sweepAgentStatus({ db }),
    walletHistory: await sweepWalletHistory({ db, afterSeconds: retention.historySeconds }),
    signIns: await sweepSignIns({ db }),
  };
}

/**
 * Deletes what a wallet's history kept of a request (its question and answer) `afterSeconds`
 * after it was paid for; the payment stays listed, saying its words are no longer kept. A row
 * its payer forgot holds nothing but that, and stays so the request is not listed again.
 */
async function sweepWalletHistory({ db, afterSeconds }: { db: Queryable; afterSeconds: number }): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM gateway.wallet_history WHERE forgotten_at IS NULL AND created_at < now() - make_interval(secs => $1)", [afterSeconds]);
  return rowCount ?? 0;
}

/**
 * Deletes spent sign-in nonces no proof could carry any more (past five minutes from their
 * challenge, when the proof is refused as too old anyway) and sign-in sessions that ended.
 */
async function sweepSignIns({ db }: { db: Queryable }): Promise<number> {
  const nonces = await db.query("DELETE FROM gateway.sign_in_nonces WHERE expires_at < now()");
  const sessions = await db.query("DELETE FROM gateway.sign_in_sessions WHERE expires_at < now()");
  return (nonces.rowCount ?? 0) + (sessions.rowCount ?? 0);
}

/**
 * The agent's answers before payment are asked again every few seconds while anyone asks; a row
 * not asked again for a day is an agent no longer configured (a changed UPSTREAM_API_URL).
 */
async function sweepAgentStatus({ db }: { db: Queryable }): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM gateway.agent_status WHERE read_at < now() - interval '1 day' AND lease_until < now()");
  return rowCount ?? 0;
}

/** A client's long-poll row whose every hold lapsed holds nothing (lib/gateway/private/long-polls.ts). */
async function sweepLongPolls({ db }: { db: Queryable }): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM gateway.long_polls l
      WHERE NOT EXISTS (SELECT 1 FROM jsonb_each(l.holders) h WHERE (h.value)::numeric > extract(epoch FROM now()))`,
  );
  return rowCount ?? 0;
}

/**
 * Clears the answers a final payment kept (the response and the work's answer: chat and literature
 * answers among them) once its authorization has been expired for `afterSeconds`: from then on no
 * retry of its signature is accepted (the local checks refuse an expired authorization before the
 * ledger is read), and a retry naming its payment-identifier is refused 409, never worked again
 * (lib/gateway/payments/paid-identifier.ts). What was paid, by whom and how stays.
 */
async function clearPaymentAnswers({ db, afterSeconds }: { db: Queryable; afterSeconds: number }): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE gateway.payments
        SET response_status = NULL, response_body = NULL, response_headers = NULL, work_status = NULL, work_body = NULL
      WHERE (response_status IS NOT NULL OR work_status IS NOT NULL)
        AND valid_before < extract(epoch FROM now()) - $1
        AND status IN ${FINAL_CHARGED_OR_NOT}`,
    [afterSeconds],
  );
  return rowCount ?? 0;
}

/**
 * Deletes payments that charged nothing (voided, expired, failed) once their authorization has been
 * expired for `afterSeconds`: the signature can no longer be used or settled, so the row guards
 * nothing. One that a settlement transaction of ours names (a transfer that reverted) is a chain
 * record and stays.
 */
async function sweepUnchargedPayments({ db, afterSeconds }: { db: Queryable; afterSeconds: number }): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM gateway.payments p
      WHERE p.status IN ${FINAL_UNCHARGED}
        AND p.valid_before < extract(epoch FROM now()) - $1
        AND NOT EXISTS (SELECT 1 FROM gateway.settlement_transactions t WHERE t.payment_id = p.id)`,
    [afterSeconds],
  );
  return rowCount ?? 0;
}

/** Deletes the status rows of finished deep-research conversations untouched for `afterSeconds`. */
async function sweepConversations({ db, afterSeconds }: { db: Queryable; afterSeconds: number }): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM gateway.deep_research_conversations
      WHERE status IN ('completed', 'failed', 'cancelled', 'timeout') AND updated_at < now() - make_interval(secs => $1)`,
    [afterSeconds],
  );
  return rowCount ?? 0;
}

/**
 * Deletes who started a chat conversation once it has been unused for `afterSeconds`: the agent
 * has forgotten the conversation by then (CHAT_CONVERSATION_RETENTION_SECONDS, the same variable),
 * and a follow-up is answered 404 either way.
 */
async function sweepChatConversations({ db, afterSeconds }: { db: Queryable; afterSeconds: number }): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM gateway.chat_conversations WHERE last_used_at < now() - make_interval(secs => $1)", [afterSeconds]);
  return rowCount ?? 0;
}
