import { PRIVATE_ENVELOPE_MAX_BYTES } from "@/lib/contracts/limits";

/**
 * The contract's fixed prices (section 1). Amounts are in the payment token's base units
 * (6 decimals: 1000000 = $1.00). This table is the single source of every price the service
 * shows: the 402 requirements, the OpenAPI pricing metadata, the health report and the UI.
 */
export type PaidOperation = {
  id: "deepResearch" | "deepResearchEncrypted" | "chat" | "chatEncrypted" | "literature" | "literatureEncrypted";
  method: "POST";
  path: string;
  summary: string;
  /** Display price, the `price` string of the pricing metadata. */
  price: string;
  /** Token base units, 6 decimals. */
  amount: string;
  /** x402 `maxTimeoutSeconds`: how long the authorization asked for stays valid. */
  maxTimeoutSeconds: number;
  /**
   * The shortest remaining validity accepted: chat and literature settle within seconds; deep
   * research settles when its run has finished, so it needs the run budget plus a margin.
   */
  minRemainingSeconds: number;
  /** When the payment is settled: before the 202 (`immediate`) or when the work finished (`deferred`). */
  settlement: "immediate" | "deferred";
  /** A larger body limit than MAX_BODY_BYTES (sealed chat envelopes carry attachments). */
  maxBodyBytes?: number;
};

/** Seconds a deep-research turn may run; its authorization must outlive this plus settlement. */
export const DEEP_RESEARCH_RUN_BUDGET_SECONDS = 1800;

const chatLike = { maxTimeoutSeconds: 300, minRemainingSeconds: 60, settlement: "immediate" } as const;
const deepResearch = {
  maxTimeoutSeconds: 3600,
  minRemainingSeconds: DEEP_RESEARCH_RUN_BUDGET_SECONDS + 300,
  settlement: "deferred",
} as const;

export const PAID_OPERATIONS: readonly PaidOperation[] = [
  { id: "deepResearch", method: "POST", path: "/api/deep-research/start", summary: "Start deep research", price: "$1.00", amount: "1000000", ...deepResearch },
  { id: "deepResearchEncrypted", method: "POST", path: "/api/deep-research/encrypted", summary: "Start encrypted deep research", price: "$1.00", amount: "1000000", ...deepResearch },
  { id: "chat", method: "POST", path: "/api/chat", summary: "Start chat", price: "$0.02", amount: "20000", ...chatLike },
  // Encrypted chat may answer synchronously; its authorization is valid up to 10 minutes (section 5).
  { id: "chatEncrypted", method: "POST", path: "/api/chat/encrypted", summary: "Start encrypted chat", price: "$0.02", amount: "20000", ...chatLike, maxTimeoutSeconds: 600, maxBodyBytes: PRIVATE_ENVELOPE_MAX_BYTES },
  { id: "literature", method: "POST", path: "/api/literature", summary: "Start literature search", price: "$0.03", amount: "30000", ...chatLike },
  { id: "literatureEncrypted", method: "POST", path: "/api/literature/encrypted", summary: "Start encrypted literature search", price: "$0.03", amount: "30000", ...chatLike },
];

/** The price of one operation. Throws when the id is unknown (a programming error). */
export function getPaidOperation(id: PaidOperation["id"]): PaidOperation {
  const op = PAID_OPERATIONS.find((o) => o.id === id);
  if (!op) throw new Error(`Unknown paid operation ${id}`);
  return op;
}

/**
 * The largest body a paid route reads, given the deployment's MAX_BODY_BYTES: what the route
 * enforces (lib/payments/paid-route.ts) and the OpenAPI document states.
 */
export function paidBodyLimit(op: PaidOperation, maxBodyBytes: number): number {
  return Math.max(op.maxBodyBytes ?? 0, maxBodyBytes);
}

/** `{ "POST /api/chat": "$0.02", ... }`: the pricing object of the health report. */
export function pricingByRoute(): Record<string, string> {
  return Object.fromEntries(PAID_OPERATIONS.map((o) => [`${o.method} ${o.path}`, o.price]));
}
