import { ApiError } from "@/lib/shared/http/errors";

/** 429 with `retryAfterSeconds` in the body and a `Retry-After` header (section 7). */
export class RateLimitedError extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number, reason = "rate_limited") {
    super("rate_limited", message, { reason, headers: { "retry-after": String(retryAfterSeconds) } });
    this.name = "RateLimitedError";
    this.retryAfterSeconds = retryAfterSeconds;
  }
  override toBody() {
    return { ...super.toBody(), retryAfterSeconds: this.retryAfterSeconds };
  }
}
