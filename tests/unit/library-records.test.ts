import { describe, expect, it } from "vitest";
import { parseLibraryLine } from "@/agent/library/json-lines";
import { cleanParagraphs, cleanText, deriveTitle, hashContent, idFromHash, prepareLibraryRow, type LibraryRecordInput } from "@/agent/library/prepare-record";
import { locatePubmedArticles } from "@/agent/library/pubmed-articles";
import { buildRecordUrl, toLiteratureRecord, type LibraryRecordRow } from "@/agent/library/to-literature-record";

function buildInput(overrides: Partial<LibraryRecordInput> = {}): LibraryRecordInput {
  return { pmid: "90000001", title: "Rapamycin extends lifespan in mice", abstract: "Rapamycin extended lifespan. Survival rose.", year: 2009, ...overrides };
}

function buildRow(overrides: Partial<LibraryRecordRow> = {}): LibraryRecordRow {
  return {
    id: "0b6f1c9e-1111-8222-9333-444455556666",
    pmid: null,
    doi: null,
    nct: null,
    title: "A title",
    title_derived: false,
    abstract: "An abstract.",
    journal: null,
    volume: null,
    issue: null,
    pages: null,
    year: 2020,
    authors: [],
    publication_types: [],
    mesh: [],
    ...overrides,
  };
}

describe("derived titles", () => {
  it("are the abstract's first sentence, without its final full stop", () => {
    expect(deriveTitle("Caloric restriction delays disease in monkeys. Animals had fewer cancers.")).toBe("Caloric restriction delays disease in monkeys");
  });

  it("drop a leading section label and look only at the first section", () => {
    expect(deriveTitle("OBJECTIVE: To test whether NR raises NAD+ in older men\nRESULTS: It did.")).toBe("To test whether NR raises NAD+ in older men");
  });

  it("do not end at abbreviations or decimals in mid-sentence", () => {
    expect(deriveTitle("Drugs (e.g. metformin vs. placebo) lowered HbA1c by 0.5 points in 2.1% of cases. Next sentence.")).toBe(
      "Drugs (e.g. metformin vs. placebo) lowered HbA1c by 0.5 points in 2.1% of cases",
    );
  });

  it("are cut at a word boundary with an ellipsis when the sentence is long", () => {
    const title = deriveTitle(`${"Senescent cells accumulate ".repeat(20)}in tissues.`, 60);
    expect(title.length).toBeLessThanOrEqual(61);
    expect(title.endsWith("…")).toBe(true);
    expect(title).toMatch(/accumulate…$|cells…$|Senescent…$/);
  });
});

describe("preparing a library row", () => {
  it("normalises identifiers to the record shape's forms", () => {
    const prepared = prepareLibraryRow(buildInput({ pmid: " 90000001 ", doi: "https://doi.org/10.5555/SYNTH.1", nct: "nct01234567" }));
    expect("row" in prepared && prepared.row).toMatchObject({ pmid: "90000001", doi: "10.5555/synth.1", nct: "NCT01234567" });
  });

  it("derives a title when there is none, and says so", () => {
    const prepared = prepareLibraryRow(buildInput({ title: "  " }));
    expect("row" in prepared && prepared.row).toMatchObject({ title: "Rapamycin extended lifespan", titleDerived: true });
    const given = prepareLibraryRow(buildInput());
    expect("row" in given && given.row.titleDerived).toBe(false);
  });

  it("rejects malformed identifiers, empty records and impossible years with a reason", () => {
    const reason = (input: LibraryRecordInput) => {
      const prepared = prepareLibraryRow(input);
      return "reason" in prepared ? prepared.reason : null;
    };
    expect(reason(buildInput({ pmid: "12a" }))).toMatch(/pmid "12a"/);
    expect(reason(buildInput({ doi: "not-a-doi" }))).toMatch(/doi "not-a-doi"/);
    expect(reason(buildInput({ nct: "NCT123" }))).toMatch(/nct "NCT123"/);
    expect(reason(buildInput({ title: null, abstract: " " }))).toMatch(/no title and no abstract/);
    expect(reason(buildInput({ year: 209 }))).toMatch(/year 209/);
  });

  it("keeps a titled record without an abstract, with an empty abstract", () => {
    const prepared = prepareLibraryRow(buildInput({ abstract: null }));
    expect("row" in prepared && prepared.row).toMatchObject({ abstract: "", titleDerived: false });
  });

  it("removes characters PostgreSQL cannot store, and deduplicates lists", () => {
    expect(cleanText("a\u0000b\tc\n d")).toBe("ab c d");
    expect(cleanParagraphs("First  line\r\n\n second\u0000 line ")).toBe("First line\nsecond line");
    const prepared = prepareLibraryRow(buildInput({ mesh: ["Aging", " Aging ", "", "Mice"] }));
    expect("row" in prepared && prepared.row.mesh).toEqual(["Aging", "Mice"]);
  });

  it("identifies content regardless of case and spacing, with a stable uuid", () => {
    const a = hashContent({ title: "Rapamycin  and mice", abstract: "Text." });
    expect(hashContent({ title: "rapamycin and MICE", abstract: " text. " })).toBe(a);
    expect(hashContent({ title: "Rapamycin and rats", abstract: "Text." })).not.toBe(a);
    expect(idFromHash(a)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idFromHash(a)).toBe(idFromHash(a));
  });
});

