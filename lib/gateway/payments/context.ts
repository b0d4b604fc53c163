import { getConfig } from "@/lib/gateway/config";
import { getDb } from "@/lib/gateway/db";
import { createChainReader, type ChainReader } from "@/lib/gateway/payments/chain";
import { createFacilitator, type PaymentFacilitator } from "@/lib/gateway/payments/facilitator";

export type PaymentsContext = { facilitator: PaymentFacilitator; chain: ChainReader };

declare global {
  // Module state on globalThis survives hot reload (a `var` is how a global is declared).
  var paymentsContext: PaymentsContext | undefined;
}
const globalForPayments = globalThis;

/** The deployment's facilitator and chain reader, built once from configuration. */
export function getPaymentsContext(): PaymentsContext {
  if (!globalForPayments.paymentsContext) {
    const { payments } = getConfig();
    globalForPayments.paymentsContext = { facilitator: createFacilitator(payments, { getPool: getDb }), chain: createChainReader(payments) };
  }
  return globalForPayments.paymentsContext;
}
