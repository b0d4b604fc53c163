import { describe, expect, it } from "vitest";
import { chatResultSchema, gradedReferenceSchema, literatureJobResultSchema } from "@/lib/shared/contracts";
import { rowFromGraded, rowFromLiterature } from "@/lib/web/evidence-rows";
import { answerWithCitations, CSV_COLUMNS, plainText, toBibtex, toCsv, toRis } from "@/lib/web/export-references";
import { buildChatReference, buildChatResult, buildLiteratureJobResult } from "../support/builders";

/**
 * The exports of lib/web/export-references.ts over results as the contract's schemas parse them:
 * a chat result (GradedReferences, with a local-library record the agent links to its own
 * address), a literature result (loose references with journal, authors and ids).
 */

const ORIGIN = "https://research.example";
const LOCAL_ID = "0b6f1c9e-1111-4222-9333-444455556666";

const chat = chatResultSchema.parse(
  buildChatResult({
    answer: "**Bottom line:** Rapamycin extends lifespan in mice [1], and metformin is associated with less frailty [2].",
    references: [
      gradedReferenceSchema.parse({
        ...buildChatReference({ ordinal: 1, title: "Rapamycin fed late in life extends lifespan in mice", pmid: "19587680", doi: "10.1038/nature08221", year: 2009 }),
        evidenceType: "preclinical",
        snapshot: { design: "preclinical", species: "mouse", population: "genetically heterogeneous mice", sampleSize: 1901, intervention: "rapamycin", direction: "positive", finding: "Rapamycin extended median and maximal lifespan." },
        stance: "supports",
      }),
      gradedReferenceSchema.parse({
        ...buildChatReference({
          ordinal: 2,
          id: `local:${LOCAL_ID}`,
          title: 'Metformin, frailty & "older adults", a cohort',
          url: `http://127.0.0.1:3001/api/library/records/${LOCAL_ID}`,
          source: "local",
          pmid: null,
          doi: null,
          year: 2018,
          verification: "unknown",
          confidence: 0.27,
        }),
        snapshot: { design: "observational", species: "human", population: "older adults", sampleSize: 2400, intervention: "metformin", direction: "positive", finding: null },
      }),
    ],
  }),
);
const chatRows = chat.references.map(rowFromGraded);

const literature = literatureJobResultSchema.parse(
  buildLiteratureJobResult({
    references: [
      {
        id: 1,
        title: "Rapamycin fed late in life extends lifespan in genetically heterogeneous mice",
        url: "https://pubmed.ncbi.nlm.nih.gov/19587680/",
        source: "pubmed",
        year: 2009,
        relevance: { accepted: true, score: 0.91, matchedTerms: ["rapamycin"], flags: [] },
        journal: "Nature",
        authors: ["Harrison DE", "Strong R"],
        volume: "460",
        issue: "7253",
        pages: "392-395",
        pmid: "19587680",
        doi: "10.1038/nature08221",
        evidenceType: "preclinical",
        verification: "verified",
        confidence: 0.41,
      },
    ],
  }),
);
const literatureRows = (literature.references ?? []).map(rowFromLiterature);

