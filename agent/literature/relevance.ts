import type { LiteratureRecord } from "./record";
import { stemSet, type QueryTerm } from "./terms";

/**
 * Relevance of each record to the question: the share of the question's terms a record contains,
 * each term weighted by how rare it is among the candidates (a term every candidate has says
 * little), with title and MeSH matches counting more than abstract ones.
 *
 * Accepted when the score reaches ACCEPT_THRESHOLD (0.4) and nothing disqualifies it: a retracted
 * paper, a record outside the requested dates, or a preprint when preprints are excluded.
 */
export const ACCEPT_THRESHOLD = 0.4;

export type Flag = "retracted" | "preprint" | "no_abstract" | "animal_only" | "trial" | "off_topic" | "derived_title";
export type RejectionReason = "off_topic" | "retracted" | "out_of_date_range" | "preprint_excluded" | "not_a_trial";

export type Judged = {
  record: LiteratureRecord;
  score: number;
  matchedTerms: string[];
  flags: Flag[];
  accepted: boolean;
  reason: RejectionReason | null;
};

export type RelevanceFilters = {
  dateFrom?: string;
  dateTo?: string;
  scope?: "preprints" | "no-preprints" | "trials";
};

const FIELD_WEIGHT = { title: 1, mesh: 0.9, abstract: 0.75 };

export function judgeRecords(records: LiteratureRecord[], terms: QueryTerm[], filters: RelevanceFilters = {}): Judged[] {
  const fields = records.map((r) => ({
    title: stemSet(r.title),
    abstract: stemSet(r.abstract ?? ""),
    mesh: stemSet(r.mesh.join(" ")),
  }));
  const n = records.length;
  const weights = terms.map((term) => {
    const df = fields.filter((f) => term.stems.some((s) => f.title.has(s) || f.abstract.has(s) || f.mesh.has(s))).length;
    return Math.log(1 + (n + 1) / (df + 0.5)) * term.weight;
  });
  const total = weights.reduce((a, b) => a + b, 0) || 1;

  return records.map((record, i) => {
    const f = fields[i]!;
    let earned = 0;
    const matchedTerms: string[] = [];
    terms.forEach((term, t) => {
      const inTitle = term.stems.some((s) => f.title.has(s));
      const inMesh = term.stems.some((s) => f.mesh.has(s));
      const inAbstract = term.stems.some((s) => f.abstract.has(s));
      const best = Math.max(inTitle ? FIELD_WEIGHT.title : 0, inMesh ? FIELD_WEIGHT.mesh : 0, inAbstract ? FIELD_WEIGHT.abstract : 0);
      if (best > 0) {
        matchedTerms.push(term.term);
        earned += weights[t]! * best;
      }
    });
    const score = terms.length === 0 ? 0 : Math.round((earned / total) * 1000) / 1000;

    const flags: Flag[] = [];
    if (record.isRetracted) flags.push("retracted");
    if (record.isPreprint) flags.push("preprint");
    if (!record.abstract) flags.push("no_abstract");
    if (isAnimalOnly(record)) flags.push("animal_only");
    if (record.trial || record.ids.nct) flags.push("trial");
    if (record.titleDerived) flags.push("derived_title");
    if (score < ACCEPT_THRESHOLD) flags.push("off_topic");

    let reason: RejectionReason | null = null;
    if (record.isRetracted) reason = "retracted";
    else if (!withinDates(record, filters)) reason = "out_of_date_range";
    else if (filters.scope === "no-preprints" && record.isPreprint) reason = "preprint_excluded";
    else if (filters.scope === "trials" && !(record.trial || record.ids.nct)) reason = "not_a_trial";
    else if (score < ACCEPT_THRESHOLD) reason = "off_topic";
    return { record, score, matchedTerms, flags, accepted: reason === null, reason };
  });
}

function isAnimalOnly(record: LiteratureRecord): boolean {
  const mesh = record.mesh.map((m) => m.toLowerCase());
  if (mesh.length > 0) return mesh.includes("animals") && !mesh.includes("humans");
  const text = `${record.title} ${record.abstract ?? ""}`.toLowerCase();
  return /\b(mice|mouse|rats?|murine|drosophila|c\. elegans|zebrafish|yeast)\b/.test(text) && !/\b(patients?|participants?|humans?|adults?|men|women|volunteers?)\b/.test(text);
}

function withinDates(record: LiteratureRecord, { dateFrom, dateTo }: RelevanceFilters): boolean {
  if (!dateFrom && !dateTo) return true;
  const date = record.date ?? (record.year ? `${record.year}-07-01` : null);
  if (!date) return false; // an undated record cannot be shown to fall inside the range
  if (dateFrom && date < dateFrom && !(record.year && !record.date && String(record.year) >= dateFrom.slice(0, 4))) return false;
  if (dateTo && date > dateTo && !(record.year && !record.date && String(record.year) <= dateTo.slice(0, 4))) return false;
  return true;
}
