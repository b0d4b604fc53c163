import type { EngineStep, EvidenceType, LiteratureQueryRequest, SourceFailureKind, StudySnapshot } from "@/lib/shared/contracts";
import { PRIMARY_DESIGNS } from "@/lib/shared/contracts/designs";
import { DEFAULT_MAX_RESULTS, isWideSearch, plannedSources as planSources } from "@/lib/shared/contracts/sources";
import { describeSourceFailures } from "@/lib/shared/contracts/source-words";
import { composeAnswer, type Citable } from "./answer";
import { classifyEvidence } from "./evidence";
import { extractSnapshot } from "./snapshot";
import { roleInputOf } from "./role-input";
import { mergeRecords } from "./merge";
import { sourceNames, type LiteratureRecord, type SourceName } from "./record";
import { assertReached } from "./reach";
import { readQuestion, type QuestionReading } from "./reading";
import { judgedOnTopic, judgeRecords, type Judged } from "./relevance";
import type { EngineReference, EngineResult } from "./result";
import { addressesEveryPart, decideRole, type RoleDecision } from "./roles";
import { failedSourcesOf, failureKindOf } from "./source-health";
import type { LiteratureSource, SourceQuery } from "./sources/types";
import { extractTerms, searchTerms, sourceExpansions, type QueryTerm } from "./terms";
import { readTopic, topicPlace, type Topic } from "./topic";
import { scoreConfidence, verifyRecord, type RegistryCheck } from "./verification";
import { listed as listWords } from "./words";

/**
 * The literature engine: question → query plan → federated search over the sources of the mode
 * and scope (each failing on its own) → one record shape, duplicates merged → relevance with
 * matched terms, flags and rejection reasons → evidence type, verification, confidence → an
 * extractive answer whose every [N] is an accepted reference → the EngineResult (result.ts), which
 * a literature job turns into the LiteratureJobResult of 2.11.
 */

export type EngineDeps = {
  /** The sources this agent may use (LITERATURE_SOURCES), by name. */
  sources: Partial<Record<SourceName, LiteratureSource>>;
  /** Crossref check of a DOI: does it resolve, with which title, is it retracted. */
  checkDoi?: (doi: string, signal?: AbortSignal) => Promise<{ found: boolean; title?: string | null; retracted?: boolean }>;
  /** bioRxiv/medRxiv: the journal DOI of a preprint, if published. */
  publishedVersion?: (doi: string, signal?: AbortSignal) => Promise<string | null>;
  progress?: (step: EngineStep, percent: number) => Promise<void>;
  signal?: AbortSignal;
  /** Keep each reference's abstract on it (chat writes from them; the literature result omits them). */
  includeAbstracts?: boolean;
  /**
   * Fail with NoSourceAnsweredError (agent/literature/reach.ts) rather than answer when every
   * source asked failed and nothing was found (paid chat and literature: nothing to charge for).
   */
  requireReach?: boolean;
};


type Plan = {
  sources: SourceName[];
  variants: string[][];
  perSource: number;
  maxResults: number;
  verifyTop: number;
  /** The boolean form each source sends (SourceQuery.breadth); absent: `auto`. */
  breadth: Partial<Record<SourceName, NonNullable<SourceQuery["breadth"]>>>;
};

