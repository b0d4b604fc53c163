import { z } from "zod";
import type { LibraryRecordInput } from "./prepare-record";
import { errorMessage } from "@/lib/shared/narrow";

/**
 * One line of a JSON Lines library file:
 * `{pmid?, doi?, nct?, title?, abstract, year?, journal?, volume?, issue?, pages?, publicationTypes?, mesh?, authors?}`.
 * Optional fields may be null (exports often write null for missing values); ids may be numbers
 * (PMIDs often are); unknown fields are ignored so richer exports import as they are.
 */
const optionalText = z.string().nullish();
// Volume, issue and pages are often numbers in exports ("volume": 66).
const optionalPart = z
  .union([z.string(), z.number().int("must be a whole number").nonnegative("must not be negative")], { error: "must be a string or a whole number" })
  .nullish()
  .transform((v) => (typeof v === "number" ? String(v) : v));
const optionalList = z.array(z.string({ error: "must be a list of strings" }), { error: "must be a list of strings" }).nullish();

export const libraryLineSchema = z.object({
  pmid: z
    .union([z.string(), z.number().int("must be a whole number").nonnegative("must not be negative")], { error: "must be a string or a whole number" })
    .nullish(),
  doi: optionalText,
  nct: optionalText,
  title: optionalText,
  abstract: z.string({ error: "is required (a string)" }).refine((s) => s.trim() !== "", "must not be empty"),
  year: z
    .union([z.number().int(), z.string().regex(/^\d{4}$/, "must be a four-digit year")], { error: "must be a four-digit year" })
    .nullish()
    .transform((v) => (v === null || v === undefined ? null : Number(v))),
  journal: optionalText,
  volume: optionalPart,
  issue: optionalPart,
  pages: optionalPart,
  publicationTypes: optionalList,
  mesh: optionalList,
  authors: optionalList,
});


/** A parsed line: the record, nothing (a blank line), or why it was rejected. */
export type ParsedLine = { kind: "record"; input: LibraryRecordInput } | { kind: "blank" } | { kind: "rejected"; reason: string };

/**
 * Parses and validates one line. Never throws: every problem becomes a reason naming the field,
 * so an import can report the line and carry on.
 */
export function parseLibraryLine(line: string): ParsedLine {
  const text = line.trim();
  if (text === "") return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { kind: "rejected", reason: `invalid JSON: ${errorMessage(err)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "rejected", reason: "not a JSON object" };
  }
  const result = libraryLineSchema.safeParse(value);
  if (!result.success) {
    const reason = result.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "record"}: ${i.message}`).join("; ");
    return { kind: "rejected", reason };
  }
  const { pmid, ...rest } = result.data;
  return { kind: "record", input: { ...rest, pmid: pmid === null || pmid === undefined ? null : String(pmid) } };
}
