import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import type { Queryable } from "@/lib/shared/db/pool";
import { parsePubmedArticleSet } from "@/agent/literature/sources/pubmed-xml";
import { insertLibraryRows } from "./insert-rows";
import { parseLibraryLine } from "./json-lines";
import { prepareLibraryRow, type LibraryRecordInput, type LibraryRow } from "./prepare-record";
import { locatePubmedArticles } from "./pubmed-articles";
import { errorMessage } from "@/lib/shared/narrow";

/**
 * Importing records into the local library from PubMed XML (a PubmedArticleSet, as efetch and the
 * PubMed baseline files give it) or JSON Lines (one record per line, see json-lines.ts), plain or
 * gzipped. Bad records are reported with their line and the import carries on; good ones go in in
 * batches, each one statement; a record already in the library (same PMID, DOI, NCT id or content)
 * is counted as a duplicate, so importing the same file twice adds nothing.
 */

type RejectedLine = { line: number; reason: string };
export type ImportSummary = { inserted: number; duplicates: number; rejected: RejectedLine[] };
type ImportProgress = { linesRead: number; inserted: number; duplicates: number; rejected: number };
export type ImportOptions = {
  /** Records per insert statement; 500 keeps each statement around a megabyte. */
  batchSize?: number;
  /** Called after every batch, for progress output on large files. */
  onProgress?: (progress: ImportProgress) => void;
};

const DEFAULT_BATCH_SIZE = 500;

