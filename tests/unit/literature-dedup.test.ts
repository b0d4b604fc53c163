import { describe, expect, it } from "vitest";
import { researchTurn } from "@/agent/deep-research/run";
import { runLiteratureSearch } from "@/agent/literature/engine";
import { mergeRecords } from "@/agent/literature/merge";
import type { LiteratureRecord, SourceName } from "@/agent/literature/record";
import type { LiteratureSource, SourceQuery } from "@/agent/literature/sources/types";
import { literatureQueryRequestSchema } from "@/lib/shared/contracts";
import { buildRecord } from "../support/records";

const TITLE = "Caloric restriction delays the onset of age-related disease in rhesus monkeys";

/** A record as the local library gives one that has no registry id: known by its library id only. */
const libraryOnly = (overrides: Partial<LiteratureRecord> = {}) =>
  buildRecord({
    ids: { local: "0b6f3c1e-5d3a-8e2b-9c4d-1a2b3c4d5e6f" },
    title: TITLE,
    abstract: "Caloric restriction delays the onset of age-related disease in rhesus monkeys. Animals on a restricted diet had fewer cancers.",
    year: 2015,
    date: null,
    mesh: ["Animals", "Macaca mulatta", "Caloric Restriction"],
    source: "local",
    sources: ["local"],
    url: "http://localhost:3001/api/library/records/0b6f3c1e-5d3a-8e2b-9c4d-1a2b3c4d5e6f",
    ...overrides,
  });

describe("one record once: merging by identifier and by normalized title", () => {
  it("merges the same library record found by several query variants (its only id is the library's)", () => {
    expect(mergeRecords([libraryOnly(), libraryOnly(), libraryOnly(), libraryOnly()])).toHaveLength(1);
  });

  it("merges records whose titles differ only in case, punctuation and spacing, keeping every source and id", () => {
    const crossref = buildRecord({ ids: { doi: "10.5555/cr.1" }, title: "CALORIC RESTRICTION delays the onset of age-related disease in rhesus monkeys.", year: 2015, source: "crossref", sources: ["crossref"], abstract: null });
    const merged = mergeRecords([libraryOnly(), crossref]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.ids).toMatchObject({ doi: "10.5555/cr.1", local: expect.any(String) });
    expect(merged[0]!.sources.sort()).toEqual(["crossref", "local"]);
  });

  it("keeps the journal, volume, issue, pages and authors a merged record's sources give, the richest source's first", () => {
    const pubmed = buildRecord({ ids: { pmid: "90000098", doi: "10.5555/cite.1" }, title: TITLE, journal: "J Aging", volume: "66", pages: "1116-1122", authors: ["Bao Y", "Prescott J"] });
    const crossref = buildRecord({ ids: { doi: "10.5555/cite.1" }, title: TITLE, journal: "Journal of Aging", volume: "66", issue: "6", pages: "1116-1122", authors: ["Ying Bao"], source: "crossref", sources: ["crossref"], abstract: null });
    const [merged, ...rest] = mergeRecords([crossref, pubmed]);
    expect(rest).toEqual([]);
    expect(merged).toMatchObject({ journal: "J Aging", volume: "66", issue: "6", pages: "1116-1122", authors: ["Bao Y", "Prescott J"] });
  });

  it("joins a preprint to its journal version of the same title, which then leads", () => {
    const preprint = buildRecord({ ids: { doi: "10.1101/2020.01.01.000001" }, title: TITLE, year: 2014, isPreprint: true, source: "europepmc", sources: ["europepmc"] });
    const journal = buildRecord({ ids: { doi: "10.5555/journal.1", pmid: "90000099" }, title: TITLE, year: 2015 });
    const merged = mergeRecords([preprint, journal]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ isPreprint: false, ids: expect.objectContaining({ pmid: "90000099" }) });
  });

  it("keeps apart records of the same title that are different papers: other PMIDs, years far apart, or titles too generic to identify", () => {
    const a = buildRecord({ ids: { pmid: "1" }, title: TITLE, year: 2015 });
    const b = buildRecord({ ids: { pmid: "2" }, title: TITLE, year: 2015 });
    expect(mergeRecords([a, b])).toHaveLength(2);
    const later = buildRecord({ ids: { doi: "10.5555/later" }, title: TITLE, year: 2021 });
    expect(mergeRecords([libraryOnly(), later])).toHaveLength(2);
    const editorials = [buildRecord({ ids: { doi: "10.5555/e1" }, title: "Editorial", year: 2020 }), buildRecord({ ids: { doi: "10.5555/e2" }, title: "Editorial.", year: 2020 })];
    expect(mergeRecords(editorials)).toHaveLength(2);
  });

  it("never chains two papers with different PMIDs together through a third record of the same title", () => {
    const a = buildRecord({ ids: { pmid: "1" }, title: TITLE, year: 2015 });
    const bare = libraryOnly();
    const c = buildRecord({ ids: { pmid: "2" }, title: TITLE, year: 2015 });
    const merged = mergeRecords([a, bare, c]);
    expect(merged).toHaveLength(2);
    expect(merged.map((r) => r.ids.pmid).sort()).toEqual(["1", "2"]);
  });
});

