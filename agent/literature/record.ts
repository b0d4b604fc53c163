import { literatureSources } from "@/lib/shared/contracts/sources";

/**
 * The one record shape every literature source is normalised to. Sources fill what they know;
 * merging (agent/literature/merge.ts) joins records that share a DOI, PMID, PMCID or NCT id,
 * keeping the richest metadata and every source a record came from.
 */

/** Where a record can come from: every searchable source, and medRxiv, whose preprints bioRxiv's API serves. */
export const sourceNames = [...literatureSources, "medrxiv"] as const;
export type SourceName = (typeof sourceNames)[number];

export type RecordIds = {
  /** Digits only, e.g. "27797938". */
  pmid?: string;
  /** With the PMC prefix, e.g. "PMC2682512". */
  pmcid?: string;
  /** Lower-case, without a resolver prefix, e.g. "10.1016/j.xgen.2025.100814". */
  doi?: string;
  /** Upper-case, e.g. "NCT06382129". */
  nct?: string;
  /** Europe PMC preprint id, e.g. "PPR123456". */
  ppr?: string;
  /** OpenAlex work id, e.g. "W4408578366". */
  openalex?: string;
  /** The local library's record id. */
  local?: string;
};

/** ClinicalTrials.gov design facts, used by the evidence-type rules. */
export type TrialDesign = {
  studyType: string | null; // INTERVENTIONAL, OBSERVATIONAL, EXPANDED_ACCESS
  phases: string[]; // PHASE1, PHASE2, ...
  allocation: string | null; // RANDOMIZED, NON_RANDOMIZED, NA
  interventionModel: string | null; // SINGLE_GROUP, PARALLEL, CROSSOVER, ...
  primaryPurpose: string | null;
  masking: string | null;
  hasResults: boolean | null;
  overallStatus: string | null;
  enrollment: number | null;
  conditions: string[];
  interventions: string[];
};

export type LiteratureRecord = {
  ids: RecordIds;
  title: string;
  /** True when the title was derived (e.g. from the abstract) because the record had none. */
  titleDerived?: boolean;
  abstract: string | null;
  journal: string | null;
  /** Where in the journal, as the source gives them ("70", "12", "4880-4890" or "e100814"); absent when unknown. */
  volume?: string | null;
  issue?: string | null;
  pages?: string | null;
  year: number | null;
  /** Publication (or first posting) date, YYYY-MM-DD, when known to the day. */
  date: string | null;
  authors: string[];
  /** As the source names them: "Randomized Controlled Trial", "Review", "Retracted Publication", ... */
  publicationTypes: string[];
  /** MeSH descriptor names: "Humans", "Animals", "Aging", ... */
  mesh: string[];
  /** The source this record was first found in, and every source it came from. */
  source: SourceName;
  sources: SourceName[];
  /** A landing page: PubMed, DOI, ClinicalTrials.gov or the preprint server. */
  url: string;
  isPreprint: boolean;
  isRetracted: boolean;
  /** For a preprint: the DOI of its journal version, when one is known. */
  publishedDoi?: string | null;
  trial?: TrialDesign;
  citedByCount?: number | null;
};
