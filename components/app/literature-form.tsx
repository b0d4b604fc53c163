"use client";

import { useState } from "react";
import { MAX_QUESTION_CHARS } from "@/lib/shared/contracts/limits";
import { codePoints, FIELD_IDS } from "@/lib/web/literature-request";
import { WHAT_IT_BUYS } from "@/lib/web/what-it-buys";
import { PriceNote } from "./context";
import { LiteratureDateOptions } from "./literature-date-options";
import { errorProps, FieldError, literatureFields, type LiteratureFormState } from "./literature-fields";
import styles from "./literature-panel.module.css";
import { LiteratureDepthOptions, LiteraturePrivacyOptions, LiteratureReferenceOptions, LiteratureScopeOptions } from "./literature-search-options";
import { LiteratureTagOptions } from "./literature-tag-options";

/**
 * The literature search form: the question and every option that changes the search. Only the
 * request fields that have an effect are offered (docs/literature.md, agent/literature/engine.ts):
 * `sources`, `perSourceLimit`, `allowSourceExpansion` and `sourceProfile` are accepted by the
 * service but ignored, so they are not shown.
 */
export function LiteratureForm({ busy, sealed, onSubmit, ...state }: LiteratureFormState & { busy: boolean; sealed: boolean; onSubmit: () => void }) {
  const [advanced, setAdvanced] = useState(false);
  const { form, errors } = state;
  const fields = literatureFields(state);
  const over = codePoints(form.question) - MAX_QUESTION_CHARS;

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
          fields.update("question", e.target.value);
          fields.clearError("question");
        }}
        rows={3}
        placeholder="Does rapamycin extend lifespan in mice?"
        required
        aria-required
        {...errorProps(errors, "question")}
      />
      <p className={`${styles.counter} ${over > 0 ? styles.over : ""}`} data-testid="question-count">
        {codePoints(form.question).toLocaleString("en")} / {MAX_QUESTION_CHARS.toLocaleString("en")} characters{over > 0 ? ` — ${over.toLocaleString("en")} too many` : ""}
      </p>
      <FieldError errors={errors} field="question" />

      {/* On a phone the options fold away behind "Advanced options" (they take a screen and a half); on wider screens they are always shown. */}
      <button type="button" className={`link-button ${styles.advancedToggle}`} aria-expanded={advanced} aria-controls="literature-options" onClick={() => setAdvanced(!advanced)}>
        {advanced ? "Hide the advanced options" : "Advanced options"}
      </button>
      <div id="literature-options" className={`${styles.options} ${advanced ? "" : styles.folded}`}>
        <LiteratureDepthOptions fields={fields} />
        <LiteratureScopeOptions fields={fields} />
        <LiteratureTagOptions fields={fields} />
        <LiteratureDateOptions fields={fields} />
        <LiteratureReferenceOptions fields={fields} />
        <LiteraturePrivacyOptions fields={fields} sealed={sealed} />
      </div>

      <PriceNote operation="literature" buys={WHAT_IT_BUYS.literature} />
      <button type="submit" disabled={busy}>
        {busy ? "Searching…" : "Pay and search"}
      </button>
    </form>
  );
}
