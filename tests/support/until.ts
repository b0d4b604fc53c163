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
