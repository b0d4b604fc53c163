import { z } from "zod";
import { queuedChatResultSchema } from "@/lib/shared/contracts/chat";
import { literatureJobResultSchema } from "@/lib/shared/contracts/literature";
import { responseRegistry } from "@/lib/shared/contracts/registry";

/**
 * A wallet's history (GET /api/history and /api/history/{id}): what a payer bought, found through
 * the payment ledger, listed and reopened once the payer signed in with the same wallet
 * (x402 sign-in-with-x). A sealed request is listed with its kind and time only.
 */

const HISTORY_KINDS = ["chat", "literature", "deepResearch"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** Largest page of GET /api/history, and its default. */
export const HISTORY_PAGE_MAX = 100;
export const HISTORY_PAGE_DEFAULT = 20;

/** What the gateway holds of a request's words: `kept`, `sealed` (never readable here), or `not_kept` (past retention, forgotten, or asked to stay out of logs). */
const HISTORY_CONTENT = ["kept", "sealed", "not_kept"] as const;

const historyItemSchema = z
  .object({
    id: z.uuid().describe("the payment's id: GET /api/history/{id} reopens it, DELETE forgets its question and answer"),
    kind: z.enum(HISTORY_KINDS),
    operation: z.string().describe("the paid operation (`chat`, `chatEncrypted`, `literature`, …)"),
    sealed: z.boolean().describe("a private-mode request: its question and answer are sealed to the enclave and the asker, never shown here"),
    createdAt: z.iso.datetime({ offset: true }).describe("when it was paid for"),
    price: z.string().describe("what was paid, in dollars"),
    paid: z.enum(["settled", "pending"]).describe("settled on chain, or still to settle (deep research settles when delivered)"),
    transaction: z.string().nullable().describe("the settlement's transaction hash, once settled"),
    content: z.enum(HISTORY_CONTENT),
    question: z.string().nullable().describe("the question, when `content` is `kept`; null otherwise"),
    conversationId: z.string().nullable().describe("the conversation a chat or deep-research turn belongs to (null when sealed)"),
    messageId: z.string().nullable().describe("the deep-research turn (null when sealed)"),
  })
  .register(responseRegistry, { id: "HistoryItem", description: "One paid request of the signed-in wallet" });
export type HistoryItem = z.infer<typeof historyItemSchema>;

export const historyPageSchema = z
  .object({
    address: z.string().describe("the wallet signed in, as its proof named it"),
    items: z.array(historyItemSchema).describe("newest first"),
    nextCursor: z.string().nullable().describe("pass as `cursor` for the next page; null on the last"),
  })
  .register(responseRegistry, { id: "HistoryPage", description: "A page of the signed-in wallet's paid requests, newest first" });
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** What reopening a result gives back. */
const historyAnswerSchema = z.discriminatedUnion("status", [
  z
    .object({
      status: z.literal("completed"),
      result: z.union([queuedChatResultSchema, literatureJobResultSchema]).describe("a chat's answer (its QueuedChatResult, as its status route gave it), a literature search's LiteratureJobResult"),
    })
    .describe("the answer bought"),
  z.object({ status: z.literal("running"), pollUrl: z.url().describe("its free status route") }).describe("still being answered"),
  z.object({ status: z.literal("failed"), error: z.string() }).describe("it ended without an answer"),
  z
    .object({ status: z.literal("in_conversation"), pollUrl: z.url().describe("GET /api/deep-research/{conversationId}: the turn's reply, once settled") })
    .describe("a deep-research turn: read in its conversation"),
  z.object({ status: z.literal("not_kept") }).describe("the answer is no longer kept (past retention, forgotten, or never kept)"),
  z.object({ status: z.literal("sealed") }).describe("a sealed request: only its asker can read its answer, with the key that sealed it"),
]);

export const historyEntrySchema = historyItemSchema
  .extend({ answer: historyAnswerSchema })
  .register(responseRegistry, { id: "HistoryEntry", description: "One paid request of the signed-in wallet, reopened with what it bought" });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const signInSessionSchema = z
  .object({
    address: z.string().describe("the wallet signed in"),
    expiresAt: z.iso.datetime({ offset: true }).describe("when the session ends"),
  })
  .register(responseRegistry, { id: "SignInSession", description: "A browser's sign-in: the session cookie it was given reads this wallet's history until then" });
export type SignInSession = z.infer<typeof signInSessionSchema>;
