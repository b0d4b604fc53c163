import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { composeChatResult } from "@/agent/chat/compose";
import { parseLibraryLine } from "@/agent/library/json-lines";
import { prepareLibraryRow } from "@/agent/library/prepare-record";
import { toLiteratureRecord } from "@/agent/library/to-literature-record";
import { runLiteratureSearch } from "@/agent/literature/engine";
import type { LiteratureRecord } from "@/agent/literature/record";
import { parseCrossrefWork } from "@/agent/literature/sources/crossref";
import { parseEuropePmcSearch } from "@/agent/literature/sources/europepmc";
import { parsePubmedArticleSet } from "@/agent/literature/sources/pubmed-xml";
import type { LiteratureSource } from "@/agent/literature/sources/types";
import { chatResultSchema, gradedReferenceSchema, literatureJobResultSchema, literatureQueryRequestSchema } from "@/lib/shared/contracts";
import { splitAuthorName } from "@/lib/web/author-names";
import { rowFromGraded, rowFromLiterature } from "@/lib/web/evidence-rows";
import { toBibtex, toRis, type ExportableReference } from "@/lib/web/export-references";
import { buildChatReference } from "../support/builders";
import { bibFamilies, readBibtex, readRis } from "../support/reference-parsers";

/**
 * Exports a reference manager accepts, from every source that knows the citation: the recorded
 * real responses of PubMed (efetch XML), Europe PMC and Crossref, and a local-library line, each
 * through the engine, chat's answer and the wire (the contract's schemas), to BibTeX and RIS read
 * back by real parsers (tests/support/reference-parsers.ts).
 */

