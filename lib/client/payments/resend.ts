/**
 * A fetch for paying clients (the CLI, the web page, any agent built on the official client):
 * a paid request answered 503 because the service could not settle it now
 * (`settlement_unavailable`) or because another of its processes is still answering it
 * (`payment_in_progress`) is sent again, the same request with the same PAYMENT-SIGNATURE, after
 * `Retry-After`. Signing a new payment instead would leave the first one behind, and a transfer
 * that landed despite the 503 would be paid for nothing. Browser-safe: no Node imports.
 */
const RESUMABLE = new Set(["settlement_unavailable", "payment_in_progress"]);

export function resendOnUnavailable(
  fetchImpl: typeof fetch,
  // Twelve resends of at most 10 s each: about two minutes, as long as a restarting database or
  // an unreachable chain lasts (npm run chaos); signing anew instead could pay twice.
  { attempts = 12, maxWaitMs = 10_000, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) }: { attempts?: number; maxWaitMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (!request.headers.has("payment-signature")) return fetchImpl(request);
    for (let attempt = 1; ; attempt++) {
      const response = await fetchImpl(request.clone());
      if (response.status !== 503 || attempt > attempts) return response;
      const reason = await response
        .clone()
        .json()
        .then((body: { reason?: unknown }) => body?.reason)
        .catch(() => null);
      if (typeof reason !== "string" || !RESUMABLE.has(reason)) return response;
      const retryAfter = Number(response.headers.get("retry-after"));
      await sleep(Math.min(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 2_000, maxWaitMs));
    }
  };
}
