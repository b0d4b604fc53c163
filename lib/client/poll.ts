/**
 * The one polling loop and the one sleep of this service's clients: the page, the sealing client
 * (in the page and in `npm run ask -- --private`), `npm run ask` and the local MCP server. It
 * imports nothing, so each of them can use it; each says in its own words why it stopped.
 */

/** Resolves after `ms`, or as soon as `signal` aborts: it never rejects, so callers check `signal.aborted`. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const wake = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    signal?.addEventListener("abort", wake, { once: true });
  });
}

/** How polling ended: on a final value, or without one (the next read would come past the limit, or `signal` aborted). */
export type Polled<T> = { value: T; final: true } | { value: T; final: false; stopped: "deadline" | "aborted" };

/**
 * Reads until `isFinal` holds of what `read` returned, pausing `pauseMs` between reads (a number,
 * or one taken from the last value: a Retry-After). It stops without a final value rather than
 * pause past `limitMs` from its start, or once `signal` aborts. `onRead` hears every value, with the
 * milliseconds since polling began. A read that throws ends polling with that error.
 */
export async function poll<T>({
  read,
  isFinal,
  onRead,
  pauseMs,
  limitMs,
  signal,
}: {
  read: () => Promise<T>;
  isFinal: (value: T) => boolean;
  onRead?: (value: T, elapsedMs: number) => void | Promise<void>;
  pauseMs: number | ((last: T) => number);
  limitMs: number;
  signal?: AbortSignal;
}): Promise<Polled<T>> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    await onRead?.(value, Date.now() - started);
    if (isFinal(value)) return { value, final: true };
    if (signal?.aborted) return { value, final: false, stopped: "aborted" };
    const pause = typeof pauseMs === "number" ? pauseMs : pauseMs(value);
    if (Date.now() + pause - started > limitMs) return { value, final: false, stopped: "deadline" };
    await sleep(pause, signal);
    if (signal?.aborted) return { value, final: false, stopped: "aborted" };
  }
}
