/**
 * The local library's tables, in the agent's schema (applied by agent/db/migrations.ts).
 * Full-text search is plain PostgreSQL (tsvector, GIN, ts_rank), portable to PGlite.
 */
export const libraryMigrationSql = `
  CREATE TABLE agent.library_records (
    id uuid PRIMARY KEY,
    pmid text UNIQUE,
    doi text UNIQUE,
    nct text UNIQUE,
    -- Identity of a record without ids, so importing the same file twice adds nothing.
    content_hash text NOT NULL UNIQUE,
    title text NOT NULL,
    title_derived boolean NOT NULL DEFAULT false,
    abstract text NOT NULL,
    journal text,
    year integer,
    publication_types text[] NOT NULL DEFAULT '{}',
    mesh text[] NOT NULL DEFAULT '{}',
    search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
      setweight(to_tsvector('english', coalesce(abstract, '')), 'B')
    ) STORED,
    imported_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX library_records_search_idx ON agent.library_records USING gin (search);
`;
