import type { SourceName } from "./record";
import { SourceError } from "./sources/types";
import { describeFailure } from "@/lib/shared/narrow";

/**
 * The HTTP layer every literature source shares: a per-request timeout, a per-source rate limiter,
 * and retries with exponential back-off and jitter on 429, 5xx and network errors. Every failure is
 * a SourceError, so the engine can carry on without the source. Dependency-free (global fetch).
 */

/** Spaces request starts at least 1/requestsPerSecond apart (shared by everything that holds it). */
export type RateLimiter = {
  readonly requestsPerSecond: number;
  /** Waits for the next free slot. Throws SourceError "timeout" when `signal` aborts first. */
  acquire(source: SourceName, signal?: AbortSignal): Promise<void>;
  /** Holds every later request back for `ms` (after a rate-limit answer). */
  pause(ms: number): void;
  /** Changes the rate, e.g. to what the service advertises. */
  setRequestsPerSecond(requestsPerSecond: number): void;
};

/**
 * A limiter that spaces requests evenly rather than allowing bursts: NCBI counts requests per
 * second, and three requests in a burst followed by a fourth 1 s later can still be four in its
 * window, which even spacing never is.
 */
export function createRateLimiter({
  requestsPerSecond,
  now = () => performance.now(),
  wait = sleep,
}: {
  requestsPerSecond: number;
  /** The clock and the wait, replaceable so the spacing can be checked without real time. */
  now?: () => number;
  wait?: (ms: number, source: SourceName, signal?: AbortSignal) => Promise<void>;
}): RateLimiter {
  let rate = requestsPerSecond;
  let nextSlot = 0;
  return {
    get requestsPerSecond() {
      return rate;
    },
    async acquire(source, signal) {
      const at = now();
      const slot = Math.max(at, nextSlot);
      nextSlot = slot + 1000 / rate;
      if (slot > at) await wait(slot - at, source, signal);
    },
    pause(ms) {
      nextSlot = Math.max(nextSlot, now() + ms);
    },
    setRequestsPerSecond(value) {
      if (value > 0 && Number.isFinite(value)) rate = value;
    },
  };
}

export type SourceHttpOptions = {
  source: SourceName;
  baseUrl: string;
  /** Per attempt, covering the response body too. */
  timeoutMs: number;
  requestsPerSecond: number;
  /** Extra attempts after a 429, a 5xx or a network error. Timeouts are not retried. */
  maxRetries: number;
  /** First back-off delay; doubles per attempt, with jitter. */
  retryBaseDelayMs?: number;
  /** A Retry-After longer than this fails the request at once rather than stalling the engine. */
  maxRetryDelayMs?: number;
  headers?: Record<string, string>;
  /** Share one limiter between clients of the same service. */
  rateLimiter?: RateLimiter;
  fetchImpl?: typeof fetch;
  /** Sees every response's status and headers (e.g. to read advertised rate limits). */
  onResponse?: (response: { status: number; headers: Headers }) => void;
};

type QueryParams = Record<string, string | number | boolean | undefined | null>;

type SourceRequest = {
  query?: QueryParams;
  signal?: AbortSignal;
  accept?: string;
  /** The caller already holds the first attempt's rate-limit slot (a batch that formed while waiting for it). */
  slotHeld?: boolean;
};

type SourceResponse = { status: number; headers: Headers; text: string };

export type SourceHttpClient = {
  readonly source: SourceName;
  readonly baseUrl: string;
  readonly rateLimiter: RateLimiter;
  /** GETs `path` and returns the 2xx body. Throws SourceError (any kind) on failure, 404 included. */
  getText(path: string, request?: SourceRequest): Promise<SourceResponse>;
  /** GETs and parses JSON. Throws SourceError: "parse" for a body that is not JSON, as getText otherwise. */
  getJson(path: string, request?: SourceRequest): Promise<unknown>;
  /** As getJson, but a 404 gives null (for lookups where "not found" is an answer). */
  findJson(path: string, request?: SourceRequest): Promise<unknown>;
};

// NCBI answers an over-the-limit request with this JSON body, sometimes with status 200.
const NCBI_RATE_LIMIT_BODY = /"error"\s*:\s*"API rate limit exceeded"/;

