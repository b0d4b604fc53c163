import type { FailedSource } from "@/lib/shared/contracts";
import { NO_SOURCE_REACHABLE, type LiteratureUnavailableReason } from "@/lib/shared/contracts/unavailable-reasons";
import { ApiError } from "@/lib/shared/http";

/** The `error` of a paid chat or literature start that no literature source could answer. */
export const LITERATURE_UNAVAILABLE = "literature_unavailable";
/**
 * 503 `{error: literature_unavailable, reason, message, failedSources, retryAfterSeconds}` with
 * Retry-After: no literature source can answer (every live source failing and the local library
 * empty: `no_source_reachable`), before payment, or because a started search reached none
 * (`no_source_reachable`) or only the local library, which has nothing on the question
 * (`nothing_in_library`). Nothing is charged. Thrown by the agent's routes and by the gateway,
 * which relays the agent's.
 */
export class LiteratureUnavailableError extends ApiError {
  readonly retryAfterSeconds: number;
  readonly failedSources: FailedSource[];
  constructor({
    message,
    retryAfterSeconds,
    failedSources = [],
    reason = NO_SOURCE_REACHABLE,
  }: {
    message: string;
    retryAfterSeconds: number;
    failedSources?: FailedSource[];
    reason?: LiteratureUnavailableReason;
  }) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super("unavailable", LITERATURE_UNAVAILABLE, { reason, message, headers: { "retry-after": String(seconds) } });
    this.name = "LiteratureUnavailableError";
    this.retryAfterSeconds = seconds;
    this.failedSources = failedSources;
  }

  override toBody() {
    return { ...super.toBody(), failedSources: this.failedSources, retryAfterSeconds: this.retryAfterSeconds };
  }
}
