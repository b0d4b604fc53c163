import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isRateLimitBody, parseRetryAfter } from "@/agent/literature/http";
import { classifyUpdateType, parseCrossrefWork } from "@/agent/literature/sources/crossref";
import { buildEuropePmcQuery, parseEuropePmcSearch } from "@/agent/literature/sources/europepmc";
import {
  cleanMarkupText,
  formatIsoDate,
  normalizeDoi,
  normalizeNct,
  normalizePmcid,
  normalizePmid,
  normalizePages,
  pageRange,
} from "@/agent/literature/sources/normalize";
import { rebuildAbstract } from "@/agent/literature/sources/openalex";
import { buildPubmedTerm, parseEsearchResponse } from "@/agent/literature/sources/pubmed";
import { MAX_QUERY_LENGTH } from "@/agent/literature/sources/query-terms";
import { parsePubmedArticleSet } from "@/agent/literature/sources/pubmed-xml";
import { SourceError } from "@/agent/literature/sources/types";

const recorded = (file: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file), "utf8");

/** A minimal PubmedArticle; `article` goes inside <Article>, `citation` after it. */
function pubmedXml({ article = "", citation = "", data = "", pmid = "30000001" }: { article?: string; citation?: string; data?: string; pmid?: string }): string {
  return `<?xml version="1.0"?><PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE"><PMID Version="1">${pmid}</PMID><Article>${article}</Article>${citation}</MedlineCitation>${data}</PubmedArticle></PubmedArticleSet>`;
}