export async function runLiteratureSearch(request: LiteratureQueryRequest, deps: EngineDeps): Promise<EngineResult> {
  const reasoning: string[] = [];
  const progress = deps.progress ?? (async () => undefined);
  const wide = isWideSearch(request);
  const tags = request.tags ?? [];
  const tagMode = tags.length > 0 ? (request.tagMode ?? "fanout") : undefined;
  // The question is read on its own: tags narrow what answers it and are never part of its claim.
  const reading = readQuestion(request.question);
  const questionTerms = reading.terms;
  const focus = focusOf({ reading, tags });
  const { dateFrom, dateTo } = dateRange(request);
  const plan = planSearch(request, deps, questionTerms);
  reasoning.push(
    `Query terms: ${questionTerms.map((t) => t.term).join(", ") || "(none)"}; mode ${request.mode}${request.scope ? `, scope ${request.scope}` : ""}${dateFrom || dateTo ? `, dates ${dateFrom ?? "…"} to ${dateTo ?? "…"}` : ""}.`,
  );
  if (focus.topics.length > 0) {
    reasoning.push(
      `Tags (${tagMode}): a record counts for ${listWords(focus.topics.map((t) => `“${t.label}”`), tagMode === "fanout" ? "or" : "and")} when its title, MeSH terms or aim names it, not a mention in passing${focus.ownQuestion ? ", and only when it also answers the question" : ""}.`,
    );
  }
  await progress("searching", 10);

  // Fanout searches each tag on its own (with the question's words when the question has its own
  // subject: a tag narrows it); combined, the question and every tag in one search.
  const searches: { tag: string | null; terms: QueryTerm[] }[] =
    tagMode === "fanout"
      ? focus.tagTerms.map((terms, k) => ({ tag: tags[k]!, terms: focus.ownQuestion ? joinTerms(questionTerms, terms) : terms }))
      : [{ tag: null, terms: tagMode === "combined" && focus.ownQuestion ? joinTerms(questionTerms, ...focus.tagTerms) : tagMode === "combined" ? joinTerms(...focus.tagTerms) : questionTerms }];
  const used = new Set<SourceName>();
  const failed = new Map<SourceName, SourceFailureKind>();
  const found: { tag: string | null; records: LiteratureRecord[] }[] = [];
  for (const search of searches) {
    const variants = search.terms === questionTerms ? plan.variants : focus.ownQuestion ? plan.variants.map((v) => [...new Set([...v, ...searchTerms(search.terms)])]) : [searchTerms(search.terms)];
    const expansions = sourceExpansions(search.terms, variants[0] ?? []);
    const text = search.tag === null ? [request.question, ...(tagMode === "combined" && focus.ownQuestion ? tags : [])].join(" ") : focus.ownQuestion ? `${request.question} ${search.tag}` : search.tag;
    const records = await searchSources({ deps, plan, variants, expansions, text, scope: request.scope, dateFrom, dateTo, used, failed, reasoning });
    found.push({ tag: search.tag, records });
  }
  for (const [source, why] of failed) reasoning.push(`${source} failed (${why}); its results are missing, the others stand.`);
  const failedSources = failedSourcesOf(failed, used);
  if (deps.requireReach) assertReached({ failedSources, used, recordCount: found.reduce((n, f) => n + f.records.length, 0) });
  await progress("filtering", 55);

  const merged = mergeRecords(found.flatMap((f) => f.records));
  const rawCount = merged.length;
  reasoning.push(`Merged ${found.reduce((n, f) => n + f.records.length, 0)} records into ${rawCount} by identifier (DOI, PMID, PMCID, NCT, library id) and by title.`);

  // Relevance against the question; a tag is judged on whether it is the record's subject
  // (topic.ts), within the question's topic when the question has one of its own.
  const filters = { dateFrom, dateTo, scope: request.scope };
  const byQuestion = focus.ownQuestion || focus.topics.length === 0 ? judgeRecords(merged, questionTerms, filters) : null;
  // A tag narrows the question: what is kept must answer it, so it addresses every part of the
  // question where it states what it studied (a dog trial of rapamycin and heart function whose
  // background recalls that rapamycin extends lifespan in mice does not answer "does rapamycin
  // extend lifespan?"), not only name its words somewhere.
  const onQuestion = (i: number) => byQuestion === null || (!byQuestion[i]!.flags.includes("off_topic") && addressesEveryPart(reading, byQuestion[i]!));
  const byTopic = focus.topics.map((topic, k) => {
    const onTag = judgeRecords(merged, focus.tagTerms[k]!, filters);
    const judged = merged.map((record, i) => {
      const base = byQuestion?.[i] ?? onTag[i]!;
      return judgedOnTopic({ ...base, matchedTerms: [...new Set([...base.matchedTerms, ...onTag[i]!.matchedTerms])] }, onQuestion(i) && topicPlace(record, topic) !== null);
    });
    return { judged, matched: onTag.map((j) => j.matchedTerms) };
  });
  let judged: Judged[];
  if (focus.topics.length === 0) judged = byQuestion!;
  else if (tagMode === "fanout") judged = merged.map((_, i) => bestJudgement(byTopic.map((t) => t.judged[i]!)));
  else {
    // Combined: scored on the question, or on every tag's words together when it is only its tags.
    const scored = byQuestion ?? judgeRecords(merged, joinTerms(...focus.tagTerms), filters);
    judged = merged.map((_, i) => judgedOnTopic(scored[i]!, byTopic.every((t) => !t.judged[i]!.flags.includes("off_topic"))));
  }
  const checks = await applyRegistryChecks(judged, deps, plan.verifyTop, wide);
  judged.sort((a, b) => Number(b.accepted) - Number(a.accepted) || b.score - a.score || (b.record.year ?? 0) - (a.record.year ?? 0));
  const accepted = judged.filter((j) => j.accepted).slice(0, plan.maxResults);
  const rejected = judged.filter((j) => !j.accepted);
  const aboutTags = tagMode === "combined" ? "about every tag" : "about a tag";
  const kept = focus.topics.length === 0 ? "naming the question's concepts" : focus.ownQuestion ? `answering the question, ${aboutTags}` : aboutTags;
  reasoning.push(`Kept ${accepted.length} of ${rawCount} (${kept}, not retracted, inside the filters)${rejected.length ? `; rejected ${rejected.length}` : ""}.`);
  await progress("grading", 75);

  const listed = request.filterReferences ? accepted : [...accepted, ...rejected];
  const roleOf: RoleOf = (j, known) => decideRole({ reading, reference: roleInputOf(reading, j, known) });
  const references: EngineReference[] = listed.map((j, i) => ({
    ...describeReference(j, i + 1, { withReason: false, roleOf, checks }),
    ...(deps.includeAbstracts ? { abstract: j.record.abstract } : {}),
  }));
  const citable: Citable[] = references
    .filter((r) => r.relevance?.accepted)
    .map((r) => ({ ordinal: r.id, title: r.title, url: r.url, abstract: listed[r.id - 1]!.record.abstract, year: r.year ?? null, journal: r.journal ?? null, label: r.label, evidenceType: r.evidenceType, evidenceRole: r.evidenceRole, relevance: r.relevance?.score, snapshot: r.snapshot, missingConcepts: r.relevance?.missingConcepts ?? [] }));
  const sourcesNote = describeSourceFailures({ failed: failedSources, used: [...used] });
  const composed = composeAnswer({ reading, citable, sourcesNote });
  const { answer, formattedAnswer, contextPassages } = composed;
  for (const r of references) if (composed.stances.has(r.id)) r.stance = composed.stances.get(r.id);
  await progress("answering", 90);

  const rejectionReasons: Record<string, number> = {};
  for (const j of rejected) rejectionReasons[j.reason!] = (rejectionReasons[j.reason!] ?? 0) + 1;
  const confidences = references.filter((r) => r.relevance?.accepted).map((r) => r.confidence).sort((a, b) => a - b);
  const medianConfidence = confidences.length ? confidences[Math.floor(confidences.length / 2)]! : 0;
  const primary = references.filter((r) => r.relevance?.accepted && PRIMARY_DESIGNS.includes(r.evidenceType)).length;

  const result: EngineResult = {
    answer,
    formattedAnswer,
    references,
    ...(request.includeRejected
      ? { rejectedReferences: rejected.map((j, i) => ({ ...describeReference(j, i + 1, { withReason: true, roleOf, checks }), ...(deps.includeAbstracts ? { abstract: j.record.abstract } : {}) })) }
      : {}),
    contextPassages: contextPassages.map((p) => ({ ...p })),
    reasoning,
    quality: {
      filtered: request.filterReferences,
      rawCount,
      acceptedCount: accepted.length,
      rejectedCount: rejected.length,
      // Documented rules (docs/literature.md): few or weak references make a low-confidence answer;
      // thin evidence means fewer than three accepted references or none of primary evidence.
      lowConfidence: accepted.length === 0 || medianConfidence < 0.5,
      evidenceThin: accepted.length < 3 || primary === 0,
      rejectionReasons,
    },
    retrievalBackend: [...used].every((s) => s === "local") && used.size > 0 ? "local-library" : "federated",
    fallbackUsed: failed.size > 0,
    verdict: composed.verdict,
    verdictBasis: composed.verdictBasis,
    bottomLine: composed.bottomLine,
    failedSources,
    effectiveSources: [...used],
    sourceProfile: request.sourceProfile ?? (request.mode === "deep" ? "deep-default" : "fast-default"),
    ...(tagMode ? { tagMode } : {}),
    ...(tagMode === "fanout" ? { tags, resultsByTag: coverageByTag({ tags, byTopic, references, includeRejected: request.includeRejected }) } : {}),
  };
  return result;
}

