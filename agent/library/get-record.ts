import type { LiteratureRecord } from "@/agent/literature/record";
import type { Queryable } from "@/lib/shared/db/pool";
import { isUuid } from "@/lib/shared/db/uuid";
import { LIBRARY_RECORD_COLUMNS, toLiteratureRecord, type LibraryRecordRow } from "./to-literature-record";

/**
 * One library record by its id (the `ids.local` of a search result), or null when there is none:
 * what GET /api/library/records/<id>, the landing page of records without PMID, DOI or NCT id,
 * answers. A malformed id is simply not found. Throws the database's error.
 */
export async function getLibraryRecord({ db, id, recordPageBase }: { db: Queryable; id: string; recordPageBase?: string }): Promise<LiteratureRecord | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<LibraryRecordRow>(`SELECT ${LIBRARY_RECORD_COLUMNS} FROM agent.library_records WHERE id = $1`, [id]);
  const row = rows[0];
  return row ? toLiteratureRecord({ row, recordPageBase }) : null;
}
