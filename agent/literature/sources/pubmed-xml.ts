import { XMLParser } from "fast-xml-parser";
import type { LiteratureRecord } from "../record";
import { isObject, readArray, readObject, type JsonObject } from "./json-read";
import {
  cleanXmlText,
  deriveTitle,
  formatAuthorName,
  formatIsoDate,
  normalizeDoi,
  normalizePmcid,
  normalizePmid,
  normalizePages,
  pageRange,
  parseYear,
  uniqueStrings,
} from "./normalize";

/**
 * PubMed XML (efetch `retmode=xml`, and the PubMed XML files the local library imports) to
 * LiteratureRecord. Pure: no I/O, no clock.
 */

// Lists that may hold a single element are always arrays, so one article reads like many.
const ARRAY_TAGS = new Set([
  "PubmedArticle", "PubmedBookArticle", "AbstractText", "Author", "PublicationType", "MeshHeading",
  "ArticleId", "ELocationID", "ArticleDate", "CommentsCorrections", "Keyword",
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  // Keep every value a string: PMIDs, years and "06" months must not become numbers.
  parseTagValue: false,
  parseAttributeValue: false,
  // Entities are decoded once, by cleanXmlText, including in the raw text of the stop nodes.
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  // Titles and abstracts hold inline markup (<i>, <sup>, MathML); as stop nodes their content stays
  // one raw string in document order, instead of being split into child elements.
  stopNodes: ["*.ArticleTitle", "*.VernacularTitle", "*.AbstractText"],
  isArray: (name) => ARRAY_TAGS.has(name),
});

/**
 * Parses a PubmedArticleSet (or a lone PubmedArticle) into records, in document order. Articles
 * without a PMID and book records are skipped; any other document (an eSearchResult, a PMC article
 * set, an efetch error) gives an empty list. Throws Error only when the text cannot be parsed as XML.
 */
export function parsePubmedArticleSet(xml: string): LiteratureRecord[] {
  const root: unknown = parser.parse(xml);
  const set = readObject(root, "PubmedArticleSet");
  const articles = set ? readArray(set, "PubmedArticle") : readArray(root, "PubmedArticle");
  return articles.flatMap((article) => parsePubmedArticle(article) ?? []);
}

function parsePubmedArticle(article: unknown): LiteratureRecord | null {
  const citation = readObject(article, "MedlineCitation");
  const pmid = normalizePmid(textOf(citation?.PMID));
  if (!citation || !pmid) return null;
  const info = readObject(citation, "Article") ?? {};
  const data = readObject(article, "PubmedData");

  const abstract = readAbstract(info);
  const title = textOf(info.ArticleTitle) || textOf(info.VernacularTitle);
  const publicationTypes = uniqueStrings(readArray(readObject(info, "PublicationTypeList"), "PublicationType").map(textOf));
  const { year, date } = readPublicationDate(info);
  const derivedTitle = title ? null : deriveTitle(abstract);

  return {
    ids: readIds(pmid, info, data),
    title: title || derivedTitle || `PubMed record ${pmid}`,
    ...(title ? {} : { titleDerived: true }),
    abstract,
    journal: readJournal(info, citation),
    ...readJournalPlace(info),
    year,
    date,
    authors: readAuthors(info),
    publicationTypes,
    mesh: uniqueStrings(readArray(readObject(citation, "MeshHeadingList"), "MeshHeading").map((heading) => textOf(readObject(heading, "DescriptorName")))),
    source: "pubmed",
    sources: ["pubmed"],
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    isPreprint: publicationTypes.includes("Preprint"),
    isRetracted: publicationTypes.includes("Retracted Publication") || hasRetractionNotice(citation),
  };
}

/** The text of an element: a string, or the `#text` of an element with attributes. */
function textOf(node: unknown): string {
  if (typeof node === "string") return cleanXmlText(node);
  if (typeof node === "number") return String(node);
  if (isObject(node)) return textOf(node["#text"]);
  return "";
}