describe("parsePubmedArticleSet", () => {
  it("reads every field of the recorded PMID 27797938 (an observational study with MeSH and a structured abstract)", () => {
    const [record, ...rest] = parsePubmedArticleSet(recorded("pubmed-eutils/biopython_pubmed4.xml"));
    expect(rest).toHaveLength(0);
    expect(record?.ids).toEqual({ pmid: "27797938", doi: "10.1136/gutjnl-2016-312510", pmcid: "PMC5442267" });
    expect(record?.title).toBe("Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.");
    expect(record?.publicationTypes).toEqual([
      "Journal Article",
      "Observational Study",
      "Research Support, N.I.H., Extramural",
      "Research Support, U.S. Gov't, Non-P.H.S.",
      "Research Support, Non-U.S. Gov't",
    ]);
    expect(record?.mesh).toHaveLength(21);
    expect(record?.mesh).toEqual(expect.arrayContaining(["Humans", "Case-Control Studies", "Telomere Shortening", "Aged"]));
    const sections = record?.abstract?.split("\n") ?? [];
    expect(sections.map((s) => s.split(":")[0])).toEqual(["OBJECTIVE", "DESIGN", "RESULTS", "CONCLUSIONS"]);
    expect(record?.abstract).toContain("(linkage disequilibrium r2<0.25)");
    expect(record?.abstract).not.toContain("Copyright");
    // The issue is June 2017 (no day); the electronic publication date has one.
    expect(record).toMatchObject({ journal: "Gut", year: 2017, date: "2016-10-21", isRetracted: false, isPreprint: false, source: "pubmed" });
    expect(record?.authors).toHaveLength(22);
    expect(record?.authors.slice(0, 2)).toEqual(["Bao Y", "Prescott J"]);
    // What a reference manager needs to cite it: volume, issue and pages (MedlinePgn).
    expect(record).toMatchObject({ volume: "66", issue: "6", pages: "1116-1122" });
  });

  it("writes MEDLINE's shortened last page whole, and reads StartPage and EndPage without a MedlinePgn", () => {
    const journal = (pagination: string) => pubmedXml({ article: `<Journal><JournalIssue><Volume>12</Volume><Issue>3 Suppl</Issue></JournalIssue><Title>J</Title></Journal><ArticleTitle>T</ArticleTitle>${pagination}` });
    expect(parsePubmedArticleSet(journal("<Pagination><MedlinePgn>1116-22</MedlinePgn></Pagination>"))[0]).toMatchObject({ volume: "12", issue: "3 Suppl", pages: "1116-1122" });
    expect(parsePubmedArticleSet(journal("<Pagination><StartPage>e1001</StartPage></Pagination>"))[0]?.pages).toBe("e1001");
    expect(parsePubmedArticleSet(journal("<Pagination><StartPage>95</StartPage><EndPage>103</EndPage></Pagination>"))[0]?.pages).toBe("95-103");
    expect(parsePubmedArticleSet(journal(""))[0]?.pages).toBeNull();
  });

  it("gives no records for documents that are not PubmedArticleSets", () => {
    expect(parsePubmedArticleSet(recorded("pubmed-eutils/biopython_efetch_pmc.xml"))).toEqual([]);
    expect(parsePubmedArticleSet(recorded("pubmed-eutils/biopython_esearch1.xml"))).toEqual([]);
    expect(parsePubmedArticleSet("<PubmedArticleSet></PubmedArticleSet>")).toEqual([]);
  });

  it("reads a lone PubmedArticle, attributes on text nodes, italics and entities", () => {
    const xml = `<PubmedArticle><MedlineCitation><PMID Version="2">31000002</PMID><Article>
      <Journal><JournalIssue><PubDate><Year>2021</Year><Month>Mar</Month><Day>5</Day></PubDate></JournalIssue><Title>Aging &amp; Disease</Title></Journal>
      <ArticleTitle Lang="eng"><i>FOXO3</i> variants &#x2013; longevity</ArticleTitle>
      <Abstract><AbstractText>Carriers lived longer (HR&lt;1).</AbstractText></Abstract>
      <AuthorList><Author><CollectiveName>Longevity Consortium</CollectiveName></Author><Author ValidYN="N"><LastName>Wrong</LastName></Author></AuthorList>
      <ELocationID EIdType="doi" ValidYN="Y">10.5555/ABC.123</ELocationID>
      <PublicationTypeList><PublicationType UI="D016428">Journal Article</PublicationType></PublicationTypeList>
    </Article></MedlineCitation></PubmedArticle>`;
    const [record] = parsePubmedArticleSet(xml);
    expect(record).toMatchObject({ title: "FOXO3 variants – longevity", abstract: "Carriers lived longer (HR<1).", journal: "Aging & Disease", year: 2021, date: "2021-03-05" });
    expect(record?.ids).toEqual({ pmid: "31000002", doi: "10.5555/abc.123" });
    expect(record?.authors).toEqual(["Longevity Consortium"]);
    expect(record?.publicationTypes).toEqual(["Journal Article"]);
  });

  it("survives missing fields: no title, no abstract, a MedlineDate, no PubmedData", () => {
    const [bare] = parsePubmedArticleSet(pubmedXml({ article: "<Journal><JournalIssue><PubDate><MedlineDate>1998 Dec-1999 Jan</MedlineDate></PubDate></JournalIssue></Journal>" }));
    expect(bare).toMatchObject({ title: "PubMed record 30000001", titleDerived: true, abstract: null, journal: null, year: 1998, date: null, authors: [], mesh: [] });
    const [untitled] = parsePubmedArticleSet(pubmedXml({ article: "<Abstract><AbstractText>Calorie restriction slowed epigenetic aging in this cohort. More text.</AbstractText></Abstract>" }));
    expect(untitled).toMatchObject({ title: "Calorie restriction slowed epigenetic aging in this cohort.", titleDerived: true });
    expect(parsePubmedArticleSet(pubmedXml({ pmid: "" }))).toEqual([]);
  });

  it("flags retractions by publication type and by a RetractionIn link, but not the notice itself", () => {
    const retractedType = pubmedXml({ article: "<PublicationTypeList><PublicationType>Retracted Publication</PublicationType></PublicationTypeList>" });
    const linked = pubmedXml({ citation: '<CommentsCorrectionsList><CommentsCorrections RefType="RetractionIn"><PMID>1</PMID></CommentsCorrections></CommentsCorrectionsList>' });
    const notice = pubmedXml({ citation: '<CommentsCorrectionsList><CommentsCorrections RefType="RetractionOf"><PMID>1</PMID></CommentsCorrections></CommentsCorrectionsList>' });
    expect(parsePubmedArticleSet(retractedType)[0]?.isRetracted).toBe(true);
    expect(parsePubmedArticleSet(linked)[0]?.isRetracted).toBe(true);
    expect(parsePubmedArticleSet(notice)[0]?.isRetracted).toBe(false);
  });
});

