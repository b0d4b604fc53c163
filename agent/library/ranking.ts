import type { SourceQuery } from "@/agent/literature/sources/types";

/**
 * The pure half of library search: which terms a query searches for, the OR tsquery, which of its
 * lexemes generate candidates, and the BM25 score of a candidate. search.ts runs the SQL around it.
 *
 * Why BM25 on top of PostgreSQL's ts_rank: ts_rank counts how often query lexemes occur but not
 * how rare they are, so in a question like "Does telomere length predict mortality in patients?"
 * the word "patients" weighs as much as "telomere". BM25 weighs each lexeme by its inverse
 * document frequency, kept in agent.library_lexemes. ts_rank (normalised by log length, the best
 * of its variants here; ts_rank_cd was worse) still orders the GIN index's matches to pick the few
 * hundred candidates BM25 rescores. Measured on the PubMedQA known-item check (500 questions,
 * scripts/bench/library.ts): ts_rank alone gives recall@10 0.996 and MRR 0.983 among the 500
 * records but 0.888 and 0.857 among 100,000; BM25 over its candidates gives 0.998 / 0.991 and
 * 0.994 / 0.984.
 */

/** BM25's usual constants: term-frequency saturation and length normalisation. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/**
 * How much one occurrence counts, by tsvector weight: A title, C MeSH descriptors, B abstract
 * (D is unused). A BM25F-style field weighting: a word in the title says more about the record
 * than the same word once in the abstract.
 */
const FIELD_WEIGHTS: Record<string, number> = { A: 3, B: 1, C: 1.5, D: 1 };

/** Most terms a query may have: the SQL and the scoring grow with each. */
export const MAX_TERMS = 64;

/**
 * Candidate generation stops adding lexemes once the records holding them add up to this many:
 * a lexeme in much of the library ("patient", "older", "risk") matches a large share of the rows and
 * would make the index scan and ts_rank read them all, while BM25 gives it little weight anyway.
 * Such lexemes still count in every candidate's score. Measured on PubMedQA among 100,000 records
 * (scripts/bench/library.ts): 2,000 was both faster and better than 5,000 or 20,000, because
 * ts_rank, which picks the candidates, has no idf and lets common words crowd out the rare ones.
 */
const CANDIDATE_POSTINGS_BUDGET = 2_000;

/**
 * Candidates rescored by BM25 per search, at least (four times the limit when that is more):
 * ts_rank's order decides which. 100 lost known items at 100,000 records; 400 found no more.
 */
export const MIN_CANDIDATES = 200;

/**
 * The terms a query searches for: its `terms` when the engine extracted some, else the words of
 * its text. Trimmed, deduplicated case-insensitively, at most MAX_TERMS. Stop words may stay: the
 * database's English configuration gives them no lexemes, so they neither match nor count.
 */
export function listQueryTerms(query: Pick<SourceQuery, "text" | "terms">): string[] {
  const given = query.terms.map((t) => t.trim()).filter(Boolean);
  const terms = given.length > 0 ? given : splitQueryText(query.text);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const term of terms) {
    const key = term.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(term);
    if (out.length === MAX_TERMS) break;
  }
  return out;
}

/**
 * The words of a question: split on whitespace and punctuation, keeping inner hyphens, dots and
 * apostrophes ("covid-19", "il-6", "1.5", "alzheimer's") that the text search parser reads as one.
 */
