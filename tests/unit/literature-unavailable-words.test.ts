/**
 * A search that found nothing to answer from says what happened, from its typed reason: no source
 * could be searched at all (`no_source_reachable`: asking again after Retry-After may help), or the
 * live sources failed and the local library, which answered, has nothing on the question
 * (`nothing_in_library`: asking the same again helps only once a live source is back; other words
 * or a wider question may help now). Agent, page and MCP say it alike, and never by a regex over
 * another module's message.
 */
import { describe, expect, it } from "vitest";
import { assertReached, NoSourceAnsweredError } from "@/agent/literature/reach";
import type { FailedSource } from "@/lib/shared/contracts";
import { NO_SOURCE_REACHABLE, NOTHING_IN_LIBRARY } from "@/lib/shared/contracts/unavailable-reasons";
import { LiteratureUnavailableError } from "@/lib/shared/literature/unavailable";
import { errorText } from "@/lib/gateway/mcp/present";
import { describeResponse } from "@/lib/web/describe-response";

const LIVE_DOWN: FailedSource[] = [
  { source: "pubmed", kind: "unreachable" },
  { source: "europepmc", kind: "unreachable" },
];

function thrown(run: () => void): NoSourceAnsweredError {
  try {
    run();
  } catch (err) {
    if (err instanceof NoSourceAnsweredError) return err;
    throw err;
  }
  throw new Error("nothing was thrown");
}

describe("the agent: a search that reached nothing says which half of the truth holds", () => {
  it("the live sources failed and the library answered with nothing: both said, reason nothing_in_library", () => {
    const err = thrown(() => assertReached({ failedSources: LIVE_DOWN, used: new Set(["local"]), recordCount: 0 }));
    expect(err.reason).toBe(NOTHING_IN_LIBRARY);
    expect(err.message).toBe("PubMed and Europe PMC could not be reached, and the local library has nothing on this question.");
  });

  it("no source answered at all (the library not asked): no word about the library, reason no_source_reachable", () => {
    const err = thrown(() => assertReached({ failedSources: LIVE_DOWN, used: new Set(), recordCount: 0 }));
    expect(err.reason).toBe(NO_SOURCE_REACHABLE);
    expect(err.message).toBe("No literature source could answer: PubMed and Europe PMC could not be reached.");
  });

  it("a failed library is named among the failures, never said to have nothing on the question", () => {
    const err = thrown(() => assertReached({ failedSources: [...LIVE_DOWN, { source: "local", kind: "internal_error" }], used: new Set(), recordCount: 0 }));
    expect(err.reason).toBe(NO_SOURCE_REACHABLE);
    expect(err.message).not.toContain("has nothing on this question");
    expect(err.message).toContain("the local library failed inside the agent");
  });

  it("a live source that answered, or a library that found records, is an answer, not a failure", () => {
    expect(() => assertReached({ failedSources: LIVE_DOWN.slice(0, 1), used: new Set(["europepmc"]), recordCount: 0 })).not.toThrow();
    expect(() => assertReached({ failedSources: LIVE_DOWN, used: new Set(["local"]), recordCount: 2 })).not.toThrow();
  });

  it("the 503 carries the reason it was given", () => {
    const body = new LiteratureUnavailableError({ message: "m", retryAfterSeconds: 30, failedSources: LIVE_DOWN, reason: NOTHING_IN_LIBRARY }).toBody();
    expect(body).toMatchObject({ error: "literature_unavailable", reason: NOTHING_IN_LIBRARY, retryAfterSeconds: 30 });
    expect(new LiteratureUnavailableError({ message: "m", retryAfterSeconds: 30 }).toBody()).toMatchObject({ reason: NO_SOURCE_REACHABLE });
  });
});

describe("the page says it in words, with what would help", () => {
  const headers = new Headers({ "retry-after": "30" });
  const body = (reason: string, failedSources: FailedSource[] = LIVE_DOWN) => ({ error: "literature_unavailable", reason, message: "the agent's words", failedSources, retryAfterSeconds: 30 });

  it("nothing in the library: both halves, no promise that trying again in 30 s helps, other words or a wider question", () => {
    const said = describeResponse(503, body(NOTHING_IN_LIBRARY), headers)!;
    expect(said.message).toBe("PubMed and Europe PMC could not be reached, and the local library has nothing on this question.");
    expect(said.action).not.toMatch(/Try again in \d+ s/);
    expect(said.action).toContain("Nothing was charged.");
    expect(said.action).toContain("helps only once one of them can be searched again");
    expect(said.action).toContain("other words");
    expect(said.action).toContain("a wider question");
  });

  it("the circuits' own words when the live sources were skipped for failing", () => {
    const said = describeResponse(503, body(NOTHING_IN_LIBRARY, [{ source: "pubmed", kind: "circuit_open" }]), headers)!;
    expect(said.message).toMatch(/^PubMed was not asked, having failed repeatedly just before, and the local library has nothing on this question\.$/);
    expect(said.action).toContain("helps only once PubMed can be searched again");
  });

  it("no source reachable: the outage, and when to try again", () => {
    const said = describeResponse(503, body(NO_SOURCE_REACHABLE), headers)!;
    expect(said.message).toBe("No literature source can answer right now: PubMed and Europe PMC are failing and the local library has nothing to offer.");
    expect(said.action).toBe("Nothing was charged. Try again in 30 s.");
  });

  it("an unknown reason reads as the general one", () => {
    expect(describeResponse(503, body("something_new"), headers)!.action).toBe("Nothing was charged. Try again in 30 s.");
  });
});

describe("an agent using the MCP server reads the same", () => {
  it("nothing in the library: asking the same again helps only once a live source is back", () => {
    const text = errorText({ status: 503, body: { error: "literature_unavailable", reason: NOTHING_IN_LIBRARY, message: "PubMed could not be reached, and the local library has nothing on this question.", charged: false } } as never, { retryAfterSeconds: 30 });
    expect(text).toContain("helps only once a live literature source can be searched again (the next try is in 30 seconds)");
    expect(text).toContain("other words");
    expect(text).not.toContain("Try again in 30 seconds");
  });
});
