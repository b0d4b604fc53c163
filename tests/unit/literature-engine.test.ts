import { describe, expect, it } from "vitest";
import { splitSentences } from "@/agent/literature/answer";
import { runLiteratureSearch, type EngineDeps } from "@/agent/literature/engine";
import { classifyEvidence } from "@/agent/literature/evidence";
import { mergeRecords } from "@/agent/literature/merge";
import type { LiteratureRecord, SourceName } from "@/agent/literature/record";
import { judgeRecords } from "@/agent/literature/relevance";
import { SourceError, type LiteratureSource, type SourceQuery } from "@/agent/literature/sources/types";
import { extractTerms } from "@/agent/literature/terms";
import { scoreConfidence, verifyRecord } from "@/agent/literature/verification";
import { literatureJobResultSchema, literatureQueryRequestSchema, type LiteratureQueryInput } from "@/lib/shared/contracts";
import { buildRecord, buildTrialDesign } from "../support/records";

const trial = buildTrialDesign;

describe("evidence type, first rule that matches", () => {
  it.each([
    [{ trial: trial({ allocation: "RANDOMIZED" }) }, "randomized_controlled_trial"],
    [{ trial: trial({ allocation: "NON_RANDOMIZED" }) }, "controlled_trial"],
    [{ trial: trial({ allocation: "NA", interventionModel: "SINGLE_GROUP" }) }, "single_arm_trial"],
    [{ trial: trial({ studyType: "OBSERVATIONAL" }) }, "observational"],
    [{ publicationTypes: ["Journal Article", "Randomized Controlled Trial"] }, "randomized_controlled_trial"],
    [{ publicationTypes: ["Controlled Clinical Trial"] }, "controlled_trial"],
    [{ publicationTypes: ["Pragmatic Clinical Trial"] }, "controlled_trial"],
    [{ publicationTypes: ["Clinical Trial, Phase II"] }, "single_arm_trial"],
    [{ publicationTypes: ["Clinical Trial"] }, "single_arm_trial"],
    [{ publicationTypes: ["Meta-Analysis"] }, "systematic_review"],
    [{ publicationTypes: ["Systematic Review"] }, "systematic_review"],
    [{ publicationTypes: ["Review"] }, "narrative_review"],
    [{ publicationTypes: ["Observational Study"] }, "observational"],
    [{ publicationTypes: ["Case Reports"] }, "observational"],
    [{ publicationTypes: ["Journal Article"], mesh: ["Humans", "Cohort Studies"] }, "observational"],
    [{ publicationTypes: ["Comment"] }, "commentary"],
    [{ publicationTypes: ["Editorial"] }, "commentary"],
    [{ publicationTypes: ["Journal Article"], mesh: ["Animals", "Mice"] }, "preclinical"],
    [{ publicationTypes: ["Journal Article"], mesh: ["Humans"] }, "unknown"],
    // The trial registry outranks the publication types; an RCT beats Review.
    [{ trial: trial({ allocation: "RANDOMIZED" }), publicationTypes: ["Review"] }, "randomized_controlled_trial"],
    [{ publicationTypes: ["Review", "Randomized Controlled Trial"] }, "randomized_controlled_trial"],
  ] as const)("%j → %s", (overrides, type) => {
    expect(classifyEvidence(buildRecord(overrides as Partial<LiteratureRecord>)).type).toBe(type);
  });
});

describe("merging duplicates across sources", () => {
  it("joins by DOI, PMID and PMCID transitively, keeping the richest metadata and every source", () => {
    const pubmed = buildRecord({ ids: { pmid: "1", doi: "10.1/a" }, sources: ["pubmed"], source: "pubmed", abstract: "short", mesh: ["Humans"] });
    const epmc = buildRecord({ ids: { pmid: "1", pmcid: "PMC9" }, sources: ["europepmc"], source: "europepmc", abstract: "a much longer abstract text", citedByCount: 12, mesh: [] });
    const openalex = buildRecord({ ids: { pmcid: "PMC9", openalex: "W1" }, sources: ["openalex"], source: "openalex", isRetracted: true, abstract: null });
    const other = buildRecord({ ids: { doi: "10.1/b" }, title: "Another paper" });
    const merged = mergeRecords([pubmed, epmc, openalex, other]);
    expect(merged).toHaveLength(2);
    const one = merged.find((r) => r.ids.pmid === "1")!;
    expect(one.ids).toMatchObject({ pmid: "1", doi: "10.1/a", pmcid: "PMC9", openalex: "W1" });
    expect(one.sources.sort()).toEqual(["europepmc", "openalex", "pubmed"]);
    expect(one.abstract).toBe("a much longer abstract text");
    expect(one.citedByCount).toBe(12);
    expect(one.isRetracted).toBe(true);
    expect(one.url).toContain("pubmed");
  });

  it("matches ids case-insensitively and keeps a preprint flag only if every copy is a preprint", () => {
    const preprint = buildRecord({ ids: { doi: "10.1101/2024.01.01.1" }, isPreprint: true, source: "europepmc", sources: ["europepmc"] });
    const journal = buildRecord({ ids: { doi: "10.1101/2024.01.01.1".toUpperCase() }, isPreprint: false, source: "crossref", sources: ["crossref"] });
    const [merged] = mergeRecords([preprint, journal]);
    expect(merged!.isPreprint).toBe(false);
  });
});

