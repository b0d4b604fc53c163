import type { Queryable } from "@/lib/shared/db/pool";
import type { LibraryRow } from "./prepare-record";

/**
 * One statement per batch: the rows go in as one JSON parameter (a constant number of parameters
 * however large the batch), duplicates of any unique key (id, pmid, doi, nct, content hash) are
 * skipped, and the BM25 statistics are updated from exactly the rows that were inserted. Being one
 * statement, a batch is atomic: the statistics never count a record that is not there.
 *
 * Lexeme counts are upserted in lexeme order so two concurrent imports take their row locks in the
 * same order (no deadlock); the second waits for the first.
 */
const INSERT_SQL = `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
      id uuid, pmid text, doi text, nct text, content_hash text, title text, title_derived boolean,
      abstract text, journal text, volume text, issue text, pages text, year integer, authors text[], publication_types text[], mesh text[]
    )
  ),
  inserted AS (
    INSERT INTO agent.library_records
      (id, pmid, doi, nct, content_hash, title, title_derived, abstract, journal, volume, issue, pages, year, authors, publication_types, mesh)
    SELECT id, pmid, doi, nct, content_hash, title, title_derived, abstract, journal, volume, issue, pages, year, authors, publication_types, mesh
    FROM input
    ON CONFLICT DO NOTHING
    RETURNING search
  ),
  postings AS MATERIALIZED (
    SELECT u.lexeme, cardinality(u.positions) AS occurrences
    FROM inserted CROSS JOIN LATERAL unnest(inserted.search) AS u
  ),
  lexemes AS (
    INSERT INTO agent.library_lexemes (lexeme, records)
    SELECT lexeme, count(*) FROM postings GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (lexeme) DO UPDATE SET records = agent.library_lexemes.records + excluded.records
  ),
  statistics AS (
    UPDATE agent.library_statistics
    SET records = records + (SELECT count(*) FROM inserted),
        tokens = tokens + (SELECT coalesce(sum(occurrences), 0) FROM postings)
  )
  SELECT count(*)::int AS inserted FROM inserted
`;

/**
 * Inserts `rows`, skipping any that duplicate a record already there (or earlier in the batch).
 * Returns how many were inserted. Throws the database's error; then nothing of the batch is stored.
 */
export async function insertLibraryRows({ db, rows }: { db: Queryable; rows: LibraryRow[] }): Promise<number> {
  if (rows.length === 0) return 0;
  const payload = rows.map((r) => ({
    id: r.id,
    pmid: r.pmid,
    doi: r.doi,
    nct: r.nct,
    content_hash: r.contentHash,
    title: r.title,
    title_derived: r.titleDerived,
    abstract: r.abstract,
    journal: r.journal,
    volume: r.volume,
    issue: r.issue,
    pages: r.pages,
    year: r.year,
    authors: r.authors,
    publication_types: r.publicationTypes,
    mesh: r.mesh,
  }));
  const { rows: result } = await db.query<{ inserted: number }>(INSERT_SQL, [JSON.stringify(payload)]);
  return result[0]?.inserted ?? 0;
}

/**
 * Recomputes the BM25 statistics from the records themselves. Imports keep them current; this is
 * for a library whose rows were deleted or edited by hand. Throws the database's error.
 */
export async function rebuildLibraryStatistics({ db }: { db: Queryable }): Promise<void> {
  await db.query(`
    WITH postings AS MATERIALIZED (
      SELECT u.lexeme, cardinality(u.positions) AS occurrences
      FROM agent.library_records r CROSS JOIN LATERAL unnest(r.search) AS u
    ),
    -- Disjoint from the upsert's rows: one statement must not touch a row twice.
    stale AS (
      DELETE FROM agent.library_lexemes l WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.lexeme = l.lexeme)
    ),
    lexemes AS (
      INSERT INTO agent.library_lexemes (lexeme, records)
      SELECT lexeme, count(*) FROM postings GROUP BY lexeme ORDER BY lexeme
      ON CONFLICT (lexeme) DO UPDATE SET records = excluded.records
    )
    UPDATE agent.library_statistics
    SET records = (SELECT count(*) FROM agent.library_records),
        tokens = (SELECT coalesce(sum(occurrences), 0) FROM postings)
  `);
}
