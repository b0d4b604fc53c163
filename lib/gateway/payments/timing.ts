/**
 * Where a paid request's time went, for its Server-Timing header: the local checks, the ledger
 * claim, the facilitator's verify and settle, the agent, and the whole request.
 */
export class Timing {
  private readonly started = performance.now();
  private readonly parts: Record<string, number> = { checks: 0, claim: 0, verify: 0, upstream: 0, settle: 0 };

  async measure<T>(name: keyof Timing["parts"] | string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      this.parts[name] = (this.parts[name] ?? 0) + performance.now() - started;
    }
  }

  header(): string {
    const parts = Object.entries(this.parts).map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`);
    return [...parts, `total;dur=${(performance.now() - this.started).toFixed(1)}`].join(", ");
  }
}
