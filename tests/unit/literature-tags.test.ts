import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deriveTitle } from "@/agent/library/prepare-record";
import { runLiteratureSearch } from "@/agent/literature/engine";
import type { LiteratureRecord } from "@/agent/literature/record";
import type { LiteratureSource, SourceQuery } from "@/agent/literature/sources/types";
import { stemSet } from "@/agent/literature/terms";
import { readTopic, topicPlace } from "@/agent/literature/topic";
import { literatureQueryRequestSchema, type LiteratureJobResult, type LiteratureQueryInput } from "@/lib/shared/contracts";
import { hasPubmedQa } from "@/scripts/bench/eval-sets";
import { abstractOf, readPubmedQa } from "@/scripts/bench/pubmedqa";
import { buildRecord } from "../support/records";

/**
 * Issue 25, item 7: a tag searched on its own is judged on the tag as the record's topic, and a
 * search that names no claim gives no verdict. The tag "aging" accepted 27 of 27 candidates,
 * among them kidney donors and asthma medication in children ("aging" and "age" share a stem, and
 * every abstract gives its participants' age), and the result gave a verdict from them.
 *
 * The library: the confusion set's synthetic records (tests/fixtures/eval/confusion-library.jsonl)
 * and, when ../shared is present, the 500 real PubMedQA development abstracts as PubMed serves them
 * (no title: the library derives one). The source double answers like the library's full-text
 * search: every record holding a stem of the query's words.
 */

const LIBRARY = path.resolve(import.meta.dirname, "../fixtures/eval/confusion-library.jsonl");
type Line = { pmid: string; title: string; abstract: string; year: number; publicationTypes: string[]; mesh: string[] };
const synthetic: LiteratureRecord[] = fs
  .readFileSync(LIBRARY, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Line)
  .map((c) => buildRecord({ ids: { pmid: c.pmid }, title: c.title, abstract: c.abstract, year: c.year, date: null, publicationTypes: c.publicationTypes, mesh: c.mesh, source: "local", sources: ["local"], url: `https://pubmed.ncbi.nlm.nih.gov/${c.pmid}/` }));

