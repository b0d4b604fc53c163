import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { createChainReader, type ChainReader } from "./chain";
import { createFacilitator, type PaymentFacilitator } from "./facilitator";

export type PaymentsContext = { facilitator: PaymentFacilitator; chain: ChainReader };

const globalForPayments = globalThis as unknown as { paymentsContext?: PaymentsContext };

/** The deployment's facilitator and chain reader, built once from configuration. */
export function getPaymentsContext(): PaymentsContext {
  if (!globalForPayments.paymentsContext) {
    const { payments } = getConfig();
    globalForPayments.paymentsContext = { facilitator: createFacilitator(payments, { getPool: getDb }), chain: createChainReader(payments) };
  }
  return globalForPayments.paymentsContext;
}
