import { randomUUID } from "node:crypto";
import { literatureQueryRequestSchema, type EngineStep } from "@/lib/shared/contracts";
import { MAX_QUESTION_CHARS } from "@/lib/shared/contracts/limits";
import type { Queryable } from "@/lib/shared/db";
import type { JobHandler } from "../jobs/worker";
import { runLiteratureSearch, type EngineDeps } from "../literature/engine";
import { NoSourceAnsweredError, unavailableJobFailure, withChatSourceFailures } from "../literature/reach";
import { composeChatResult } from "./compose";
import { getRecentChatQuestions, recordChatTurn } from "./conversations";
import { decideFollowUp } from "./follow-up";
import { withReading } from "./follow-up-note";
import type { LlmSettings } from "./llm";
import { applyModelWriter } from "./model-writer";

/** Engine steps as the chat API names its stages (section 6 names `literature` and `thinking`); the step itself travels beside them. */
const STAGES: Record<EngineStep, { stage: string; percent: number }> = {
  searching: { stage: "literature", percent: 15 },
  filtering: { stage: "literature", percent: 45 },
  grading: { stage: "literature", percent: 65 },
  answering: { stage: "thinking", percent: 85 },
};

/**
 * How many of a conversation's latest questions a message is read against: enough for a chain of
 * follow-ups to keep the subject it started with (agent/chat/follow-up.ts).
 */
const EARLIER_TURNS = 6;

/**
 * Answers a chat message: a fast-mode literature search (in variant A, of the message as read
 * against the conversation's earlier questions: a follow-up with their subject, a new topic alone),
 * then the cited answer. The QueuedChatResult adds `responseTime`,
 * the time from submission to the answer.
 */
export function createChatJobHandler({
  engine,
  db,
  llm = null,
}: {
  engine: Omit<EngineDeps, "progress" | "signal">;
  db: Queryable;
  llm?: LlmSettings | null;
}): JobHandler<"chat"> {
  return async (job, { progress, signal }) => {
    const { input } = job;
    const earlier = input.conversationId ? await getRecentChatQuestions({ db, conversationId: input.conversationId, count: EARLIER_TURNS }) : [];
    // "And in women?" is searched and judged as the earlier question in women; a message that names
    // its own subject on its own words only, never against the earlier question.
    const reading = decideFollowUp({ earlier, message: input.message });
    const question = reading.question.slice(-MAX_QUESTION_CHARS);
    await progress("literature", 5);
    // Every source failing with nothing found fails the job: a paid start waiting on it answers
    // 503 and is not charged (agent/routes/chat.ts); the free API says why in `error`.
    const literature = await runLiteratureSearch(
      literatureQueryRequestSchema.parse({ question, mode: "fast", includeRejected: true }),
      {
        ...engine,
        includeAbstracts: true,
        requireReach: true,
        signal,
        progress: async (step) => {
          const { stage, percent } = STAGES[step];
          await progress(stage, percent, step);
        },
      },
    ).catch((err: unknown) => {
      throw err instanceof NoSourceAnsweredError ? unavailableJobFailure(err) : err;
    });
    const conversationId = input.conversationId ?? randomUUID();
    const extractive = composeChatResult({ question, literature, conversationId, messageId: job.id });
    const written = llm ? await applyModelWriter(extractive, { settings: llm, question, signal }) : extractive;
    const result = withReading(withChatSourceFailures(written, literature), earlier.length > 0 ? reading : null);
    if (input.conversationId) await recordChatTurn({ db, requestId: job.id, conversationId: input.conversationId, message: input.message, answer: result.answer });
    return { ...result, responseTime: Math.max(0, Date.now() - job.createdAt.getTime()) };
  };
}
