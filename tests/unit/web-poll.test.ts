/**
 * The one polling loop and sleep of the clients (lib/client/poll.ts), on vitest's fake clock: each
 * pause is the clock moved on by the test, so nothing here depends on the machine's speed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { poll, sleep } from "@/lib/client/poll";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A read that returns `values` one by one, recording the fake clock's time of each call. */
function reader<T>(values: T[]) {
  const at: number[] = [];
  const start = Date.now();
  let i = 0;
  return {
    at,
    read: vi.fn(async () => {
      at.push(Date.now() - start);
      return values[Math.min(i++, values.length - 1)]!;
    }),
  };
}

describe("poll", () => {
  it("reads at once, then after each pause, until a final value; onRead hears every value with the time since the start", async () => {
    const { read, at } = reader(["queued", "running", "completed"]);
    const heard: [string, number][] = [];
    const polled = poll({ read, isFinal: (s) => s === "completed", onRead: (s, ms) => void heard.push([s, ms]), pauseMs: 1_000, limitMs: 60_000 });
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(polled).resolves.toEqual({ value: "completed", final: true });
    expect(at).toEqual([0, 1_000, 2_000]);
    expect(heard).toEqual([
      ["queued", 0],
      ["running", 1_000],
      ["completed", 2_000],
    ]);
  });

  it("a pause may come from the last value (a Retry-After)", async () => {
    const { read, at } = reader([{ wait: 5_000 }, { wait: 250 }, { wait: 0, done: true }]);
    const polled = poll({ read, isFinal: (v) => v.done === true, pauseMs: (v) => v.wait, limitMs: 60_000 });
    await vi.advanceTimersByTimeAsync(5_250);
    await expect(polled).resolves.toMatchObject({ final: true });
    expect(at).toEqual([0, 5_000, 5_250]);
  });

  it("stops without a final value rather than pause past the limit", async () => {
    const { read, at } = reader(["running"]);
    const polled = poll({ read, isFinal: () => false, pauseMs: 2_000, limitMs: 5_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(polled).resolves.toEqual({ value: "running", final: false, stopped: "deadline" });
    // Reads at 0, 2 and 4 s; a fourth, at 6 s, would come after the limit.
    expect(at).toEqual([0, 2_000, 4_000]);
  });

  it("stops at once when the signal aborts during a pause, without reading again", async () => {
    const { read } = reader(["running"]);
    const controller = new AbortController();
    const polled = poll({ read, isFinal: () => false, pauseMs: 60_000, limitMs: 3_600_000, signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    await expect(polled).resolves.toEqual({ value: "running", final: false, stopped: "aborted" });
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("a read that throws ends polling with its error", async () => {
    const read = vi.fn(async () => {
      throw new Error("503 from the status route");
    });
    await expect(poll({ read, isFinal: () => false, pauseMs: 1_000, limitMs: 60_000 })).rejects.toThrow("503 from the status route");
  });
});

describe("sleep", () => {
  it("resolves after its time", async () => {
    let slept = false;
    void sleep(1_000).then(() => (slept = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(slept).toBe(true);
  });

  it("resolves at once when its signal aborts (or had aborted), its timer cleared", async () => {
    const controller = new AbortController();
    const woken = sleep(3_600_000, controller.signal);
    controller.abort();
    await woken;
    expect(vi.getTimerCount()).toBe(0);
    await sleep(3_600_000, controller.signal);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves no abort listener behind on a signal that outlives it (one per poll of a long run)", async () => {
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, "removeEventListener");
    const slept = sleep(10, controller.signal);
    await vi.advanceTimersByTimeAsync(10);
    await slept;
    expect(remove).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});