describe("BibTeX", () => {
  it("writes an @article with authors (family name first), journal, volume, number, pages, year, DOI, PMID and the PubMed link", () => {
    expect(toBibtex(literatureRows, { origin: ORIGIN })).toBe(
      [
        "@article{harrison2009_1,",
        "  title = {{Rapamycin fed late in life extends lifespan in genetically heterogeneous mice}},",
        "  author = {Harrison, D. E. and Strong, R.},",
        "  journal = {Nature},",
        "  volume = {460},",
        "  number = {7253},",
        "  pages = {392--395},",
        "  year = {2009},",
        "  doi = {10.1038/nature08221},",
        "  pmid = {19587680},",
        "  url = {https://pubmed.ncbi.nlm.nih.gov/19587680/}",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("escapes TeX's special characters and links a library record to this gateway's page, never the agent", () => {
    const bib = toBibtex(chatRows, { origin: ORIGIN });
    expect(bib).toContain("@misc{ref2018_2,");
    expect(bib).toContain('title = {{Metformin, frailty \\& "older adults", a cohort}}');
    expect(bib).toContain(`url = {${ORIGIN}/library/records/${LOCAL_ID}}`);
    expect(bib).not.toContain("127.0.0.1");
    expect(bib).not.toContain("/api/library");
  });
});

describe("RIS", () => {
  it("writes one record per reference with CRLF line ends, ending each with ER", () => {
    const ris = toRis(literatureRows, { origin: ORIGIN });
    expect(ris.split("\r\n")).toEqual([
      "TY  - JOUR",
      "TI  - Rapamycin fed late in life extends lifespan in genetically heterogeneous mice",
      "AU  - Harrison, D. E.",
      "AU  - Strong, R.",
      "T2  - Nature",
      "JO  - Nature",
      "VL  - 460",
      "IS  - 7253",
      "SP  - 392",
      "EP  - 395",
      "PY  - 2009",
      "DO  - 10.1038/nature08221",
      "AN  - PMID:19587680",
      "UR  - https://pubmed.ncbi.nlm.nih.gov/19587680/",
      "ER  - ",
      "",
    ]);
  });

  it("gives a record without a journal the generic type and the gateway's record page", () => {
    const ris = toRis(chatRows, { origin: ORIGIN });
    expect(ris).toContain("TY  - GEN\r\nTI  - Metformin, frailty & \"older adults\", a cohort");
    expect(ris).toContain(`UR  - ${ORIGIN}/library/records/${LOCAL_ID}`);
    expect(ris).not.toContain("127.0.0.1");
  });
});

describe("CSV", () => {
  it("has a header and one row per reference with the snapshot and grades, quoting what needs it", () => {
    const lines = toCsv(chatRows, { origin: ORIGIN }).split("\r\n");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines[1]).toBe(
      "1,Rapamycin fed late in life extends lifespan in mice,2009,,preclinical,mouse,genetically heterogeneous mice,1901,positive,supporting,verified,0.82,10.1038/nature08221,19587680,https://pubmed.ncbi.nlm.nih.gov/19587680/",
    );
    expect(lines[2]).toBe(
      `2,"Metformin, frailty & ""older adults"", a cohort",2018,,observational,human,older adults,2400,positive,supporting,unknown,0.27,,,${ORIGIN}/library/records/${LOCAL_ID}`,
    );
    expect(lines).toHaveLength(4); // the last line ends with CRLF too
  });

  it("defuses a title a spreadsheet would run as a formula", () => {
    const csv = toCsv([{ ...chatRows[0]!, title: "=HYPERLINK(\"http://evil\")" }], { origin: ORIGIN });
    expect(csv.split("\r\n")[1]).toMatch(/^1,"'=HYPERLINK\(""http:\/\/evil""\)",/);
  });
});

describe("an answer with its citations", () => {
  it("is the answer as plain text, then Sources with a numbered line and a public link per reference", () => {
    expect(answerWithCitations({ answer: chat.answer, references: chatRows, origin: ORIGIN })).toBe(
      [
        "Bottom line: Rapamycin extends lifespan in mice [1], and metformin is associated with less frailty [2].",
        "",
        "Sources",
        "[1] Rapamycin fed late in life extends lifespan in mice (2009) https://pubmed.ncbi.nlm.nih.gov/19587680/",
        `[2] Metformin, frailty & "older adults", a cohort (2018) ${ORIGIN}/library/records/${LOCAL_ID}`,
        "",
      ].join("\n"),
    );
  });

  it("removes Markdown emphasis and headings from plain text (the literature answer's **Sources**)", () => {
    expect(plainText("Answer [1].\n\n**Sources**\n\n## Notes\n__x__")).toBe("Answer [1].\n\nSources\n\nNotes\nx");
  });
});