const shared = hasPubmedQa();
if (!shared) console.warn("literature-tags.test.ts: the real-abstract cases are skipped, ../shared/eval/pubmedqa-dev is absent");
const real: LiteratureRecord[] = shared
  ? readPubmedQa().map(([pmid, item]) => {
      const abstract = abstractOf(item, "pubmed");
      return buildRecord({ ids: { pmid }, title: deriveTitle(abstract), titleDerived: true, abstract, year: Number(item.YEAR) || null, date: null, publicationTypes: ["Journal Article"], mesh: item.MESHES ?? [], source: "local", sources: ["local"], url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/` });
    })
  : [];

/** The library's full-text search, as far as these tests need it: a record holding any stem of the query's words or their other names. */
function library(records: LiteratureRecord[]): LiteratureSource & { queries: SourceQuery[] } {
  const queries: SourceQuery[] = [];
  return {
    name: "local",
    queries,
    search: async (q) => {
      queries.push(q);
      const words = [...q.terms, ...(q.expansions ?? []).flatMap((e) => e.alternatives)];
      const wanted = words.map((w) => [...stemSet(w)]);
      return records.filter((r) => {
        const stems = stemSet(`${r.title} ${r.abstract ?? ""} ${r.mesh.join(" ")}`);
        return wanted.some((group) => group.length > 0 && group.every((s) => stems.has(s)));
      });
    },
  };
}

async function search(input: LiteratureQueryInput, records: LiteratureRecord[] = synthetic): Promise<LiteratureJobResult> {
  return runLiteratureSearch(literatureQueryRequestSchema.parse({ maxResults: 100, includeRejected: true, ...input }), { sources: { local: library(records) } });
}
const pmids = (refs: LiteratureJobResult["references"]) => (refs ?? []).map((r) => (r as { pmid?: string | null }).pmid);

// Read as an expert would, before any engine output: aging itself is the subject (the title, the
// MeSH heading Aging, or the aim says so) ...
const AGING_STUDIES = ["91000001", "91000012", "91000018", "91000022", "91000041", "91000087"];
// ... or it only passes by: a background sentence ("has been proposed to slow aging", "hoping to
// slow aging"), participants' ages ("adults aged 65 and older", "over 75"), MeSH age groups.
const IN_PASSING = ["91000004", "91000013", "91000014", "91000017", "91000042", "91000051", "91000055", "91000061", "91000073"];

describe("a tag searched on its own is judged on the tag as the record's topic", () => {
  it("the tag 'aging' accepts the aging studies and none that mention aging or age in passing", async () => {
    const result = await search({ question: "aging", tags: ["aging"] });
    const accepted = pmids(result.references);
    expect(accepted).toEqual(expect.arrayContaining(AGING_STUDIES));
    expect(accepted.filter((p) => IN_PASSING.includes(p!))).toEqual([]);
    expect(result.resultsByTag!.aging).toMatchObject({ covered: true, acceptedCount: accepted.length });
    // Each one the search found says why it was rejected: the tag is not its topic. (Those naming
    // only a participant's age are not found at all: "aging" keeps a stem of its own.)
    const rejected = result.rejectedReferences!.filter((r) => IN_PASSING.includes((r as { pmid: string }).pmid));
    expect(rejected.length).toBeGreaterThan(0);
    for (const r of rejected) expect(r.relevance).toMatchObject({ accepted: false, reason: "off_topic" });
  });

  it("a question that is only the tag, or a tag without a question of its own, is the same search", async () => {
    const onlyTag = await search({ question: "Aging", tags: ["aging"], tagMode: "combined" });
    const radar = await search({ question: "aging", tags: ["aging"] });
    expect(pmids(onlyTag.references).sort()).toEqual(pmids(radar.references).sort());
  });

  it.skipIf(!shared)("over 500 real abstracts, 'aging' keeps the two indexed under Aging and none of those naming a participant's age", async () => {
    const result = await search({ question: "aging", tags: ["aging"] }, real);
    const accepted = pmids(result.references);
    // Physical training against the effect of aging on muscle fatigue, older drivers who drive on
    // as they age (both MeSH Aging): their subject.
    expect(accepted).toContain("12690589");
    // Asthma in adults of mean age 47, inhaled corticosteroids in asthma, a children's short-stay
    // ward, HIV control among men aged 15-49, elderly Austrians' vaccine protection.
    for (const pmid of ["19615731", "11555508", "10966337", "9792366", "12238307"]) expect(accepted).not.toContain(pmid);
    expect(accepted.sort()).toEqual(["12690589", "21865668"]);
  });

  it("'lifespan' keeps the lifespan studies, not those whose background names lifespan", async () => {
    const result = await search({ question: "lifespan", tags: ["lifespan"] });
    const accepted = pmids(result.references);
    expect(accepted).toEqual(expect.arrayContaining(["91000001", "91000005", "91000011", "91000012", "91000023", "91000044"]));
    // Rapamycin's safety and its glucose effects, fisetin for frailty: "extends lifespan in mice" in their background.
    for (const pmid of ["91000003", "91000004", "91000036"]) expect(accepted).not.toContain(pmid);
  });

  it("a tag that names whom a study is of counts where the title names them: 'older women'", async () => {
    const result = await search({ question: "older women", tags: ["older women"] });
    expect(pmids(result.references)).toEqual(expect.arrayContaining(["91000036", "91000062"]));
  });
});

describe("a search without a claim to test gives no verdict", () => {
  it("tags alone: insufficient, saying the search names a topic and no claim, and no reference counts as evidence for one", async () => {
    const result = await search({ question: "aging", tags: ["aging"] });
    expect(result.references!.length).toBeGreaterThan(0);
    expect(result.verdict).toBe("insufficient");
    expect(result.verdictBasis).toMatchObject({ reasonCode: "no_claim_to_test", confidence: "low", supporting: 0, contradicting: 0 });
    expect(result.answer).toMatch(/^Bottom line: no verdict: “aging” names a topic, not a claim/);
    expect(result.answer).not.toMatch(/evidence (supports|contradicts|leans)/);
    for (const r of result.references!) expect(r).toMatchObject({ evidenceRole: "context", roleReason: expect.stringMatching(/about aging; the search names no claim to test/) });
  });

  it("a topic without a question: the same, and a question or a pasted claim on the same records still gets its verdict", async () => {
    const topic = await search({ question: "rapamycin and lifespan" });
    expect(topic.verdict).toBe("insufficient");
    expect(topic.verdictBasis?.reasonCode).toBe("no_claim_to_test");
    for (const question of ["Does rapamycin extend lifespan in mice?", "Rapamycin extends lifespan in mice.", "rapamycin extends lifespan in mice"]) {
      const asked = await search({ question });
      expect(asked.verdict).not.toBe("insufficient");
      expect(asked.references!.some((r) => r.evidenceRole === "supporting")).toBe(true);
    }
  });
});

describe("with a question, tags narrow it within its topic and never widen it", () => {
  it("fanout: each tag's references answer the question and are about the tag", async () => {
    const result = await search({ question: "Does rapamycin extend lifespan?", tags: ["aging", "metformin"] });
    const accepted = pmids(result.references);
    // Rapamycin and lifespan in mice (two studies, one of its dose), with the MeSH heading Aging: they
    // answer the question, about aging; so does a narrative review of rapamycin's lifespan effects,
    // listed though it is no evidence (its role is context).
    expect(accepted.sort()).toEqual(["91000001", "91000125", "91000145"]);
    expect(result.references!.find((r) => r.pmid === "91000145")?.evidenceRole).toBe("context");
    // Metformin's aging studies do not answer a question about rapamycin, rapamycin in flies is not
    // about aging, and a dog trial of heart function whose background recalls mouse lifespan does
    // not answer the question.
    expect(accepted).not.toContain("91000103");
    expect(result.resultsByTag!.aging).toMatchObject({ covered: true, acceptedCount: 3 });
    expect(result.resultsByTag!.metformin).toMatchObject({ covered: false, acceptedCount: 0 });
    expect(result.verdict).toBe("supports");
  });

  it("fanout: each tag is searched with the question's words; a tag alone with the tag's words only", async () => {
    const source = library(synthetic);
    await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: "Does rapamycin extend lifespan?", tags: ["aging"] }), { sources: { local: source } });
    expect(source.queries.map((q) => q.terms)).toEqual([["rapamycin", "extend", "lifespan", "aging"]]);
    const alone = library(synthetic);
    await runLiteratureSearch(literatureQueryRequestSchema.parse({ question: "aging", tags: ["aging"] }), { sources: { local: alone } });
    expect(alone.queries.map((q) => q.terms)).toEqual([["aging"]]);
  });

  it("combined: a reference answers the question and is about every tag", async () => {
    const result = await search({ question: "Does rapamycin extend lifespan?", tags: ["aging"], tagMode: "combined" });
    expect(pmids(result.references).sort()).toEqual(["91000001", "91000125", "91000145"]);
    const both = await search({ question: "Does caloric restriction extend lifespan?", tags: ["monkeys", "aging"], tagMode: "combined" });
    expect(pmids(both.references)).toEqual(["91000041"]);
  });
});

describe("where a record states its topic (topic.ts)", () => {
  const aging = readTopic("aging");
  const record = (over: Partial<LiteratureRecord>) => buildRecord({ title: "A study", abstract: "", mesh: [], ...over });

  it("a title outside its context, a MeSH descriptor that is the topic's heading, an aim", () => {
    expect(topicPlace(record({ title: "Exercise training counteracts aging of skeletal muscle" }), aging)).toBe("title");
    expect(topicPlace(record({ title: "Ageing and the immune response to vaccines" }), aging)).toBe("title");
    expect(topicPlace(record({ mesh: ["Humans", "Aging/physiology*"] }), aging)).toBe("mesh");
    expect(topicPlace(record({ abstract: "OBJECTIVE: To assess whether aging alters renal function.\nMETHODS: We measured GFR." }), aging)).toBe("aim");
    expect(topicPlace(record({ abstract: "BACKGROUND: Kidney donors are older than before. We examined whether aging of the donor pool changed graft survival." }), aging)).toBe("aim");
  });

  it("not a participant's age, an age group, a background sentence, or a title the library derived from the abstract", () => {
    expect(topicPlace(record({ title: "Falls in adults aged 70 and older: a randomized trial" }), aging)).toBeNull();
    expect(topicPlace(record({ title: "Age and outcome after kidney donation" }), aging)).toBeNull();
    expect(topicPlace(record({ mesh: ["Aged", "Aged, 80 and over", "Age Factors", "Middle Aged"] }), aging)).toBeNull();
    expect(topicPlace(record({ abstract: "BACKGROUND: With an aging population, more kidneys come from older donors.\nMETHODS: We followed 500 donors." }), aging)).toBeNull();
    expect(topicPlace(record({ title: "With an aging population, more kidneys come from older donors", titleDerived: true }), aging)).toBeNull();
  });

  it("a topic of several words needs each of them, by name or the vocabulary's other names", () => {
    const restriction = readTopic("caloric restriction");
    expect(topicPlace(record({ title: "Calorie restriction and bone density" }), restriction)).toBe("title");
    expect(topicPlace(record({ mesh: ["Caloric Restriction"] }), restriction)).toBe("mesh");
    expect(topicPlace(record({ title: "Restriction of sodium in heart failure" }), restriction)).toBeNull();
  });
});
