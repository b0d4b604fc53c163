import { formatUnits } from "viem";
import type { Queryable } from "@/lib/shared/db";
import { withTransaction } from "@/lib/shared/db/transaction";
import type { ChainReader } from "@/lib/gateway/payments/chain";
import type { PaymentRow } from "@/lib/gateway/payments/ledger";

/**
 * What a payer has outstanding (issue 24). Deep research is settled after its work, so each
 * authorization alone being fundable proves nothing: one dollar could start five turns and then
 * move away. A deferred payment is admitted only while the payer's balance, read on chain, covers
 * every deferred amount it has not settled yet plus this one, and while the payer and the client
 * address each have fewer unsettled turns than their bound. The admitted payment holds its amount
 * and its places (`held_for_client`) for as long as it may still be settled (OUTSTANDING); once
 * it is settled, voided, expired or failed it holds nothing. Payments of one payer, and of one
 * client, are admitted one at a time across every gateway process (a transaction-scoped advisory
 * lock on each), and the sum is read before the balance, so a settlement landing in between is
 * counted twice (refusing a turn that would have fitted), never not at all.
 */

/** The ledger statuses in which a deferred payment may still be settled: what it holds counts. */
const OUTSTANDING = ["received", "verified", "scheduled", "settling"];

/** What a client refused for too many unsettled turns is told to wait: deep research is polled every 10 s and runs for minutes. */
export const UNSETTLED_TURNS_RETRY_AFTER_SECONDS = 60;

export type DeferredBounds = { maxPerPayer: number; maxPerClient: number };

/** Whether a deferred payment was admitted, and why not. */
export type HoldVerdict =
  | { kind: "held" }
  /** The balance does not cover this amount beside what is outstanding: the payer's refusal (402). */
  | { kind: "insufficient_funds"; message: string }
  /** The payer or the client address has its bound of unsettled turns (429, uncharged). */
  | { kind: "too_many_unsettled"; message: string }
  /** The balance could not be read on chain: nothing was admitted (503, never a pass). */
  | { kind: "unavailable"; message: string };

/**
 * Admits `payment` (a claimed deferred payment) for `client`, or says why not. A payment that held
 * before (the same signature sent again) is admitted afresh, not counted against itself.
 * @throws the database's error
 */
export async function holdDeferredPayment({
  db,
  chain,
  payment,
  client,
  bounds,
}: {
  db: Queryable;
  chain: Pick<ChainReader, "tokenBalance">;
  payment: Pick<PaymentRow, "id" | "payer" | "asset" | "amount">;
  /** lib/shared/http/client-address.ts's key of the request, or `payer:<address>` where none can be trusted. */
  client: string;
  bounds: DeferredBounds;
}): Promise<HoldVerdict> {
  const payer = payment.payer.toLowerCase();
  return withTransaction(db, async (tx) => {
    // Payer first, then client, in every process: two admissions never wait on each other in a cycle.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('deferred-hold'), hashtext($1))", [`payer:${payer}`]);
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('deferred-hold'), hashtext($1))", [`client:${client}`]);
    const { rows } = await tx.query<{ payer_turns: number; payer_amount: string; client_turns: number }>(
      `SELECT count(*) FILTER (WHERE payer = $1)::int AS payer_turns,
              coalesce(sum(amount) FILTER (WHERE payer = $1), 0)::text AS payer_amount,
              count(*) FILTER (WHERE held_for_client = $2)::int AS client_turns
         FROM gateway.payments
        WHERE held_for_client IS NOT NULL AND status = ANY($4::text[]) AND (payer = $1 OR held_for_client = $2) AND id <> $3`,
      [payer, client, payment.id, OUTSTANDING],
    );
    const held = rows[0] ?? { payer_turns: 0, payer_amount: "0", client_turns: 0 };
    if (held.payer_turns >= bounds.maxPerPayer) {
      return { kind: "too_many_unsettled", message: `This payer has ${held.payer_turns} deep-research turns not yet settled, the most it may have at once; start another once one has finished` };
    }
    if (held.client_turns >= bounds.maxPerClient) {
      return { kind: "too_many_unsettled", message: `This client address has ${held.client_turns} deep-research turns not yet settled, the most it may have at once; start another once one has finished` };
    }
    let balance: bigint;
    try {
      balance = await chain.tokenBalance(payment.asset, payer);
    } catch (err) {
      return { kind: "unavailable", message: `the payer's balance could not be read on chain: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
    }
    const outstanding = BigInt(held.payer_amount);
    if (outstanding + BigInt(payment.amount) > balance) {
      const message =
        held.payer_turns === 0
          ? `The payer's balance (${dollars(balance)}) is below the price (${dollars(BigInt(payment.amount))})`
          : `The payer's balance (${dollars(balance)}) does not cover this turn (${dollars(BigInt(payment.amount))}) beside its ${held.payer_turns} deep-research turns not yet settled (${dollars(outstanding)}); start it once they have settled, or with more funds`;
      return { kind: "insufficient_funds", message };
    }
    await tx.query("UPDATE gateway.payments SET held_for_client = $2 WHERE id = $1", [payment.id, client]);
    return { kind: "held" };
  });
}

/** Token base units (6 decimals, lib/gateway/payments/prices.ts) as dollars. */
function dollars(units: bigint): string {
  return `$${Number(formatUnits(units, 6)).toFixed(2)}`;
}