/** The sources a search of `request` asks, by its mode and scope, among `available` (lib/shared/contracts/sources.ts). */
export function plannedSources(request: Pick<LiteratureQueryRequest, "mode" | "retrievalProfile" | "scope">, available: readonly SourceName[]): SourceName[] {
  return planSources(request, available);
}

function planSearch(request: LiteratureQueryRequest, deps: EngineDeps, terms: QueryTerm[]): Plan {
  const wide = isWideSearch(request);
  const sources = plannedSources(request, sourceNames.filter((s) => deps.sources[s]));
  const base = searchTerms(terms);
  const variants: string[][] = [base];
  if (wide) {
    // More query variants per question: synonyms, and the strongest pairs on their own.
    const content = terms.filter((t) => base.includes(t.term));
    const withSynonyms = content.flatMap((t) => [t.term, ...t.synonyms.slice(0, 2)]);
    if (withSynonyms.length > base.length) variants.push(withSynonyms);
    for (let i = 0; i + 1 < Math.min(content.length, request.retrievalProfile === "litqa-recall" ? 6 : 4); i++) variants.push([content[i]!.term, content[i + 1]!.term]);
  }
  const maxResults = request.maxResults ?? DEFAULT_MAX_RESULTS[wide ? "deep" : "fast"];
  // Fast: one round trip per source. PubMed sends the strict query and Europe PMC, which indexes
  // PubMed's records too, the broadened one ranked by relevance, rather than each sending the
  // strict query and then, when it finds too few, the broadened one: half the requests under the
  // sources' rate limits, and no second sequential search (docs/literature.md, "Chat latency").
  const split = !wide && sources.includes("pubmed") && sources.includes("europepmc");
  return {
    breadth: split ? { pubmed: "strict", europepmc: "broad" } : {},
    sources,
    variants: variants.filter((v) => v.length > 0).slice(0, request.retrievalProfile === "litqa-recall" ? 8 : wide ? 4 : 1),
    perSource: Math.max(maxResults * 2, wide ? 50 : 20),
    maxResults,
    verifyTop: wide ? 10 : 5,
  };
}

