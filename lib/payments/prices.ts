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
};

export const PAID_OPERATIONS: readonly PaidOperation[] = [
  { id: "deepResearch", method: "POST", path: "/api/deep-research/start", summary: "Start deep research", price: "$1.00", amount: "1000000" },
  { id: "deepResearchEncrypted", method: "POST", path: "/api/deep-research/encrypted", summary: "Start encrypted deep research", price: "$1.00", amount: "1000000" },
  { id: "chat", method: "POST", path: "/api/chat", summary: "Start chat", price: "$0.02", amount: "20000" },
  { id: "chatEncrypted", method: "POST", path: "/api/chat/encrypted", summary: "Start encrypted chat", price: "$0.02", amount: "20000" },
  { id: "literature", method: "POST", path: "/api/literature", summary: "Start literature search", price: "$0.03", amount: "30000" },
  { id: "literatureEncrypted", method: "POST", path: "/api/literature/encrypted", summary: "Start encrypted literature search", price: "$0.03", amount: "30000" },
];

/** The price of one operation. Throws when the id is unknown (a programming error). */
export function getPaidOperation(id: PaidOperation["id"]): PaidOperation {
  const op = PAID_OPERATIONS.find((o) => o.id === id);
  if (!op) throw new Error(`Unknown paid operation ${id}`);
  return op;
}

/** `{ "POST /api/chat": "$0.02", ... }`: the pricing object of the health report. */
export function pricingByRoute(): Record<string, string> {
  return Object.fromEntries(PAID_OPERATIONS.map((o) => [`${o.method} ${o.path}`, o.price]));
}
