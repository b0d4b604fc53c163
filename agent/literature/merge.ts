import type { LiteratureRecord, RecordIds } from "./record";

const ID_KEYS = ["doi", "pmid", "pmcid", "nct", "ppr"] as const;

/**
 * Merges records that share a DOI, PMID, PMCID or NCT id (transitively: A~B by DOI and B~C by PMID
 * join all three), keeping the richest metadata and every source a record came from. The order of
 * first appearance is kept.
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
  const groups = new Map<number, LiteratureRecord[]>();
  records.forEach((record, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), record]);
  });
  return [...groups.values()].map(combine);
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
  const ids: RecordIds = {};
  for (const r of ranked) for (const [k, v] of Object.entries(r.ids)) if (v && !(k in ids)) ids[k as keyof RecordIds] = v;
  const union = (pick: (r: LiteratureRecord) => string[]) => [...new Set(ranked.flatMap(pick))];
  const titled = ranked.find((r) => !r.titleDerived) ?? lead;
  return {
    ...lead,
    ids,
    title: titled.title,
    titleDerived: titled.titleDerived ?? false,
    abstract: longest((r) => r.abstract),
    journal: first((r) => r.journal),
    year: first((r) => r.year),
    date: first((r) => r.date),
    authors: ranked.find((r) => r.authors.length > 0)?.authors ?? [],
    publicationTypes: union((r) => r.publicationTypes),
    mesh: union((r) => r.mesh),
    sources: union((r) => r.sources) as LiteratureRecord["sources"],
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
