import { log } from "@/lib/shared/log";
import type { JobHandler } from "../jobs/worker";
import { runLiteratureSearch, type EngineDeps } from "./engine";
import { NoSourceAnsweredError, unavailableJobFailure } from "./reach";
import { toLiteratureJobResult } from "./result";

/**
 * Runs a queued literature search. Questions are not logged unless LOG_QUESTIONS is on, and never
 * when the request carries `privacyMode` (the gateway forwards it for people who asked for it).
 */
export function createLiteratureJobHandler({ engine, logQuestions }: { engine: Omit<EngineDeps, "progress" | "signal">; logQuestions: boolean }): JobHandler<"literature"> {
  return async (job, { progress, signal }) => {
    const request = job.input;
    if (logQuestions && !request.privacyMode) log.info("literature job", { jobId: job.id, question: request.question, mode: request.mode });
    // Nothing reached: the job fails (the paid start waiting on it answers 503, nothing charged).
    const result = await runLiteratureSearch(request, { ...engine, requireReach: true, progress: (step, percent) => progress(step, percent, step), signal }).catch((err: unknown) => {
      throw err instanceof NoSourceAnsweredError ? unavailableJobFailure(err) : err;
    });
    return toLiteratureJobResult(result);
  };
}