async function searchSources({
  deps,
  plan,
  variants,
  expansions,
  text,
  scope,
  dateFrom,
  dateTo,
  used,
  failed,
  reasoning,
}: {
  deps: EngineDeps;
  plan: Plan;
  variants: string[][];
  /** The vocabulary's other names for the first variant's phrases (SourceQuery.expansions). */
  expansions: NonNullable<SourceQuery["expansions"]>;
  text: string;
  scope: SourceQuery["scope"];
  dateFrom: string | undefined;
  dateTo: string | undefined;
  used: Set<SourceName>;
  failed: Map<SourceName, SourceFailureKind>;
  reasoning: string[];
}): Promise<LiteratureRecord[]> {
  const ask = async (name: SourceName, terms: string[], breadth: SourceQuery["breadth"]): Promise<{ name: SourceName; terms: string[]; records: LiteratureRecord[]; answered: boolean }> => {
    const named = expansions.filter((e) => e.terms.every((t) => terms.includes(t)));
    const query: SourceQuery = { text, terms, limit: plan.perSource, ...(named.length ? { expansions: named } : {}), ...(scope ? { scope } : {}), ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}), ...(breadth ? { breadth } : {}) };
    try {
      const records = await deps.sources[name]!.search(query, { signal: deps.signal });
      used.add(name);
      return { name, terms, records, answered: true };
    } catch (err) {
      failed.set(name, failureKindOf(err));
      return { name, terms, records: [], answered: false };
    }
  };
  const results = await Promise.all(plan.sources.flatMap((name) => variants.map((terms) => ask(name, terms, plan.breadth[name]))));
  // A source asked for the strict query alone relied on another's broadened one. When that one
  // failed, it broadens itself, as it would have on its own: a question is not left to the few
  // records a strict query found because another source was down.
  const broadened = results.filter((r) => plan.breadth[r.name] === "broad");
  if (broadened.length > 0 && broadened.every((r) => !r.answered)) {
    const broadenedBy = [...new Set(broadened.map((r) => r.name))];
    const strictOnly = results.filter((r) => plan.breadth[r.name] === "strict" && r.answered && r.records.length < plan.perSource);
    results.push(...(await Promise.all(strictOnly.map((r) => ask(r.name, r.terms, "broad")))));
    if (strictOnly.length > 0) reasoning.push(`${broadenedBy.join(", ")} failed, so ${[...new Set(strictOnly.map((r) => r.name))].join(", ")} also sent the broadened query.`);
  }
  const counts = new Map<SourceName, number>();
  for (const r of results) counts.set(r.name, (counts.get(r.name) ?? 0) + r.records.length);
  const summary = [...counts].filter(([name]) => used.has(name)).map(([name, n]) => `${name} (${n})`);
  if (summary.length) reasoning.push(`Searched ${summary.join(", ")} for "${variants.map((v) => v.join(" ")).join('" / "')}".`);
  return results.flatMap((r) => r.records);
}