describe("PubMed query and esearch", () => {
  it("tags terms [tiab], quotes phrases and drops field tags the user typed", () => {
    expect(buildPubmedTerm({ text: "", terms: ["rapamycin", "healthy aging[mh]", "mice"], limit: 10 })).toBe('rapamycin[tiab] AND ("healthy aging"[tiab] OR mice[tiab])');
    expect(buildPubmedTerm({ text: "", terms: ["NAD+"], limit: 10, scope: "preprints" })).toBe('("NAD+"[tiab]) AND preprint[pt]');
    expect(buildPubmedTerm({ text: "", terms: ["a", "b"], limit: 10 }, { broad: true })).toBe("a[tiab] OR b[tiab]");
    expect(buildPubmedTerm({ text: "", terms: [], limit: 10 })).toBe("");
  });

  it("searches a phrase as one OR group of its other names and MeSH heading, within the length limit", () => {
    const query = {
      text: "",
      terms: ["broken", "hip", "rehab"],
      limit: 10,
      expansions: [{ terms: ["broken", "hip"], alternatives: ["hip fracture", "femoral neck fracture"], headings: ["Hip Fractures"] }],
    };
    expect(buildPubmedTerm(query)).toBe('((broken[tiab] AND hip[tiab]) OR "hip fracture"[tiab] OR "femoral neck fracture"[tiab] OR "Hip Fractures"[mh]) AND rehab[tiab]');
    expect(buildPubmedTerm(query, { broad: true })).toBe('((broken[tiab] AND hip[tiab]) OR "hip fracture"[tiab] OR "femoral neck fracture"[tiab] OR "Hip Fractures"[mh]) OR rehab[tiab]');
    const long = { ...query, expansions: [{ ...query.expansions[0]!, alternatives: Array.from({ length: 40 }, (_, i) => `a very long alternative name number ${i}`) }] };
    const term = buildPubmedTerm(long);
    expect(term.length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect(term).toContain("(broken[tiab] AND hip[tiab])");
    expect(term).toContain("rehab[tiab]");
  });

  it("sends Europe PMC the other names in title and abstract, and no MeSH heading", () => {
    const q = buildEuropePmcQuery({ text: "", terms: ["elderly", "falls"], limit: 10, expansions: [{ terms: ["elderly"], alternatives: ["older adults"], headings: ["Aged"] }] });
    expect(q).toBe('((TITLE_ABS:"elderly" OR TITLE_ABS:"older adults") AND TITLE_ABS:"falls")');
  });

  it("reports an esearch backend error as a SourceError", () => {
    const failing = () => parseEsearchResponse({ esearchresult: { ERROR: "Search Backend failed" } }, "x");
    expect(failing).toThrow(SourceError);
    expect(() => parseEsearchResponse({ nothing: true }, "x")).toThrow(/without an esearchresult/);
  });
});

describe("Europe PMC, Crossref and OpenAlex parsers", () => {
  it("reads the recorded lite result for PMID 20516115", () => {
    const { hitCount, records } = parseEuropePmcSearch(JSON.parse(recorded("europepmc/biomcp_search_pmid_20516115.json")));
    expect(hitCount).toBe(1);
    expect(records[0]).toMatchObject({ year: 2010, date: "2010-06-01", journal: "Cancer Res", citedByCount: 133, url: "https://pubmed.ncbi.nlm.nih.gov/20516115/" });
    expect(records[0]?.authors.at(-1)).toBe("Glover JN");
    expect(records[0]?.authors).toHaveLength(11);
    expect(records[0]).toMatchObject({ volume: "70", issue: "12", pages: "4880-4890" });
  });

  it("reads volume, issue and pages of every recorded Europe PMC result, and from journalInfo in core results", () => {
    const { records } = parseEuropePmcSearch(JSON.parse(recorded("europepmc/biomcp_search_query_ATM_c7390TC_page1.json")));
    expect(records[0]).toMatchObject({ journal: "Cancers (Basel)", volume: "16", issue: "17", pages: "2955" });
    for (const record of records) expect(record.volume, record.title).toMatch(/\S/);
    const core = parseEuropePmcSearch({ resultList: { result: [{ id: "1", source: "MED", pmid: "1", title: "T", pageInfo: "7\u201315", journalInfo: { volume: "3", issue: "2", journal: { title: "Aging Cell" } } }] } });
    expect(core.records[0]).toMatchObject({ journal: "Aging Cell", volume: "3", issue: "2", pages: "7-15" });
  });

  it("reads the recorded Crossref work, and classifies update types", () => {
    const work = parseCrossrefWork(JSON.parse(recorded("crossref-openalex-unpaywall/derived_from_paperqa_doi_search_crossref_work.json")));
    expect(work?.record.ids.doi).toBe("10.1016/j.xgen.2025.100814");
    expect(work?.record.citedByCount).toBe(2);
    expect(work?.record).toMatchObject({ journal: "Cell Genomics", volume: "5", issue: "4", pages: "100814" });
    expect(work?.record.authors.slice(0, 2)).toEqual(["Herger M", "Kajba CM"]);
    expect(work?.updatedBy).toEqual([]);
    expect(work?.relations).toEqual([]);
    expect(["retraction", "Erratum", "expression_of_concern", "new_version"].map(classifyUpdateType)).toEqual(["retraction", "correction", "expression_of_concern", "other"]);
  });

  it("rebuilds an abstract from an inverted index", () => {
    expect(rebuildAbstract({ aging: [1], Slow: [0], "works.": [3], sometimes: [2] })).toBe("Slow aging sometimes works.");
    expect(rebuildAbstract(null)).toBeNull();
  });
});

describe("normalisation and HTTP helpers", () => {
  it("writes page ranges as citations give them", () => {
    expect(normalizePages("1116-22")).toBe("1116-1122");
    expect(normalizePages("R12 \u2013 R19")).toBe("R12-R19");
    expect(normalizePages("S12-20")).toBe("S12-20");
    // A last page that would come before the first is left as sent.
    expect(normalizePages("99-1")).toBe("99-1");
    expect(normalizePages("e0123456")).toBe("e0123456");
    expect(normalizePages("  ")).toBeNull();
    expect(pageRange("100814", "100814")).toBe("100814");
    expect(pageRange("", "12")).toBeNull();
  });

  it("normalises ids to the forms record.ts documents", () => {
    expect(normalizeDoi("https://doi.org/10.1016/J.XGEN.2025.100814")).toBe("10.1016/j.xgen.2025.100814");
    expect(normalizeDoi("doi:10.1016%2Fj.xgen.2025.100814")).toBe("10.1016/j.xgen.2025.100814");
    expect(normalizeDoi("not a doi")).toBeUndefined();
    expect(normalizePmcid("2682512")).toBe("PMC2682512");
    expect(normalizePmcid("https://www.ncbi.nlm.nih.gov/pmc/articles/PMC2682512/")).toBe("PMC2682512");
    expect(normalizePmid("https://pubmed.ncbi.nlm.nih.gov/40120586")).toBe("40120586");
    expect(normalizePmid("27797938a")).toBeUndefined();
    expect(normalizeNct("see nct06382129.")).toBe("NCT06382129");
  });

  it("cleans markup escaped once or twice without eating a bare less-than", () => {
    expect(cleanMarkupText("variants in &lt;i&gt;ATM&lt;/i&gt;, and <i>BRCA</i> (p<0.05)")).toBe("variants in ATM, and BRCA (p<0.05)");
    expect(formatIsoDate(2023, 2, 30)).toBeNull();
    expect(formatIsoDate("2023", "Feb", "3")).toBe("2023-02-03");
  });

  it("recognises NCBI's recorded rate-limit body and parses Retry-After", () => {
    expect(isRateLimitBody(recorded("pubmed-eutils/biomcp_esummary_error_rate_limit_exceeded.json"))).toBe(true);
    expect(isRateLimitBody(recorded("pubmed-eutils/biomcp_esearch_pubmed_retmode-json.json"))).toBe(false);
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
