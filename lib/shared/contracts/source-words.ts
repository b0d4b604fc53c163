/**
 * Literature sources and their failures in words, for answers (the agent) and pages (the web app).
 * Zod-free, so the page's first load does not carry the schemas (as lib/shared/contracts/limits.ts).
 */

const SOURCE_LABELS: Record<string, string> = {
  pubmed: "PubMed",
  europepmc: "Europe PMC",
  clinicaltrials: "ClinicalTrials.gov",
  crossref: "Crossref",
  openalex: "OpenAlex",
  biorxiv: "bioRxiv",
  medrxiv: "medRxiv",
  local: "the local library",
};

/** A source's name as people write it ("PubMed", "the local library"); unknown names as they are. */
export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source;
}

/** The same, to open a sentence or a table cell ("The local library"); a name keeps its own case ("bioRxiv"). */
export function sourceTitle(source: string): string {
  return sentenceOpening(sourceLabel(source));
}

/** Text that opens a sentence: only "the" is capitalised, names are written as they are ("bioRxiv could not be reached"). */
function sentenceOpening(text: string): string {
  return text.startsWith("the ") ? `The${text.slice(3)}` : text;
}

/** What each failure kind means, said of one source and of several ("was not asked" / "were not asked"). */
const FAILURE_WORDS: Record<string, { one: string; many: string }> = {
  timeout: { one: "did not answer in time", many: "did not answer in time" },
  unreachable: { one: "could not be reached", many: "could not be reached" },
  http_error: { one: "answered with an error", many: "answered with errors" },
  rate_limited: { one: "kept refusing requests (rate limit)", many: "kept refusing requests (rate limit)" },
  bad_response: { one: "answered something unreadable", many: "answered something unreadable" },
  circuit_open: { one: "was not asked, having failed repeatedly just before", many: "were not asked, having failed repeatedly just before" },
  internal_error: { one: "failed inside the agent", many: "failed inside the agent" },
};

/** What a failure kind means, as the predicate of a sentence whose subject is one source ("could not be reached"), or several with `many`. */
export function failureWords(kind: string, { many = false }: { many?: boolean } = {}): string {
  const words = FAILURE_WORDS[kind];
  return words ? (many ? words.many : words.one) : "failed";
}

/** "A", "A and B", "A, B and C". */
export function listInWords(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)!}`;
}

/** Sources in words, in the list's order: "PubMed, Europe PMC and the local library". */
export function sourcesInWords(sources: readonly string[]): string {
  return listInWords(byListOrder(sources).map(sourceLabel));
}

/**
 * Which sources failed and how, as a clause ("PubMed could not be reached and Europe PMC did not
 * answer in time"), sources of one kind together, in a fixed order.
 */
export function failuresInWords(failed: readonly { source: string; kind: string }[]): string {
  const byKind = new Map<string, string[]>();
  for (const source of byListOrder(failed.map((f) => f.source))) {
    const kind = failed.find((f) => f.source === source)!.kind;
    byKind.set(kind, [...(byKind.get(kind) ?? []), sourceLabel(source)]);
  }
  return listInWords([...byKind].map(([kind, sources]) => `${listInWords(sources)} ${failureWords(kind, { many: sources.length > 1 })}`));
}

/**
 * One sentence saying which sources failed and where the results come from instead, or null when
 * none failed: "PubMed could not be reached; these results come from Europe PMC and the local library."
 */
export function describeSourceFailures({ failed, used }: { failed: readonly { source: string; kind: string }[]; used: readonly string[] }): string | null {
  if (failed.length === 0) return null;
  const what = failuresInWords(failed);
  const opening = sentenceOpening(what);
  const answered = byListOrder(used.filter((s) => !failed.some((f) => f.source === s))).map(sourceLabel);
  if (answered.length === 0) return `${opening}; no source could be searched.`;
  return `${opening}; these results come from ${listInWords(answered)}${answered.length === 1 ? " alone" : ""}.`;
}

/** Sources in the order of SOURCE_LABELS (registries first, the local library last), unknown ones after. */
function byListOrder(sources: readonly string[]): string[] {
  const order = Object.keys(SOURCE_LABELS);
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
  return [...new Set(sources)].sort((a, b) => rank(a) - rank(b));
}