function readAbstract(info: JsonObject): string | null {
  const sections = readArray(readObject(info, "Abstract"), "AbstractText").flatMap((section) => {
    const text = textOf(section);
    if (!text) return [];
    const label = isObject(section) && typeof section["@_Label"] === "string" ? cleanXmlText(section["@_Label"]) : "";
    // NLM labels unlabelled-in-print sections "UNLABELLED"; that word is not part of the abstract.
    return [label && label.toUpperCase() !== "UNLABELLED" ? `${label}: ${text}` : text];
  });
  return sections.length > 0 ? sections.join("\n") : null;
}

function readJournal(info: JsonObject, citation: JsonObject): string | null {
  const journal = readObject(info, "Journal");
  return (
    textOf(journal?.Title) ||
    textOf(journal?.ISOAbbreviation) ||
    textOf(readObject(citation, "MedlineJournalInfo")?.MedlineTA) ||
    null
  );
}

/** Volume, issue and pages: MedlinePgn (its shortened last page written whole), else StartPage and EndPage. */
function readJournalPlace(info: JsonObject): Pick<LiteratureRecord, "volume" | "issue" | "pages"> {
  const journalIssue = readObject(readObject(info, "Journal"), "JournalIssue");
  const pagination = readObject(info, "Pagination");
  return {
    volume: textOf(journalIssue?.Volume) || null,
    issue: textOf(journalIssue?.Issue) || null,
    pages: normalizePages(textOf(pagination?.MedlinePgn)) ?? pageRange(textOf(pagination?.StartPage), textOf(pagination?.EndPage)),
  };
}

/**
 * The year is the journal issue's (as citations give it); the date is the issue date when it has a
 * day, else the electronic publication date (ArticleDate), which usually has one and comes first.
 */
function readPublicationDate(info: JsonObject): { year: number | null; date: string | null } {
  const pubDate = readObject(readObject(readObject(info, "Journal"), "JournalIssue"), "PubDate");
  const articleDates = readArray(info, "ArticleDate").filter(isObject);
  const electronic = articleDates.find((d) => d["@_DateType"] === "Electronic") ?? articleDates[0];
  const issueYear = parseYear(textOf(pubDate?.Year)) ?? parseYear(textOf(pubDate?.MedlineDate));
  const issueDate = pubDate ? formatIsoDate(textOf(pubDate.Year), textOf(pubDate.Month), textOf(pubDate.Day)) : null;
  const electronicDate = electronic ? formatIsoDate(textOf(electronic.Year), textOf(electronic.Month), textOf(electronic.Day)) : null;
  return {
    year: issueYear ?? parseYear(textOf(electronic?.Year)),
    date: issueDate ?? electronicDate,
  };
}

function readAuthors(info: JsonObject): string[] {
  return readArray(readObject(info, "AuthorList"), "Author").flatMap((author) => {
    if (!isObject(author) || author["@_ValidYN"] === "N") return [];
    const collective = textOf(author.CollectiveName);
    if (collective) return [collective];
    const name = formatAuthorName(textOf(author.LastName), textOf(author.ForeName), textOf(author.Initials));
    return name ? [name] : [];
  });
}

function readIds(pmid: string, info: JsonObject, data: JsonObject | undefined): LiteratureRecord["ids"] {
  const articleIds = readArray(readObject(data, "ArticleIdList"), "ArticleId").filter(isObject);
  const idOf = (type: string) => textOf(articleIds.find((id) => id["@_IdType"] === type));
  const elocationDoi = readArray(info, "ELocationID")
    .filter(isObject)
    .find((loc) => loc["@_EIdType"] === "doi" && loc["@_ValidYN"] !== "N");
  const doi = normalizeDoi(idOf("doi")) ?? normalizeDoi(textOf(elocationDoi));
  const pmcid = normalizePmcid(idOf("pmc"));
  return { pmid, ...(doi ? { doi } : {}), ...(pmcid ? { pmcid } : {}) };
}

// "RetractionIn" links a retracted article to its notice ("RetractionOf" is the notice itself).
function hasRetractionNotice(citation: JsonObject): boolean {
  return readArray(readObject(citation, "CommentsCorrectionsList"), "CommentsCorrections").some(
    (link) => isObject(link) && typeof link["@_RefType"] === "string" && /^Retraction\w*In$/.test(link["@_RefType"]),
  );
}
