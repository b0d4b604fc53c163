import { describe, expect, it } from "vitest";
import { createRateLimiter } from "@/agent/literature/http";

/** A limiter on a virtual clock: each wait moves the clock, and is recorded. */
function virtualLimiter(requestsPerSecond: number) {
  let clock = 1_000;
  const slots: number[] = [];
  const limiter = createRateLimiter({
    requestsPerSecond,
    now: () => clock,
    wait: async (ms) => {
      slots.push(clock + ms);
    },
  });
  return {
    limiter,
    slots,
    advance: (ms: number) => void (clock += ms),
    acquire: async () => {
      const before = slots.length;
      await limiter.acquire("pubmed");
      if (slots.length === before) slots.push(clock);
    },
  };
}

describe("the literature sources' rate limiter", () => {
  it("spaces requests evenly at its rate, never in a burst: 1/3 s apart at 3 a second, 1/10 s at 10", async () => {
    for (const [rate, gap] of [
      [3, 1000 / 3],
      [10, 100],
    ] as const) {
      const v = virtualLimiter(rate);
      // Four asked for at the same instant (the clock does not move between them).
      for (let i = 0; i < 4; i++) await v.acquire();
      expect(v.slots.map((s) => Math.round(s - v.slots[0]!))).toEqual([0, 1, 2, 3].map((i) => Math.round(i * gap)));
    }
  });

  it("lets a request through at once after a quiet spell, and holds every later one back after a pause", async () => {
    const v = virtualLimiter(10);
    await v.acquire();
    v.advance(5_000);
    await v.acquire();
    expect(v.slots[1]! - v.slots[0]!).toBe(5_000);
    v.limiter.pause(2_000);
    await v.acquire();
    expect(v.slots[2]! - v.slots[1]!).toBe(2_000);
  });
});
