import { chat } from "@/lib/shared/operations/chat";
import { chatEncrypted } from "@/lib/shared/operations/chat-encrypted";
import { deepResearch } from "@/lib/shared/operations/deep-research";
import { deepResearchEncrypted } from "@/lib/shared/operations/deep-research-encrypted";
import { literature } from "@/lib/shared/operations/literature";
import { literatureEncrypted } from "@/lib/shared/operations/literature-encrypted";
import { formatUsd } from "@/lib/shared/contracts/money";
import type { PaidOperationDefinition } from "@/lib/shared/operations/types";

/**
 * Every paid operation of the service, each defined whole in its own file (route, price, bodies,
 * polling, OpenAPI text, MCP tools). Everything that lists, prices or describes the paid routes
 * reads this registry: to add an operation, write its definition, add it here, and write its
 * route handler and the agent's side (README.md, "Adding a paid operation").
 */
const DEFINITIONS = [deepResearch, deepResearchEncrypted, chat, chatEncrypted, literature, literatureEncrypted] as const;

export type PaidOperationId = (typeof DEFINITIONS)[number]["id"];
/** An operation of the registry, its body schema left general, with its price rendered from `amount` ("$0.02"). */
export type PaidOperation = PaidOperationDefinition<PaidOperationId> & { price: string };

export const PAID_OPERATIONS: readonly PaidOperation[] = DEFINITIONS.map((d) => ({ ...d, price: formatUsd(BigInt(d.amount)) }));

export type { PaidOperationDefinition } from "@/lib/shared/operations/types";

/** The operation `id`. Throws when the id is unknown (a programming error). */
export function getPaidOperation(id: PaidOperationId): PaidOperation {
  const op = PAID_OPERATIONS.find((o) => o.id === id);
  if (!op) throw new Error(`Unknown paid operation ${id}`);
  return op;
}

/**
 * The largest body a paid route reads, given the deployment's MAX_BODY_BYTES: what the route
 * enforces (lib/gateway/payments/paid-route.ts) and the OpenAPI document states.
 */
export function paidBodyLimit(op: Pick<PaidOperation, "maxBodyBytes">, maxBodyBytes: number): number {
  return Math.max(op.maxBodyBytes ?? 0, maxBodyBytes);
}

/** `{ "POST /api/chat": "$0.02", ... }`: the pricing object of the health report. */
export function pricingByRoute(): Record<string, string> {
  return Object.fromEntries(PAID_OPERATIONS.map((o) => [`${o.method} ${o.path}`, o.price]));
}
