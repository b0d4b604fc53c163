import type { FailedSource } from "@/lib/contracts";
import { ApiError } from "@/lib/http";

/** The `error` of a paid chat or literature start that no literature source could answer. */
export const LITERATURE_UNAVAILABLE = "literature_unavailable";
/** Its `reason`. */
export const NO_SOURCE_REACHABLE = "no_source_reachable";

/**
 * 503 `{error: literature_unavailable, reason: no_source_reachable, message, failedSources,
 * retryAfterSeconds}` with Retry-After: no literature source can answer (every live source failing
 * and the local library empty), before payment, or because a started search reached none. Nothing
 * is charged. Thrown by the agent's routes and by the gateway, which relays the agent's.
 */
export class LiteratureUnavailableError extends ApiError {
  readonly retryAfterSeconds: number;
  readonly failedSources: FailedSource[];
  constructor({ message, retryAfterSeconds, failedSources = [] }: { message: string; retryAfterSeconds: number; failedSources?: FailedSource[] }) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super("unavailable", LITERATURE_UNAVAILABLE, { reason: NO_SOURCE_REACHABLE, message, headers: { "retry-after": String(seconds) } });
    this.name = "LiteratureUnavailableError";
    this.retryAfterSeconds = seconds;
    this.failedSources = failedSources;
  }

  override toBody() {
    return { ...super.toBody(), failedSources: this.failedSources, retryAfterSeconds: this.retryAfterSeconds };
  }
}
