import { describe, expect, it } from "vitest";
import type { RateLimiter } from "@/agent/literature/http";
import type { LiteratureRecord } from "@/agent/literature/record";
import { createEfetchBatcher } from "@/agent/literature/sources/pubmed-efetch-batch";

/** A limiter whose slots the test hands out one at a time: no time passes. */
function gatedLimiter() {
  const waiting: (() => void)[] = [];
  const limiter: RateLimiter = {
    requestsPerSecond: 10,
    acquire: () => new Promise<void>((resolve) => waiting.push(resolve)),
    pause: () => undefined,
    setRequestsPerSecond: () => undefined,
  };
  return {
    limiter,
    /** Grants the next slot, once someone waits for one. */
    grant: async () => {
      while (waiting.length === 0) await new Promise((r) => setImmediate(r));
      waiting.shift()!();
      await new Promise((r) => setImmediate(r));
    },
  };
}

const record = (pmid: string) => ({ ids: { pmid }, title: `T${pmid}` }) as unknown as LiteratureRecord;

describe("PubMed efetches of concurrent searches", () => {
  it("go out as one request when they gathered while waiting for the rate-limit slot, each caller getting its own records", async () => {
    const gate = gatedLimiter();
    const sent: string[][] = [];
    const batcher = createEfetchBatcher({ limiter: gate.limiter, maxIds: 200, send: async (ids) => (sent.push(ids), ids.map(record)) });
    const a = batcher.fetch(["1", "2"]);
    const b = batcher.fetch(["3"]);
    const c = batcher.fetch(["2", "4"]);
    await gate.grant();
    expect(sent).toEqual([["1", "2", "3", "4"]]);
    expect((await a).map((r) => r.ids.pmid)).toEqual(["1", "2"]);
    expect((await b).map((r) => r.ids.pmid)).toEqual(["3"]);
    expect((await c).map((r) => r.ids.pmid)).toEqual(["2", "4"]);
  });

  it("alone, a fetch is one request whose whole answer it gets (as before batching)", async () => {
    const gate = gatedLimiter();
    const batcher = createEfetchBatcher({ limiter: gate.limiter, maxIds: 200, send: async () => [record("9"), record("10")] });
    const alone = batcher.fetch(["9"]);
    await gate.grant();
    expect((await alone).map((r) => r.ids.pmid)).toEqual(["9", "10"]);
  });

  it("never puts more than maxIds in one request: the rest waits for the next slot", async () => {
    const gate = gatedLimiter();
    const sent: string[][] = [];
    const batcher = createEfetchBatcher({ limiter: gate.limiter, maxIds: 3, send: async (ids) => (sent.push(ids), ids.map(record)) });
    const a = batcher.fetch(["1", "2"]);
    const b = batcher.fetch(["3", "4"]);
    await gate.grant();
    await gate.grant();
    await Promise.all([a, b]);
    expect(sent).toEqual([["1", "2"], ["3", "4"]]);
  });

  it("fails every caller of a failed request, and lets a caller that aborted stop waiting", async () => {
    const gate = gatedLimiter();
    const batcher = createEfetchBatcher({ limiter: gate.limiter, maxIds: 200, send: async () => Promise.reject(new Error("efetch down")) });
    const controller = new AbortController();
    const aborted = batcher.fetch(["1"], controller.signal);
    const failing = batcher.fetch(["2"]);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ kind: "timeout" });
    const failed = expect(failing).rejects.toThrow("efetch down");
    await gate.grant();
    await failed;
  });
});
