import type { LiteratureRecord } from "@/agent/literature/record";

/**
 * Where people read a library record that has no PMID, DOI or NCT id, when none is configured
 * (LIBRARY_RECORD_PAGE_URL): the agent's own record route at its default port. That route needs the
 * service key, so a deployment sets the gateway's public record page (`${PUBLIC_URL}/library/records`).
 */
const DEFAULT_RECORD_PAGE_BASE = "http://localhost:3001/api/library/records";

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
  volume: string | null;
  issue: string | null;
  pages: string | null;
  year: number | null;
  authors: string[];
  publication_types: string[];
  mesh: string[];
};

export const LIBRARY_RECORD_COLUMNS = "id, pmid, doi, nct, title, title_derived, abstract, journal, volume, issue, pages, year, authors, publication_types, mesh";

/**
 * The landing page of a library record: PubMed, then the DOI resolver, then ClinicalTrials.gov;
 * a record with none of those ids is read at `<recordPageBase>/<id>` (the gateway's record page).
 */
export function buildRecordUrl({ row, recordPageBase = DEFAULT_RECORD_PAGE_BASE }: { row: Pick<LibraryRecordRow, "id" | "pmid" | "doi" | "nct">; recordPageBase?: string }): string {
  if (row.pmid) return `https://pubmed.ncbi.nlm.nih.gov/${row.pmid}/`;
  // Each path segment encoded: DOIs may hold characters a URL reserves ("#", "?", ";"), never "/".
  if (row.doi) return `https://doi.org/${row.doi.split("/").map(encodeURIComponent).join("/")}`;
  if (row.nct) return `https://clinicaltrials.gov/study/${row.nct}`;
  return `${recordPageBase.replace(/\/+$/, "")}/${row.id}`;
}

/** A library row as a LiteratureRecord of source "local". A local record is never a preprint. */
export function toLiteratureRecord({ row, recordPageBase }: { row: LibraryRecordRow; recordPageBase?: string }): LiteratureRecord {
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
    volume: row.volume,
    issue: row.issue,
    pages: row.pages,
    year: row.year,
    date: null,
    authors: row.authors,
    publicationTypes: row.publication_types,
    mesh: row.mesh,
    source: "local",
    sources: ["local"],
    url: buildRecordUrl({ row, recordPageBase }),
    isPreprint: false,
    isRetracted: row.publication_types.includes("Retracted Publication"),
  };
}