describe("a JSON Lines line", () => {
  it("is a record when valid; numeric PMIDs and string years are accepted, nulls mean absent", () => {
    const parsed = parseLibraryLine('{"pmid": 123, "abstract": "Text.", "year": "2019", "journal": null, "mesh": ["Aging"], "extra": true}');
    expect(parsed).toEqual({ kind: "record", input: { pmid: "123", abstract: "Text.", year: 2019, journal: null, mesh: ["Aging"] } });
  });

  it("carries where in the journal a record is: volume, issue and pages as text or numbers, pages written whole", () => {
    const parsed = parseLibraryLine('{"abstract": "Text.", "journal": "Gut", "volume": 66, "issue": "6", "pages": "1116-22", "authors": ["Bao Y", "Prescott J"]}');
    expect(parsed).toEqual({ kind: "record", input: { abstract: "Text.", pmid: null, year: null, journal: "Gut", volume: "66", issue: "6", pages: "1116-22", authors: ["Bao Y", "Prescott J"] } });
    const prepared = prepareLibraryRow(parsed.kind === "record" ? parsed.input : {});
    expect("row" in prepared && prepared.row).toMatchObject({ journal: "Gut", volume: "66", issue: "6", pages: "1116-1122", authors: ["Bao Y", "Prescott J"] });
    expect(parseLibraryLine('{"abstract": "x", "volume": true}')).toMatchObject({ kind: "rejected", reason: expect.stringMatching(/^volume: must be a string or a whole number/) });
  });

  it("is nothing when blank", () => {
    expect(parseLibraryLine("   ")).toEqual({ kind: "blank" });
  });

  it("is rejected with a reason naming the problem", () => {
    const reason = (line: string) => {
      const parsed = parseLibraryLine(line);
      return parsed.kind === "rejected" ? parsed.reason : null;
    };
    expect(reason("not json")).toMatch(/^invalid JSON/);
    expect(reason("[1, 2]")).toBe("not a JSON object");
    expect(reason('{"title": "No abstract"}')).toMatch(/^abstract: is required/);
    expect(reason('{"abstract": "  "}')).toMatch(/^abstract: must not be empty/);
    expect(reason('{"abstract": "x", "year": "20x1"}')).toMatch(/^year: must be a four-digit year/);
    expect(reason('{"abstract": "x", "mesh": "Aging"}')).toMatch(/^mesh: must be a list of strings/);
    expect(reason('{"abstract": 5, "pmid": true}')).toMatch(/pmid: .*; abstract: |abstract: .*; pmid: /);
  });
});

describe("locating PubMed articles", () => {
  it("gives each article's start line and own PMID (not those of its comment links), and the book records", () => {
    const xml = [
      "<PubmedArticleSet>",
      "<PubmedArticle>",
      '<MedlineCitation><PMID Version="1">111</PMID>',
      "<CommentsCorrections><PMID>999</PMID></CommentsCorrections></MedlineCitation>",
      "</PubmedArticle>",
      "<PubmedArticle><MedlineCitation><Article/></MedlineCitation></PubmedArticle>",
      "<PubmedBookArticle><BookDocument><PMID>222</PMID></BookDocument></PubmedBookArticle>",
      "</PubmedArticleSet>",
    ].join("\n");
    expect(locatePubmedArticles(xml)).toEqual({ articles: [{ line: 2, pmid: "111" }, { line: 6, pmid: null }], books: [7] });
  });
});

describe("a library record as a literature record", () => {
  it("links PubMed first, then the DOI, then ClinicalTrials.gov, then the agent's own page", () => {
    expect(buildRecordUrl({ row: buildRow({ pmid: "1", doi: "10.1/x", nct: "NCT01234567" }) })).toBe("https://pubmed.ncbi.nlm.nih.gov/1/");
    expect(buildRecordUrl({ row: buildRow({ doi: "10.1002/(sici)1097#x" }) })).toBe("https://doi.org/10.1002/(sici)1097%23x");
    expect(buildRecordUrl({ row: buildRow({ nct: "NCT01234567" }) })).toBe("https://clinicaltrials.gov/study/NCT01234567");
    expect(buildRecordUrl({ row: buildRow(), recordPageBase: "https://research.example/library/records/" })).toBe(
      "https://research.example/library/records/0b6f1c9e-1111-8222-9333-444455556666",
    );
    expect(buildRecordUrl({ row: buildRow() })).toBe("http://localhost:3001/api/library/records/0b6f1c9e-1111-8222-9333-444455556666");
  });

  it("is a local, never preprint record carrying its library id, derived-title flag and retraction", () => {
    const record = toLiteratureRecord({ row: buildRow({ pmid: "5", title_derived: true, abstract: "", publication_types: ["Retracted Publication"], journal: "Gut", volume: "66", issue: "6", pages: "1116-1122", authors: ["Bao Y"] }) });
    expect(record).toMatchObject({
      journal: "Gut",
      volume: "66",
      issue: "6",
      pages: "1116-1122",
      authors: ["Bao Y"],
      ids: { local: "0b6f1c9e-1111-8222-9333-444455556666", pmid: "5" },
      titleDerived: true,
      abstract: null,
      source: "local",
      sources: ["local"],
      isPreprint: false,
      isRetracted: true,
    });
    expect(record.ids).not.toHaveProperty("doi");
  });
});
