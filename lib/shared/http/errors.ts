import type { ErrorBody } from "@/lib/shared/contracts";
import { isDatabaseUnavailable } from "@/lib/shared/db/unavailable";
import { log } from "@/lib/shared/log";

/**
 * The one table from error kinds to HTTP statuses. Every error the service answers is an ApiError
 * of one of these kinds, rendered as the error body of section 2.1.
 */
const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
} as const;
export type ErrorKind = keyof typeof errorStatus;

/** An error with a status and a body the client may see. */
export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly reason: string | undefined;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    kind: ErrorKind,
    error: string,
    options: { reason?: string; message?: string; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(error, { cause: options.cause });
    this.name = "ApiError";
    this.kind = kind;
    this.reason = options.reason;
    this.detail = options.message;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorStatus[this.kind];
  }

  toBody(): ErrorBody & Record<string, unknown> {
    return {
      error: this.message,
      ...(this.reason !== undefined ? { reason: this.reason } : {}),
      ...(this.detail !== undefined ? { message: this.detail } : {}),
    };
  }

  toResponse(): Response {
    return jsonResponse(this.toBody(), { status: this.status, headers: this.headers });
  }
}

/** A JSON response; `cache-control: no-store` unless the caller says otherwise. */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json; charset=utf-8");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers });
}

/** Seconds a client should wait when the database could not be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Turns anything thrown into a response. ApiErrors answer as themselves; a database that cannot be
 * reached right now (restarting, refusing connections) is 503 with Retry-After, a passing
 * condition; anything else is logged with its cause and answered 500 without it, so internals
 * never reach a client.
 */
export function errorResponse(err: unknown, context: { route?: string } = {}): Response {
  if (err instanceof ApiError) {
    if (err.status >= 500) log.error("request failed", { route: context.route, status: err.status, error: err });
    return err.toResponse();
  }
  if (isDatabaseUnavailable(err)) {
    log.warn("database unavailable", { route: context.route, error: err });
    return jsonResponse(
      { error: "The service's database cannot be reached right now; try again shortly.", reason: "database_unavailable" },
      { status: 503, headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) } },
    );
  }
  log.error("unhandled error", { route: context.route, error: err });
  return jsonResponse({ error: "Internal server error" }, { status: 500 });
}
