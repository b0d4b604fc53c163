import type { LiteratureRecord } from "@/agent/literature/record";
import type { SourceExpansion, SourceQuery } from "@/agent/literature/sources/types";
import type { Queryable } from "@/lib/shared/db/pool";
import {
  buildOrTsquery,
  chooseCandidateLexemes,
  FEEDBACK_MAX_SHARE,
  FEEDBACK_RECORDS,
  relevanceModel,
  type FeedbackRow,
  inverseDocumentFrequency,
  listQueryTerms,
  matchTerms,
  MAX_TERMS,
  MIN_CANDIDATES,
  scoreCandidate,
  yearBounds,
  type CandidateTerms,
  type LexemeGroup,
} from "./ranking";
import { LIBRARY_RECORD_COLUMNS, toLiteratureRecord, type LibraryRecordRow } from "./to-literature-record";

export type LibraryHit = {
  record: LiteratureRecord;
  /** The BM25 score: higher is better; comparable within one search only. */
  rank: number;
  /** The query terms whose every lexeme the record holds, in query order. */
  matchedTerms: string[];
};

export type SearchLibraryOptions = {
  db: Queryable;
  query: SourceQuery;
  /** Where records without PMID, DOI or NCT id are read: `<base>/<id>` (LIBRARY_RECORD_PAGE_URL). */
  recordPageBase?: string;
};

/**
 * Searches the local library with PostgreSQL full-text search:
 *
 * 1. Analyse: each query term through to_tsvector('english') (the index's own configuration, so
 *    stemming and stop words agree), with how many records hold each lexeme and the library's size.
 * 2. Candidates: an OR tsquery of the rarer lexemes finds rows through the GIN index, ts_rank over
 *    all the query's lexemes keeps the best few hundred, and for those the statement returns each
 *    record's length and the weights of every query lexeme it holds (unnest of the tsvector).
 * 3. BM25 over those candidates (ranking.ts).
 * 4. Feedback: the words of the best five (their tsvectors) make a relevance model (RM3,
 *    ranking.ts relevanceModel); its heaviest ten words search again beside the question's, and the
 *    candidates are scored by both; then the full rows of the best `limit`.
 *
 * OR, not AND: a question's words rarely all appear in the record that answers it, so records are
 * ranked by how well they match rather than filtered by whether they match everything.
 * Filters: years from dateFrom/dateTo (records without a year are left out when either is set);
 * scope `trials` keeps records with an NCT id; `preprints` finds nothing, a local record is never one.
 *
 * Throws the database's error.
 */
