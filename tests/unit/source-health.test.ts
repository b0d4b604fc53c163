import { describe, expect, it } from "vitest";
import { composeAnswer } from "@/agent/literature/answer";
import { assertReached, createReachChecker, NoSourceAnsweredError, withChatSourceFailures } from "@/agent/literature/reach";
import { readQuestion } from "@/agent/literature/reading";
import type { SourceName } from "@/agent/literature/record";
import { createSourceHealthTracker, failedSourcesOf, failureKindOf, trackSource } from "@/agent/literature/source-health";
import { SourceError, type LiteratureSource } from "@/agent/literature/sources/types";
import { chatResultSchema, failedSourceSchema, literatureReachSchema, sourceHealthSchema, type ChatResult, type SourceFailureKind } from "@/lib/shared/contracts";
import { describeSourceFailures, failuresInWords, failureWords, sourceTitle } from "@/lib/shared/contracts/source-words";
import type { Queryable } from "@/lib/shared/db";

/** A clock and a scheduler the test moves by hand: no real time passes. */
function fakeTime() {
  let now = 1_000_000;
  const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  return {
    now: () => now,
    schedule: (run: () => void, ms: number) => {
      const timer = { at: now + ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    /** Moves time on and runs the timers that came due. */
    advance: async (ms: number) => {
      now += ms;
      for (const timer of timers.filter((t) => !t.cancelled && t.at <= now)) {
        timer.cancelled = true;
        timer.run();
      }
      await new Promise((r) => setImmediate(r));
    },
  };
}

const failing = (name: SourceName, kind: SourceError["kind"] = "network") =>
  ({ name, search: async () => Promise.reject(new SourceError(name, kind, "down")) }) satisfies LiteratureSource;

describe("source health: the circuit of each source", () => {
  it("opens after the threshold of consecutive failures, then refuses calls at once without reaching the source", async () => {
    const time = fakeTime();
    const tracker = createSourceHealthTracker({ failureThreshold: 3, cooldownMs: 30_000, ...time });
    let calls = 0;
    const source = trackSource({ name: "pubmed", search: async () => (calls++, Promise.reject(new SourceError("pubmed", "timeout", "slow"))) }, tracker);
    for (let i = 0; i < 3; i++) await expect(source.search({ text: "q", terms: ["q"], limit: 1 })).rejects.toMatchObject({ kind: "timeout" });
    expect(tracker.isUp("pubmed")).toBe(false);
    await expect(source.search({ text: "q", terms: ["q"], limit: 1 })).rejects.toMatchObject({ kind: "circuit_open" });
    expect(calls).toBe(3);
    const [state] = tracker.snapshot();
    expect(sourceHealthSchema.parse(state)).toMatchObject({ source: "pubmed", circuit: "open", failures: 3, consecutiveFailures: 3, successes: 0, lastErrorKind: "timeout" });
    expect(Date.parse(state!.retryAt!)).toBe(time.now() + 30_000);
  });

  it("a success in between resets the count: failures must be consecutive", async () => {
    const tracker = createSourceHealthTracker({ failureThreshold: 2, cooldownMs: 1_000, ...fakeTime() });
    tracker.recordFailure("europepmc", "http_error");
    tracker.recordSuccess("europepmc", 120);
    tracker.recordFailure("europepmc", "http_error");
    expect(tracker.isUp("europepmc")).toBe(true);
    expect(tracker.snapshot()[0]).toMatchObject({ circuit: "closed", successes: 1, failures: 2, consecutiveFailures: 1, lastLatencyMs: 120 });
  });

  it("probes an open circuit after the cool-down: closes when the probe answers", async () => {
    const time = fakeTime();
    const tracker = createSourceHealthTracker({ failureThreshold: 1, cooldownMs: 5_000, ...time });
    let up = false;
    tracker.setProbe("pubmed", async () => {
      if (!up) throw new SourceError("pubmed", "network", "refused");
    });
    tracker.recordFailure("pubmed", "unreachable");
    await time.advance(4_999);
    expect(tracker.snapshot()[0]!.circuit).toBe("open");
    await time.advance(1);
    // The probe failed: open again for another cool-down.
    expect(tracker.snapshot()[0]).toMatchObject({ circuit: "open", failures: 2, lastErrorKind: "unreachable" });
    up = true;
    await time.advance(5_000);
    expect(tracker.snapshot()[0]).toMatchObject({ circuit: "closed", successes: 1, consecutiveFailures: 0, retryAt: null });
  });

  it("without a probe, lets the next real call decide after the cool-down (half-open)", async () => {
    const time = fakeTime();
    const tracker = createSourceHealthTracker({ failureThreshold: 1, cooldownMs: 1_000, ...time });
    tracker.recordFailure("biorxiv", "timeout");
    expect(tracker.allows("biorxiv")).toBe(false);
    await time.advance(1_000);
    expect(tracker.snapshot()[0]!.circuit).toBe("half_open");
    expect(tracker.allows("biorxiv")).toBe(true);
    expect(tracker.isUp("biorxiv")).toBe(false);
    tracker.recordFailure("biorxiv", "timeout");
    expect(tracker.snapshot()[0]!.circuit).toBe("open");
  });

  it("does not count a call its caller aborted (a cancelled job) against the source", async () => {
    const tracker = createSourceHealthTracker({ failureThreshold: 1, cooldownMs: 1_000, ...fakeTime() });
    const controller = new AbortController();
    controller.abort();
    await expect(trackSource(failing("pubmed", "timeout"), tracker).search({ text: "q", terms: ["q"], limit: 1 }, { signal: controller.signal })).rejects.toThrow();
    expect(tracker.snapshot()[0]).toMatchObject({ circuit: "closed", failures: 0 });
  });

  it("names every SourceError kind for clients, and anything else internal_error", () => {
    const kinds: [SourceError["kind"], string][] = [
      ["timeout", "timeout"],
      ["network", "unreachable"],
      ["http", "http_error"],
      ["rate_limited", "rate_limited"],
      ["parse", "bad_response"],
      ["circuit_open", "circuit_open"],
    ];
    for (const [kind, typed] of kinds) expect(failureKindOf(new SourceError("pubmed", kind, "x"))).toBe(typed);
    expect(failureKindOf(new Error("bug"))).toBe("internal_error");
  });

  it("lists the sources that failed outright, typed, in a fixed order, leaving out those that also answered", () => {
    const failed = new Map<SourceName, "timeout" | "unreachable">([
      ["local", "unreachable"],
      ["europepmc", "timeout"],
      ["pubmed", "unreachable"],
    ]);
    const list = failedSourcesOf(failed, new Set<SourceName>(["local"]));
    expect(list).toEqual([
      { source: "pubmed", kind: "unreachable" },
      { source: "europepmc", kind: "timeout" },
    ]);
    for (const f of list) failedSourceSchema.parse(f);
  });
});

describe("source failures in words", () => {
  it("says which sources failed and where the results come from instead", () => {
    expect(describeSourceFailures({ failed: [{ source: "pubmed", kind: "unreachable" }], used: ["local", "europepmc"] })).toBe(
      "PubMed could not be reached; these results come from Europe PMC and the local library.",
    );
    expect(
      describeSourceFailures({
        failed: [
          { source: "europepmc", kind: "timeout" },
          { source: "pubmed", kind: "unreachable" },
          { source: "clinicaltrials", kind: "unreachable" },
        ],
        used: ["local"],
      }),
    ).toBe("PubMed and ClinicalTrials.gov could not be reached and Europe PMC did not answer in time; these results come from the local library alone.");
    expect(describeSourceFailures({ failed: [], used: ["pubmed"] })).toBeNull();
  });

  // Every failure kind the contract names, said of one source and of several: the verb agrees.
  const wordsOf: Record<SourceFailureKind, { one: string; many: string }> = {
    timeout: { one: "did not answer in time", many: "did not answer in time" },
    unreachable: { one: "could not be reached", many: "could not be reached" },
    http_error: { one: "answered with an error", many: "answered with errors" },
    rate_limited: { one: "kept refusing requests (rate limit)", many: "kept refusing requests (rate limit)" },
    bad_response: { one: "answered something unreadable", many: "answered something unreadable" },
    circuit_open: { one: "was not asked, having failed repeatedly just before", many: "were not asked, having failed repeatedly just before" },
    internal_error: { one: "failed inside the agent", many: "failed inside the agent" },
  };

  it.each(failedSourceSchema.shape.kind.options)("agrees in number for %s, alone or in a list, in every sentence that says it", (kind) => {
    const { one, many } = wordsOf[kind];
    expect(failureWords(kind)).toBe(one);
    expect(failuresInWords([{ source: "pubmed", kind }])).toBe(`PubMed ${one}`);
    expect(failuresInWords([{ source: "europepmc", kind }, { source: "pubmed", kind }])).toBe(`PubMed and Europe PMC ${many}`);
    const other = kind === "timeout" ? "unreachable" : "timeout";
    expect(failuresInWords([{ source: "local", kind }, { source: "clinicaltrials", kind }, { source: "pubmed", kind: other }])).toBe(
      `PubMed ${wordsOf[other].one} and ClinicalTrials.gov and the local library ${many}`,
    );
    expect(describeSourceFailures({ failed: [{ source: "pubmed", kind }, { source: "europepmc", kind }], used: ["local"] })).toBe(
      `PubMed and Europe PMC ${many}; these results come from the local library alone.`,
    );
    for (const sentence of [failuresInWords([{ source: "pubmed", kind }, { source: "europepmc", kind }]), describeSourceFailures({ failed: [{ source: "pubmed", kind }, { source: "local", kind }], used: [] })!]) {
      expect(sentence).not.toMatch(/\b(was|is|has)\b/);
    }
  });

  it("opens a sentence or a cell with a source's name as it is written: 'The local library', but 'bioRxiv'", () => {
    expect(sourceTitle("local")).toBe("The local library");
    expect(sourceTitle("biorxiv")).toBe("bioRxiv");
    expect(sourceTitle("medrxiv")).toBe("medRxiv");
    expect(describeSourceFailures({ failed: [{ source: "biorxiv", kind: "timeout" }], used: ["pubmed"] })).toBe("bioRxiv did not answer in time; these results come from PubMed alone.");
    expect(describeSourceFailures({ failed: [{ source: "local", kind: "internal_error" }], used: ["pubmed"] })).toBe("The local library failed inside the agent; these results come from PubMed alone.");
  });

  it("says the sentence once, in the answer's limits, before the source list", () => {
    const sourcesNote = describeSourceFailures({ failed: [{ source: "pubmed", kind: "rate_limited" }], used: ["europepmc"] });
    const question = "Does telomere length predict mortality?";
    const citable = [{ ordinal: 1, title: "Telomere length and mortality", url: "https://example.org/1", abstract: "Shorter telomere length was associated with higher mortality in 3,000 adults.", year: 2020, journal: null, label: "PMID 1", evidenceType: "observational" as const, relevance: 1 }];
    const out = composeAnswer({ reading: readQuestion(question), citable, sourcesNote });
    expect(out.answer).toMatch(/Limits: .*PubMed kept refusing requests \(rate limit\); these results come from Europe PMC alone\.$/);
    expect(out.answer.split("PubMed kept refusing").length).toBe(2);
    expect(out.formattedAnswer).toBe(`${out.answer}\n\n**Sources**\n\n1. Telomere length and mortality. (2020). PMID 1 <https://example.org/1>`);
    expect(composeAnswer({ reading: readQuestion(question), citable: [], sourcesNote }).answer).toMatch(/\n\nLimits: PubMed kept refusing requests/);
  });

  it("adds it to a chat answer, its reply and its text, with the sources typed, and keeps the citation audit valid", () => {
    const base: ChatResult = {
      reply: "No relevant evidence was found.",
      answer: "No relevant evidence was found.",
      text: "No relevant evidence was found.",
      conversationId: "c",
      references: [],
      rejectedReferences: [],
      quality: {
        citations: { markers: [], referenceCount: 0, outOfRangeOrdinals: [], missingMarkerOrdinals: [], uncitedReferenceOrdinals: [], allMarkersResolve: true, contiguousMarkers: true },
        roleCounts: {},
        citedSupportingOrdinals: [],
        citedContextOrdinals: [],
        citedLeadOnlyOrdinals: [],
        primaryEvidencePresent: false,
        containsNonSupportingCitations: false,
        contractValid: true,
      },
    };
    const out = chatResultSchema.parse(withChatSourceFailures(base, { failedSources: [{ source: "europepmc", kind: "unreachable" }], effectiveSources: ["pubmed", "local"] }));
    expect(out.answer).toBe("No relevant evidence was found. Europe PMC could not be reached; these results come from PubMed and the local library.");
    expect(out.reply).toBe(out.answer);
    expect(out.text).toBe(out.answer);
    expect(out.failedSources).toEqual([{ source: "europepmc", kind: "unreachable" }]);
    expect(withChatSourceFailures(base, { failedSources: [], effectiveSources: ["pubmed"] })).toEqual({ ...base, failedSources: [] });
  });
});

describe("reach: can any source answer?", () => {
  const library = (hasRecords: boolean) => {
    const db = { queries: 0, query: async () => (db.queries++, { rows: [{ has: hasRecords }] }) };
    return db as typeof db & Queryable;
  };

  it("a search in which every source failed and nothing was found cannot be answered; live sources answering with nothing can", () => {
    const failedSources = [{ source: "pubmed", kind: "unreachable" as const }];
    expect(() => assertReached({ failedSources, used: new Set<SourceName>(["local"]), recordCount: 0 })).toThrow(NoSourceAnsweredError);
    expect(() => assertReached({ failedSources, used: new Set<SourceName>(["local"]), recordCount: 2 })).not.toThrow();
    expect(() => assertReached({ failedSources, used: new Set<SourceName>(["europepmc"]), recordCount: 0 })).not.toThrow();
    expect(() => assertReached({ failedSources: [], used: new Set<SourceName>(), recordCount: 0 })).not.toThrow();
  });

  it("is unavailable only when every live source's circuit is open and the library is empty, with a Retry-After from the next probe", async () => {
    const time = fakeTime();
    const tracker = createSourceHealthTracker({ failureThreshold: 1, cooldownMs: 10_000, ...time });
    for (const s of ["pubmed", "europepmc", "local"] as const) tracker.register(s);
    const empty = library(false);
    const reach = createReachChecker({ tracker, db: empty, enabledSources: ["pubmed", "europepmc", "local"], now: time.now });
    expect((await reach.check()).available).toBe(true);
    expect((await reach.check()).localLibrary).toBe("empty");
    expect(empty.queries).toBe(1); // read once, then kept a few seconds
    tracker.recordFailure("pubmed", "unreachable");
    expect(await reach.check()).toMatchObject({ available: true, message: "PubMed is failing; searches use the other sources." });
    tracker.recordFailure("europepmc", "timeout");
    const down = literatureReachSchema.parse(await reach.check());
    expect(down).toMatchObject({ available: false, localLibrary: "empty", retryAfterSeconds: 11 });
    expect(down.message).toBe("No literature source can answer right now: PubMed and Europe PMC are failing and the local library is empty.");
    const withBooks = createReachChecker({ tracker, db: library(true), enabledSources: ["pubmed", "europepmc", "local"], now: time.now });
    expect(await withBooks.check()).toMatchObject({ available: true, localLibrary: "has_records" });
  });

  it("asks only about the sources given (a chat's fast sources), and says when the library is not in use", async () => {
    const tracker = createSourceHealthTracker({ failureThreshold: 1, cooldownMs: 10_000, ...fakeTime() });
    tracker.recordFailure("pubmed", "unreachable");
    tracker.register("crossref");
    const reach = createReachChecker({ tracker, db: library(false), enabledSources: ["pubmed", "crossref"] });
    expect((await reach.check()).available).toBe(true);
    const fast = await reach.check(["pubmed", "europepmc", "local"]);
    expect(fast).toMatchObject({ available: false, localLibrary: "disabled" });
  });
});

describe("the 503 of a search no source can answer", () => {
  it("is the LiteratureUnavailable body of the OpenAPI document, with Retry-After, on chat and literature", async () => {
    const { LiteratureUnavailableError } = await import("@/lib/shared/literature/unavailable");
    const { literatureUnavailableSchema } = await import("@/lib/shared/contracts");
    const { buildOpenApiDocument } = await import("@/lib/gateway/openapi/document");
    const error = new LiteratureUnavailableError({ message: "No literature source can answer right now.", retryAfterSeconds: 12.2, failedSources: [{ source: "pubmed", kind: "circuit_open" }] });
    const response = error.toResponse();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("13");
    expect(literatureUnavailableSchema.parse(await response.json())).toMatchObject({ error: "literature_unavailable", retryAfterSeconds: 13 });
    const doc = buildOpenApiDocument({ publicUrl: "https://gateway.test", maxBodyBytes: 256 * 1024 }) as { paths: Record<string, { post: { responses: Record<string, { description: string }> } }> };
    for (const route of ["/api/chat", "/api/literature"]) expect(doc.paths[route]!.post.responses["503"]!.description).toContain("literature_unavailable");
  });
});
