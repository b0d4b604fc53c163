import { describe, expect, it } from "vitest";
import { literatureReachSchema, sourceHealthSchema, type SourceHealth } from "@/lib/shared/contracts";
import { literatureSummary, paidRequestsInWords, sourceState } from "@/lib/web/source-states";

/** What /status says of the literature sources (lib/web/source-states.ts), over reports the contract's schemas accept. */

const NOW = "2026-11-26T12:00:00.000Z";
const source = (overrides: Partial<SourceHealth>): SourceHealth =>
  sourceHealthSchema.parse({
    source: "pubmed",
    circuit: "closed",
    successes: 0,
    failures: 0,
    consecutiveFailures: 0,
    lastErrorKind: null,
    lastErrorAt: null,
    lastSuccessAt: null,
    lastLatencyMs: null,
    retryAt: null,
    ...overrides,
  });
const reach = (sources: SourceHealth[], overrides: { available?: boolean; message?: string | null } = {}) =>
  literatureReachSchema.parse({ available: true, localLibrary: "has_records", sources, retryAfterSeconds: null, message: null, ...overrides });

describe("a literature source on /status", () => {
  it("is not tried yet, with a neutral badge, until a call reaches it", () => {
    expect(sourceState(source({}), { now: NOW })).toEqual({ badge: "untried", label: "asked at the first search that needs it", nextTryAt: null, nextTryDue: false });
  });

  it("is answering only once it answered, and says when its last calls failed", () => {
    expect(sourceState(source({ successes: 3, lastSuccessAt: NOW }), { now: NOW })).toMatchObject({ badge: "healthy", label: "answering" });
    expect(sourceState(source({ successes: 3, failures: 1, consecutiveFailures: 1 }), { now: NOW })).toMatchObject({ badge: "degraded", label: "its last call failed" });
    expect(sourceState(source({ failures: 2, consecutiveFailures: 2 }), { now: NOW })).toMatchObject({ badge: "degraded", label: "its last 2 calls failed" });
  });

  it("gives an open circuit's next try as a time to come, or says it is due", () => {
    const later = "2026-11-26T12:00:25.000Z";
    expect(sourceState(source({ circuit: "open", failures: 3, consecutiveFailures: 3, retryAt: later }), { now: NOW })).toEqual({ badge: "down", label: "skipped (failing)", nextTryAt: later, nextTryDue: false });
    expect(sourceState(source({ circuit: "open", failures: 3, consecutiveFailures: 3, retryAt: "2026-11-26T11:59:59.000Z" }), { now: NOW })).toMatchObject({ nextTryAt: null, nextTryDue: true });
    expect(sourceState(source({ circuit: "half_open", failures: 3, consecutiveFailures: 3 }), { now: NOW })).toMatchObject({ badge: "degraded", label: "being tried again" });
  });
});

describe("the literature as a whole on /status", () => {
  it("is not tried yet when no search has asked a source, and never 'every source answering'", () => {
    const summary = literatureSummary(reach([source({}), source({ source: "europepmc" }), source({ source: "local" })]), { now: NOW });
    expect(summary).toEqual({ badge: "untried", text: "not tried yet: no search has asked a source since the agent started" });
  });

  it("names the sources not tried yet beside those answering, and those whose last call failed", () => {
    expect(literatureSummary(reach([source({ successes: 1 }), source({ source: "biorxiv" })]), { now: NOW })).toEqual({
      badge: "healthy",
      text: "every source asked is answering; bioRxiv not tried yet",
    });
    expect(literatureSummary(reach([source({ failures: 1, consecutiveFailures: 1 }), source({ source: "local", successes: 2 })]), { now: NOW })).toEqual({
      badge: "degraded",
      text: "PubMed failed when last asked",
    });
  });

  it("keeps the agent's own words when it has some", () => {
    expect(literatureSummary(reach([source({ circuit: "open" })], { message: "PubMed is failing; searches use the other sources." }), { now: NOW })).toEqual({
      badge: "degraded",
      text: "PubMed is failing; searches use the other sources.",
    });
    expect(literatureSummary(reach([], { available: false, message: "No literature source can answer right now." }), { now: NOW }).badge).toBe("down");
  });
});

describe("paid requests in words", () => {
  it("counts each kind with its plural", () => {
    expect(paidRequestsInWords({ chats: 21, literatureSearches: 1, deepResearchRuns: 0 })).toBe("21 chats · 1 literature search · 0 deep-research runs");
  });
});
