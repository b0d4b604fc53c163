import type { LiteratureRecord, RecordIds } from "./record";
import { keysOf } from "@/lib/shared/narrow";

/** Every id that names one work: a registry's, a preprint server's, OpenAlex's, or the local library's. */
const ID_KEYS = ["doi", "pmid", "pmcid", "nct", "ppr", "openalex", "local"] as const;

/** Ids of which one work has only one: two records holding different values are two works. */
const EXCLUSIVE_KEYS = ["pmid", "pmcid", "nct"] as const;

/** A title this short or generic ("Editorial", "Reply") does not identify a paper. */
const MIN_TITLE_WORDS = 4;
const MIN_TITLE_CHARS = 20;

/**
 * Merges the records that are one work, keeping the richest metadata and every source a record
 * came from, in the order of first appearance:
 *
 * - by any shared id (DOI, PMID, PMCID, NCT, preprint, OpenAlex or library id), transitively:
 *   A~B by DOI and B~C by PMID join all three. The library id matters for records the library knows
 *   by nothing else, which every query variant of a deep search finds again.
 * - by normalized title (case, accents, punctuation and spacing folded) when the years are at most
 *   one apart and nothing says they are two works: a title merge never joins groups holding
 *   different PMIDs, PMCIDs or NCT ids, or different DOIs neither of which is a preprint's (a
 *   preprint and its journal version carry different DOIs). Titles derived from an abstract, or
 *   too short to identify a paper, never merge.
 */
export function mergeRecords(records: LiteratureRecord[]): LiteratureRecord[] {
  const parent = records.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const owner = new Map<string, number>();
  records.forEach((record, i) => {
    for (const key of ID_KEYS) {
      const value = record.ids[key];
      if (!value) continue;
      const k = `${key}:${value.toLowerCase()}`;
      const seen = owner.get(k);
      if (seen === undefined) owner.set(k, i);
      else parent[find(i)] = find(seen);
    }
  });

  // What each group already holds, to refuse a title merge between two works.
  const facts = new Map<number, GroupFacts>();
  records.forEach((record, i) => {
    const root = find(i);
    facts.set(root, joinFacts(facts.get(root), factsOf(record)));
  });
  const byTitle = new Map<string, number[]>();
  records.forEach((record, i) => {
    const key = titleKey(record);
    if (!key) return;
    const earlier = byTitle.get(key) ?? [];
    for (const j of earlier) {
      const a = find(i);
      const b = find(j);
      if (a === b) break;
      if (!compatible(facts.get(a)!, facts.get(b)!)) continue;
      parent[a] = b;
      facts.set(b, joinFacts(facts.get(b), facts.get(a)!));
      break;
    }
    byTitle.set(key, [...earlier, i]);
  });

  const groups = new Map<number, LiteratureRecord[]>();
  records.forEach((record, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), record]);
  });
  return [...groups.values()].map(combine);
}

/** A title folded for comparison: accents, case, markup, punctuation and spacing. */
function normalizeTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/<[^>]+>/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

function titleKey(record: LiteratureRecord): string | null {
  if (record.titleDerived) return null;
  const key = normalizeTitle(record.title);
  return identifies(key) ? key : null;
}

function identifies(normalizedTitle: string): boolean {
  return normalizedTitle.length >= MIN_TITLE_CHARS && normalizedTitle.split(" ").length >= MIN_TITLE_WORDS;
}

type GroupFacts = { exclusive: Map<string, Set<string>>; journalDois: Set<string>; years: number[] };

function factsOf(record: LiteratureRecord): GroupFacts {
  const exclusive = new Map<string, Set<string>>();
  for (const key of EXCLUSIVE_KEYS) {
    const value = record.ids[key];
    if (value) exclusive.set(key, new Set([value.toLowerCase()]));
  }
  const journalDois = new Set(record.ids.doi && !record.isPreprint ? [record.ids.doi.toLowerCase()] : []);
  return { exclusive, journalDois, years: record.year ? [record.year] : [] };
}

function joinFacts(a: GroupFacts | undefined, b: GroupFacts): GroupFacts {
  if (!a) return b;
  const exclusive = new Map(a.exclusive);
  for (const [key, values] of b.exclusive) exclusive.set(key, new Set([...(exclusive.get(key) ?? []), ...values]));
  return { exclusive, journalDois: new Set([...a.journalDois, ...b.journalDois]), years: [...a.years, ...b.years] };
}