describe("relevance", () => {
  const terms = extractTerms("Does rapamycin extend lifespan in mice?");
  it("extracts content terms with synonyms", () => {
    expect(terms.map((t) => t.term)).toEqual(["rapamycin", "extend", "lifespan", "mice"]);
    expect(terms[0]!.stems).toContain("sirolimu"); // the Porter stem of "sirolimus"
    expect(terms[3]!.stems).toEqual(expect.arrayContaining(["mice", "mous", "murin"]));
  });

  it("scores, flags and rejects with reasons", () => {
    const onTopic = buildRecord();
    const offTopic = buildRecord({ ids: { pmid: "2" }, title: "Dietary fibre and colon transit", abstract: "Fibre changed colonic transit in adults.", mesh: ["Humans"] });
    const retracted = buildRecord({ ids: { pmid: "3" }, isRetracted: true });
    const preprint = buildRecord({ ids: { ppr: "PPR1" }, isPreprint: true, abstract: null });
    const [a, b, c, d] = judgeRecords([onTopic, offTopic, retracted, preprint], terms, { scope: "no-preprints" });
    expect(a).toMatchObject({ accepted: true, reason: null });
    expect(a!.matchedTerms).toEqual(["rapamycin", "extend", "lifespan", "mice"]);
    expect(a!.flags).toContain("animal_only");
    expect(b).toMatchObject({ accepted: false, reason: "off_topic" });
    expect(b!.flags).toContain("off_topic");
    expect(c).toMatchObject({ accepted: false, reason: "retracted" });
    expect(d).toMatchObject({ accepted: false, reason: "preprint_excluded" });
    expect(d!.flags).toEqual(expect.arrayContaining(["preprint", "no_abstract"]));
  });

  it("applies date filters, treating a year-only record by its year", () => {
    const old = buildRecord({ date: "2009-07-16", year: 2009 });
    const yearOnly = buildRecord({ ids: { pmid: "5" }, date: null, year: 2021 });
    const [a, b] = judgeRecords([old, yearOnly], terms, { dateFrom: "2020-01-01", dateTo: "2021-12-31" });
    expect(a).toMatchObject({ accepted: false, reason: "out_of_date_range" });
    expect(b!.accepted).toBe(true);
  });
});

describe("verification fails closed", () => {
  it.each([
    [buildRecord(), {}, "verified"],
    [buildRecord({ abstract: null }), {}, "unknown"],
    [buildRecord({ sources: ["europepmc"], source: "europepmc" }), {}, "probable"],
    [buildRecord({ sources: ["local"], source: "local", ids: { pmid: "19587680" } }), {}, "unknown"],
    [buildRecord({ sources: ["local"], source: "local", ids: { doi: "10.1/x" } }), { doi: "match" as const }, "verified"],
    [buildRecord({ sources: ["local"], source: "local", ids: { doi: "10.1/x" } }), { doi: "mismatch" as const }, "unknown"],
    [buildRecord({ sources: ["local"], source: "local", ids: { doi: "10.1/x" } }), { doi: "failed" as const }, "unknown"],
    [buildRecord({ sources: ["clinicaltrials"], source: "clinicaltrials", ids: { nct: "NCT01" }, abstract: null, trial: trial({}) }), {}, "verified"],
  ])("%#", (record, check, level) => {
    expect(verifyRecord(record, check).level).toBe(level);
  });

  it("gives confidence a reason, and a retracted paper none", () => {
    const c = scoreConfidence({ record: buildRecord(), evidenceType: "randomized_controlled_trial", verification: "verified", relevance: 1, animalOnly: false });
    expect(c.confidence).toBe(0.9);
    expect(c.reason).toContain("randomized controlled trial");
    expect(scoreConfidence({ record: buildRecord({ isRetracted: true }), evidenceType: "randomized_controlled_trial", verification: "verified", relevance: 1, animalOnly: false }).confidence).toBe(0);
    const weak = scoreConfidence({ record: buildRecord({ isPreprint: true }), evidenceType: "observational", verification: "unknown", relevance: 0.5, animalOnly: true });
    expect(weak.confidence).toBeLessThan(0.3);
  });
});

