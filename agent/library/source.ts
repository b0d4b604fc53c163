import { SourceError, type LiteratureSource } from "@/agent/literature/sources/types";
import type { Queryable } from "@/lib/shared/db/pool";
import { searchLibrary } from "./search";
import { errorMessage } from "@/lib/shared/narrow";

/**
 * The local library as a literature source (name "local"), so the engine searches it beside the
 * registries. `recordPageBase` is where people read records that have no PMID, DOI or NCT id
 * (LIBRARY_RECORD_PAGE_URL: the gateway's record page).
 */
export function createLocalLibrarySource({ db, recordPageBase }: { db: Queryable; recordPageBase?: string }): LiteratureSource {
  return {
    name: "local",
    /** Throws SourceError: "timeout" when aborted, "network" when the database fails. */
    async search(query, options) {
      const signal = options?.signal;
      if (signal?.aborted) throw new SourceError("local", "timeout", "search aborted", { cause: signal.reason });
      let hits;
      try {
        hits = await searchLibrary({ db, query, recordPageBase });
      } catch (err) {
        throw new SourceError("local", "network", `library search failed: ${errorMessage(err)}`, { cause: err });
      }
      // A query cannot be withdrawn from a shared pool mid-flight; an abort while it ran still
      // means the caller has moved on, so its late answer is refused like a timeout.
      if (signal?.aborted) throw new SourceError("local", "timeout", "search aborted", { cause: signal.reason });
      return hits.map((h) => h.record);
    },
  };
}