const ORIGIN = "https://research.example";
const recorded = (file: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../../shared/fixtures/literature-apis", file), "utf8");

function libraryRecord(line: string): LiteratureRecord {
  const parsed = parseLibraryLine(line);
  if (parsed.kind !== "record") throw new Error(`not a record: ${JSON.stringify(parsed)}`);
  const prepared = prepareLibraryRow(parsed.input);
  if ("reason" in prepared) throw new Error(prepared.reason);
  const r = prepared.row;
  return toLiteratureRecord({
    row: { ...r, title_derived: r.titleDerived, publication_types: r.publicationTypes },
    recordPageBase: `${ORIGIN}/library/records`,
  });
}

const firstLibraryLine = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/library/records.jsonl"), "utf8").split("\n")[0]!;

/** Each source's recorded record, and what its citation must say. */
const cases: { source: string; record: () => LiteratureRecord; cite: { families: string[]; journal: string; volume: string; issue: string; pages: [string, string | null]; year: number } }[] = [
  {
    source: "PubMed efetch XML",
    record: () => parsePubmedArticleSet(recorded("pubmed-eutils/biopython_pubmed4.xml"))[0]!,
    cite: { families: ["Bao", "Prescott"], journal: "Gut", volume: "66", issue: "6", pages: ["1116", "1122"], year: 2017 },
  },
  {
    source: "Europe PMC",
    record: () => parseEuropePmcSearch(JSON.parse(recorded("europepmc/biomcp_search_pmid_20516115.json"))).records[0]!,
    cite: { families: ["Lee", "Green"], journal: "Cancer Res", volume: "70", issue: "12", pages: ["4880", "4890"], year: 2010 },
  },
  {
    source: "Crossref",
    record: () => parseCrossrefWork(JSON.parse(recorded("crossref-openalex-unpaywall/derived_from_paperqa_doi_search_crossref_work.json")))!.record,
    cite: { families: ["Herger", "Kajba"], journal: "Cell Genomics", volume: "5", issue: "4", pages: ["100814", null], year: 2025 },
  },
  {
    source: "the local library",
    record: () => libraryRecord(firstLibraryLine),
    cite: { families: ["Testwell", "Samplewood"], journal: "Synthetic Journal of Aging", volume: "460", issue: "7253", pages: ["392", "395"], year: 2009 },
  },
];

/** The record served by a source of its own name, searched for its own title: the chat answer and the literature result. */
async function answersFor(record: LiteratureRecord) {
  const source: LiteratureSource = { name: record.source === "medrxiv" ? "biorxiv" : record.source, search: async () => [record] };
  const request = literatureQueryRequestSchema.parse({ question: record.title, mode: "deep" });
  const literature = await runLiteratureSearch(request, { sources: { [source.name]: source }, includeAbstracts: true });
  const chat = chatResultSchema.parse(composeChatResult({ question: record.title, literature, conversationId: "c1" }));
  const wire = literatureJobResultSchema.parse(JSON.parse(JSON.stringify(literature)));
  return { chat: chat.references.map(rowFromGraded), literature: (wire.references ?? []).map(rowFromLiterature) };
}

describe.each(cases)("a reference from $source", ({ record, cite }) => {
  it("exports as an @article with its whole title, authors, journal, volume, number, pages, year, DOI and PMID", async () => {
    const r = record();
    const answers = await answersFor(r);
    for (const rows of [answers.chat, answers.literature]) {
      expect(rows).toHaveLength(1);
      const [entry, ...more] = readBibtex(toBibtex(rows, { origin: ORIGIN }));
      expect(more).toEqual([]);
      expect(entry!.type).toBe("article");
      expect(entry!.fields.title).toBe(r.title);
      expect(bibFamilies(entry!)).toHaveLength(r.authors.length);
      expect(bibFamilies(entry!).slice(0, 2)).toEqual(cite.families);
      expect(entry!.fields).toMatchObject({ journal: cite.journal, volume: cite.volume, number: cite.issue, year: String(cite.year) });
      // The parser reads BibTeX's "--" as the en dash it prints.
      expect(entry!.fields.pages).toBe(cite.pages[1] ? `${cite.pages[0]}\u2013${cite.pages[1]}` : cite.pages[0]);
      if (r.ids.doi) expect(entry!.fields.doi).toBe(r.ids.doi);
      if (r.ids.pmid) expect(entry!.fields.pmid).toBe(r.ids.pmid);
      expect(entry!.key).toMatch(new RegExp(`^${cite.families[0]!.toLowerCase()}${cite.year}_1$`));
    }
  });

  it("exports as an RIS journal article that reads back with the same citation", async () => {
    const r = record();
    const answers = await answersFor(r);
    for (const rows of [answers.chat, answers.literature]) {
      const [item, ...more] = readRis(toRis(rows, { origin: ORIGIN }));
      expect(more).toEqual([]);
      expect(item).toMatchObject({ type: "article-journal", title: r.title, "container-title": cite.journal, volume: cite.volume, issue: cite.issue });
      expect(item!.page).toBe(cite.pages[1] ? `${cite.pages[0]}-${cite.pages[1]}` : cite.pages[0]);
      expect(item!.author?.map((a) => a.family)).toHaveLength(r.authors.length);
      expect(item!.author?.slice(0, 2).map((a) => a.family)).toEqual(cite.families);
      expect(item!.issued?.["date-parts"]?.[0]?.[0]).toBe(cite.year);
      if (r.ids.doi) expect(item!.DOI).toBe(r.ids.doi);
    }
  });
});

describe("what the exports never do", () => {
  const base = { ...buildChatReference({ ordinal: 1, pmid: null, doi: null, url: `${ORIGIN}/library/records/0b6f1c9e-1111-4222-9333-444455556666`, source: "local" }) };

  it("cut a title, however long, or lose TeX's special characters in it", () => {
    const title = `${"Caloric restriction and ageing in primates: ".repeat(12)}a 100% \\ {braced} & #1 study_of ~ ^ $ signs`;
    const row = rowFromGraded(gradedReferenceSchema.parse({ ...base, title, journal: "Synthetic Journal", year: 2020 }));
    expect(readBibtex(toBibtex([row], { origin: ORIGIN }))[0]!.fields.title).toBe(title);
    expect(readRis(toRis([row], { origin: ORIGIN }))[0]!.title).toBe(title);
  });

  it("give a derived title as the paper's title: a record without one is cited untitled, with a note", () => {
    const derived = "Caloric restriction delays the onset of age-related disease in rhesus monkeys";
    const row = rowFromGraded(gradedReferenceSchema.parse({ ...base, title: derived, titleDerived: true, year: 2015 }));
    const [entry] = readBibtex(toBibtex([row], { origin: ORIGIN }));
    expect(entry).toMatchObject({ type: "misc" });
    expect(entry!.fields.title).toBeUndefined();
    expect(entry!.fields.note).toBe(`Untitled in its source; its abstract begins: ${derived}`);
    const [item] = readRis(toRis([row], { origin: ORIGIN }));
    expect(item!.title).toBeUndefined();
    expect(item!.note).toContain(derived);
  });

  it("file a person under an initial, or split a group's name", () => {
    const authors = ["Harrison DE", "van der Berg JM", "Michael Herger", "Christina M. Kajba", "Smith, John", "UK Biobank Consortium", "Wood R II"];
    const names = [
      { family: "Harrison", given: "D. E." },
      { family: "van der Berg", given: "J. M." },
      { family: "Herger", given: "Michael" },
      { family: "Kajba", given: "Christina M." },
      { family: "Smith", given: "John" },
      { literal: "UK Biobank Consortium" },
      { family: "Wood", given: "R.", suffix: "II" },
    ];
    expect(authors.map(splitAuthorName)).toEqual(names);
    const row: ExportableReference = { ...rowFromGraded(gradedReferenceSchema.parse({ ...base, journal: "J", year: 2020 })), authors };
    expect(bibFamilies(readBibtex(toBibtex([row], { origin: ORIGIN }))[0]!)).toEqual(["Harrison", "van der Berg", "Herger", "Kajba", "Smith", "UK Biobank Consortium", "Wood"]);
    expect(readRis(toRis([row], { origin: ORIGIN }))[0]!.author).toEqual(names);
  });

  it("fail on an answer stored before references carried their citation: it exports what it has", () => {
    const row = rowFromGraded(gradedReferenceSchema.parse(buildChatReference({ ordinal: 1, year: 2016 })));
    const [entry] = readBibtex(toBibtex([row], { origin: ORIGIN }));
    expect(entry).toMatchObject({ type: "misc", fields: { title: row.title, year: "2016" } });
    expect(readRis(toRis([row], { origin: ORIGIN }))).toHaveLength(1);
  });
});
