import type { LiteratureRecord } from "@/agent/literature/record";

/** The agent's public origin when none is configured (the agent's default port). */
export const DEFAULT_AGENT_URL = "http://localhost:3001";

/** The columns of agent.library_records that make a LiteratureRecord. */
export type LibraryRecordRow = {
  id: string;
  pmid: string | null;
  doi: string | null;
  nct: string | null;
  title: string;
  title_derived: boolean;
  abstract: string;
  journal: string | null;
  year: number | null;
  authors: string[];
  publication_types: string[];
  mesh: string[];
};

export const LIBRARY_RECORD_COLUMNS = "id, pmid, doi, nct, title, title_derived, abstract, journal, year, authors, publication_types, mesh";

/**
 * The landing page of a library record: PubMed, then the DOI resolver, then ClinicalTrials.gov;
 * a record with none of those ids is served by the agent itself at /api/library/records/<id>.
 */
export function buildRecordUrl({ row, agentUrl = DEFAULT_AGENT_URL }: { row: Pick<LibraryRecordRow, "id" | "pmid" | "doi" | "nct">; agentUrl?: string }): string {
  if (row.pmid) return `https://pubmed.ncbi.nlm.nih.gov/${row.pmid}/`;
  // Each path segment encoded: DOIs may hold characters a URL reserves ("#", "?", ";"), never "/".
  if (row.doi) return `https://doi.org/${row.doi.split("/").map(encodeURIComponent).join("/")}`;
  if (row.nct) return `https://clinicaltrials.gov/study/${row.nct}`;
  return `${agentUrl.replace(/\/+$/, "")}/api/library/records/${row.id}`;
}

/** A library row as a LiteratureRecord of source "local". A local record is never a preprint. */
export function toLiteratureRecord({ row, agentUrl }: { row: LibraryRecordRow; agentUrl?: string }): LiteratureRecord {
  return {
    ids: {
      local: row.id,
      ...(row.pmid ? { pmid: row.pmid } : {}),
      ...(row.doi ? { doi: row.doi } : {}),
      ...(row.nct ? { nct: row.nct } : {}),
    },
    title: row.title,
    ...(row.title_derived ? { titleDerived: true } : {}),
    abstract: row.abstract === "" ? null : row.abstract,
    journal: row.journal,
    year: row.year,
    date: null,
    authors: row.authors,
    publicationTypes: row.publication_types,
    mesh: row.mesh,
    source: "local",
    sources: ["local"],
    url: buildRecordUrl({ row, agentUrl }),
    isPreprint: false,
    isRetracted: row.publication_types.includes("Retracted Publication"),
  };
}