/** The file is not something the library can import (unknown format, not a PubMed article set). */
export class LibraryImportError extends Error {
  readonly file: string | undefined;
  constructor(message: string, options?: { file?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LibraryImportError";
    this.file = options?.file;
  }
}

/**
 * Imports one file: `.xml` is PubMed XML, `.jsonl`/`.ndjson` JSON Lines (either may end in `.gz`);
 * any other name is recognised by its first character (`<` or `{`). JSON Lines are streamed, so a
 * file of any size imports in constant memory; PubMed XML is parsed whole (a baseline file is about
 * 30,000 articles).
 *
 * Throws the file system's error when the file cannot be read, LibraryImportError when it is not a
 * format the library reads, and the database's error when a batch cannot be stored (batches
 * before it stay imported; importing the file again completes it, counting them as duplicates).
 */
export async function importLibraryFile({ db, file, ...options }: { db: Queryable; file: string } & ImportOptions): Promise<ImportSummary> {
  await fs.promises.access(file, fs.constants.R_OK);
  const format = await detectFormat(file);
  if (format === "pubmed-xml") {
    const raw = await fs.promises.readFile(file);
    const xml = (isGzip(file) ? zlib.gunzipSync(raw) : raw).toString("utf8");
    return importPubmedXml({ db, xml, file, ...options });
  }
  const source = fs.createReadStream(file);
  const input: Readable = isGzip(file) ? source.pipe(zlib.createGunzip()) : source;
  // pipe() does not pass a read error on; without this a failing disk would leave the import waiting.
  if (input !== source) source.on("error", (err) => input.destroy(err));
  try {
    return await importJsonLines({ db, lines: readline.createInterface({ input, crlfDelay: Infinity }), ...options });
  } finally {
    // A failed batch ends the import early: release the file rather than wait for collection.
    input.destroy();
    source.destroy();
  }
}

/**
 * The streaming variant: imports JSON Lines from any line source (a readline interface over a
 * file, a socket or stdin, or a generator), validating every line and inserting in batches as the
 * lines arrive, so memory stays constant however long the input. Line numbers count from 1 and
 * include blank lines, which are skipped without complaint.
 *
 * Throws the database's error when a batch cannot be stored, and whatever the line source throws.
 */
export async function importJsonLines({
  db,
  lines,
  batchSize = DEFAULT_BATCH_SIZE,
  onProgress,
}: { db: Queryable; lines: AsyncIterable<string> | Iterable<string> } & ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = { inserted: 0, duplicates: 0, rejected: [] };
  let pending: LibraryRow[] = [];
  let lineNumber = 0;
  const flush = async () => {
    const rows = pending;
    pending = [];
    await storeBatch({ db, rows, summary });
    onProgress?.({ linesRead: lineNumber, inserted: summary.inserted, duplicates: summary.duplicates, rejected: summary.rejected.length });
  };
  for await (const rawLine of lines) {
    lineNumber++;
    // A byte-order mark is an editor's artefact, not part of the first record.
    const line = lineNumber === 1 ? rawLine.replace(/^\uFEFF/, "") : rawLine;
    const parsed = parseLibraryLine(line);
    if (parsed.kind === "blank") continue;
    if (parsed.kind === "rejected") {
      summary.rejected.push({ line: lineNumber, reason: parsed.reason });
      continue;
    }
    const prepared = prepareLibraryRow(parsed.input);
    if ("reason" in prepared) {
      summary.rejected.push({ line: lineNumber, reason: prepared.reason });
      continue;
    }
    pending.push(prepared.row);
    if (pending.length >= batchSize) await flush();
  }
  if (pending.length > 0) await flush();
  return summary;
}

/**
 * Imports a PubmedArticleSet. Articles the PubMed parser skips (no PMID, book records) and records
 * with nothing to search are reported with the line their `<PubmedArticle>` starts on.
 *
 * Throws LibraryImportError when the text is not XML or holds no PubMed articles at all, and the
 * database's error when a batch cannot be stored.
 */
async function importPubmedXml({
  db,
  xml,
  file,
  batchSize = DEFAULT_BATCH_SIZE,
  onProgress,
}: { db: Queryable; xml: string; file?: string } & ImportOptions): Promise<ImportSummary> {
  const located = locatePubmedArticles(xml);
  if (located.articles.length === 0 && located.books.length === 0) {
    throw new LibraryImportError(`${file ?? "The document"} holds no <PubmedArticle>: not a PubMed XML article set`, { file });
  }
  let records;
  try {
    records = parsePubmedArticleSet(xml);
  } catch (err) {
    throw new LibraryImportError(`${file ?? "The document"} is not well-formed XML: ${errorMessage(err)}`, { file, cause: err });
  }
  const lineOfPmid = new Map(located.articles.flatMap((a) => (a.pmid ? [[a.pmid, a.line] as const] : [])));
  const summary: ImportSummary = { inserted: 0, duplicates: 0, rejected: [] };
  const parsedPmids = new Set(records.flatMap((r) => (r.ids.pmid ? [r.ids.pmid] : [])));
  for (const article of located.articles) {
    if (!article.pmid || !parsedPmids.has(article.pmid)) summary.rejected.push({ line: article.line, reason: "article without a readable PMID: skipped" });
  }
  for (const line of located.books) summary.rejected.push({ line, reason: "book record (PubmedBookArticle): the library imports journal articles only" });

  const inputs: { line: number; input: LibraryRecordInput }[] = records.map((record) => ({
    line: (record.ids.pmid && lineOfPmid.get(record.ids.pmid)) || 0,
    input: {
      pmid: record.ids.pmid ?? null,
      doi: record.ids.doi ?? null,
      nct: record.ids.nct ?? null,
      // A title the parser derived is derived again by the library's own rule, so the same
      // abstract always gets the same title (and content hash) whichever way it arrived.
      title: record.titleDerived ? null : record.title,
      abstract: record.abstract,
      year: record.year,
      journal: record.journal,
      volume: record.volume ?? null,
      issue: record.issue ?? null,
      pages: record.pages ?? null,
      authors: record.authors,
      publicationTypes: record.publicationTypes,
      mesh: record.mesh,
    },
  }));
  for (let start = 0; start < inputs.length; start += batchSize) {
    const rows: LibraryRow[] = [];
    for (const { line, input } of inputs.slice(start, start + batchSize)) {
      const prepared = prepareLibraryRow(input);
      if ("reason" in prepared) summary.rejected.push({ line, reason: prepared.reason });
      else rows.push(prepared.row);
    }
    await storeBatch({ db, rows, summary });
    onProgress?.({ linesRead: 0, inserted: summary.inserted, duplicates: summary.duplicates, rejected: summary.rejected.length });
  }
  summary.rejected.sort((a, b) => a.line - b.line);
  return summary;
}

/**
 * Imports records already in memory (for callers that built them, and for tests). Rejected
 * records are reported with their 1-based position in `records` as the line.
 * Throws the database's error when a batch cannot be stored.
 */
export async function importLibraryRecords({
  db,
  records,
  batchSize = DEFAULT_BATCH_SIZE,
}: { db: Queryable; records: LibraryRecordInput[]; batchSize?: number }): Promise<ImportSummary> {
  const summary: ImportSummary = { inserted: 0, duplicates: 0, rejected: [] };
  for (let start = 0; start < records.length; start += batchSize) {
    const rows: LibraryRow[] = [];
    records.slice(start, start + batchSize).forEach((input, i) => {
      const prepared = prepareLibraryRow(input);
      if ("reason" in prepared) summary.rejected.push({ line: start + i + 1, reason: prepared.reason });
      else rows.push(prepared.row);
    });
    await storeBatch({ db, rows, summary });
  }
  return summary;
}

async function storeBatch({ db, rows, summary }: { db: Queryable; rows: LibraryRow[]; summary: ImportSummary }): Promise<void> {
  if (rows.length === 0) return;
  const inserted = await insertLibraryRows({ db, rows });
  summary.inserted += inserted;
  summary.duplicates += rows.length - inserted;
}

type Format = "pubmed-xml" | "json-lines";

function isGzip(file: string): boolean {
  return file.toLowerCase().endsWith(".gz");
}

async function detectFormat(file: string): Promise<Format> {
  const name = path.basename(file).toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".xml")) return "pubmed-xml";
  if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) return "json-lines";
  const head = await readHead(file);
  const first = head.replace(/^\uFEFF/, "").trimStart()[0];
  if (first === "<") return "pubmed-xml";
  if (first === "{") return "json-lines";
  throw new LibraryImportError(`${file}: unknown format; expected PubMed XML (.xml) or JSON Lines (.jsonl)`, { file });
}

async function readHead(file: string): Promise<string> {
  const source: Readable = isGzip(file) ? fs.createReadStream(file).pipe(zlib.createGunzip()) : fs.createReadStream(file, { start: 0, end: 4095 });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    // A stream with no encoding set gives bytes.
    if (!Buffer.isBuffer(chunk)) throw new Error(`${file}: the file stream gave text, not bytes`);
    chunks.push(chunk);
    size += chunk.length;
    if (size >= 4096) break;
  }
  source.destroy();
  return Buffer.concat(chunks).toString("utf8");
}
