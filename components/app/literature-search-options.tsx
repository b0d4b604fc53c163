"use client";

import { MAX_RESULTS_LIMIT } from "@/lib/shared/contracts/limits";
import { sourcesInWords } from "@/lib/shared/contracts/source-words";
import { DEEP_SOURCES, DEFAULT_MAX_RESULTS, FAST_SOURCES } from "@/lib/shared/contracts/sources";
import { FIELD_IDS, type Scope } from "@/lib/web/literature-request";
import { errorProps, FieldError, type LiteratureFields } from "./literature-fields";
import styles from "./literature-panel.module.css";

/** Depth: fast or deep sources, and favouring recall. */
export function LiteratureDepthOptions({ fields: { form, update } }: { fields: LiteratureFields }) {
  return (
    <fieldset className={styles.group}>
      <legend>Depth</legend>
      <label className={styles.choice}>
        <input type="radio" name="literature-mode" value="fast" checked={form.mode === "fast"} onChange={() => update("mode", "fast")} />
        <span>{`Fast: ${sourcesInWords(FAST_SOURCES)}; ${DEFAULT_MAX_RESULTS.fast} results by default`}</span>
      </label>
      <label className={styles.choice}>
        <input type="radio" name="literature-mode" value="deep" checked={form.mode === "deep"} onChange={() => update("mode", "deep")} />
        <span>{`Deep: adds ${sourcesInWords(DEEP_SOURCES.filter((s) => !FAST_SOURCES.includes(s)))}, more query variants; ${DEFAULT_MAX_RESULTS.deep} results by default`}</span>
      </label>
      <label className={styles.choice}>
        <input type="checkbox" checked={form.recall} onChange={(e) => update("recall", e.target.checked)} />
        <span>Favour recall: the deep sources with up to 8 query variants (retrieval profile “litqa-recall”)</span>
      </label>
    </fieldset>
  );
}

/** What to search: the scope, and how many results at most. */
export function LiteratureScopeOptions({ fields: { form, errors, update, clearError } }: { fields: LiteratureFields }) {
  const wide = form.mode === "deep" || form.recall;
  return (
    <fieldset className={styles.group}>
      <legend>What to search</legend>
      <label htmlFor="literature-scope">Scope</label>
      <select id="literature-scope" value={form.scope} onChange={(e) => update("scope", e.target.value as Scope)}>
        <option value="">Full index</option>
        <option value="preprints">Preprints only</option>
        <option value="no-preprints">Exclude preprints</option>
        <option value="trials">Clinical trials only (ClinicalTrials.gov)</option>
      </select>
      <label htmlFor={FIELD_IDS.maxResults}>Maximum results</label>
      <input
        id={FIELD_IDS.maxResults}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_RESULTS_LIMIT}
        step={1}
        value={form.maxResults}
        placeholder={`${wide ? 25 : 10} (default)`}
        onChange={(e) => {
          update("maxResults", e.target.value);
          clearError("maxResults");
        }}
        {...errorProps(errors, "maxResults")}
      />
      <FieldError errors={errors} field="maxResults" />
    </fieldset>
  );
}

/** Which references: filtered or raw, and whether the rejected ones are listed too. */
export function LiteratureReferenceOptions({ fields: { form, update } }: { fields: LiteratureFields }) {
  return (
    <fieldset className={styles.group}>
      <legend>Which references</legend>
      <label className={styles.choice}>
        <input type="radio" name="literature-filter" value="filtered" checked={form.filterReferences} onChange={() => update("filterReferences", true)} />
        <span>Filtered: only references that pass the relevance checks</span>
      </label>
      <label className={styles.choice}>
        <input type="radio" name="literature-filter" value="raw" checked={!form.filterReferences} onChange={() => update("filterReferences", false)} />
        <span>Raw: every candidate, accepted first, each with its score</span>
      </label>
      <label className={styles.choice}>
        <input type="checkbox" checked={form.includeRejected} onChange={(e) => update("includeRejected", e.target.checked)} />
        <span>Also list the rejected candidates, with the reason for each</span>
      </label>
    </fieldset>
  );
}

/** Privacy: keeping the question out of the service's logs, and what reaches the sources either way. */
export function LiteraturePrivacyOptions({ fields: { form, update }, sealed }: { fields: LiteratureFields; sealed: boolean }) {
  return (
    <fieldset className={styles.group}>
      <legend>Privacy</legend>
      <label className={styles.choice}>
        <input type="checkbox" checked={form.keepOutOfLogs} onChange={(e) => update("keepOutOfLogs", e.target.checked)} />
        <span>Keep my question out of the service&apos;s logs</span>
      </label>
      <p className={styles.hint}>
        {sealed
          ? "Private mode is on: the question and the answer are sealed; only the search queries reach the literature sources."
          : "The search queries always reach the literature sources (PubMed, Europe PMC, …)."}
      </p>
    </fieldset>
  );
}
