import type { SourceExpansion, SourceQuery } from "./types";

/**
 * Turns the engine's ranked content terms into boolean queries for sources that take them.
 * The strict form requires the top `requiredTerms` terms and at least one of the rest; the broad
 * form is an OR of every term. Sources run the strict form and broaden only when it finds fewer
 * records than wanted, so a question is never lost because one extracted term is absent from the
 * paper's title and abstract, while a relevance-ranked OR keeps the best matches first.
 */

/** Terms cleaned of quotes, brackets and field tags the user may have typed, deduplicated. */
function cleanTerms(terms: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of terms) {
    const term = raw
      .replace(/\[[^\]]*\]/g, " ")
      .replace(/["“”()\\{}[\]]/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    // A lone boolean operator would change the query's meaning.
    if (term === "" || /^(and|or|not)$/i.test(term)) continue;
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(term);
  }
  return out;
}

/** The terms of a query: its extracted terms, or failing those the longer words of its text. */
export function termsOf(query: SourceQuery): string[] {
  const terms = cleanTerms(query.terms);
  if (terms.length > 0) return terms;
  return cleanTerms(query.text.split(/[^\p{L}\p{N}+-]+/u).filter((word) => word.length >= 3));
}

export type BooleanQueryOptions = {
  /** How one term is written in the source's syntax, e.g. `"aging"[tiab]`. */
  formatTerm: (term: string) => string;
  /** How many of the top terms are required (the default 1). */
  requiredTerms?: number;
  /**
   * The vocabulary's other names for phrases of the terms (SourceQuery.expansions): a phrase is
   * searched as `(its words OR any other name OR its heading)` where its first word stands.
   */
  expansions?: readonly SourceExpansion[];
  /** How a MeSH heading is written (e.g. `"Hip Fractures"[mh]`); absent: headings are not sent. */
  formatHeading?: (heading: string) => string;
  /** Longest query in characters; other names are dropped, the last first, until it fits. */
  maxLength?: number;
};

/** Other names sent per phrase at most, before the length limit. */
const MAX_ALTERNATIVES_SENT = 6;
/** The default query length limit: E-utilities and Europe PMC take the query in a GET URL. */
export const MAX_QUERY_LENGTH = 1_500;

/** One unit of a boolean query: a term, or a phrase with its other names. */
type QueryUnit = { words: string[]; alternatives: string[]; headings: string[] };

function queryUnits(terms: readonly string[], expansions: readonly SourceExpansion[]): QueryUnit[] {
  const units: QueryUnit[] = [];
  const absorbed = new Set<string>();
  for (const term of terms) {
    if (absorbed.has(term.toLowerCase())) continue;
    const expansion = expansions.find((e) => e.terms.some((t) => t.toLowerCase() === term.toLowerCase()));
    const words = expansion ? terms.filter((t) => expansion.terms.some((e) => e.toLowerCase() === t.toLowerCase())) : [term];
    for (const w of words) absorbed.add(w.toLowerCase());
    units.push({ words, alternatives: cleanTerms(expansion?.alternatives ?? []), headings: cleanTerms(expansion?.headings ?? []) });
  }
  return units;
}

/** Builds with at most `k` other names per phrase, the largest `k` whose query fits `maxLength`. */
function withinLength(terms: readonly string[], options: BooleanQueryOptions, build: (units: string[]) => string): string {
  const units = queryUnits(terms, options.expansions ?? []);
  const format = (unit: QueryUnit, k: number) => {
    const own = unit.words.length === 1 ? options.formatTerm(unit.words[0]!) : `(${unit.words.map(options.formatTerm).join(" AND ")})`;
    const others = [...unit.alternatives.slice(0, k).map(options.formatTerm), ...(options.formatHeading && k > 0 ? unit.headings.map(options.formatHeading) : [])];
    return others.length === 0 ? own : `(${[own, ...others].join(" OR ")})`;
  };
  const limit = options.maxLength ?? MAX_QUERY_LENGTH;
  for (let k = MAX_ALTERNATIVES_SENT; ; k--) {
    const query = build(units.map((u) => format(u, k)));
    if (query.length <= limit || k === 0) return query;
  }
}

/** `A AND B AND (C OR D)` for required A, B and optional C, D; empty for no terms. */
export function buildStrictQuery(terms: readonly string[], options: BooleanQueryOptions): string {
  return withinLength(terms, options, (units) => {
    const required = Math.max(0, Math.min(options.requiredTerms ?? 1, units.length));
    const head = units.slice(0, required);
    const rest = units.slice(required);
    const parts = [...head];
    if (rest.length === 1) parts.push(rest[0] ?? "");
    else if (rest.length > 1) parts.push(`(${rest.join(" OR ")})`);
    return parts.join(" AND ");
  });
}

/** `A OR B OR C`; empty for no terms. */
export function buildBroadQuery(terms: readonly string[], options: Omit<BooleanQueryOptions, "requiredTerms">): string {
  return withinLength(terms, options, (units) => units.join(" OR "));
}

/** Whether broadening could find anything the strict query did not. */
function canBroaden(terms: readonly string[], requiredTerms = 1): boolean {
  return terms.length >= 2 && requiredTerms > 0;
}

/**
 * The queries a search sends at its `breadth`, one after the other: `strict` or `broad` alone, or
 * (`auto`) the strict one, then the broad one when the strict found fewer than `query.limit` and
 * broadening could add anything. `build(broad)` writes the source's query (empty: nothing to ask);
 * `run` sends one and `hits` reads how many the source says matched. Returns each page sent.
 */
export async function searchAtBreadth<Page>(
  query: SourceQuery,
  {
    requiredTerms = 1,
    build,
    run,
    hits,
  }: { requiredTerms?: number; build: (broad: boolean) => string; run: (queryString: string) => Promise<Page>; hits: (page: Page) => number },
): Promise<Page[]> {
  const breadth = query.breadth ?? "auto";
  const first = build(breadth === "broad");
  if (first === "") return [];
  const pages = [await run(first)];
  if (breadth === "auto" && hits(pages[0]!) < query.limit && canBroaden(termsOf(query), requiredTerms)) pages.push(await run(build(true)));
  return pages;
}

/** Quotes a term for a syntax where double quotes make a phrase. */
export function quoteTerm(term: string): string {
  return `"${term.replace(/"/g, "")}"`;
}
