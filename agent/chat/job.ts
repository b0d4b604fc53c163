import { randomUUID } from "node:crypto";
import { literatureQueryRequestSchema } from "@/lib/contracts";
import type { Queryable } from "@/lib/db";
import type { JobHandler } from "../jobs/worker";
import { runLiteratureSearch, type EngineDeps } from "../literature/engine";
import { NoSourceAnsweredError, unavailableJobFailure, withChatSourceFailures } from "../literature/reach";
import { composeChatResult } from "./compose";
import { getRecentChatQuestions, recordChatTurn } from "./conversations";
import type { LlmSettings } from "./llm";
import { applyModelWriter } from "./model-writer";

/** Engine stages as the chat API names them (section 6 names `literature` and `thinking`). */
export const STAGES: Record<string, { stage: string; percent: number }> = {
  searching: { stage: "literature", percent: 15 },
  filtering: { stage: "literature", percent: 45 },
  grading: { stage: "literature", percent: 65 },
  answering: { stage: "thinking", percent: 85 },
};

/**
 * Answers a chat message: a fast-mode literature search (in the light of the conversation's
 * earlier turns in variant A), then the cited answer. The QueuedChatResult adds `responseTime`,
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
    const earlier = input.conversationId ? await getRecentChatQuestions({ db, conversationId: input.conversationId, count: 2 }) : [];
    // A follow-up such as "and in humans?" is searched together with what it follows.
    const retrievalQuestion = [...earlier, input.message].join(" ").slice(-8000);
    await progress("literature", 5);
    // Every source failing with nothing found fails the job: a paid start waiting on it answers
    // 503 and is not charged (agent/routes/chat.ts); the free API says why in `error`.
    const literature = await runLiteratureSearch(
      literatureQueryRequestSchema.parse({ question: retrievalQuestion, mode: "fast", includeRejected: true }),
      {
        ...engine,
        includeAbstracts: true,
        requireReach: true,
        signal,
        progress: async (stage) => {
          const mapped = STAGES[stage];
          if (mapped) await progress(mapped.stage, mapped.percent);
        },
      },
    ).catch((err: unknown) => {
      throw err instanceof NoSourceAnsweredError ? unavailableJobFailure(err) : err;
    });
    const conversationId = input.conversationId ?? randomUUID();
    const extractive = composeChatResult({ question: input.message, literature, conversationId, messageId: job.id });
    const written = llm ? await applyModelWriter(extractive, { settings: llm, question: input.message, signal }) : extractive;
    const result = withChatSourceFailures(written, literature);
    if (input.conversationId) await recordChatTurn({ db, requestId: job.id, conversationId: input.conversationId, message: input.message, answer: result.answer });
    return { ...result, responseTime: Math.max(0, Date.now() - job.createdAt.getTime()) };
  };
}
