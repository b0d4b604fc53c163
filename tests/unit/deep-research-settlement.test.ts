import { describe, expect, it } from "vitest";
import { deepResearchConversationSchema } from "@/lib/shared/contracts";
import { presentConversation } from "@/lib/gateway/deep-research/reconcile";
import { settlementOf } from "@/lib/gateway/deep-research/receipts";
import type { PaymentRow, PaymentStatus } from "@/lib/gateway/payments/ledger";
import { buildConversation } from "../support/builders";

const PAYER = "0x2568de777750ac9a2e0ff6c0de007bd169ebbfd0"; // as the ledger keeps it: lower case
const TX = `0x${"12".repeat(32)}`;
/** A signed receipt as the ledger keeps it (lib/gateway/deep-research/receipts.ts); its signature is not what presentation reads. */
const RECEIPT = {
  format: "eip712" as const,
  payload: { version: 1 as const, network: "eip155:8453", resourceUrl: "https://gateway.test/api/deep-research/start", payer: "0x2568dE777750aC9a2E0ff6c0DE007BD169ebbFd0", issuedAt: 1, transaction: TX },
  signature: `0x${"ab".repeat(65)}`,
};

/** A deep-research payment row as the ledger returns it; only the fields presentation reads matter. */
function buildPaymentRow(overrides: Partial<PaymentRow> = {}): PaymentRow {
  return {
    id: "5d0f6a3e-0000-4000-8000-000000000001",
    network: "eip155:8453",
    asset: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
    payer: PAYER,
    nonce: `0x${"00".repeat(32)}`,
    signature: "0x",
    operation: "deepResearch",
    route: "POST /api/deep-research/start",
    amount: "1000000",
    requestDigest: "digest",
    paymentId: null,
    payload: {} as PaymentRow["payload"],
    requirements: {} as PaymentRow["requirements"],
    validAfter: 0,
    validBefore: 2_000_000_000,
    status: "settled",
    settleStartedAt: null,
    settleAttempts: 1,
    txHash: TX,
    failureReason: null,
    failureMessage: null,
    upstreamJobId: null,
    conversationId: buildConversation().conversationId,
    messageId: "m-1",
    response: null,
    work: null,
    outcomeUnknownSince: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    settledAt: new Date(0),
    signedReceipt: RECEIPT,
    ...overrides,
  };
}

describe("a deep-research turn's settlement", () => {
  it("is shown on a settled turn: its transaction, network, checksummed payer and signed receipt, in the contract's schema", () => {
    const presented = presentConversation(buildConversation(), [buildPaymentRow()]);
    expect(presented.turns?.[0]?.settlement).toEqual({ transaction: TX, network: "eip155:8453", payer: "0x2568dE777750aC9a2E0ff6c0DE007BD169ebbFd0", receipt: RECEIPT });
    expect(deepResearchConversationSchema.parse(presented)).toEqual(presented);
  });

  it.each<PaymentStatus>(["scheduled", "settling", "failed", "voided", "expired"])("is never shown for a %s payment, even with a broadcast hash", (status) => {
    const payment = buildPaymentRow({ status });
    expect(settlementOf(payment)).toBeNull();
    const presented = presentConversation(buildConversation(), [payment]);
    expect(presented.turns?.[0]?.settlement).toBeUndefined();
    expect(JSON.stringify(presented)).not.toContain(TX);
  });

  it("is the ledger's, never the agent's: a settlement the agent sends is replaced on a paid turn and dropped on an unpaid one", () => {
    const forged = { transaction: `0x${"ff".repeat(32)}`, network: "eip155:8453", payer: PAYER, receipt: { ...RECEIPT, payload: { ...RECEIPT.payload, transaction: `0x${"ff".repeat(32)}` } } };
    const conversation = buildConversation({
      turns: [
        { ...buildConversation().turns![0]!, settlement: forged },
        { messageId: "m-2", objective: "next", reply: "unpaid", citations: [], status: "completed", isFinal: true, settlement: forged },
      ],
    });
    const presented = presentConversation(conversation, [buildPaymentRow(), buildPaymentRow({ id: "5d0f6a3e-0000-4000-8000-000000000002", messageId: "m-2", status: "settling" })]);
    expect(presented.turns?.[0]?.settlement?.transaction).toBe(TX);
    expect(presented.turns?.[1]?.settlement).toBeUndefined();
    expect(JSON.stringify(presented)).not.toContain(forged.transaction);
  });
});