/**
 * Crossref checks for the strongest candidates with a DOI: verification, and retractions found
 * there (marked on the judgement itself). Returns each checked judgement's check.
 */
async function applyRegistryChecks(judged: Judged[], deps: EngineDeps, top: number, wide: boolean): Promise<Map<Judged, RegistryCheck>> {
  const checks = new Map<Judged, RegistryCheck>();
  const candidates = judged
    .filter((j) => j.accepted && j.record.ids.doi && verifyRecord(j.record).level !== "verified")
    .sort((a, b) => b.score - a.score)
    .slice(0, top);
  await Promise.all(
    candidates.map(async (j) => {
      if (!deps.checkDoi) return;
      try {
        const work = await deps.checkDoi(j.record.ids.doi!, deps.signal);
        if (!work.found) return checks.set(j, { doi: "missing" });
        if (work.retracted) {
          j.record = { ...j.record, isRetracted: true };
          j.accepted = false;
          j.reason = "retracted";
          if (!j.flags.includes("retracted")) j.flags.push("retracted");
        }
        checks.set(j, { doi: titlesMatch(work.title, j.record.title) ? "match" : "mismatch" });
      } catch {
        checks.set(j, { doi: "failed" }); // fail closed: unknown, never upward
      }
    }),
  );
  if (wide && deps.publishedVersion) {
    await Promise.all(
      judged
        .filter((j) => j.accepted && j.record.isPreprint && j.record.ids.doi)
        .slice(0, top)
        .map(async (j) => {
          const published = await deps.publishedVersion!(j.record.ids.doi!, deps.signal).catch(() => null);
          if (published) j.record = { ...j.record, publishedDoi: published };
        }),
    );
  }
  return checks;
}

/** A record's evidence role, decided from its design and snapshot (computed once, in describeReference). */
type RoleOf = (j: Judged, study: { evidenceType: EvidenceType; species: StudySnapshot["species"] }) => RoleDecision;

function describeReference(j: Judged, ordinal: number, { withReason, roleOf, checks }: { withReason: boolean; roleOf: RoleOf; checks: Map<Judged, RegistryCheck> }): EngineReference {
  const r = j.record;
  const evidence = classifyEvidence(r);
  const snapshot = extractSnapshot(r, evidence.type);
  const role = roleOf(j, { evidenceType: evidence.type, species: snapshot.species });
  const verification = verifyRecord(r, checks.get(j));
  const confidence = scoreConfidence({ record: r, evidenceType: evidence.type, verification: verification.level, relevance: j.score, animalOnly: j.flags.includes("animal_only") });
  return {
    id: ordinal,
    title: r.title,
    url: r.url,
    source: r.source,
    sources: r.sources,
    year: r.year,
    item_date: r.date,
    journal: r.journal,
    authors: r.authors,
    volume: r.volume ?? null,
    issue: r.issue ?? null,
    pages: r.pages ?? null,
    doi: r.ids.doi ?? null,
    pmid: r.ids.pmid ?? null,
    pmcid: r.ids.pmcid ?? null,
    nct: r.ids.nct ?? null,
    label: r.ids.pmid ? `PMID ${r.ids.pmid}` : r.ids.doi ? `doi:${r.ids.doi}` : r.ids.nct ? r.ids.nct : r.ids.ppr ? r.ids.ppr : "local library",
    isPreprint: r.isPreprint,
    isRetracted: r.isRetracted,
    ...(r.publishedDoi ? { publishedDoi: r.publishedDoi } : {}),
    titleDerived: r.titleDerived ?? false,
    evidenceType: evidence.type,
    evidenceReason: evidence.reason,
    snapshot,
    verification: verification.level,
    verificationReason: verification.reason,
    confidence: confidence.confidence,
    confidenceReason: confidence.reason,
    evidenceRole: role.role,
    roleReason: role.reason,
    relevance: {
      accepted: j.accepted,
      score: j.score,
      matchedTerms: j.matchedTerms,
      flags: j.flags,
      ...(withReason ? { reason: j.reason } : {}),
      ...(j.missingConcepts.length > 0 ? { missingConcepts: j.missingConcepts } : {}),
      partCoverage: j.partCoverage,
      partsAddressed: j.partsAddressed,
    },
  };
}

