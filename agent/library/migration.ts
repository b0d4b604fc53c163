/**
 * The local library's tables, in the agent's schema (applied by agent/db/migrations.ts).
 * Full-text search is plain PostgreSQL (tsvector, GIN, ts_rank), portable to PGlite: no extensions.
 *
 * Ranking (agent/library/search.ts) is BM25 over the tsvector's lexemes, so the library keeps the
 * two corpus statistics BM25 needs next to the records: how many records hold each lexeme
 * (`library_lexemes`) and how many records and tokens there are (`library_statistics`). The import
 * statement updates them in the same statement that inserts the records, so they cannot drift
 * from what was imported; `rebuildLibraryStatistics` recomputes them after rows were deleted.
 */
export const libraryMigrationSql = `
  -- The searchable document of a record: the title above the abstract, MeSH descriptors between.
  -- A derived title is left out because it is a copy of the abstract's first sentence: indexing it
  -- again would count those words twice. Declared IMMUTABLE (array_to_string is only STABLE because
  -- of element output functions, which for text[] cannot change) so a generated column can use it.
  CREATE FUNCTION agent.library_document(title text, title_derived boolean, abstract text, mesh text[])
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('pg_catalog.english'::regconfig, CASE WHEN title_derived THEN '' ELSE coalesce(title, '') END), 'A')
        || setweight(to_tsvector('pg_catalog.english'::regconfig, coalesce(array_to_string(mesh, ' ; '), '')), 'C')
        || setweight(to_tsvector('pg_catalog.english'::regconfig, coalesce(abstract, '')), 'B')
  $$;

  CREATE TABLE agent.library_records (
    id uuid PRIMARY KEY,
    pmid text UNIQUE,
    doi text UNIQUE,
    nct text UNIQUE,
    -- Identity of a record without ids, so importing the same file twice adds nothing.
    content_hash text NOT NULL UNIQUE,
    title text NOT NULL,
    title_derived boolean NOT NULL DEFAULT false,
    -- Empty (never null) for a PubMed record that has a title but no abstract.
    abstract text NOT NULL,
    journal text,
    year integer,
    authors text[] NOT NULL DEFAULT '{}',
    publication_types text[] NOT NULL DEFAULT '{}',
    mesh text[] NOT NULL DEFAULT '{}',
    search tsvector GENERATED ALWAYS AS (agent.library_document(title, title_derived, abstract, mesh)) STORED,
    imported_at timestamptz NOT NULL DEFAULT now()
  );
  -- Keep the tsvector in the row: ranking reads it for every candidate, and fetching it from the
  -- TOAST table cost several times the rest of a search. The abstract is moved out instead.
  ALTER TABLE agent.library_records ALTER COLUMN search SET STORAGE MAIN;
  CREATE INDEX library_records_search_idx ON agent.library_records USING gin (search);

  -- Document frequency of every lexeme in library_records.search (BM25's idf).
  CREATE TABLE agent.library_lexemes (
    lexeme text PRIMARY KEY,
    records integer NOT NULL
  );

  -- One row: record and token counts (BM25's average document length).
  CREATE TABLE agent.library_statistics (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    records bigint NOT NULL DEFAULT 0,
    tokens bigint NOT NULL DEFAULT 0
  );
  INSERT INTO agent.library_statistics DEFAULT VALUES;
`;
