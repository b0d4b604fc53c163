import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentMigrations } from "@/agent/db/migrations";
import { importJsonLines, importLibraryFile, importLibraryRecords, LibraryImportError } from "@/agent/library/import";
import { getLibraryRecord } from "@/agent/library/get-record";
import { rebuildLibraryStatistics } from "@/agent/library/insert-rows";
import { searchLibrary } from "@/agent/library/search";
import { createLocalLibrarySource } from "@/agent/library/source";
import type { SourceQuery } from "@/agent/literature/sources/types";
import { SourceError } from "@/agent/literature/sources/types";
import { runMigrations } from "@/lib/shared/db/migrate";
import { createPool } from "@/lib/shared/db/pool";
import { createTestDatabase } from "../support/database";

const root = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(root, "tests/fixtures/library");
const JSONL = path.join(FIXTURES, "records.jsonl");
const SYNTHETIC_XML = path.join(FIXTURES, "pubmed-articles.xml");
const REAL_XML = path.join(root, "../shared/fixtures/literature-apis/pubmed-eutils/biopython_pubmed4.xml");
const RECORD_PAGE_BASE = "https://research.example/library/records";

describe("the local library", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const query = (overrides: Partial<SourceQuery>): SourceQuery => ({ text: "", terms: [], limit: 10, ...overrides });
  const search = (overrides: Partial<SourceQuery>) => searchLibrary({ db: pool, query: query(overrides), recordPageBase: RECORD_PAGE_BASE });
  const count = async () => Number((await pool.query("SELECT count(*) AS n FROM agent.library_records")).rows[0].n);

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPool({ url: database.url, max: 4 });
    // On the PGlite fallback every file shares one database and the helper drops only the gateway
    // schema: start the agent's from nothing so earlier files cannot leave rows or migrations.
    await pool.query("DROP SCHEMA IF EXISTS agent CASCADE");
    await runMigrations(pool, { schema: "agent", migrations: agentMigrations });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });
  beforeEach(async () => {
    await pool.query("TRUNCATE agent.library_records, agent.library_lexemes");
    await pool.query("UPDATE agent.library_statistics SET records = 0, tokens = 0");
  });

  describe("importing JSON Lines", () => {
    it("inserts the good lines, counts duplicates and reports every bad line with its number and reason", async () => {
      const summary = await importLibraryFile({ db: pool, file: JSONL });
      expect(summary.inserted).toBe(7);
      // Line 6 repeats line 1's PMID; line 8 repeats line 5's text without ids.
      expect(summary.duplicates).toBe(2);
      expect(summary.rejected.map((r) => r.line)).toEqual([9, 10, 11, 12, 13, 14, 15]);
      const reasons = Object.fromEntries(summary.rejected.map((r) => [r.line, r.reason]));
      expect(reasons[9]).toMatch(/pmid "12a"/);
      expect(reasons[10]).toMatch(/abstract: is required/);
      expect(reasons[11]).toMatch(/invalid JSON/);
      expect(reasons[12]).toMatch(/year: must be a four-digit year/);
      expect(reasons[13]).toBe("not a JSON object");
      expect(reasons[14]).toMatch(/abstract: must not be empty/);
      expect(reasons[15]).toMatch(/mesh: must be a list of strings/);
      expect(await count()).toBe(7);
    });

    it("adds nothing when the same file is imported again, and leaves the statistics alone", async () => {
      await importLibraryFile({ db: pool, file: JSONL });
      const before = (await pool.query("SELECT records, tokens FROM agent.library_statistics")).rows[0];
      const again = await importLibraryFile({ db: pool, file: JSONL });
      expect(again).toMatchObject({ inserted: 0, duplicates: 9 });
      expect(again.rejected).toHaveLength(7);
      expect(await count()).toBe(7);
      expect((await pool.query("SELECT records, tokens FROM agent.library_statistics")).rows[0]).toEqual(before);
    });

    it("keeps what a citation needs: authors, journal, volume, issue and pages (written whole)", async () => {
      await importLibraryFile({ db: pool, file: JSONL });
      const [hit] = await search({ text: "rapamycin lifespan genetically heterogeneous mice" });
      expect(hit?.record).toMatchObject({ journal: "Synthetic Journal of Aging", volume: "460", issue: "7253", pages: "392-395", authors: ["Testwell A", "Samplewood B", "Fixture C"] });
      const [metformin] = await search({ text: "metformin frailty older adults" });
      expect(metformin?.record).toMatchObject({ volume: "12", issue: "3", pages: "e1000218" });
    });

    it("stores a derived title, flagged, for a record without one", async () => {
      await importLibraryFile({ db: pool, file: JSONL });
      const { rows } = await pool.query("SELECT title, title_derived FROM agent.library_records WHERE abstract LIKE 'Caloric restriction%'");
      expect(rows).toEqual([{ title: "Caloric restriction delays the onset of age-related disease in rhesus monkeys", title_derived: true }]);
      const [hit] = await search({ text: "rhesus monkeys caloric restriction" });
      expect(hit?.record).toMatchObject({ titleDerived: true, url: expect.stringMatching(/^https:\/\/research\.example\/library\/records\/[0-9a-f-]{36}$/) });
    });

    it("streams from any line source in batches, skipping duplicates inside a batch too", async () => {
      function* lines() {
        for (let i = 0; i < 1_203; i++) yield JSON.stringify({ pmid: String(80_000_000 + (i % 1_200)), title: `Synthetic record ${i % 1_200}`, abstract: `Abstract number ${i % 1_200} about geroprotectors.` });
      }
      const progress: number[] = [];
      const summary = await importJsonLines({ db: pool, lines: lines(), batchSize: 500, onProgress: (p) => progress.push(p.inserted) });
      expect(summary).toEqual({ inserted: 1_200, duplicates: 3, rejected: [] });
      expect(progress).toEqual([500, 1_000, 1_200]);
      expect(await count()).toBe(1_200);
    });

    it("keeps the BM25 statistics equal to what a full recount gives", async () => {
      await importLibraryFile({ db: pool, file: JSONL });
      await importLibraryFile({ db: pool, file: SYNTHETIC_XML });
      const snapshot = async () => ({
        statistics: (await pool.query("SELECT records, tokens FROM agent.library_statistics")).rows[0],
        lexemes: (await pool.query("SELECT lexeme, records FROM agent.library_lexemes ORDER BY lexeme")).rows,
      });
      const incremental = await snapshot();
      expect(Number(incremental.statistics.records)).toBe(9);
      expect(incremental.lexemes.find((l: { lexeme: string }) => l.lexeme === "autophagi")?.records).toBe(3);
      await rebuildLibraryStatistics({ db: pool });
      expect(await snapshot()).toEqual(incremental);
    });
  });

  describe("importing PubMed XML", () => {
    it("imports a real PubMed record with its ids, MeSH and publication types, once", async () => {
      expect(await importLibraryFile({ db: pool, file: REAL_XML })).toEqual({ inserted: 1, duplicates: 0, rejected: [] });
      const [hit] = await search({ terms: ["telomere", "pancreatic cancer"] });
      expect(hit?.record).toMatchObject({
        ids: { pmid: "27797938", doi: "10.1136/gutjnl-2016-312510" },
        journal: "Gut",
        volume: "66",
        issue: "6",
        pages: "1116-1122",
        year: 2017,
        url: "https://pubmed.ncbi.nlm.nih.gov/27797938/",
      });
      expect(hit?.record.authors.slice(0, 2)).toEqual(["Bao Y", "Prescott J"]);
      expect(hit?.record.title).toMatch(/^Leucocyte telomere length, genetic variants at the TERT gene region/);
      expect(hit?.record.publicationTypes).toContain("Observational Study");
      expect(hit?.record.mesh).toContain("Telomere Shortening");
      expect(hit?.matchedTerms).toEqual(["telomere", "pancreatic cancer"]);
      expect(await importLibraryFile({ db: pool, file: REAL_XML })).toEqual({ inserted: 0, duplicates: 1, rejected: [] });
    });

    it("derives missing titles and reports skipped articles by the line they start on", async () => {
      const summary = await importLibraryFile({ db: pool, file: SYNTHETIC_XML });
      expect(summary.inserted).toBe(2);
      expect(summary.rejected).toEqual([
        { line: 59, reason: expect.stringMatching(/without a readable PMID/) },
        { line: 67, reason: expect.stringMatching(/book record/) },
      ]);
      const { rows } = await pool.query("SELECT pmid, title, title_derived, authors FROM agent.library_records ORDER BY pmid");
      expect(rows).toEqual([
        { pmid: "90000011", title: "Spermidine supplementation and autophagy in aged cardiomyocytes", title_derived: false, authors: ["Example A"] },
        { pmid: "90000012", title: "To test whether nicotinamide riboside raises muscle NAD+ in older men", title_derived: true, authors: [] },
      ]);
    });

    it("reads gzipped files, and fails (keeping the batches before) when one is truncated", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-library-"));
      try {
        const gz = path.join(dir, "records.jsonl.gz");
        fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(JSONL)));
        expect(await importLibraryFile({ db: pool, file: gz })).toMatchObject({ inserted: 7, duplicates: 2 });
        const xmlGz = path.join(dir, "articles.xml.gz");
        fs.writeFileSync(xmlGz, zlib.gzipSync(fs.readFileSync(SYNTHETIC_XML)));
        expect(await importLibraryFile({ db: pool, file: xmlGz })).toMatchObject({ inserted: 2 });
        const lines = Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ title: `Truncation record ${i}`, abstract: `Abstract ${i}.` })).join("\n");
        const whole = zlib.gzipSync(Buffer.from(lines));
        const truncated = path.join(dir, "truncated.jsonl.gz");
        fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.9)));
        await expect(importLibraryFile({ db: pool, file: truncated, batchSize: 100 })).rejects.toThrow(/unexpected end of file/);
        expect(await count()).toBeGreaterThan(9);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("refuses a file that is not a PubMed article set, or not there", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-library-"));
      try {
        const notPubmed = path.join(dir, "other.xml");
        fs.writeFileSync(notPubmed, "<eSearchResult><Count>0</Count></eSearchResult>");
        await expect(importLibraryFile({ db: pool, file: notPubmed })).rejects.toThrow(LibraryImportError);
        const unknown = path.join(dir, "records.txt");
        fs.writeFileSync(unknown, "plain text");
        await expect(importLibraryFile({ db: pool, file: unknown })).rejects.toThrow(/unknown format/);
        await expect(importLibraryFile({ db: pool, file: path.join(dir, "missing.jsonl") })).rejects.toMatchObject({ code: "ENOENT" });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe("searching", () => {
    beforeEach(async () => {
      await importLibraryFile({ db: pool, file: JSONL });
    });

    it("puts the record that answers the question first", async () => {
      expect((await search({ text: "Does rapamycin extend lifespan in mice?" }))[0]?.record.ids.pmid).toBe("90000001");
      expect((await search({ text: "Is telomere length associated with mortality?" }))[0]?.record.ids.doi).toBe("10.5555/synth.0004");
      expect((await search({ text: "metformin frailty", terms: ["metformin", "frailty"] }))[0]?.record.ids.pmid).toBe("90000002");
      expect((await search({ text: "senolytics for pulmonary fibrosis" }))[0]?.record.ids.nct).toBe("NCT09000003");
    });

    it("finds a record by a phrase's other names when no record uses the question's words, and only then", async () => {
      const lay = await search({ terms: ["rapamune"], expansions: [{ terms: ["rapamune"], alternatives: ["rapamycin"], headings: [] }] });
      expect(lay[0]?.record.ids.pmid).toBe("90000001");
      expect(await search({ terms: ["rapamune"] })).toEqual([]);
      // "rapamycin" is in the library: its words are searched alone, another name adds nothing.
      const used = await search({ terms: ["rapamycin"], expansions: [{ terms: ["rapamycin"], alternatives: ["telomere"], headings: [] }] });
      expect(used.map((h) => h.record.ids.doi)).not.toContain("10.5555/synth.0004");
    });

    it("reads a phrase as used only where a record holds its words together, in the question's order", async () => {
      // The rapamycin record holds "lifespan" and "rapamycin" apart: the phrase's other name still searches.
      const apart = await search({ terms: ["lifespan", "rapamycin"], expansions: [{ terms: ["lifespan", "rapamycin"], alternatives: ["telomere length"], headings: [] }] });
      expect(apart.map((h) => h.record.ids.doi)).toContain("10.5555/synth.0004");
      // "telomere length" stands together in a record: the question's words are searched alone.
      const together = await search({ terms: ["telomere", "length"], expansions: [{ terms: ["telomere", "length"], alternatives: ["rapamycin"], headings: [] }] });
      expect(together.map((h) => h.record.ids.pmid)).not.toContain("90000001");
    });

    it("ranks by how well records match, not only those matching every word", async () => {
      const hits = await search({ text: "rapamycin zebrafish regeneration" });
      expect(hits.map((h) => h.record.ids.pmid ?? h.record.title)).toContain("90000001");
      expect(hits.length).toBeGreaterThanOrEqual(3);
      expect(hits.every((h, i) => i === 0 || hits[i - 1]!.rank >= h.rank)).toBe(true);
    });

    it("weighs a word in the title above the same word in the abstract", async () => {
      const hits = await search({ terms: ["autophagy"] });
      expect(hits.map((h) => h.record.title)).toEqual(["Autophagy decline in aged muscle stem cells", "Muscle stem cell quiescence in aged mice"]);
      expect(hits[0]!.rank).toBeGreaterThan(hits[1]!.rank);
    });

    it("reports which query terms each record matched", async () => {
      const hits = await search({ terms: ["rapamycin", "lifespan", "zebrafish", "insulin resistance", "mice"] });
      const rapamycin = hits.find((h) => h.record.ids.pmid === "90000001");
      expect(rapamycin?.matchedTerms).toEqual(["rapamycin", "lifespan", "mice"]);
      const stemCells = hits.find((h) => h.record.title.startsWith("Muscle stem cell"));
      expect(stemCells?.matchedTerms).toEqual(["mice"]);
    });

    it("respects the limit", async () => {
      expect(await search({ text: "aged mice muscle lifespan disease", limit: 2 })).toHaveLength(2);
      expect(await search({ text: "aged mice", limit: 0 })).toEqual([]);
    });

    it("filters by publication year, inclusive, leaving out records without a year", async () => {
      await importLibraryRecords({ db: pool, records: [{ title: "Undated note on aged mice", abstract: "Aged mice and lifespan, no year given." }] });
      const years = async (overrides: Partial<SourceQuery>) =>
        (await search({ text: "aged mice lifespan disease trial mortality frailty", limit: 50, ...overrides })).map((h) => h.record.year).sort();
      expect(await years({})).toContain(null);
      expect(await years({ dateFrom: "2018-06-01" })).toEqual([2018, 2019, 2021]);
      expect(await years({ dateTo: "2015-12-31" })).toEqual([2009, 2015]);
      expect(await years({ dateFrom: "2016-01-01", dateTo: "2016-12-31" })).toEqual([2016, 2016]);
    });

    it("scopes: trials only gives records with an NCT id, and a local record is never a preprint", async () => {
      const trials = await search({ text: "pulmonary fibrosis mice lifespan frailty", scope: "trials" });
      expect(trials.map((h) => h.record.ids.nct)).toEqual(["NCT09000003"]);
      expect(await search({ text: "rapamycin lifespan", scope: "preprints" })).toEqual([]);
      expect((await search({ text: "rapamycin lifespan", scope: "no-preprints" }))[0]?.record.ids.pmid).toBe("90000001");
    });

    it("finds a record sharing no word with the question through the words of the best records (pseudo-relevance feedback)", async () => {
      await importLibraryRecords({
        db: pool,
        records: [
          { title: "Low sugar spells in older people on insulin", abstract: "Spells of low blood sugar, severe hypoglycaemia, were frequent among older insulin users with nephropathy." },
          { title: "Severe hypoglycaemia and cardiovascular events in insulin-treated nephropathy", abstract: "Hypoglycaemia requiring assistance preceded myocardial infarction in insulin-treated patients." },
          ...["Knee osteoarthritis and walking speed", "Hearing loss after meningitis", "Cataract surgery waiting times", "Tooth loss and diet quality", "Night shifts and nurses' sleep"].map((title) => ({ title, abstract: `${title}: a cohort study.` })),
        ],
      });
      const hits = await search({ terms: ["sugar", "spells"] });
      expect(hits.map((h) => h.record.title).slice(0, 2)).toEqual(["Low sugar spells in older people on insulin", "Severe hypoglycaemia and cardiovascular events in insulin-treated nephropathy"]);
      // The lent words rank below the question's own: the record holding its words stays first.
      expect(hits[0]!.rank).toBeGreaterThan(hits[1]!.rank);
      expect(hits[1]!.matchedTerms).toEqual([]);
    });

    it("finds nothing for a question of stop words or words no record holds", async () => {
      expect(await search({ text: "Is it the one that was?" })).toEqual([]);
      expect(await search({ terms: ["zebrafish"] })).toEqual([]);
    });
  });

  describe("as a literature source", () => {
    beforeEach(async () => {
      await importLibraryFile({ db: pool, file: JSONL });
    });

    it("is named local and returns local records with landing-page URLs", async () => {
      const source = createLocalLibrarySource({ db: pool, recordPageBase: RECORD_PAGE_BASE });
      expect(source.name).toBe("local");
      const records = await source.search(query({ text: "rapamycin metformin telomere dasatinib caloric restriction", limit: 20 }));
      const byTitle = new Map(records.map((r) => [r.title.slice(0, 20), r]));
      expect(byTitle.get("Rapamycin fed late i")?.url).toBe("https://pubmed.ncbi.nlm.nih.gov/90000001/");
      expect(byTitle.get("Telomere length and ")?.url).toBe("https://doi.org/10.5555/synth.0004");
      expect(byTitle.get("Senolytic dasatinib ")?.url).toBe("https://clinicaltrials.gov/study/NCT09000003");
      expect(byTitle.get("Caloric restriction ")?.url).toMatch(/^https:\/\/research\.example\/library\/records\/[0-9a-f-]{36}$/);
      for (const record of records) {
        expect(record).toMatchObject({ source: "local", sources: ["local"], isPreprint: false });
        expect(record.ids.local).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it("serves a record by its library id, the landing page of records without registry ids", async () => {
      const [hit] = await search({ text: "rhesus monkeys caloric restriction" });
      const id = hit!.record.ids.local!;
      expect(await getLibraryRecord({ db: pool, id, recordPageBase: RECORD_PAGE_BASE })).toEqual(hit!.record);
      expect(await getLibraryRecord({ db: pool, id: "00000000-0000-8000-8000-000000000000" })).toBeNull();
      expect(await getLibraryRecord({ db: pool, id: "not-a-uuid" })).toBeNull();
    });

    it("fails as a SourceError: timeout when aborted, network when the database fails", async () => {
      const source = createLocalLibrarySource({ db: pool });
      const controller = new AbortController();
      controller.abort();
      await expect(source.search(query({ text: "rapamycin" }), { signal: controller.signal })).rejects.toMatchObject({ name: "SourceError", kind: "timeout" });
      const broken = createLocalLibrarySource({ db: { query: async () => Promise.reject(new Error("connection refused")) } as unknown as pg.Pool });
      const failure = await broken.search(query({ text: "rapamycin" })).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(SourceError);
      expect(failure).toMatchObject({ source: "local", kind: "network" });
    });
  });

  describe("npm run library:import", () => {
    const runImport = (args: string[], env: Record<string, string>) =>
      spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/library-import.ts"), ...args], {
        cwd: root,
        encoding: "utf8",
        env: { PATH: process.env.PATH, NODE_ENV: "development", LOG_SILENT: "1", ...env },
        timeout: 60_000,
      });

    it("imports into the configured database, prints the summary and the rejected lines, and fails on an unreadable file", () => {
      const ok = runImport([JSONL], { POSTGRES_URL: database.url });
      expect(ok.status).toBe(0);
      expect(ok.stdout).toContain("7 inserted, 2 duplicates, 7 rejected");
      expect(ok.stdout).toMatch(/line 11: invalid JSON/);
      const missing = runImport([JSONL, "/nonexistent/records.jsonl"], { POSTGRES_URL: database.url });
      expect(missing.status).toBe(1);
      expect(missing.stdout).toContain("0 inserted, 9 duplicates");
      expect(missing.stderr).toContain("/nonexistent/records.jsonl: no such file");
    });

    it("uses the database a running process serves when that process owns the data folder", async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lra-library-owned-"));
      try {
        // This test process stands in for the running agent: alive, and serving the test database.
        fs.writeFileSync(path.join(dataDir, "owner.json"), JSON.stringify({ pid: process.pid, url: database.url, startedAt: new Date().toISOString() }));
        const run = runImport([SYNTHETIC_XML], { DATA_DIR: dataDir });
        expect(run.status).toBe(0);
        expect(run.stderr).toContain(`served by process ${process.pid}`);
        expect(run.stdout).toContain("2 inserted");
        expect(await count()).toBe(2);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