/** The best of one record's judgements against several tags: accepted if any accepts it. */
function bestJudgement(judgements: Judged[]): Judged {
  const accepted = judgements.filter((j) => j.accepted);
  const pool = accepted.length > 0 ? accepted : judgements;
  const best = pool.reduce((a, b) => (b.score > a.score ? b : a));
  return {
    ...best,
    matchedTerms: [...new Set(pool.flatMap((j) => j.matchedTerms))],
    flags: accepted.length > 0 ? best.flags.filter((f) => f !== "off_topic") : best.flags,
  };
}

function coverageByTag({
  tags,
  byTopic,
  references,
  includeRejected,
}: {
  tags: string[];
  /** Each tag's judgement of every record, and the tag's words each record holds. */
  byTopic: { judged: Judged[]; matched: string[][] }[];
  references: EngineReference[];
  includeRejected: boolean;
}): NonNullable<EngineResult["resultsByTag"]> {
  const out: NonNullable<EngineResult["resultsByTag"]> = {};
  const refFor = (j: Judged) => references.find((r) => r.title === j.record.title && r.url === j.record.url);
  tags.forEach((tag, k) => {
    const { judged, matched } = byTopic[k]!;
    // Covered only by accepted references whose own text holds the tag: source-grounded.
    const acceptedFor = judged.map((j, i) => ({ j, words: matched[i]! })).filter(({ j, words }) => j.accepted && words.length > 0);
    const rejectedFor = judged.map((j, i) => ({ j, words: matched[i]! })).filter(({ j, words }) => !j.accepted && words.length > 0);
    out[tag] = {
      tag,
      covered: acceptedFor.length > 0,
      acceptedCount: acceptedFor.length,
      rejectedCount: rejectedFor.length,
      matchedTerms: [...new Set(acceptedFor.flatMap(({ words }) => words))],
      acceptedReferences: acceptedFor.map(({ j }) => ({ id: refFor(j)?.id ?? null, title: j.record.title, url: j.record.url, score: j.score })),
      rejectedReferences: includeRejected ? rejectedFor.map(({ j }) => ({ title: j.record.title, url: j.record.url, reason: j.reason })) : null,
    };
  });
  return out;
}

/**
 * The tags of a search, each read as a topic (topic.ts). `ownQuestion`: the question has a subject
 * of its own beside the tags ("Does rapamycin extend lifespan?" with the tag "aging"), which every
 * reference must answer; a question that is only its tags ("aging" with the tag "aging") has none.
 */
function focusOf({ reading, tags }: { reading: QuestionReading; tags: string[] }): { topics: Topic[]; tagTerms: QueryTerm[][]; ownQuestion: boolean } {
  if (tags.length === 0) return { topics: [], tagTerms: [], ownQuestion: true };
  const tagTerms = tags.map((tag) => extractTerms(tag));
  const tagStems = new Set(tagTerms.flat().flatMap((t) => t.own ?? t.stems));
  const own = reading.concepts.some((c) => c.terms.some((t) => !(t.own ?? t.stems).some((s) => tagStems.has(s))));
  return { topics: tags.map(readTopic), tagTerms, ownQuestion: own };
}

/** Terms of several searches as one, each word once. */
function joinTerms(...lists: QueryTerm[][]): QueryTerm[] {
  const seen = new Set<string>();
  return lists.flat().filter((t) => !seen.has(t.term) && seen.add(t.term));
}

function dateRange(request: LiteratureQueryRequest): { dateFrom?: string; dateTo?: string } {
  let dateFrom = request.date_from;
  let dateTo = request.date_to;
  if (request.year) {
    const [from, to] = request.year.split("-");
    dateFrom ??= `${from}-01-01`;
    dateTo ??= `${to ?? from}-12-31`;
  }
  return { ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}) };
}

function titlesMatch(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const norm = (s: string) => s.toLowerCase().replace(/<[^>]+>/g, "").replace(/[^a-z0-9]+/g, " ").trim();
  const x = norm(a);
  const y = norm(b);
  return x === y || (x.length > 20 && (x.includes(y) || y.includes(x)));
}
