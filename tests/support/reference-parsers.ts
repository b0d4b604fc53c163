import { plugins } from "@citation-js/core";
import "@citation-js/plugin-ris";
import { parse as parseBib } from "@retorquere/bibtex-parser";

/**
 * Exports read back by real parsers from the npm registry, as a reference manager would read them:
 * BibTeX by @retorquere/bibtex-parser (the parser of Zotero's Better BibTeX) and RIS by
 * Citation.js (@citation-js/plugin-ris, to CSL-JSON, the data model of Zotero's citations).
 */

export type BibEntry = { type: string; key: string; fields: Record<string, unknown> };

/** Every entry of a BibTeX file; throws with the parser's own messages when it reports any error. */
export function readBibtex(text: string): BibEntry[] {
  const parsed = parseBib(text);
  if (parsed.errors.length > 0) throw new Error(`BibTeX the parser refused: ${parsed.errors.map((e) => e.error).join("; ")}`);
  return parsed.entries.map((e) => ({ type: e.type, key: e.key, fields: e.fields as Record<string, unknown> }));
}

/** The family names, particles included ("van der Berg"), or a group's literal name, of a parsed BibTeX author list. */
export function bibFamilies(entry: BibEntry): string[] {
  const authors = (entry.fields.author ?? []) as { lastName?: string; prefix?: string; name?: string }[];
  return authors.map((a) => (a.lastName ? [a.prefix, a.lastName].filter(Boolean).join(" ") : (a.name ?? "")));
}

export type CslItem = {
  type?: string;
  title?: string;
  author?: { family?: string; given?: string; literal?: string }[];
  "container-title"?: string;
  volume?: string;
  issue?: string;
  page?: string;
  issued?: { "date-parts"?: number[][] };
  DOI?: string;
  URL?: string;
  note?: string;
};

/** Every record of an RIS file as CSL-JSON. */
export function readRis(text: string): CslItem[] {
  return plugins.input.chain(text, { generateGraph: false }) as CslItem[];
}