export function splitQueryText(text: string): string[] {
  return (text.match(/[\p{L}\p{N}](?:[\p{L}\p{N}'’.+-]*[\p{L}\p{N}+])?/gu) ?? []).map((w) => w.replace(/’/g, "'"));
}

/**
 * An OR tsquery over lexemes: `'telomer' | 'mortal'`. Each lexeme is quoted (backslashes and quotes
 * doubled, as tsquery input wants) and used as is, because the lexemes already came out of
 * to_tsvector: casting the text to tsquery must not normalise them again. Null for no lexemes.
 */
export function buildOrTsquery(lexemes: string[]): string | null {
  const unique = [...new Set(lexemes)].filter((l) => l !== "");
  if (unique.length === 0) return null;
  return unique.map(quoteLexeme).join(" | ");
}

function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

export type LexemeStatistics = { lexeme: string; records: number };

/**
 * The lexemes that generate candidates: the rarest first, while the records holding them stay
 * within `budget` (and always the rarest one, so a query of only common words still finds
 * something). Lexemes no record holds are left out: they cannot match.
 */
export function chooseCandidateLexemes({ lexemes, budget = CANDIDATE_POSTINGS_BUDGET }: { lexemes: LexemeStatistics[]; budget?: number }): string[] {
  const present = [...new Map(lexemes.filter((l) => l.records > 0).map((l) => [l.lexeme, l])).values()].sort(
    (a, b) => a.records - b.records || a.lexeme.localeCompare(b.lexeme),
  );
  const chosen: string[] = [];
  let postings = 0;
  for (const { lexeme, records } of present) {
    if (chosen.length > 0 && postings + records > budget) break;
    chosen.push(lexeme);
    postings += records;
  }
  return chosen;
}

/** BM25's inverse document frequency (the "plus one" form, never negative). */
export function inverseDocumentFrequency({ records, holding }: { records: number; holding: number }): number {
  return Math.log(1 + (records - holding + 0.5) / (holding + 0.5));
}

/** A candidate as the SQL returns it: its length in tokens, and per query lexeme it holds the weights of its occurrences ("AB": once in the title, once in the abstract). */
export type CandidateTerms = { tokens: number; lexemes: { lexeme: string; weights: string }[] };

/**
 * A phrase of the question and its other names, as lexemes (agent/literature/vocabulary via
 * SourceQuery.expansions): `own` the lexemes of the question's words for it, each alternative and
 * heading the lexemes it is made of.
 */
export type LexemeGroup = { own: string[]; alternatives: string[][]; headings: string[][] };

/**
 * The BM25 score of a candidate: for each query lexeme it holds, idf × saturated, length-normalised
 * frequency, where occurrences count by FIELD_WEIGHTS. `idf` maps each query lexeme to its weight.
 *
 * A phrase with other names (`groups`) counts once, by the best of its names: the question's own
 * words, or an alternative the record holds every lexeme of ("hip fracture" for "broken hip"),
 * or a MeSH heading among its MeSH terms (weight C only: "Aged" there, not "aged 18 to 65").
 * A name counts at most what the question's own words could earn, so a long technical name does
 * not outweigh the rest of the question. Synonyms thus add recall without counting a concept twice.
 */
export function scoreCandidate({
  candidate,
  idf,
  averageTokens,
  groups = [],
  termLexemes,
}: {
  candidate: CandidateTerms;
  idf: Map<string, number>;
  averageTokens: number;
  groups?: LexemeGroup[];
  /** The lexemes of the query's own terms (default: every lexeme of `idf` no group names). */
  termLexemes?: ReadonlySet<string>;
}): number {
  const lengthNorm = 1 - BM25_B + BM25_B * (averageTokens > 0 ? candidate.tokens / averageTokens : 1);
  const held = new Map(candidate.lexemes.map((l) => [l.lexeme, l.weights]));
  const contribution = (lexeme: string, fields?: string): number => {
    const weight = idf.get(lexeme);
    const weights = held.get(lexeme);
    if (weight === undefined || weights === undefined) return 0;
    let tf = 0;
    for (const w of weights) if (!fields || fields.includes(w)) tf += FIELD_WEIGHTS[w] ?? 1;
    return tf === 0 ? 0 : (weight * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * lengthNorm);
  };
  const own = new Set(groups.flatMap((g) => g.own));
  const named = new Set(groups.flatMap((g) => [...g.own, ...g.alternatives.flat(), ...g.headings.flat()]));
  // A lexeme only another name holds counts through its group, never on its own.
  const alone = (lexeme: string) => !own.has(lexeme) && (termLexemes ? termLexemes.has(lexeme) : !named.has(lexeme));
  let score = 0;
  for (const { lexeme } of candidate.lexemes) if (alone(lexeme)) score += contribution(lexeme);
  for (const group of groups) {
    const words = [...new Set(group.own)];
    const ceiling = words.reduce((sum, l) => sum + (idf.get(l) ?? 0) * (BM25_K1 + 1), 0);
    const whole = (lexemes: string[], fields?: string) =>
      lexemes.length > 0 && lexemes.every((l) => contribution(l, fields) > 0) ? Math.min(ceiling, lexemes.reduce((sum, l) => sum + contribution(l, fields), 0)) : 0;
    score += Math.max(
      words.reduce((sum, l) => sum + contribution(l), 0),
      ...group.alternatives.map((a) => whole(a)),
      ...group.headings.map((h) => whole(h, "C")),
    );
  }
  return score;
}

/**
 * The query terms a record matches: a term matches when the record holds every lexeme of it (both
 * "insulin" and "resist" for "insulin resistance"). Terms without lexemes (stop words) never match.
 */
export function matchTerms({ termLexemes, recordLexemes }: { termLexemes: Map<string, string[]>; recordLexemes: Set<string> }): string[] {
  const matched: string[] = [];
  for (const [term, lexemes] of termLexemes) {
    if (lexemes.length > 0 && lexemes.every((l) => recordLexemes.has(l))) matched.push(term);
  }
  return matched;
}

/**
 * The inclusive year bounds of a query: the library knows publication years, not days, so a record
 * counts as inside when its year is within the years of dateFrom and dateTo.
 */
export function yearBounds(query: Pick<SourceQuery, "dateFrom" | "dateTo">): { from: number | null; to: number | null } {
  const yearOf = (date: string | undefined) => {
    const match = date ? /^(\d{4})/.exec(date) : null;
    return match ? Number(match[1]) : null;
  };
  return { from: yearOf(query.dateFrom), to: yearOf(query.dateTo) };
}

/**
 * Pseudo-relevance feedback (RM3: Lavrenko and Croft's relevance model, as Anserini runs it beside
 * BM25): the library's best records for a question lend it their words. A person's "low-sugar
 * spells" finds a record on hypoglycaemia; the records ranked first beside it use that word too,
 * and through it the one that never says "sugar" is found. The FEEDBACK_RECORDS best first-pass
 * records lend; words in more than FEEDBACK_MAX_SHARE of the library are not lent.
 */
export const FEEDBACK_RECORDS = 5;
/** Lent words at most: the heaviest in the relevance model. */
export const FEEDBACK_TERMS = 10;
/**
 * The lent words together weigh this share of the question's own: RM3's original-query weight 0.5,
 * Anserini's default (0.3 was tried first: lay questions' recall@10 rose less; PubMedQA's own
 * questions keep their record first either way, recall@1 0.992 against BM25's 0.972).
 */
export const FEEDBACK_WEIGHT = 0.5;
/** A word in more than this share of the library says nothing of a topic ("patient", "studi"); a word two records share is always lent (what links them in a small library). */
export const FEEDBACK_MAX_SHARE = 0.1;

/** One lexeme of one feedback record (its index in `top`): how often it occurs there, and how many records of the library hold it. */
export type FeedbackRow = { record: number; lexeme: string; tf: number; records: number };

/**
 * The relevance model over the best first-pass records: each lexeme weighs the share of each record
 * it makes up, that record weighted by its share of their scores. The FEEDBACK_TERMS heaviest not
 * in `exclude` (the question's own) are kept, their weights scaled to FEEDBACK_WEIGHT of
 * `queryWeight` (the question's own terms count 1 each) and multiplied by their idf, as BM25 weighs
 * a query term: the map scoreCandidate takes as `idf` for the lent words.
 */
export function relevanceModel({
  top,
  rows,
  exclude,
  libraryRecords,
  queryWeight,
}: {
  top: { score: number; tokens: number }[];
  rows: FeedbackRow[];
  exclude: ReadonlySet<string>;
  libraryRecords: number;
  queryWeight: number;
}): Map<string, number> {
  const total = top.reduce((a, t) => a + Math.max(0, t.score), 0);
  if (total <= 0 || queryWeight <= 0) return new Map();
  const model = new Map<string, number>();
  const holding = new Map<string, number>();
  for (const row of rows) {
    const record = top[row.record];
    if (!record || exclude.has(row.lexeme)) continue;
    model.set(row.lexeme, (model.get(row.lexeme) ?? 0) + (Math.max(0, record.score) / total) * (row.tf / Math.max(1, record.tokens)));
    holding.set(row.lexeme, row.records);
  }
  const chosen = [...model].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_TERMS);
  const mass = chosen.reduce((a, [, w]) => a + w, 0);
  if (mass <= 0) return new Map();
  return new Map(
    chosen.map(([lexeme, w]) => [lexeme, ((queryWeight * FEEDBACK_WEIGHT * w) / mass) * inverseDocumentFrequency({ records: libraryRecords, holding: holding.get(lexeme)! })]),
  );
}
