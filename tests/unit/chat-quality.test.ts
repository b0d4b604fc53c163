import { describe, expect, it } from "vitest";
import { composeChatResult, roleOf } from "@/agent/chat/compose";
import { readQuestion } from "@/agent/literature/reading";
import { computeQuality, readMarkers } from "@/agent/chat/quality";
import type { EngineResult } from "@/agent/literature/result";
import { chatMetadataSchema, chatResultSchema, type ChatReference } from "@/lib/shared/contracts";
import { buildChatReference } from "../support/builders";

/** A seeded generator, so the property runs are the same every time. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** The audit, written again independently of agent/chat/quality.ts. */
function expected(markers: number[], refs: ChatReference[]) {
  const ords = new Set(refs.map((r) => r.ordinal));
  const cited = [...new Set(markers)];
  const max = cited.reduce((m, n) => Math.max(m, n), 0);
  const gaps = Array.from({ length: Math.max(0, max - 1) }, (_, i) => i + 1).filter((n) => !cited.includes(n));
  return {
    outOfRange: cited.filter((n) => !ords.has(n)).sort((a, b) => a - b),
    gaps,
    uncited: [...ords].filter((n) => !cited.includes(n)).sort((a, b) => a - b),
    supportingCited: cited.filter((n) => refs.find((r) => r.ordinal === n)?.evidenceRole === "supporting").sort((a, b) => a - b),
    valid:
      cited.every((n) => ords.has(n)) &&
      (refs.length === 0 ? markers.length === 0 : markers.length > 0) &&
      !cited.some((n) => refs.find((r) => r.ordinal === n)?.evidenceRole === "lead_only"),
  };
}

describe("the citation audit (section 2.7)", () => {
  it("reads markers, including lists and ranges", () => {
    expect(readMarkers("A [1]. B [2, 3]. C [4–6] and [2-3].")).toEqual([1, 2, 3, 4, 5, 6, 2, 3]);
  });

  it("flags out-of-range markers, gaps and uncited references", () => {
    const refs = [1, 2, 3].map((ordinal) => buildChatReference({ ordinal }));
    const q = computeQuality("Claim [1]. Other [3]. Wrong [7].", refs);
    expect(q.citations).toMatchObject({ markers: [1, 3, 7], referenceCount: 3, outOfRangeOrdinals: [7], missingMarkerOrdinals: [2, 4, 5, 6], uncitedReferenceOrdinals: [2], allMarkersResolve: false, contiguousMarkers: false });
    expect(q.contractValid).toBe(false);
  });

  it("is invalid when an answer with references cites none, or cites a lead", () => {
    const refs = [buildChatReference({ ordinal: 1 }), buildChatReference({ ordinal: 2, evidenceRole: "lead_only" })];
    expect(computeQuality("No markers here.", refs).contractValid).toBe(false);
    expect(computeQuality("Claim [2].", refs).contractValid).toBe(false);
    expect(computeQuality("Claim [1].", refs).contractValid).toBe(true);
    expect(computeQuality("Nothing was found.", []).contractValid).toBe(true);
  });

  it("matches an independent recomputation on 500 generated answers and reference lists", () => {
    const next = random(20261122);
    const roles = ["supporting", "context", "lead_only"] as const;
    for (let run = 0; run < 500; run++) {
      const refCount = Math.floor(next() * 7);
      const refs = Array.from({ length: refCount }, (_, i) => buildChatReference({ ordinal: i + 1, evidenceRole: roles[Math.floor(next() * 3)]! }));
      const markers = Array.from({ length: Math.floor(next() * 8) }, () => 1 + Math.floor(next() * (refCount + 3)));
      const answer = markers.map((m, i) => `Sentence ${i} [${m}].`).join(" ");
      const q = computeQuality(answer, refs);
      const e = expected(markers, refs);
      expect(q.citations.markers).toEqual(markers);
      expect(q.citations.outOfRangeOrdinals).toEqual(e.outOfRange);
      expect(q.citations.missingMarkerOrdinals).toEqual(e.gaps);
      expect(q.citations.uncitedReferenceOrdinals).toEqual(e.uncited);
      expect(q.citedSupportingOrdinals).toEqual(e.supportingCited);
      expect(q.contractValid).toBe(e.valid);
      expect(Object.values(q.roleCounts).reduce((a, b) => a + b, 0)).toBe(refCount);
    }
  });
});