/** A source double: canned records per query, or a failure. */
function fakeSource(name: SourceName, answer: (q: SourceQuery) => LiteratureRecord[] | Error): LiteratureSource & { queries: SourceQuery[] } {
  const queries: SourceQuery[] = [];
  return {
    name,
    queries,
    search: async (q) => {
      queries.push(q);
      const a = answer(q);
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

const request = (input: LiteratureQueryInput) => literatureQueryRequestSchema.parse(input);

describe("the engine", () => {
  const rapamycin = buildRecord();
  const metformin = buildRecord({
    ids: { pmid: "30000001", doi: "10.1/met" },
    title: "Metformin use and mortality in older adults: a randomized controlled trial",
    abstract: "In this randomized trial of 3000 older adults, metformin did not reduce all-cause mortality compared with placebo over five years.",
    publicationTypes: ["Randomized Controlled Trial"],
    mesh: ["Humans", "Aged", "Metformin"],
    year: 2022,
    date: "2022-03-01",
  });
  const deps = (sources: Partial<Record<SourceName, LiteratureSource>>): EngineDeps => ({ sources });

  it("answers with [N] markers that resolve to accepted references, and fills section 2.11", async () => {
    const pubmed = fakeSource("pubmed", () => [rapamycin, metformin]);
    const europepmc = fakeSource("europepmc", () => [{ ...rapamycin, source: "europepmc", sources: ["europepmc"] }]);
    const result = await runLiteratureSearch(request({ question: "Does rapamycin extend lifespan in mice?" }), deps({ pubmed, europepmc }));
    expect(literatureJobResultSchema.safeParse(result).success).toBe(true);
    const refs = result.references!;
    expect(refs).toHaveLength(1); // metformin is off topic and filtered out
    expect(refs[0]).toMatchObject({ id: 1, title: rapamycin.title, item_date: "2009-07-16", evidenceType: "preclinical", verification: "verified" });
    const markers = [...result.answer!.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(markers.length).toBeGreaterThan(0);
    for (const n of markers) expect(refs.some((r) => r.id === n)).toBe(true);
    expect(result.formattedAnswer).toContain("**Sources**");
    expect(result.contextPassages![0]).toMatchObject({ ordinal: 1, referenceId: "PMID 19587680" });
    expect(result.effectiveSources!.sort()).toEqual(["europepmc", "pubmed"]);
    expect(result.fallbackUsed).toBe(false);
    expect(result.quality).toMatchObject({ filtered: true, rawCount: 2, acceptedCount: 1, rejectedCount: 1, rejectionReasons: { off_topic: 1 }, evidenceThin: true });
    expect(result.reasoning!.join(" ")).toContain("Merged 3 records into 2");
  });

  it("keeps other sources' results when one fails, and says so", async () => {
    const pubmed = fakeSource("pubmed", () => new SourceError("pubmed", "timeout", "no answer in 8000 ms"));
    const europepmc = fakeSource("europepmc", () => [rapamycin]);
    const result = await runLiteratureSearch(request({ question: "rapamycin lifespan mice" }), deps({ pubmed, europepmc }));
    expect(result.fallbackUsed).toBe(true);
    expect(result.effectiveSources).toEqual(["europepmc"]);
    expect(result.references).toHaveLength(1);
    expect(result.reasoning!.join(" ")).toContain("pubmed failed (timeout)");
  });

  it("returns raw references with filterReferences false, and rejected ones with reasons when asked", async () => {
    const pubmed = fakeSource("pubmed", () => [rapamycin, metformin]);
    const raw = await runLiteratureSearch(request({ question: "rapamycin lifespan mice", filterReferences: false, includeRejected: true }), deps({ pubmed }));
    expect(raw.references).toHaveLength(2);
    expect(raw.quality!.filtered).toBe(false);
    expect(raw.rejectedReferences).toEqual([expect.objectContaining({ title: metformin.title, relevance: expect.objectContaining({ reason: "off_topic" }) })]);
    expect([...raw.answer!.matchAll(/\[(\d+)\]/g)].every((m) => m[1] === "1")).toBe(true);
  });

  it("uses the mode's sources: fast skips the trial registry; scope trials uses only it and the library", async () => {
    const all = Object.fromEntries(
      (["pubmed", "europepmc", "clinicaltrials", "crossref", "local"] as const).map((n) => [n, fakeSource(n, () => [])]),
    ) as Record<string, ReturnType<typeof fakeSource>>;
    await runLiteratureSearch(request({ question: "senolytics frailty" }), deps(all));
    expect(all.clinicaltrials!.queries).toHaveLength(0);
    expect(all.pubmed!.queries).toHaveLength(1);
    await runLiteratureSearch(request({ question: "senolytics frailty", mode: "deep" }), deps(all));
    expect(all.clinicaltrials!.queries.length).toBeGreaterThan(0);
    expect(all.pubmed!.queries.length).toBeGreaterThan(2); // more query variants in deep mode
    const before = all.pubmed!.queries.length;
    await runLiteratureSearch(request({ question: "senolytics frailty", scope: "trials", date_from: "2020-01-01" }), deps(all));
    expect(all.pubmed!.queries.length).toBe(before);
    expect(all.clinicaltrials!.queries.at(-1)).toMatchObject({ scope: "trials", dateFrom: "2020-01-01" });
    const counts = () => Object.fromEntries(Object.entries(all).map(([n, src]) => [n, src.queries.length]));
    const beforePreprints = counts();
    await runLiteratureSearch(request({ question: "senolytics frailty", scope: "preprints", year: "2023" }), deps(all));
    const after = counts();
    expect(Object.keys(after).filter((n) => after[n] !== beforePreprints[n])).toEqual(["europepmc"]);
    expect(all.europepmc!.queries.at(-1)).toMatchObject({ scope: "preprints", dateFrom: "2023-01-01", dateTo: "2023-12-31" });
  });

  it("makes one round trip per source in fast mode: PubMed strict, Europe PMC broadened; deep and lone sources keep both", async () => {
    const sources = () => ({ pubmed: fakeSource("pubmed", () => [rapamycin]), europepmc: fakeSource("europepmc", () => []) });
    const fast = sources();
    await runLiteratureSearch(request({ question: "Does rapamycin extend lifespan in mice?" }), deps(fast));
    expect(fast.pubmed.queries.map((q) => q.breadth)).toEqual(["strict"]);
    expect(fast.europepmc.queries.map((q) => q.breadth)).toEqual(["broad"]);
    const deep = sources();
    await runLiteratureSearch(request({ question: "Does rapamycin extend lifespan in mice?", mode: "deep" }), deps(deep));
    expect([...deep.pubmed.queries, ...deep.europepmc.queries].every((q) => q.breadth === undefined)).toBe(true);
    const alone = fakeSource("pubmed", () => [rapamycin]);
    await runLiteratureSearch(request({ question: "Does rapamycin extend lifespan in mice?" }), deps({ pubmed: alone }));
    expect(alone.queries.map((q) => q.breadth)).toEqual([undefined]);
  });

  it("broadens PubMed itself when Europe PMC's broadened search fails and the strict one found too few", async () => {
    const down = () => fakeSource("europepmc", () => new SourceError("europepmc", "timeout", "no answer in 8000 ms"));
    const sparse = fakeSource("pubmed", (q) => (q.breadth === "broad" ? [rapamycin, metformin] : [rapamycin]));
    const result = await runLiteratureSearch(request({ question: "Does rapamycin extend lifespan in mice?" }), deps({ pubmed: sparse, europepmc: down() }));
    expect(sparse.queries.map((q) => q.breadth)).toEqual(["strict", "broad"]);
    expect(result.quality?.rawCount).toBe(2);
    expect(result.reasoning!.join(" ")).toContain("europepmc failed, so pubmed also sent the broadened query");
    // Enough strict records: nothing to broaden for.
    const full = fakeSource("pubmed", () => Array.from({ length: 20 }, (_, i) => ({ ...rapamycin, ids: { pmid: String(40000000 + i) }, title: `${rapamycin.title} ${i}` })));
    await runLiteratureSearch(request({ question: "Does rapamycin extend lifespan in mice?" }), deps({ pubmed: full, europepmc: down() }));
    expect(full.queries.map((q) => q.breadth)).toEqual(["strict"]);
  });

  it("fans out tags, reporting coverage only where accepted references mention the tag", async () => {
    const pubmed = fakeSource("pubmed", (q) => (q.terms.includes("rapamycin") ? [rapamycin] : q.terms.includes("metformin") ? [metformin] : []));
    const result = await runLiteratureSearch(request({ question: "aging interventions", tags: ["rapamycin", "metformin", "taurine"] }), deps({ pubmed }));
    expect(result.tagMode).toBe("fanout");
    expect(result.tags).toEqual(["rapamycin", "metformin", "taurine"]);
    // Each tag searched on its own, within the question's words: a tag narrows the question (issue 25, item 7).
    expect(pubmed.queries.map((q) => q.terms)).toEqual([
      ["aging", "interventions", "rapamycin"],
      ["aging", "interventions", "metformin"],
      ["aging", "interventions", "taurine"],
    ]);
    expect(result.resultsByTag!.rapamycin).toMatchObject({ covered: true, acceptedCount: 1, matchedTerms: ["rapamycin"] });
    // A metformin trial of mortality in older adults (MeSH "Aged") does not study aging.
    expect(result.resultsByTag!.metformin).toMatchObject({ covered: false, acceptedCount: 0 });
    expect(result.resultsByTag!.taurine).toMatchObject({ covered: false, acceptedCount: 0 });
  });

  it("treats a Crossref retraction notice as a retraction, and a failed check as unknown", async () => {
    const local = buildRecord({ ids: { doi: "10.1/local" }, source: "local", sources: ["local"] });
    const retracted = buildRecord({ ids: { doi: "10.1/gone" }, title: "Rapamycin lifespan mice retracted study", source: "europepmc", sources: ["europepmc"] });
    const result = await runLiteratureSearch(request({ question: "rapamycin lifespan mice", includeRejected: true }), {
      sources: { local: fakeSource("local", () => [local, retracted]) },
      checkDoi: async (doi) => {
        if (doi === "10.1/gone") return { found: true, title: retracted.title, retracted: true };
        throw new Error("crossref down");
      },
    });
    expect(result.references!.map((r) => r.title)).toEqual([local.title]);
    expect(result.references![0]).toMatchObject({ verification: "unknown" });
    expect(result.rejectedReferences![0]).toMatchObject({ isRetracted: true, relevance: expect.objectContaining({ reason: "retracted" }) });
  });

  it("asks the preprint lookup (bioRxiv/medRxiv) for an accepted preprint's journal version in a deep search only", async () => {
    const preprint = buildRecord({ ids: { doi: "10.1101/2024.01.01.1" }, title: "Rapamycin extends lifespan in mice: a preprint", isPreprint: true, source: "europepmc", sources: ["europepmc"] });
    const asked: string[] = [];
    const engine = (mode: "fast" | "deep") =>
      runLiteratureSearch(request({ question: "rapamycin lifespan mice", mode }), {
        sources: { europepmc: fakeSource("europepmc", () => [preprint]) },
        publishedVersion: async (doi) => {
          asked.push(doi);
          return "10.1038/journal.version";
        },
      });
    const fast = await engine("fast");
    expect(asked).toEqual([]);
    expect(fast.references![0]).not.toHaveProperty("publishedDoi");
    const deep = await engine("deep");
    expect(asked).toEqual(["10.1101/2024.01.01.1"]);
    expect(deep.references![0]).toMatchObject({ isPreprint: true, publishedDoi: "10.1038/journal.version" });
  });

  it("says when nothing was found, citing nothing", async () => {
    const result = await runLiteratureSearch(request({ question: "xylophone gene therapy" }), deps({ pubmed: fakeSource("pubmed", () => []) }));
    expect(result.answer).toMatch(/No relevant evidence/);
    expect(result.answer).not.toMatch(/\[\d+\]/);
    expect(result.quality).toMatchObject({ acceptedCount: 0, lowConfidence: true, evidenceThin: true });
  });

  it("splits abstracts into sentences", () => {
    const sentences = splitSentences(
      "Aging is a complex biological process. We found that rapamycin (1.5 mg/kg) extended median lifespan. Short one. Results were consistent across sites.",
    );
    expect(sentences).toEqual([
      "Aging is a complex biological process.",
      "We found that rapamycin (1.5 mg/kg) extended median lifespan.",
      "Results were consistent across sites.",
    ]);
  });
});