describe("the engine reports each paper once, and a true count of what it merged", () => {
  const source = (name: SourceName, records: () => LiteratureRecord[]): LiteratureSource & { queries: SourceQuery[] } => {
    const queries: SourceQuery[] = [];
    return { name, queries, search: async (q) => (queries.push(q), records()) };
  };

  it("lists a record found by every deep-mode variant and by two sources once", async () => {
    const local = source("local", () => [libraryOnly()]);
    const europepmc = source("europepmc", () => [
      buildRecord({ ids: { pmid: "90000055" }, title: "Caloric restriction delays the onset of age-related disease in rhesus monkeys", year: 2015, source: "europepmc", sources: ["europepmc"] }),
    ]);
    const result = await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: "Does caloric restriction delay age-related disease in rhesus monkeys?", mode: "deep" }), {
      sources: { local, europepmc },
    });
    expect(local.queries.length).toBeGreaterThan(1); // several variants, each finding the same record
    const titles = (result.references ?? []).map((r) => r.title.toLowerCase());
    expect(titles).toEqual([TITLE.toLowerCase()]);
    expect(result.quality!.rawCount).toBe(1);
    const found = local.queries.length + europepmc.queries.length;
    expect(result.reasoning!.join(" ")).toContain(`Merged ${found} records into 1`);
  });
});

describe("deep research keeps each work once across its iterations", () => {
  it("cites a paper found again under other ids in later iterations once, and records its finding once", async () => {
    // Each iteration's search finds the same paper as another source would: PMID and DOI first,
    // then the DOI alone from Crossref, then the library's copy known only by its title.
    const copies = [
      buildRecord({ ids: { pmid: "90000077", doi: "10.5555/cr.77" }, title: TITLE, year: 2015 }),
      buildRecord({ ids: { doi: "10.5555/CR.77" }, title: TITLE, year: 2015, source: "crossref", sources: ["crossref"], url: "https://doi.org/10.5555/cr.77" }),
      libraryOnly(),
    ];
    const objectives: string[] = [];
    const local: LiteratureSource = {
      name: "local",
      search: async (q) => {
        if (!objectives.includes(q.text)) objectives.push(q.text);
        return [copies[Math.min(objectives.indexOf(q.text), 2)]!];
      },
    };
    const { result, world } = await researchTurn({
      question: "Does caloric restriction delay age-related disease in rhesus monkeys?",
      done: [],
      world: { objectives: [], findings: [], hypotheses: [], openQuestions: [], sources: [] },
      engine: { sources: { local } },
      iterations: 3,
      budgetSeconds: 60,
      ids: { conversationId: "c", messageId: "m" },
      progress: async () => undefined,
      signal: new AbortController().signal,
      state: async () => undefined,
      save: async () => undefined,
    });
    expect(objectives).toHaveLength(3); // each iteration searched, and found its copy
    expect(result.references.map((r) => r.title)).toEqual([TITLE]);
    // Its findings rest on that one work, once per evidence axis (its main finding on its design's
    // axis, a sentence on mechanism, safety or dose on that one), never a sentence twice.
    expect(world.findings.length).toBeGreaterThan(0);
    expect(new Set(world.findings.map((f) => f.axis)).size).toBe(world.findings.length);
    expect(new Set(world.findings.map((f) => f.statement)).size).toBe(world.findings.length);
    expect(world.findings.every((f) => f.references.length === 1 && f.references[0]!.title === TITLE)).toBe(true);
  });
});