const engineRef = (overrides: Record<string, unknown>) => ({
  id: 1,
  title: "Rapamycin extends lifespan in mice",
  url: "https://pubmed.ncbi.nlm.nih.gov/19587680/",
  source: "pubmed",
  year: 2009,
  pmid: "19587680",
  doi: null,
  pmcid: null,
  evidenceType: "preclinical",
  verification: "verified",
  confidence: 0.5,
  abstract: "Background sentence about ageing research. Rapamycin extended median lifespan of male and female mice fed late in life.",
  relevance: { accepted: true, score: 0.9, matchedTerms: ["rapamycin", "lifespan", "mice"], flags: [] },
  ...overrides,
});

describe("the chat answer", () => {
  it("gives roles: a study that tests the question supports; retracted and off-topic ones are leads, commentary and a study of one part are context", () => {
    const reading = readQuestion("Does rapamycin extend lifespan in mice?");
    expect(roleOf(engineRef({}) as never, reading).role).toBe("supporting");
    expect(roleOf(engineRef({ isRetracted: true }) as never, reading).role).toBe("lead_only");
    expect(roleOf(engineRef({ evidenceType: "commentary" }) as never, reading).role).toBe("context");
    const partial = roleOf(engineRef({ relevance: { accepted: true, score: 0.42, matchedTerms: ["rapamycin", "mice"], flags: [], missingConcepts: ["lifespan"] } }) as never, reading);
    expect(partial).toEqual({ role: "context", reason: "does not study lifespan; shown for context, not counted in the verdict" });
    expect(roleOf(engineRef({ relevance: { accepted: false, score: 0.1, matchedTerms: [], flags: [], reason: "off_topic", missingConcepts: ["rapamycin"] } }) as never, reading)).toEqual({
      role: "lead_only",
      reason: "does not study rapamycin",
    });
    // The engine's own decision is read as it is, never re-derived.
    expect(roleOf(engineRef({ evidenceRole: "context", roleReason: "does not study lifespan" }) as never, reading).role).toBe("context");
  });

  it("cites every claim, leads with the strongest design, and says when evidence is thin and preclinical", () => {
    // Partial references (no label, role or grading reasons): the fields the chat answer reads.
    const literature = {
      references: [
        engineRef({}),
        engineRef({
          id: 2,
          pmid: "30000001",
          url: "https://pubmed.ncbi.nlm.nih.gov/30000001/",
          title: "A randomized trial of rapamycin in older adults",
          evidenceType: "randomized_controlled_trial",
          abstract: "In this randomized trial, rapamycin did not change lifespan markers in older adults.",
        }),
      ],
      rejectedReferences: [engineRef({ id: 3, pmid: "1", relevance: { accepted: false, score: 0.1, matchedTerms: [], flags: [], reason: "off_topic" } })],
    } as unknown as EngineResult;
    const result = composeChatResult({ question: "Does rapamycin extend lifespan in mice?", literature, conversationId: "c" });
    expect(chatResultSchema.safeParse(result).success).toBe(true);
    expect(result.references.map((r) => r.evidenceType)).toEqual(["randomized_controlled_trial", "preclinical"]);
    expect(result.answer).toMatch(/\[1\][\s\S]*\[2\]/);
    expect(result.answer).toMatch(/thin/);
    expect(result.answer).toMatch(/mixed/);
    expect(result.quality).toMatchObject({ contractValid: true, primaryEvidencePresent: true, citations: { allMarkersResolve: true, contiguousMarkers: true } });
    expect(result.rejectedReferences[0]).toMatchObject({ candidateOrdinal: 1, evidenceRole: "lead_only" });
    expect(result.text).toContain("**Sources**");
    expect(result.reply).toBe(result.answer);
  });

  it("records how it was written in the metadata the document states (ChatMetadata), with nothing beside it", () => {
    const literature = { references: [engineRef({}), engineRef({ id: 2, pmid: "30000001", url: "https://pubmed.ncbi.nlm.nih.gov/30000001/" })] } as unknown as EngineResult;
    for (const refs of [literature, { references: [] }]) {
      const result = composeChatResult({ question: "Does rapamycin extend lifespan in mice?", literature: refs, conversationId: "c" });
      expect(chatMetadataSchema.strict().parse(result.metadata)).toEqual(result.metadata);
    }
  });

  it("answers without markers when nothing was found", () => {
    const result = composeChatResult({ question: "q", literature: { references: [] }, conversationId: "c" });
    expect(result.answer).toMatch(/No relevant evidence/);
    expect(result.quality.contractValid).toBe(true);
    expect(result.quality.citations.markers).toEqual([]);
  });
});