export async function searchLibrary({ db, query, recordPageBase }: SearchLibraryOptions): Promise<LibraryHit[]> {
  if (query.scope === "preprints" || query.limit <= 0) return [];
  const terms = listQueryTerms(query);
  if (terms.length === 0) return [];

  const expansions = (query.expansions ?? []).slice(0, MAX_TERMS);
  const names = [...new Set(expansions.flatMap((e) => [...otherNames(e), ...e.headings]))];
  const analysed = await analyseTerms({ db, terms: [...terms, ...names] });
  const termLexemes = new Map<string, string[]>(terms.map((t) => [t, []]));
  const nameLexemes = new Map<string, string[]>(names.map((t) => [t, []]));
  const holding = new Map<string, number>();
  for (const row of analysed.rows) {
    const text = row.term <= terms.length ? terms[row.term - 1] : names[row.term - terms.length - 1];
    (row.term <= terms.length ? termLexemes : nameLexemes).get(text ?? "")?.push(row.lexeme);
    holding.set(row.lexeme, row.records);
  }
  // Other names stand in only for a phrase no record uses as the question put it (as relevance
  // does): a lay "broken hip" finds the "proximal femur fracture", while a technical question's
  // own words are searched alone and related studies are not pulled in.
  const groups = await unusedPhrases({ db, phrases: lexemeGroups({ expansions, termLexemes, nameLexemes }) });
  const ownLexemes = new Set([...termLexemes.values()].flat());
  // Lexemes only a dropped phrase's other names hold neither find nor rank candidates.
  const searched = new Set([...ownLexemes, ...groups.flatMap((g) => [...g.alternatives.flat(), ...g.headings.flat()])]);
  for (const lexeme of [...holding.keys()]) if (!searched.has(lexeme)) holding.delete(lexeme);
  const candidateLexemes = chooseCandidateLexemes({ lexemes: [...holding].map(([lexeme, records]) => ({ lexeme, records })) });
  const candidateQuery = buildOrTsquery(candidateLexemes);
  const fullQuery = buildOrTsquery([...holding.keys()]);
  if (!candidateQuery || !fullQuery) return [];

  const candidates = await findCandidates({
    db,
    candidateQuery,
    fullQuery,
    lexemes: [...holding.keys()],
    query,
    count: Math.max(MIN_CANDIDATES, query.limit * 4),
  });
  const idf = new Map([...holding].map(([lexeme, records]) => [lexeme, inverseDocumentFrequency({ records: analysed.records, holding: records })]));
  const averageTokens = analysed.records > 0 ? analysed.tokens / analysed.records : 0;
  const score = (c: CandidateTerms) => scoreCandidate({ candidate: c, idf, averageTokens, groups, termLexemes: ownLexemes });
  const firstPass = candidates.map((c) => ({ id: c.id, candidate: c, score: score(c) })).sort(byScore);
  // Pseudo-relevance feedback (ranking.ts, relevanceModel): the best records lend the question their words.
  const feedback = await feedbackTerms({ db, top: firstPass.slice(0, FEEDBACK_RECORDS), exclude: new Set(holding.keys()), library: analysed, queryWeight: ownLexemes.size + groups.length });
  const best = (feedback.size === 0 ? firstPass : await secondPass({ db, query, holding, feedback, firstPass, score, averageTokens })).slice(0, query.limit);
  if (best.length === 0) return [];

  const { rows } = await db.query<LibraryRecordRow>(
    `SELECT ${LIBRARY_RECORD_COLUMNS} FROM agent.library_records WHERE id = ANY($1::uuid[])`,
    [best.map((b) => b.id)],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return best.flatMap(({ id, candidate, score: rank }) => {
    const row = byId.get(id);
    if (!row) return [];
    const recordLexemes = new Set(candidate.lexemes.map((l) => l.lexeme));
    return [{ record: toLiteratureRecord({ row, recordPageBase }), rank, matchedTerms: matchTerms({ termLexemes, recordLexemes }) }];
  });
}

const byScore = (a: { id: string; score: number }, b: { id: string; score: number }) => b.score - a.score || (a.id < b.id ? -1 : 1);

type Scored = { id: string; candidate: Candidate; score: number };

/** The feedback lexemes of the best first-pass records and their weights (ranking.ts, relevanceModel); empty when nothing is to be lent. */
async function feedbackTerms({
  db,
  top,
  exclude,
  library,
  queryWeight,
}: {
  db: Queryable;
  top: Scored[];
  exclude: ReadonlySet<string>;
  library: { records: number };
  queryWeight: number;
}): Promise<Map<string, number>> {
  if (top.length === 0 || library.records === 0 || top.every((t) => t.score <= 0)) return new Map();
  const { rows } = await db.query<FeedbackRow>(
    `SELECT f.ord::int - 1 AS record, u.lexeme, coalesce(cardinality(u.positions), 1)::int AS tf, l.records
     FROM unnest($1::uuid[]) WITH ORDINALITY AS f(id, ord)
     JOIN agent.library_records r ON r.id = f.id
     CROSS JOIN LATERAL unnest(r.search) AS u
     JOIN agent.library_lexemes l ON l.lexeme = u.lexeme
     WHERE l.records <= $2 AND u.lexeme ~ '^[a-z][a-z-]{2,}$'`,
    [top.map((t) => t.id), Math.max(2, Math.floor(library.records * FEEDBACK_MAX_SHARE))],
  );
  return relevanceModel({ top: top.map((t) => ({ score: t.score, tokens: t.candidate.tokens })), rows, exclude, libraryRecords: library.records, queryWeight });
}

/** The candidates again, found by the question's lexemes and the feedback's, each scored by the question plus the feedback's words. */
async function secondPass({
  db,
  query,
  holding,
  feedback,
  firstPass,
  score,
  averageTokens,
}: {
  db: Queryable;
  query: SourceQuery;
  holding: Map<string, number>;
  feedback: Map<string, number>;
  firstPass: Scored[];
  score: (c: CandidateTerms) => number;
  averageTokens: number;
}): Promise<Scored[]> {
  const lexemes = [...holding.keys(), ...feedback.keys()];
  const candidateQuery = buildOrTsquery([...chooseCandidateLexemes({ lexemes: [...holding].map(([lexeme, n]) => ({ lexeme, records: n })) }), ...feedback.keys()]);
  const fullQuery = buildOrTsquery(lexemes);
  if (!candidateQuery || !fullQuery) return firstPass;
  const found = await findCandidates({ db, candidateQuery, fullQuery, lexemes, query, count: Math.max(MIN_CANDIDATES, query.limit * 4) });
  const lent = new Set(feedback.keys());
  return found
    .map((c) => {
      const own = { tokens: c.tokens, lexemes: c.lexemes.filter((l) => !lent.has(l.lexeme)) };
      const borrowed = scoreCandidate({ candidate: c, idf: feedback, averageTokens, termLexemes: lent });
      return { id: c.id, candidate: { ...c, lexemes: own.lexemes }, score: score(own) + borrowed };
    })
    .sort(byScore);
}

/** Other names searched per phrase at most: the first are the closest (the vocabulary's order). */
const MAX_ALTERNATIVES = 24;

/** The query's phrases with other names, as lexemes (see scoreCandidate), each with the question's words for it. */
function lexemeGroups({
  expansions,
  termLexemes,
  nameLexemes,
}: {
  expansions: NonNullable<SourceQuery["expansions"]>;
  termLexemes: Map<string, string[]>;
  nameLexemes: Map<string, string[]>;
}): { words: string; group: LexemeGroup }[] {
  const lexemesOf = (list: Map<string, string[]>, text: string) => list.get(text) ?? [...list].find(([t]) => t.toLowerCase() === text.toLowerCase())?.[1] ?? [];
  return expansions
    .map((e) => ({
      words: e.terms.join(" "),
      group: {
        own: e.terms.flatMap((t) => lexemesOf(termLexemes, t)),
        alternatives: otherNames(e).map((a) => lexemesOf(nameLexemes, a)).filter((l) => l.length > 0),
        headings: e.headings.map((h) => lexemesOf(nameLexemes, h)).filter((l) => l.length > 0),
      },
    }))
    .filter(({ group: g }) => g.own.length > 0 && (g.alternatives.length > 0 || g.headings.length > 0));
}

/**
 * The groups whose words no record uses as the question does: together, in the question's order
 * (phraseto_tsquery through the GIN index). A record that only has both words apart ("breast" in
 * one sentence, "x-ray" in another) does not use the phrase, so its other names still search.
 */
async function unusedPhrases({ db, phrases }: { db: Queryable; phrases: { words: string; group: LexemeGroup }[] }): Promise<LexemeGroup[]> {
  if (phrases.length === 0) return [];
  const { rows } = await db.query<{ ord: number }>(
    `SELECT g.ord::int AS ord FROM unnest($1::text[]) WITH ORDINALITY AS g(words, ord)
     WHERE EXISTS (SELECT 1 FROM agent.library_records WHERE search @@ phraseto_tsquery('pg_catalog.english', g.words))`,
    [phrases.map((p) => p.words)],
  );
  const used = new Set(rows.map((r) => r.ord - 1));
  return phrases.filter((_, i) => !used.has(i)).map((p) => p.group);
}

async function analyseTerms({ db, terms }: { db: Queryable; terms: string[] }): Promise<{
  rows: { term: number; lexeme: string; records: number }[];
  records: number;
  tokens: number;
}> {
  const { rows } = await db.query<{ term: number; lexeme: string; records: number; total_records: string; total_tokens: string }>(
    `SELECT t.ord::int AS term, u.lexeme, coalesce(l.records, 0) AS records, s.records AS total_records, s.tokens AS total_tokens
     FROM unnest($1::text[]) WITH ORDINALITY AS t(term, ord)
     CROSS JOIN LATERAL unnest(to_tsvector('pg_catalog.english', t.term)) AS u
     LEFT JOIN agent.library_lexemes l ON l.lexeme = u.lexeme
     CROSS JOIN agent.library_statistics s
     ORDER BY t.ord`,
    [terms],
  );
  return {
    rows: rows.map((r) => ({ term: r.term, lexeme: r.lexeme, records: r.records })),
    records: Number(rows[0]?.total_records ?? 0),
    tokens: Number(rows[0]?.total_tokens ?? 0),
  };
}

type Candidate = CandidateTerms & { id: string };

async function findCandidates({
  db,
  candidateQuery,
  fullQuery,
  lexemes,
  query,
  count,
}: {
  db: Queryable;
  candidateQuery: string;
  fullQuery: string;
  lexemes: string[];
  query: SourceQuery;
  count: number;
}): Promise<Candidate[]> {
  const params: unknown[] = [candidateQuery, fullQuery, lexemes, count];
  const filters: string[] = [];
  const { from, to } = yearBounds(query);
  if (from !== null) filters.push(`year >= $${params.push(from)}`);
  if (to !== null) filters.push(`year <= $${params.push(to)}`);
  if (query.scope === "trials") filters.push("nct IS NOT NULL");
  // ts_rank normalisation 1 (divide by 1 + log of the length) orders the candidates best of the
  // variants measured; its choice only decides which rows BM25 rescores.
  const { rows } = await db.query<{ id: string; tokens: number; lexemes: string[] | null; weights: string[] | null }>(
    `WITH candidates AS (
       SELECT id, search FROM agent.library_records
       WHERE search @@ $1::tsquery ${filters.map((f) => `AND ${f}`).join(" ")}
       ORDER BY ts_rank(search, $2::tsquery, 1) DESC, id
       LIMIT $4
     )
     SELECT c.id, t.tokens, t.lexemes, t.weights
     FROM candidates c CROSS JOIN LATERAL (
       SELECT coalesce(sum(cardinality(u.positions)), 0)::int AS tokens,
              array_agg(u.lexeme) FILTER (WHERE u.lexeme = ANY($3::text[])) AS lexemes,
              array_agg(array_to_string(u.weights, '')) FILTER (WHERE u.lexeme = ANY($3::text[])) AS weights
       FROM unnest(c.search) AS u
     ) t`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    tokens: r.tokens,
    lexemes: (r.lexemes ?? []).map((lexeme, i) => ({ lexeme, weights: r.weights?.[i] ?? "" })),
  }));
}

/** A phrase's other names the library searches: its equivalents, then its narrower names (SourceExpansion.narrower). */
function otherNames(e: SourceExpansion): string[] {
  return [...e.alternatives, ...(e.narrower ?? [])].slice(0, MAX_ALTERNATIVES);
}
