import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBiorxivSource } from "@/agent/literature/sources/biorxiv";
import { createClinicalTrialsSource } from "@/agent/literature/sources/clinicaltrials";
import { createCrossrefSource } from "@/agent/literature/sources/crossref";
import { createEuropePmcSource } from "@/agent/literature/sources/europepmc";
import { createOpenAlexSource } from "@/agent/literature/sources/openalex";
import { createPubmedSource, PUBMED_REQUESTS_PER_SECOND } from "@/agent/literature/sources/pubmed";
import { SourceError, type SourceQuery } from "@/agent/literature/sources/types";
import { createRateLimiter, type RateLimiter } from "@/agent/literature/http";
import { startReplayServer, type ReplayRoute, type ReplayServer } from "../support/replay-server";
import { readCassetteInteraction } from "../support/vcr-cassette";

// Recorded real responses (never edited) and the synthetic ones written for formats they lack.
const recorded = (file: string) => path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file);
const synthetic = (file: string) => path.resolve(import.meta.dirname, "../fixtures/literature", file);
const TITLE_SEARCH_CASSETTE = recorded("crossref-openalex-unpaywall/paperqa_cassette_test_title_search_paper_attributes0.yaml");

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function replay(routes: ReplayRoute[]): Promise<ReplayServer> {
  server = await startReplayServer(routes);
  return server;
}

function query(overrides: Partial<SourceQuery>): SourceQuery {
  return { text: "", terms: [], limit: 10, ...overrides };
}

async function sourceErrorOf(promise: Promise<unknown>): Promise<SourceError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  if (!(err instanceof SourceError)) throw new Error(`expected a SourceError, got ${String(err)}`);
  return err;
}

// Retry delays are shortened so the suite stays quick; the spacing tests set their own rates.
const quick = { retryBaseDelayMs: 20, requestsPerSecond: 100 };