/** Whether a body is NCBI's rate-limit error (seen with status 429 and with 200). */
export function isRateLimitBody(text: string): boolean {
  return text.length < 4_000 && NCBI_RATE_LIMIT_BODY.test(text);
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A client of one source's API. Requests made through it share its rate limiter. */
export function createSourceHttpClient(options: SourceHttpOptions): SourceHttpClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const limiter = options.rateLimiter ?? createRateLimiter({ requestsPerSecond: options.requestsPerSecond });
  const fetchImpl = options.fetchImpl ?? fetch;
  const baseDelay = options.retryBaseDelayMs ?? 500;
  const maxDelay = options.maxRetryDelayMs ?? 10_000;
  const { source } = options;

  async function send(path: string, request: SourceRequest, allowNotFound: boolean): Promise<SourceResponse | null> {
    const url = buildUrl(baseUrl, path, request.query);
    let lastError: SourceError | undefined;
    for (let attempt = 0; attempt <= options.maxRetries; attempt++) {
      if (attempt > 0 || !request.slotHeld) await limiter.acquire(source, request.signal);
      let response: SourceResponse;
      try {
        response = await fetchOnce(url, path, request);
      } catch (err) {
        if (!(err instanceof SourceError) || err.kind !== "network") throw err;
        lastError = err;
        if (attempt < options.maxRetries) await sleep(backoff(attempt), source, request.signal);
        continue;
      }
      options.onResponse?.({ status: response.status, headers: response.headers });
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      if (response.status === 429 || isRateLimitBody(response.text)) {
        lastError = new SourceError(source, "rate_limited", `GET ${path} was rate limited (status ${response.status})`);
        if (retryAfter !== undefined && retryAfter > maxDelay) {
          throw new SourceError(source, "rate_limited", `GET ${path} was rate limited; Retry-After ${Math.round(retryAfter / 1000)} s is too long to wait`);
        }
        // Every request of this source waits, not only this one: the limit is per client.
        limiter.pause(retryAfter ?? backoff(attempt));
        continue;
      }
      if (response.status >= 500) {
        lastError = new SourceError(source, "http", `GET ${path} answered ${response.status}`);
        if (attempt < options.maxRetries) await sleep(Math.min(retryAfter ?? backoff(attempt), maxDelay), source, request.signal);
        continue;
      }
      if (response.status === 404 && allowNotFound) return null;
      if (response.status < 200 || response.status >= 300) {
        throw new SourceError(source, "http", `GET ${path} answered ${response.status}: ${response.text.slice(0, 200)}`);
      }
      return response;
    }
    throw lastError ?? new SourceError(source, "network", `GET ${path} failed`);
  }

  function backoff(attempt: number): number {
    const exponential = Math.min(maxDelay, baseDelay * 2 ** attempt);
    return exponential / 2 + Math.random() * (exponential / 2);
  }

  async function fetchOnce(url: string, path: string, request: SourceRequest): Promise<SourceResponse> {
    if (request.signal?.aborted) throw new SourceError(source, "timeout", `GET ${path} was aborted by the caller`);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const onCallerAbort = () => controller.abort();
    request.signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      const response = await fetchImpl(url, {
        headers: { accept: request.accept ?? "application/json", ...options.headers },
        signal: controller.signal,
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (err) {
      if (timedOut) throw new SourceError(source, "timeout", `GET ${path} did not answer within ${options.timeoutMs} ms`, { cause: err });
      if (request.signal?.aborted) throw new SourceError(source, "timeout", `GET ${path} was aborted by the caller`, { cause: err });
      throw new SourceError(source, "network", `GET ${path} failed: ${describeFailure(err)}`, { cause: err });
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  function parseJson(path: string, text: string): unknown {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new SourceError(source, "parse", `GET ${path} answered a body that is not JSON: ${text.slice(0, 120)}`, { cause: err });
    }
  }

  return {
    source,
    baseUrl,
    rateLimiter: limiter,
    async getText(path, request = {}) {
      const response = await send(path, request, false);
      if (!response) throw new SourceError(source, "http", `GET ${path} answered 404`);
      return response;
    },
    async getJson(path, request = {}) {
      const response = await send(path, request, false);
      if (!response) throw new SourceError(source, "http", `GET ${path} answered 404`);
      return parseJson(path, response.text);
    },
    async findJson(path, request = {}) {
      const response = await send(path, request, true);
      return response ? parseJson(path, response.text) : null;
    },
  };
}

function buildUrl(baseUrl: string, path: string, query: QueryParams | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const qs = search.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ""}`;
}

/** Waits `ms`; throws SourceError "timeout" if `signal` aborts first. */
function sleep(ms: number, source: SourceName, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SourceError(source, "timeout", "aborted by the caller"));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SourceError(source, "timeout", "aborted by the caller"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The options every source client takes. */
export type SourceClientOptions = {
  baseUrl?: string;
  timeoutMs?: number;
  requestsPerSecond?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  rateLimiter?: RateLimiter;
  fetchImpl?: typeof fetch;
};

/**
 * A source's HTTP client from its options, with the source's own base URL and rate limit as
 * defaults, an 8-second timeout and two retries unless configured otherwise.
 */
export function sourceHttpClient(
  source: Parameters<typeof createSourceHttpClient>[0]["source"],
  defaults: { baseUrl: string; requestsPerSecond: number },
  options: SourceClientOptions,
  extra: Partial<Parameters<typeof createSourceHttpClient>[0]> = {},
) {
  return createSourceHttpClient({
    source,
    baseUrl: options.baseUrl ?? defaults.baseUrl,
    timeoutMs: options.timeoutMs ?? 8_000,
    requestsPerSecond: options.requestsPerSecond ?? defaults.requestsPerSecond,
    maxRetries: options.maxRetries ?? 2,
    retryBaseDelayMs: options.retryBaseDelayMs,
    rateLimiter: options.rateLimiter,
    fetchImpl: options.fetchImpl,
    ...extra,
  });
}
