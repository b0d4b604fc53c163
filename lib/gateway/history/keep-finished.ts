import "server-only";
import { getDb } from "@/lib/gateway/db";
import { log } from "@/lib/shared/log";
import type { PaidOperation } from "@/lib/shared/operations";
import { keepResult } from "@/lib/gateway/history/record";

/**
 * A status route saw a job's final answer: kept for its payer's history (record.ts), so it can be
 * reopened after the agent forgets the job. The poll is answered whatever happens here: a
 * database that cannot be reached costs the history this chance, not the client its answer.
 */
export async function keepFinishedResult({ operation, upstreamJobId, result }: { operation: PaidOperation["id"]; upstreamJobId: string; result: unknown }): Promise<void> {
  try {
    await keepResult({ db: await getDb(), operation, upstreamJobId, result });
  } catch (err) {
    log.warn("a finished answer could not be kept for its payer's history", { operation, error: err });
  }
}
