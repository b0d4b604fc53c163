import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { erc20Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deepResearchConversationSchema, type DeepResearchConversation } from "@/lib/contracts";
import { getDb } from "@/lib/db";
import { startDeepResearchDouble, type DeepResearchDouble } from "../support/agent-double";
import { createTestDatabase } from "../support/database";
import { configureGateway } from "../support/gateway";
import { chain, chainClients, drainWallet, freshAddress, fundedPayer, signPayment, usdcBalance, wallet } from "../support/payments";
import { postJson, routeFetch } from "../support/routes";

/**
 * Deep research is settled after its work (issue 24, item 3). An attack on that: a stranger's turn
 * in someone else's conversation.
 */

const PUBLIC_URL = "https://gateway.test";
const START_URL = `${PUBLIC_URL}/api/deep-research/start`;
const PRICE = 1_000_000n;
/** Funds this file's payers; no other file pays with it. */
const FUNDER = () => wallet(68).privateKey;

describe("deep research under attack", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let agent: DeepResearchDouble;
  let restore: () => Promise<void>;
  const payTo = freshAddress();
  let requirements: PaymentRequirements;
  const env = () => ({
    POSTGRES_URL: database.url,
    UPSTREAM_API_URL: agent.url,
    PUBLIC_URL,
    RPC_URL: chain().rpcUrl,
    PAY_TO_ADDRESS: payTo,
    AGENT_SERVICE_KEY: "service-key-for-tests-0123",
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    agent = await startDeepResearchDouble();
    restore = await configureGateway(env());
    requirements = decodePaymentRequiredHeader((await postJson(START_URL, { message: "q" })).headers.get("payment-required")!).accepts[0]!;
  });
  afterAll(async () => {
    await restore();
    await agent.close();
    await database.drop();
  });

  const agentStarts = () => agent.requests.filter((r) => r.method === "POST" && r.path === "/api/deep-research/start").length;
  const payer = (dollars: number) => fundedPayer({ usdc: BigInt(dollars) * PRICE, from: FUNDER() });

  /** A signed start: the response and, when accepted, its ids. */
  async function startTurn(privateKey: Hex, body: { message: string; conversationId?: string }, headers: Record<string, string> = {}) {
    const { header } = await signPayment({ privateKey, requirements });
    return sendStart(header, body, headers);
  }
  async function sendStart(header: string, body: { message: string; conversationId?: string }, headers: Record<string, string> = {}) {
    const response = await postJson(START_URL, body, { "payment-signature": header, ...headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as Record<string, unknown> & { messageId: string; conversationId: string } };
  }
  async function poll(conversationId: string): Promise<DeepResearchConversation> {
    const response = await routeFetch(`${PUBLIC_URL}/api/deep-research/${conversationId}`);
    expect(response.status).toBe(200);
    return deepResearchConversationSchema.parse(await response.json());
  }
  async function paymentStatus(messageId: string): Promise<string | undefined> {
    const { rows } = await (await getDb()).query("SELECT status FROM gateway.payments WHERE message_id = $1", [messageId]);
    return rows[0]?.status as string | undefined;
  }
  /** Moves `dollars` more to `privateKey`'s address. */
  async function fund(privateKey: Hex, dollars: number): Promise<void> {
    const { publicClient, walletFor } = chainClients();
    const to = privateKeyToAccount(privateKey).address;
    const hash = await walletFor(FUNDER()).writeContract({ address: chain().asset as Hex, abi: erc20Abi, functionName: "transfer", args: [to, BigInt(dollars) * PRICE] });
    await publicClient.waitForTransactionReceipt({ hash });
  }

  describe("whose conversation", () => {
    it("a payer cannot continue another payer's conversation: 404 as if unknown, charged: false, nothing reaches the agent; the owner goes on", async () => {
      const before = await usdcBalance(payTo);
      const owner = await payer(2);
      const first = await startTurn(owner, { message: "the owner's question" });
      agent.finish(first.body.messageId);
      expect((await poll(first.body.conversationId)).status).toBe("completed");

      const startsBefore = agentStarts();
      const stranger = await payer(1);
      const foreign = await startTurn(stranger, { message: "a stranger's turn", conversationId: first.body.conversationId });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ reason: "not_found", charged: false });
      expect(agentStarts()).toBe(startsBefore);
      const unknown = await startTurn(stranger, { message: "a conversation nobody started", conversationId: "5d0f0a3e-1111-4aaa-8bbb-0123456789ab" });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(foreign.body);

      const second = await startTurn(owner, { message: "the owner's follow-up", conversationId: first.body.conversationId });
      expect(second.status).toBe(202);
      agent.finish(second.body.messageId);
      const conversation = await poll(first.body.conversationId);
      expect(conversation.status).toBe("completed");
      expect(conversation.turns?.map((t) => Boolean(t.reply))).toEqual([true, true]);
      expect((await usdcBalance(payTo)) - before).toBe(2n * PRICE);
    });

    it("a conversation's status is its latest turn's: an earlier turn whose payment failed never makes a later paid turn read failed", async () => {
      const owner = await payer(1);
      const first = await startTurn(owner, { message: "a turn whose payment will fail" });
      await drainWallet(owner);
      agent.finish(first.body.messageId);
      expect((await poll(first.body.conversationId)).status).toBe("failed");

      await fund(owner, 1);
      const second = await startTurn(owner, { message: "a paid follow-up", conversationId: first.body.conversationId });
      expect(second.status).toBe(202);
      agent.finish(second.body.messageId);
      const conversation = await poll(first.body.conversationId);
      expect(await paymentStatus(second.body.messageId)).toBe("settled");
      expect(conversation.status).toBe("completed");
      expect(conversation.turns?.map((t) => t.status)).toEqual(["failed", "completed"]);
      expect(conversation.turns?.map((t) => Boolean(t.reply))).toEqual([false, true]);
      expect(conversation.turns?.[1]?.settlement).toBeTruthy();
    });
  });

});