function compatible(a: GroupFacts, b: GroupFacts): boolean {
  for (const key of EXCLUSIVE_KEYS) {
    const x = a.exclusive.get(key);
    const y = b.exclusive.get(key);
    if (x && y && ![...x].some((v) => y.has(v))) return false;
  }
  if (a.journalDois.size > 0 && b.journalDois.size > 0 && ![...a.journalDois].some((d) => b.journalDois.has(d))) return false;
  return a.years.every((x) => b.years.every((y) => Math.abs(x - y) <= 1));
}

function combine(group: LiteratureRecord[]): LiteratureRecord {
  if (group.length === 1) return group[0]!;
  // The record with the most metadata leads; the others fill its gaps.
  const ranked = [...group].sort((a, b) => richness(b) - richness(a));
  const lead = ranked[0]!;
  const longest = (pick: (r: LiteratureRecord) => string | null | undefined) =>
    ranked.map(pick).filter((v): v is string => Boolean(v)).sort((a, b) => b.length - a.length)[0] ?? null;
  const first = <T>(pick: (r: LiteratureRecord) => T | null | undefined): T | null => {
    for (const r of ranked) {
      const v = pick(r);
      if (v !== null && v !== undefined) return v;
    }
    return null;
  };
  // A journal version's ids come before its preprint's (their DOIs differ).
  const ids: RecordIds = {};
  for (const r of [...ranked.filter((x) => !x.isPreprint), ...ranked.filter((x) => x.isPreprint)]) {
    for (const k of keysOf(r.ids)) {
      const v = r.ids[k];
      if (v && !(k in ids)) ids[k] = v;
    }
  }
  const union = <T extends string>(pick: (r: LiteratureRecord) => T[]) => [...new Set(ranked.flatMap(pick))];
  const titled = ranked.find((r) => !r.titleDerived) ?? lead;
  return {
    ...lead,
    ids,
    title: titled.title,
    titleDerived: titled.titleDerived ?? false,
    abstract: longest((r) => r.abstract),
    journal: first((r) => r.journal),
    volume: first((r) => r.volume),
    issue: first((r) => r.issue),
    pages: first((r) => r.pages),
    year: first((r) => r.year),
    date: first((r) => r.date),
    authors: ranked.find((r) => r.authors.length > 0)?.authors ?? [],
    publicationTypes: union((r) => r.publicationTypes),
    mesh: union((r) => r.mesh),
    sources: union((r) => r.sources),
    // A journal version found anywhere outranks the preprint.
    isPreprint: ranked.every((r) => r.isPreprint),
    isRetracted: ranked.some((r) => r.isRetracted),
    publishedDoi: first((r) => r.publishedDoi),
    trial: first((r) => r.trial) ?? undefined,
    citedByCount: first((r) => r.citedByCount),
    url: (ranked.find((r) => r.source === "pubmed") ?? ranked.find((r) => !r.isPreprint) ?? lead).url,
  };
}

function richness(r: LiteratureRecord): number {
  return (
    (r.abstract ? Math.min(r.abstract.length, 3000) / 100 : 0) +
    r.publicationTypes.length * 3 +
    r.mesh.length +
    Object.keys(r.ids).length * 2 +
    (r.source === "pubmed" ? 5 : 0) +
    (r.titleDerived ? -10 : 0)
  );
}

/**
 * The keys that name a reference's work: its ids and, when it identifies the paper, its normalized
 * title (a title derived from the abstract is not one). Two references sharing any key are one work (for lists already merged once, such as the
 * references of several iterations of one deep-research run).
 */
export function workKeys(ref: {
  pmid?: string | null;
  doi?: string | null;
  pmcid?: string | null;
  nct?: string | null;
  url?: string | null;
  title?: string | null;
  titleDerived?: boolean | null;
}): string[] {
  const keys: string[] = [];
  for (const key of ["pmid", "doi", "pmcid", "nct", "url"] as const) {
    const value = ref[key];
    if (value) keys.push(`${key}:${value.toLowerCase()}`);
  }
  const title = ref.title && !ref.titleDerived ? normalizeTitle(ref.title) : "";
  if (identifies(title)) keys.push(`title:${title}`);
  return keys;
}
