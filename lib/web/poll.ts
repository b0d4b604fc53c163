import { UserFacingError } from "./user-facing-error";

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Polls `read` until `done` says so, every `intervalMs` (the contract's 750 ms to 2 s), giving up
 * after `limitMs` with a retryable error. Each result goes to `onUpdate`.
 */
export async function pollUntil<T>({
  read,
  done,
  onUpdate,
  intervalMs = 1_000,
  limitMs = 60_000,
  signal,
}: {
  read: () => Promise<T>;
  done: (value: T) => boolean;
  onUpdate?: (value: T) => void;
  intervalMs?: number;
  limitMs?: number;
  signal?: AbortSignal;
}): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await read();
    onUpdate?.(value);
    if (done(value)) return value;
    if (signal?.aborted) throw new UserFacingError("Stopped.", {});
    if (Date.now() > deadline) {
      throw new UserFacingError(`No answer after ${Math.round(limitMs / 1000)} s.`, { action: "Retry to keep waiting: it was paid, and the answer is kept for an hour." });
    }
    await sleep(intervalMs, signal);
  }
}
