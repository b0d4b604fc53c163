import type { z } from "zod";
import { ApiError, parseJsonObject, relayUpstreamError } from "@/lib/shared/http";
import { describeFailure } from "@/lib/shared/narrow";

/** Seconds a client should wait before trying again after the agent could not be reached. */
const UPSTREAM_RETRY_AFTER_SECONDS = 5;

/**
 * The agent could not be reached, or did not answer in time: the contract's 502 to the client,
 * with Retry-After, since an agent that is restarting or overloaded is a passing condition (nothing
 * was charged; the paid routes settle only after the agent accepted the work).
 */
export class UpstreamUnavailableError extends ApiError {
  readonly timedOut: boolean;
  constructor(message: string, { timedOut, cause }: { timedOut: boolean; cause?: unknown }) {
    super("bad_gateway", timedOut ? "Upstream API timed out" : "Upstream API is unreachable", {
      reason: timedOut ? "upstream_timeout" : "upstream_unreachable",
      message,
      cause,
      headers: { "retry-after": String(UPSTREAM_RETRY_AFTER_SECONDS) },
    });
    this.name = "UpstreamUnavailableError";
    this.timedOut = timedOut;
  }
}

/** The agent answered with a non-success status; its response is relayed as the contract says. */
export class UpstreamHttpError extends ApiError {
  readonly upstreamStatus: number;
  readonly body: Uint8Array<ArrayBuffer>;
  readonly upstreamHeaders: Headers;
  constructor({ status, body, headers }: { status: number; body: Uint8Array<ArrayBuffer>; headers: Headers }) {
    super(status >= 400 && status < 500 ? "bad_request" : "bad_gateway", `Upstream API answered ${status}`);
    this.name = "UpstreamHttpError";
    this.upstreamStatus = status;
    this.body = body;
    this.upstreamHeaders = headers;
  }
  /** The `reason` of the agent's error body, when it gave one (e.g. a sealing error code). */
  get upstreamReason(): string | undefined {
    const reason = parseJsonObject(this.body)?.reason;
    return typeof reason === "string" ? reason : undefined;
  }
  override get status(): number {
    return this.upstreamStatus >= 400 && this.upstreamStatus < 500 ? this.upstreamStatus : 502;
  }
  override toResponse(): Response {
    return relayUpstreamError({ status: this.upstreamStatus, body: this.body, headers: this.upstreamHeaders });
  }
}

/** The agent answered 2xx with a body that breaks the contract: a 502, since we cannot vouch for it. */
export class UpstreamContractError extends ApiError {
  constructor(path: string, cause: unknown) {
    super("bad_gateway", "Upstream API answered an unexpected body", {
      reason: "upstream_contract_violation",
      message: `The response of ${path} does not match the contract`,
      cause,
    });
    this.name = "UpstreamContractError";
  }
}

export type UpstreamClientOptions = {
  baseUrl: string;
  /** Sent as `Authorization: Bearer` on every call (the agent's service key). */
  serviceKey?: string | undefined;
  timeoutMs: number;
  /** Extra attempts for idempotent reads after a network error, timeout or 502/503/504. */
  retries?: number;
  retryBaseDelayMs?: number;
  fetchImpl?: typeof fetch;
};

export type UpstreamRequest = {
  method?: "GET" | "POST" | "DELETE";
  body?: unknown;
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Overrides the client's retry count for this call (reads only; writes are never retried). */
  retries?: number;
};

export type UpstreamResponse = { status: number; headers: Headers; body: Uint8Array<ArrayBuffer> };

const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/**
 * A typed HTTP client of the agent API. Reads (GET) are retried on transient failures; writes
 * never are, since a retried POST could start a second paid job.
 */
export class UpstreamClient {
  readonly baseUrl: string;
  private readonly options: Required<Omit<UpstreamClientOptions, "serviceKey">> & { serviceKey?: string | undefined };

  constructor(options: UpstreamClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.options = { retries: 2, retryBaseDelayMs: 100, fetchImpl: fetch, ...options };
  }

  /**
   * Sends one request and reads the whole response. Throws UpstreamUnavailableError when the agent
   * cannot be reached or times out (after the retries a read is allowed).
   */
  async send(path: string, request: UpstreamRequest = {}): Promise<UpstreamResponse> {
    const method = request.method ?? "GET";
    const attempts = method === "GET" ? (request.retries ?? this.options.retries) + 1 : 1;
    let lastError: UpstreamUnavailableError | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(this.options.retryBaseDelayMs * 3 ** (attempt - 1) * (0.5 + Math.random()));
      try {
        const response = await this.sendOnce(path, method, request);
        if (attempt + 1 < attempts && RETRYABLE_STATUSES.has(response.status)) continue;
        return response;
      } catch (err) {
        if (!(err instanceof UpstreamUnavailableError)) throw err;
        lastError = err;
      }
    }
    throw lastError ?? new UpstreamUnavailableError(`${method} ${path} failed`, { timedOut: false });
  }

  /**
   * Sends a request and validates a 2xx body against `schema`. Throws UpstreamHttpError for any
   * other status (relayed to the client), UpstreamContractError for a body that breaks the
   * contract, UpstreamUnavailableError when unreachable.
   */
  async json<T extends z.ZodType>(
    path: string,
    schema: T,
    request: UpstreamRequest = {},
  ): Promise<{ status: number; headers: Headers; data: z.output<T> }> {
    const response = await this.send(path, request);
    if (response.status < 200 || response.status >= 300) throw new UpstreamHttpError(response);
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(response.body));
    } catch (err) {
      throw new UpstreamContractError(path, err);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new UpstreamContractError(path, parsed.error);
    return { status: response.status, headers: response.headers, data: parsed.data };
  }

  private async sendOnce(path: string, method: string, request: UpstreamRequest): Promise<UpstreamResponse> {
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const headers: Record<string, string> = { accept: "application/json", ...request.headers };
    if (this.options.serviceKey) headers.authorization = `Bearer ${this.options.serviceKey}`;
    if (request.body !== undefined) headers["content-type"] = "application/json";
    try {
      const response = await this.options.fetchImpl(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
        redirect: "manual",
      });
      const body = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, body };
    } catch (err) {
      const timedOut = controller.signal.aborted;
      throw new UpstreamUnavailableError(
        timedOut ? `${method} ${path} did not answer within ${timeoutMs} ms` : `${method} ${path} failed: ${describeFailure(err)}`,
        { timedOut, cause: err },
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