describe("PubMed E-utilities", () => {
  it("searches with field-tagged terms, fetches the records and parses the recorded article", async () => {
    const s = await replay([
      { path: "/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
      { path: "/efetch.fcgi", file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
    ]);
    const pubmed = createPubmedSource({ baseUrl: s.url, email: "ops@example.org", tool: "lra-test", ...quick });
    const records = await pubmed.search(query({ text: "telomere length and pancreatic cancer", terms: ["telomere", "pancreatic cancer"], limit: 1 }));

    const [esearch] = s.requestsTo("/esearch.fcgi");
    expect(esearch?.query.get("term")).toBe('telomere[tiab] AND "pancreatic cancer"[tiab]');
    expect(Object.fromEntries(esearch?.query ?? [])).toMatchObject({ db: "pubmed", retmode: "json", sort: "relevance", retmax: "1", tool: "lra-test", email: "ops@example.org" });
    expect(esearch?.query.has("api_key")).toBe(false);
    const [efetch] = s.requestsTo("/efetch.fcgi");
    expect(Object.fromEntries(efetch?.query ?? [])).toMatchObject({ db: "pubmed", id: "27797938", retmode: "xml" });

    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record?.ids).toEqual({ pmid: "27797938", doi: "10.1136/gutjnl-2016-312510", pmcid: "PMC5442267" });
    expect(record?.publicationTypes).toContain("Observational Study");
    expect(record?.mesh).toContain("Telomere Shortening");
    expect(record?.abstract).toMatch(/^OBJECTIVE: Telomere shortening/);
    expect(record?.url).toBe("https://pubmed.ncbi.nlm.nih.gov/27797938/");
  });

  it("exposes PubMed's querytranslation: the recorded esearch read the gene APC as a journal", async () => {
    const s = await replay([{ path: "/esearch.fcgi", file: recorded("pubmed-eutils/biomcp_esearch_pubmed_retmode-json.json") }]);
    const pubmed = createPubmedSource({ baseUrl: s.url, ...quick });
    const result = await pubmed.runEsearch("APC p.E1317Q NOT retracted publication[pt]", { retmax: 100 });
    expect(result.queryTranslation).toContain('"ann pancreat cancer"[Journal]');
    expect(result.phrasesNotFound).toEqual(["p.E1317Q"]);
    expect(result.count).toBe(40362);
    expect(result.pmids).toHaveLength(100);
    expect(result.pmids[0]).toBe("42555032");
  });

  it("broadens to an OR of the terms when the strict query finds fewer records than wanted", async () => {
    const s = await replay([{ path: "/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") }]);
    const pubmed = createPubmedSource({ baseUrl: s.url, ...quick });
    const found = await pubmed.searchPmids(query({ terms: ["APC", "p.E1317Q", "colorectal"], limit: 20, scope: "no-preprints", dateFrom: "2015-01-01" }));
    const terms = s.requestsTo("/esearch.fcgi").map((r) => r.query.get("term"));
    expect(terms).toEqual([
      '(APC[tiab] AND ("p.E1317Q"[tiab] OR colorectal[tiab])) NOT preprint[pt]',
      '(APC[tiab] OR "p.E1317Q"[tiab] OR colorectal[tiab]) NOT preprint[pt]',
    ]);
    expect(s.requests[0]?.query.get("mindate")).toBe("2015/01/01");
    expect(s.requests[0]?.query.get("datetype")).toBe("pdat");
    expect(found.pmids).toEqual(["27797938"]);
    expect(found.searches).toHaveLength(2);
  });

  it("sends only the strict or only the broadened query when the engine asks for that breadth", async () => {
    const s = await replay([{ path: "/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") }]);
    const pubmed = createPubmedSource({ baseUrl: s.url, ...quick });
    // The fixture reports one hit for 20 wanted: `auto` would broaden, `strict` must not.
    const strict = await pubmed.searchPmids(query({ terms: ["APC", "colorectal"], limit: 20, breadth: "strict" }));
    const broad = await pubmed.searchPmids(query({ terms: ["APC", "colorectal"], limit: 20, breadth: "broad" }));
    expect(s.requestsTo("/esearch.fcgi").map((r) => r.query.get("term"))).toEqual(["APC[tiab] AND colorectal[tiab]", "APC[tiab] OR colorectal[tiab]"]);
    expect([strict.searches.length, broad.searches.length]).toEqual([1, 1]);
  });

  it("backs off on the rate-limit body even when it comes with status 200, then succeeds", async () => {
    const s = await replay([
      { path: "/esearch.fcgi", times: 1, file: recorded("pubmed-eutils/biomcp_esummary_error_rate_limit_exceeded.json") },
      { path: "/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
    ]);
    const pubmed = createPubmedSource({ baseUrl: s.url, requestsPerSecond: 100, retryBaseDelayMs: 300 });
    const result = await pubmed.runEsearch("telomere[tiab]");
    expect(result.pmids).toEqual(["27797938"]);
    const [first, second] = s.requestsTo("/esearch.fcgi");
    expect(s.requests).toHaveLength(2);
    // The back-off (150-300 ms with jitter) is far above the 10 ms the request rate alone allows.
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(140);
  });

  it("waits as long as a 429's Retry-After asks before retrying", async () => {
    const s = await replay([
      { path: "/esearch.fcgi", times: 1, status: 429, headers: { "retry-after": "1" }, file: recorded("pubmed-eutils/biomcp_esummary_error_rate_limit_exceeded.json") },
      { path: "/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") },
    ]);
    const pubmed = createPubmedSource({ baseUrl: s.url, ...quick });
    await pubmed.runEsearch("telomere[tiab]");
    const [first, second] = s.requests;
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("throws kind rate_limited once the retries are spent", async () => {
    const s = await replay([{ path: "/esearch.fcgi", file: recorded("pubmed-eutils/biomcp_esummary_error_rate_limit_exceeded.json") }]);
    const pubmed = createPubmedSource({ baseUrl: s.url, maxRetries: 2, ...quick });
    const err = await sourceErrorOf(pubmed.runEsearch("telomere[tiab]"));
    expect(err.kind).toBe("rate_limited");
    expect(err.source).toBe("pubmed");
    expect(s.requests).toHaveLength(3);
  });

  it("retries a 500 and a dropped connection, and does not retry a 400", async () => {
    const s = await replay([
      { path: "/efetch.fcgi", times: 1, status: 500, body: "Internal Server Error" },
      { path: "/efetch.fcgi", times: 1, dropConnection: true },
      { path: "/efetch.fcgi", query: { id: "27797938" }, file: recorded("pubmed-eutils/biopython_pubmed4.xml") },
      { path: "/efetch.fcgi", status: 400, body: "bad id" },
    ]);
    const pubmed = createPubmedSource({ baseUrl: s.url, maxRetries: 2, ...quick });
    const records = await pubmed.fetchByPmids(["PMID: 27797938"]);
    expect(records.map((r) => r.ids.pmid)).toEqual(["27797938"]);
    expect(s.requests.map((r) => r.routeIndex)).toEqual([0, 1, 2]);

    const err = await sourceErrorOf(pubmed.fetchByPmids(["1"]));
    expect(err.kind).toBe("http");
    expect(s.requests).toHaveLength(4);
  });

  it("throws kind timeout promptly when the service hangs, without retrying", async () => {
    // The service would answer only after ten minutes: a client that waited for it, or retried the
    // hang, would outlast the test's own timeout. The bound below is that hang, not a machine speed.
    const HANG_MS = 600_000;
    const s = await replay([{ path: "/esearch.fcgi", delayMs: HANG_MS, file: synthetic("pubmed-esearch-synthetic-27797938.json") }]);
    const pubmed = createPubmedSource({ baseUrl: s.url, timeoutMs: 300, maxRetries: 2, ...quick });
    const started = performance.now();
    const err = await sourceErrorOf(pubmed.runEsearch("telomere[tiab]"));
    expect(err.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(HANG_MS / 20);
    expect(s.requests).toHaveLength(1);
  });

  it("spaces requests 1/3 s apart without an API key, and 1/10 s with one", async () => {
    // The spacing is the limiter's, checked on its own clock (tests/unit/rate-limiter.test.ts):
    // arrival times at a server on a loaded machine are not (the stress runs saw two requests
    // sent 100 ms apart arrive 35 ms apart). Here: the rates NCBI allows, and the key sent.
    expect(PUBMED_REQUESTS_PER_SECOND).toEqual({ withoutKey: 3, withKey: 10 });
    const s = await replay([{ path: "/esearch.fcgi", file: synthetic("pubmed-esearch-synthetic-27797938.json") }]);
    const withoutKey = createPubmedSource({ baseUrl: s.url });
    await Promise.all([1, 2, 3, 4].map((n) => withoutKey.runEsearch(`term${n}[tiab]`)));
    expect(s.requests.slice(0, 4).every((r) => r.query.get("api_key") === null)).toBe(true);
    const withKey = createPubmedSource({ baseUrl: s.url, apiKey: "test-ncbi-key" });
    await Promise.all([1, 2, 3, 4].map((n) => withKey.runEsearch(`term${n}[tiab]`)));
    expect(s.requests.slice(4).map((r) => r.query.get("api_key"))).toEqual(Array(4).fill("test-ncbi-key"));
  });
});

describe("Europe PMC", () => {
  it("parses the recorded lite results and asks for core results by title and abstract", async () => {
    const s = await replay([{ path: "/search", file: recorded("europepmc/biomcp_search_query_ATM_c7390TC_page1.json") }]);
    const europepmc = createEuropePmcSource({ baseUrl: s.url, ...quick });
    const records = await europepmc.search(query({ terms: ["ATM", "c.7390T>C"], limit: 5 }));

    expect(Object.fromEntries(s.requests[0]?.query ?? [])).toMatchObject({
      query: '(TITLE_ABS:"ATM" AND TITLE_ABS:"c.7390T>C")',
      format: "json",
      resultType: "core",
      pageSize: "5",
      cursorMark: "*",
    });
    expect(records.map((r) => r.ids.pmid)).toEqual(["39272813", "30197789", "25587027", "28779002", "11805335"]);
    const decker = records[3];
    expect(decker?.title).toBe("Rare, protein-truncating variants in ATM, CHEK2 and PALB2, but not XRCC2, are associated with increased breast cancer risks.");
    expect(decker?.ids).toMatchObject({ pmcid: "PMC5740532", doi: "10.1136/jmedgenet-2017-104588" });
    expect(decker?.publicationTypes).toEqual(["Research Support, Non-U.S. Gov't", "research-article", "Journal Article"]);
    expect(decker).toMatchObject({ journal: "J Med Genet", year: 2017, date: "2017-08-04", citedByCount: 74, isPreprint: false });
    expect(decker?.authors[0]).toBe("Decker B");
  });

  it("sends the preprint scope and the date range, and parses core preprint and retracted records", async () => {
    const s = await replay([{ path: "/search", file: synthetic("europepmc-search-core-synthetic.json") }]);
    const europepmc = createEuropePmcSource({ baseUrl: s.url, ...quick });
    const records = await europepmc.search(query({ terms: ["rapamycin"], scope: "preprints", dateFrom: "2020-01-01", dateTo: "2024-12-31" }));
    expect(s.requests[0]?.query.get("query")).toBe('(TITLE_ABS:"rapamycin") AND FIRST_PDATE:[2020-01-01 TO 2024-12-31] AND SRC:PPR');

    const [preprint, retracted] = records;
    expect(preprint).toMatchObject({ isPreprint: true, journal: "bioRxiv", date: "2024-02-02", url: "https://doi.org/10.1101/2024.02.01.578000" });
    expect(preprint?.ids).toEqual({ doi: "10.1101/2024.02.01.578000", ppr: "PPR700001" });
    expect(preprint?.title).toBe("Intermittent rapamycin extends lifespan in aged mice (synthetic)");
    // Its headings are labels as PubMed renders them, read by the one section reader (never a word of the sentence after them).
    expect(preprint?.abstract).toBe("BACKGROUND: Rapamycin inhibits mTORC1. RESULTS: Median lifespan rose by 9% (p<0.05).");
    expect(retracted).toMatchObject({ isRetracted: true, journal: "Aging Cell", year: 2019, citedByCount: 17 });
    expect(retracted?.ids.doi).toBe("10.5555/synthetic.retracted.2019");
    expect(retracted?.mesh).toEqual(["Humans", "Aging", "Metformin"]);
    expect(retracted?.authors).toEqual(["Smith AB", "Aging Study Group"]);

    await europepmc.search(query({ terms: ["rapamycin"], scope: "no-preprints" }));
    expect(s.requests[1]?.query.get("query")).toBe('(TITLE_ABS:"rapamycin") NOT SRC:PPR');
  });

  it("broadens a sparse strict search unless asked for one breadth, and then sends only that query", async () => {
    const s = await replay([{ path: "/search", file: synthetic("europepmc-search-core-synthetic.json") }]);
    const europepmc = createEuropePmcSource({ baseUrl: s.url, ...quick });
    const sent = () => s.requests.splice(0).map((r) => r.query.get("query"));
    // Two hits for 20 wanted.
    const auto = await europepmc.search(query({ terms: ["rapamycin", "lifespan"], limit: 20 }));
    expect(sent()).toEqual(['(TITLE_ABS:"rapamycin" AND TITLE_ABS:"lifespan")', '(TITLE_ABS:"rapamycin" OR TITLE_ABS:"lifespan")']);
    expect(auto).toHaveLength(2); // the same two records from both pages, once each
    await europepmc.search(query({ terms: ["rapamycin", "lifespan"], limit: 20, breadth: "broad" }));
    expect(sent()).toEqual(['(TITLE_ABS:"rapamycin" OR TITLE_ABS:"lifespan")']);
    await europepmc.search(query({ terms: ["rapamycin", "lifespan"], limit: 20, breadth: "strict" }));
    expect(sent()).toEqual(['(TITLE_ABS:"rapamycin" AND TITLE_ABS:"lifespan")']);
  });

  it("runs a query in Europe PMC syntax for lookups (recorded PMID 20516115)", async () => {
    const s = await replay([{ path: "/search", query: { query: "EXT_ID:20516115 AND SRC:MED" }, file: recorded("europepmc/biomcp_search_pmid_20516115.json") }]);
    const europepmc = createEuropePmcSource({ baseUrl: s.url, ...quick });
    const page = await europepmc.searchByQueryString("EXT_ID:20516115 AND SRC:MED", { limit: 1 });
    expect(page.hitCount).toBe(1);
    expect(page.records[0]?.ids).toEqual({ pmid: "20516115", pmcid: "PMC3040717", doi: "10.1158/0008-5472.can-09-4563" });
    expect(page.records[0]?.publicationTypes).toContain("Research Support, N.I.H., Extramural");
    expect(page.records[0]?.authors).toHaveLength(11);
  });
});

describe("ClinicalTrials.gov", () => {
  it("requests the design fields and parses the recorded search", async () => {
    const s = await replay([{ path: "/api/v2/studies", file: recorded("clinicaltrials-gov/biomcp_search_phelan_limit5_20260811.json") }]);
    const trials = createClinicalTrialsSource({ baseUrl: s.url, ...quick });
    const records = await trials.search(query({ terms: ["Phelan-McDermid syndrome"], limit: 5, dateFrom: "2015-01-01" }));

    const sent = s.requests[0]?.query;
    expect(sent?.get("query.term")).toBe('"Phelan-McDermid syndrome"');
    expect(sent?.get("pageSize")).toBe("5");
    expect(sent?.get("filter.advanced")).toBe("AREA[StudyFirstPostDate]RANGE[2015-01-01,MAX]");
    expect(sent?.get("fields")?.split(",")).toEqual(expect.arrayContaining(["DesignAllocation", "DesignPrimaryPurpose", "DesignMasking", "HasResults", "ResultsFirstPostDate"]));
    expect(records.map((r) => r.ids.nct)).toEqual(["NCT02710084", "NCT05105685", "NCT01525901", "NCT03493607", "NCT07119606"]);
    expect(records[0]?.trial).toMatchObject({ studyType: "INTERVENTIONAL", phases: ["PHASE2"], enrollment: 18, interventions: ["Oxytocin", "Saline"], allocation: null });
    expect(records[1]?.trial?.phases).toEqual(["PHASE1", "PHASE2"]);
    expect(records[4]?.trial?.phases).toEqual([]);
    expect(records[0]?.url).toBe("https://clinicaltrials.gov/study/NCT02710084");

    expect(await trials.search(query({ terms: ["oxytocin"], scope: "preprints" }))).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it("looks studies up by NCT id: recorded ones, a synthetic one with design fields, and an unknown one", async () => {
    const s = await replay([
      { path: "/api/v2/studies/NCT06382129", file: recorded("clinicaltrials-gov/biomcp_get_nct06382129_20260811.json") },
      { path: "/api/v2/studies/NCT06604689", file: recorded("clinicaltrials-gov/biomcp_get_nct06604689_20260811.json") },
      { path: "/api/v2/studies/NCT09990001", file: synthetic("clinicaltrials-study-synthetic-design.json") },
    ]);
    const trials = createClinicalTrialsSource({ baseUrl: s.url, ...quick });
    const phase3 = await trials.getTrial("nct06382129");
    expect(phase3?.trial).toMatchObject({ studyType: "INTERVENTIONAL", phases: ["PHASE3"], enrollment: 698, overallStatus: "ACTIVE_NOT_RECRUITING" });
    const observational = await trials.getTrial("NCT06604689");
    expect(observational?.trial).toMatchObject({ studyType: "OBSERVATIONAL", enrollment: 800, phases: [] });

    const designed = await trials.getTrial("NCT09990001");
    expect(designed?.ids.nct).toBe("NCT09990001");
    expect(designed?.trial).toMatchObject({ allocation: "RANDOMIZED", interventionModel: "PARALLEL", primaryPurpose: "PREVENTION", masking: "QUADRUPLE", hasResults: true, phases: ["PHASE2", "PHASE3"] });
    expect(designed).toMatchObject({ date: "2018-11-20", year: 2018, mesh: ["Prediabetic State", "Metformin"] });

    expect(await trials.getTrial("NCT00000000")).toBeNull();
    expect(s.requests[0]?.query.get("fields")).toContain("DesignInterventionModel");
  });
});

describe("bioRxiv / medRxiv", () => {
  it("links a preprint DOI to its journal version", async () => {
    const s = await replay([{ path: "/details/biorxiv/10.1101/2023.05.01.538900/na/json", file: synthetic("biorxiv-details-synthetic-published.json") }]);
    const biorxiv = createBiorxivSource({ baseUrl: s.url, ...quick });
    const found = await biorxiv.getPublishedVersion("https://doi.org/10.1101/2023.05.01.538900", "biorxiv");
    expect(found).toMatchObject({ doi: "10.1101/2023.05.01.538900", server: "biorxiv", publishedDoi: "10.1038/s41586-024-00001-x", latestVersion: 2 });
    expect(found?.record).toMatchObject({ isPreprint: true, date: "2023-05-02", journal: "bioRxiv", publishedDoi: "10.1038/s41586-024-00001-x" });
    expect(found?.record.title).toContain("aged human fibroblasts");
    expect(found?.record.authors).toEqual(["Doe J", "van der Berg AB", "Roe R"]);
    expect(found?.record.url).toBe("https://www.biorxiv.org/content/10.1101/2023.05.01.538900v2");
  });

  it("tries the other server when the first does not know the DOI", async () => {
    const s = await replay([
      { path: /^\/details\/biorxiv\//, file: synthetic("biorxiv-details-synthetic-not-found.json") },
      { path: "/details/medrxiv/10.1101/2024.01.10.575000/na/json", file: synthetic("biorxiv-details-synthetic-unpublished.json") },
    ]);
    const biorxiv = createBiorxivSource({ baseUrl: s.url, ...quick });
    const found = await biorxiv.getPublishedVersion("10.1101/2024.01.10.575000");
    expect(found).toMatchObject({ server: "medrxiv", publishedDoi: null });
    expect(found?.record.source).toBe("medrxiv");
    expect(s.requests.map((r) => r.path.split("/")[2])).toEqual(["biorxiv", "medrxiv"]);
  });
});

describe("Crossref", () => {
  it("verifies a DOI from the recorded work, sending mailto", async () => {
    const s = await replay([{ path: "/works/10.1016/j.xgen.2025.100814", file: recorded("crossref-openalex-unpaywall/derived_from_paperqa_doi_search_crossref_work.json") }]);
    const crossref = createCrossrefSource({ baseUrl: s.url, mailto: "ops@example.org", ...quick });
    const work = await crossref.getWork("10.1016/J.XGEN.2025.100814");
    expect(work?.record).toMatchObject({ title: "High-throughput screening of human genetic variants by pooled prime editing", journal: "Cell Genomics", year: 2025, date: null, isRetracted: false });
    expect(work?.type).toBe("journal-article");
    expect(work?.record.authors[0]).toBe("Herger M");
    expect(s.requests[0]?.query.get("mailto")).toBe("ops@example.org");
    expect(s.requests[0]?.headers["user-agent"]).toContain("mailto:ops@example.org");
    expect(await crossref.getWork("10.1016/unknown")).toBeNull();
  });

  it("searches bibliographically and reads the recorded x-rate-limit headers", async () => {
    const interaction = readCassetteInteraction(TITLE_SEARCH_CASSETTE, 0);
    const s = await replay([{ path: "/works", status: interaction.status, headers: interaction.headers, body: interaction.body }]);
    const crossref = createCrossrefSource({ baseUrl: s.url, ...quick });
    const records = await crossref.search(query({ terms: ["native oxide", "copper thin-film"], limit: 1, dateFrom: "2010-01-01" }));
    expect(s.requests[0]?.query.get("query.bibliographic")).toBe("native oxide copper thin-film");
    expect(s.requests[0]?.query.get("filter")).toBe("from-pub-date:2010-01-01");
    expect(records[0]).toMatchObject({ journal: "Journal of Applied Physics", date: "2015-12-21", ids: { doi: "10.1063/1.4938384" } });
    expect(records[0]?.abstract).toMatch(/^Metal-oxide layers are likely/);
    expect(crossref.advertisedRateLimit()).toEqual({ limit: 150, intervalMs: 1000 });
  });

  it("slows down to a lower advertised rate limit", async () => {
    const s = await replay([{ path: /^\/works\//, headers: { "x-rate-limit-limit": "2", "x-rate-limit-interval": "1s" }, file: synthetic("crossref-work-synthetic-retracted-target.json") }]);
    // The limiter's own clock, advanced only by the waits it asks for: the spacing is read from
    // when each request was let go, not from when a busy machine delivered it to the server.
    let clock = 0;
    const starts: number[] = [];
    const paced = createRateLimiter({ requestsPerSecond: quick.requestsPerSecond, now: () => clock, wait: async (ms) => void (clock += ms) });
    const rateLimiter = { ...paced, acquire: async (...args: Parameters<RateLimiter["acquire"]>) => {
      await paced.acquire(...args);
      starts.push(clock);
    } };
    const crossref = createCrossrefSource({ baseUrl: s.url, ...quick, rateLimiter });
    for (let i = 0; i < 3; i++) await crossref.getWork("10.5555/synthetic.retracted.2020");
    expect(s.requests).toHaveLength(3);
    const [first, second, third] = starts;
    // At 100 a second before the service said otherwise; at its 2 a second after.
    expect((second ?? 0) - (first ?? 0)).toBe(10);
    expect((third ?? 0) - (second ?? 0)).toBe(500);
  });

  it("detects a retraction from a notice's update-to, and a withdrawal from updated-by", async () => {
    const s = await replay([
      { path: "/works/10.5555/synthetic.retracted.2020", file: synthetic("crossref-work-synthetic-retracted-target.json") },
      { path: "/works", query: { filter: "updates:10.5555/synthetic.retracted.2020" }, file: synthetic("crossref-works-synthetic-retraction-notice.json") },
      { path: "/works/10.5555/synthetic.preprint.2022", file: synthetic("crossref-work-synthetic-updated-by.json") },
    ]);
    const crossref = createCrossrefSource({ baseUrl: s.url, ...quick });
    expect((await crossref.getWork("10.5555/synthetic.retracted.2020"))?.record.isRetracted).toBe(false);

    const checked = await crossref.getWork("10.5555/synthetic.retracted.2020", { includeNotices: true });
    expect(checked?.record.isRetracted).toBe(true);
    expect(checked?.record.publicationTypes).toContain("Retracted Publication");
    expect(checked?.updatedBy).toEqual([{ doi: "10.5555/synthetic.notice.2021", type: "retraction", kind: "retraction", label: "Retraction", date: "2021-03-04", source: "publisher" }]);

    const withdrawn = await crossref.getWork("10.5555/synthetic.preprint.2022");
    expect(withdrawn?.record).toMatchObject({ isRetracted: true, isPreprint: true, publishedDoi: "10.5555/synthetic.journal.2023", journal: "bioRxiv", date: "2022-01-20" });
    expect(withdrawn?.record.title).toBe("NAD+ precursor supplementation in middle-aged adults (synthetic)");
    expect(withdrawn?.record.abstract).toBe("NR raised blood NAD+ levels.");
    expect(withdrawn?.updatedBy[0]).toMatchObject({ kind: "withdrawal", source: "retraction-watch" });
  });
});

describe("OpenAlex", () => {
  it("looks a DOI up with the API key and parses the recorded work", async () => {
    const s = await replay([{ path: "/works/doi:10.1016/j.xgen.2025.100814", file: recorded("crossref-openalex-unpaywall/derived_from_paperqa_doi_search_openalex_work.json") }]);
    const openalex = createOpenAlexSource({ baseUrl: s.url, apiKey: "test-openalex-key", ...quick });
    const record = await openalex.getWorkByDoi("doi:10.1016/j.xgen.2025.100814");
    expect(s.requests[0]?.query.get("api_key")).toBe("test-openalex-key");
    expect(s.requests[0]?.query.get("select")?.split(",")).toEqual(expect.arrayContaining(["abstract_inverted_index", "biblio"]));
    // The recorded biblio has no volume or issue; its one page is the article number.
    expect(record).toMatchObject({ volume: null, issue: null, pages: "100814" });
    expect(record?.ids).toEqual({ pmid: "40120586", doi: "10.1016/j.xgen.2025.100814", openalex: "W4408732759" });
    expect(record).toMatchObject({ journal: "Cell Genomics", date: "2025-03-01", year: 2025, isRetracted: false, abstract: null, publicationTypes: ["Journal Article"] });
    expect(record?.authors[0]).toBe("Michael Herger");
  });

  it("searches with filters and rebuilds the abstract of the recorded list response", async () => {
    const interaction = readCassetteInteraction(TITLE_SEARCH_CASSETTE, 3);
    const s = await replay([{ path: "/works", headers: interaction.headers, body: interaction.body }]);
    const openalex = createOpenAlexSource({ baseUrl: s.url, apiKey: "test-openalex-key", ...quick });
    const records = await openalex.search(query({ terms: ["native oxide", "copper"], limit: 5, scope: "no-preprints", dateFrom: "2010-01-01" }));
    expect(s.requests[0]?.query.get("search")).toBe("native oxide copper");
    expect(s.requests[0]?.query.get("filter")).toBe("from_publication_date:2010-01-01,type:!preprint");
    expect(records[0]?.ids.openalex).toBe("W2277923667");
    expect(records[0]?.abstract).toMatch(/^Metal-oxide layers are likely to be present on metallic nano-structures due to/);
  });

  it("flags a retracted work and reads its MeSH (synthetic)", async () => {
    const s = await replay([{ path: /^\/works\/doi:/, file: synthetic("openalex-work-synthetic-retracted.json") }]);
    const openalex = createOpenAlexSource({ baseUrl: s.url, apiKey: "test-openalex-key", ...quick });
    const record = await openalex.getWorkByDoi("10.5555/synthetic.retracted.2020");
    expect(record).toMatchObject({ isRetracted: true, mesh: ["Animals", "Aging"], abstract: "Dasatinib plus quercetin improved grip strength." });
    expect(record?.ids.pmcid).toBe("PMC7300001");
    expect(record?.publicationTypes).toContain("Retracted Publication");
  });
});
