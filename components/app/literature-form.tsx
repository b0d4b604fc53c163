"use client";

import { useState } from "react";
import { MAX_QUESTION_CHARS, MAX_RESULTS_LIMIT, MAX_TAGS } from "@/lib/contracts/limits";
import { sourcesInWords } from "@/lib/contracts/source-words";
import { DEEP_SOURCES, DEFAULT_MAX_RESULTS, FAST_SOURCES } from "@/lib/contracts/sources";
import { addTags, codePoints, FIELD_IDS, type LiteratureErrors, type LiteratureField, type LiteratureForm as Form, type Scope } from "@/lib/web/literature-request";
import { PriceNote } from "./context";
import styles from "./literature-panel.module.css";

/**
 * The literature search form: the question and every option that changes the search. Only the
 * request fields that have an effect are offered (docs/literature.md, agent/literature/engine.ts):
 * `sources`, `perSourceLimit`, `allowSourceExpansion` and `sourceProfile` are accepted by the
 * service but ignored, so they are not shown.
 */
export function LiteratureForm({
  form,
  setForm,
  errors,
  setErrors,
  busy,
  sealed,
  onSubmit,
}: {
  form: Form;
  setForm: React.Dispatch<React.SetStateAction<Form>>;
  errors: LiteratureErrors;
  setErrors: React.Dispatch<React.SetStateAction<LiteratureErrors>>;
  busy: boolean;
  sealed: boolean;
  onSubmit: () => void;
}) {
  const [advanced, setAdvanced] = useState(false);
  const over = codePoints(form.question) - MAX_QUESTION_CHARS;
  function update<K extends keyof Form>(key: K, value: Form[K]) {
    setForm((f) => ({ ...f, [key]: value }));
  }
  function clearError(...fields: LiteratureField[]) {
    setErrors((e) => {
      if (!fields.some((f) => e[f])) return e;
      const next = { ...e };
      for (const f of fields) delete next[f];
      return next;
    });
  }

  function addDraftTags() {
    const added = addTags(form.tags, form.tagDraft);
    if (added.error) {
      setErrors((e) => ({ ...e, tags: added.error }));
      return;
    }
    clearError("tags");
    setForm((f) => ({ ...f, tags: added.tags, tagDraft: "" }));
  }

  const wide = form.mode === "deep" || form.recall;
  const hasTags = form.tags.length > 0 || form.tagDraft.trim().length > 0;
  const errorProps = (field: LiteratureField) => ({
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `${FIELD_IDS[field]}-error` : undefined,
  });
  const fieldError = (field: LiteratureField) =>
    errors[field] ? (
      <p id={`${FIELD_IDS[field]}-error`} className={styles.fieldError}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <form onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }} noValidate>
      <label htmlFor={FIELD_IDS.question}>Your question</label>
      <textarea
        id={FIELD_IDS.question}
        value={form.question}
        onChange={(e) => {
          update("question", e.target.value);
          clearError("question");
        }}
        rows={3}
        placeholder="Does rapamycin extend lifespan in mice?"
        required
        aria-required
        {...errorProps("question")}
      />
      <p className={`${styles.counter} ${over > 0 ? styles.over : ""}`} data-testid="question-count">
        {codePoints(form.question).toLocaleString("en")} / {MAX_QUESTION_CHARS.toLocaleString("en")} characters{over > 0 ? ` — ${over.toLocaleString("en")} too many` : ""}
      </p>
      {fieldError("question")}

      {/* On a phone the options fold away behind "Advanced options" (they take a screen and a half); on wider screens they are always shown. */}
      <button type="button" className={`link-button ${styles.advancedToggle}`} aria-expanded={advanced} aria-controls="literature-options" onClick={() => setAdvanced(!advanced)}>
        {advanced ? "Hide the advanced options" : "Advanced options"}
      </button>
      <div id="literature-options" className={`${styles.options} ${advanced ? "" : styles.folded}`}>
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
            {...errorProps("maxResults")}
          />
          {fieldError("maxResults")}
        </fieldset>

        <fieldset className={styles.group}>
          <legend>Tracked terms (tags)</legend>
          <label htmlFor={FIELD_IDS.tags}>Add tags</label>
          <div className={styles.tagEntry}>
            <input
              id={FIELD_IDS.tags}
              type="text"
              value={form.tagDraft}
              placeholder="e.g. rapamycin, metformin"
              autoComplete="off"
              onChange={(e) => {
                update("tagDraft", e.target.value);
                clearError("tags");
              }}
              onKeyDown={(e) => {
                // Enter adds the tag here rather than submitting (and paying for) the search.
                if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  addDraftTags();
                }
              }}
              {...errorProps("tags")}
            />
            <button type="button" onClick={addDraftTags} disabled={!form.tagDraft.trim()}>
              Add tag
            </button>
          </div>
          <p className={styles.hint}>Separate several with commas; up to {MAX_TAGS}.</p>
          {fieldError("tags")}
          {form.tags.length > 0 ? (
            <ul className={styles.tagList} aria-label="Tags">
              {form.tags.map((tag) => (
                <li key={tag} className={styles.tag}>
                  <span>{tag}</span>
                  <button type="button" aria-label={`Remove tag ${tag}`} onClick={() => update("tags", form.tags.filter((t) => t !== tag))}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <fieldset className={styles.group} disabled={!hasTags}>
            <legend>How to search the tags</legend>
            <label className={styles.choice}>
              <input type="radio" name="literature-tag-mode" value="fanout" checked={form.tagMode === "fanout"} onChange={() => update("tagMode", "fanout")} />
              <span>Each on its own (fanout), with coverage reported per tag</span>
            </label>
            <label className={styles.choice}>
              <input type="radio" name="literature-tag-mode" value="combined" checked={form.tagMode === "combined"} onChange={() => update("tagMode", "combined")} />
              <span>Combined: added to the question&apos;s terms in one search</span>
            </label>
          </fieldset>
        </fieldset>

        <fieldset className={styles.group}>
          <legend>Publication dates</legend>
          {(
            [
              ["any", "Any time"],
              ["years", "Publication years"],
              ["dates", "Date range"],
            ] as const
          ).map(([value, text]) => (
            <label key={value} className={styles.choice}>
              <input
                type="radio"
                name="literature-date-filter"
                value={value}
                checked={form.dateFilter === value}
                onChange={() => {
                  update("dateFilter", value);
                  clearError("yearFrom", "yearTo", "dateFrom", "dateTo");
                }}
              />
              <span>{text}</span>
            </label>
          ))}
          {/* Years or dates, not both: the service lets explicit dates override the years side by side, so a mix says nothing a date range cannot. */}
          {form.dateFilter === "years" ? (
            <div className={styles.pair}>
              <div>
                <label htmlFor={FIELD_IDS.yearFrom}>First year</label>
                <input
                  id={FIELD_IDS.yearFrom}
                  type="number"
                  inputMode="numeric"
                  min={1800}
                  max={9999}
                  placeholder="2015"
                  value={form.yearFrom}
                  onChange={(e) => {
                    update("yearFrom", e.target.value);
                    clearError("yearFrom", "yearTo");
                  }}
                  {...errorProps("yearFrom")}
                />
                {fieldError("yearFrom")}
              </div>
              <div>
                <label htmlFor={FIELD_IDS.yearTo}>Last year</label>
                <input
                  id={FIELD_IDS.yearTo}
                  type="number"
                  inputMode="numeric"
                  min={1800}
                  max={9999}
                  placeholder="this year"
                  value={form.yearTo}
                  onChange={(e) => {
                    update("yearTo", e.target.value);
                    clearError("yearFrom", "yearTo");
                  }}
                  {...errorProps("yearTo")}
                />
                {fieldError("yearTo")}
              </div>
            </div>
          ) : null}
          {form.dateFilter === "dates" ? (
            <div className={styles.pair}>
              <div>
                <label htmlFor={FIELD_IDS.dateFrom}>From</label>
                <input
                  id={FIELD_IDS.dateFrom}
                  type="date"
                  value={form.dateFrom}
                  onChange={(e) => {
                    update("dateFrom", e.target.value);
                    clearError("dateFrom", "dateTo");
                  }}
                  {...errorProps("dateFrom")}
                />
                {fieldError("dateFrom")}
              </div>
              <div>
                <label htmlFor={FIELD_IDS.dateTo}>To</label>
                <input
                  id={FIELD_IDS.dateTo}
                  type="date"
                  value={form.dateTo}
                  onChange={(e) => {
                    update("dateTo", e.target.value);
                    clearError("dateFrom", "dateTo");
                  }}
                  {...errorProps("dateTo")}
                />
                {fieldError("dateTo")}
              </div>
            </div>
          ) : null}
          {form.dateFilter !== "any" ? <p className={styles.hint}>An undated record fails a date filter; one known only by its year is judged by the year.</p> : null}
        </fieldset>

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
      </div>

      <PriceNote operation="literature" buys="one search: ranked, checked references with an extractive cited answer" />
      <button type="submit" disabled={busy}>
        {busy ? "Searching…" : "Pay and search"}
      </button>
    </form>
  );
}
