/**
 * What may help when a search found nothing on topic, said before anyone pays again: other words,
 * a wider question, and for a literature search the filters it was asked with (a scope, dates)
 * widened. Pure (tests/unit/what-would-help.test.ts).
 */

/** The filters of the request that found nothing, when it had any (a literature search's). */
export type SearchedWith = { scope?: string | null | undefined; dateFrom?: string | null | undefined; dateTo?: string | null | undefined; year?: string | null | undefined };

const SCOPE_WORDS: Record<string, string> = {
  trials: "the clinical-trial registry only",
  preprints: "preprint servers only",
  "no-preprints": "everything but preprints",
};

/** The hints, most specific first: the request's own filters, then other words, then a wider question. */
export function whatWouldHelp(searched: SearchedWith = {}): string[] {
  const hints: string[] = [];
  const scope = searched.scope ? SCOPE_WORDS[searched.scope] : undefined;
  if (scope) hints.push(`A wider scope: the full index, not ${scope}.`);
  const { year, dateFrom, dateTo } = searched;
  const range = year ? `the year ${year}` : dateFrom && dateTo ? `${dateFrom} to ${dateTo}` : dateFrom ? `${dateFrom} onwards` : dateTo ? `up to ${dateTo}` : null;
  if (range) hints.push(`Wider dates: this search was limited to ${range}.`);
  hints.push("Other words: another name for the drug, the exposure or the outcome, as studies write it (a generic or chemical name, a broader outcome such as “lifespan” or “mortality”).");
  hints.push("A wider question: without its population, species or time frame, then narrow it once something is found.");
  return hints;
}
