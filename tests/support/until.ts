/**
 * Resolves once `check` holds, checked every `everyMs` (a condition, not a pace the machine must
 * keep). `timeoutMs` only catches a condition that never comes: set it far above any working run.
 */
export async function until(check: () => boolean | Promise<boolean>, { timeoutMs = 50_000, everyMs = 20, what = "a condition" }: { timeoutMs?: number; everyMs?: number; what?: string } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Reads `read` until `done` holds of what it returned, and returns that value: a status polled to
 * its end. The deadline is `until`'s, a bound on a run that hangs, never a pace the machine must keep.
 */
export async function pollFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; everyMs?: number; what?: string } = {},
): Promise<T> {
  let value: T | undefined;
  await until(async () => done((value = await read())), { everyMs: 50, ...options });
  return value as T;
}

/** A polled job's status has ended: the predicate most `pollFor` calls wait on. */
export const ended = (value: { status?: string | null }): boolean => value.status === "completed" || value.status === "failed";
