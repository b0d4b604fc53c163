import { randomUUID } from "node:crypto";
import { z } from "zod";
import { encryptedChatPlaintextSchema, literatureQueryRequestSchema } from "@/lib/shared/contracts";
import type { Queryable } from "@/lib/shared/db";
import { nativePrimitives } from "@/lib/shared/sealing/native";
import { decryptAtRest, deriveRecoveryKeys, encryptAtRest } from "@/lib/shared/sealing/recovery";
import { composeChatResult } from "../chat/compose";
import type { LlmSettings } from "../chat/llm";
import { applyModelWriter } from "../chat/model-writer";
import { JobFailure, type JobHandler } from "../jobs/worker";
import { runLiteratureSearch, type EngineDeps } from "../literature/engine";
import type { LiteratureSource } from "../literature/sources/types";
import type { EnclaveKey } from "./enclave-key";
import { openEnvelopeInJob, sealTo } from "./envelope";

/** What a private conversation keeps, encrypted under its recovery key: read back with this schema (a ZodError if it is not that). */
const privateConversationSchema = z.object({ id: z.string(), turns: z.array(z.object({ message: z.string(), answer: z.string() })) });
type PrivateConversation = z.infer<typeof privateConversationSchema>;

/**
 * Private chat, inside the enclave: the job row holds only the client's envelope (ciphertext);
 * the worker opens it, answers from the local library alone (no external literature call: the
 * engine is given no other source and no registry lookups) with the extractive writer or the
 * private model, keeps a persistent conversation encrypted under the recovery key, and stores only
 * the answer sealed to the request's ephemeral key. Failures say what failed, never what was asked.
 */
export function createPrivateChatHandler({
  db,
  enclaveKey,
  localLibrary,
  llm,
}: {
  db: Queryable;
  enclaveKey: () => Promise<EnclaveKey>;
  localLibrary: LiteratureSource | undefined;
  llm: LlmSettings | null;
}): JobHandler<"private_chat"> {
  const engine: Omit<EngineDeps, "progress" | "signal"> = { sources: localLibrary ? { local: localLibrary } : {} };
  return async (job, { progress, signal }) => {
    const { envelope } = job.input;
    const opened = await openEnvelopeInJob(enclaveKey, envelope, encryptedChatPlaintextSchema, "chat request");
    const { message, recoveryKey, attachments, conversationId } = opened.plaintext;
    try {
      const stored = recoveryKey ? await loadConversation(db, recoveryKey) : null;
      const conversation: PrivateConversation = stored ?? { id: conversationId ?? randomUUID(), turns: [] };
      const context = [...conversation.turns.slice(-2).map((t) => t.message), message, ...(attachments ?? []).map((a) => a.text.slice(0, 2000))].join(" ").slice(-8000);
      await progress("literature", 20);
      const literature = await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: context, includeRejected: true }), { ...engine, includeAbstracts: true, signal });
      await progress("thinking", 80);
      const extractive = composeChatResult({ question: message, literature, conversationId: conversation.id, messageId: job.id });
      const result = llm ? await applyModelWriter(extractive, { settings: llm, question: message, signal }) : extractive;
      if (recoveryKey) {
        conversation.turns.push({ message, answer: result.answer });
        await saveConversation(db, recoveryKey, conversation);
      }
      return sealTo(opened.replyTo, result);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new JobFailure("The private answer could not be produced");
    }
  };
}

async function loadConversation(db: Queryable, recoveryKey: string): Promise<PrivateConversation | null> {
  const { lookupId, storageKey } = deriveRecoveryKeys(nativePrimitives, recoveryKey);
  const { rows } = await db.query<{ sealed: string }>("SELECT sealed FROM agent.private_conversations WHERE lookup_id = $1", [lookupId]);
  return rows[0] ? privateConversationSchema.parse(decryptAtRest(nativePrimitives, storageKey, rows[0].sealed)) : null;
}

async function saveConversation(db: Queryable, recoveryKey: string, conversation: PrivateConversation): Promise<void> {
  const { lookupId, storageKey } = deriveRecoveryKeys(nativePrimitives, recoveryKey);
  await db.query(
    `INSERT INTO agent.private_conversations (lookup_id, sealed) VALUES ($1, $2)
     ON CONFLICT (lookup_id) DO UPDATE SET sealed = EXCLUDED.sealed, updated_at = now()`,
    [lookupId, encryptAtRest(nativePrimitives, storageKey, conversation)],
  );
}
