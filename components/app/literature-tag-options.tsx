"use client";

import { MAX_TAGS } from "@/lib/shared/contracts/limits";
import { addTags, FIELD_IDS } from "@/lib/web/literature-request";
import { errorProps, FieldError, type LiteratureFields } from "./literature-fields";
import styles from "./literature-panel.module.css";

/** Tracked terms: tags added one by one or comma-separated, and whether each is searched on its own. */
export function LiteratureTagOptions({ fields }: { fields: LiteratureFields }) {
  const { form, errors, change, update, setError, clearError } = fields;
  const hasTags = form.tags.length > 0 || form.tagDraft.trim().length > 0;

  function addDraftTags() {
    const added = addTags(form.tags, form.tagDraft);
    if (added.error) {
      setError("tags", added.error);
      return;
    }
    clearError("tags");
    change({ tags: added.tags, tagDraft: "" });
  }

  return (
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
          {...errorProps(errors, "tags")}
        />
        <button type="button" onClick={addDraftTags} disabled={!form.tagDraft.trim()}>
          Add tag
        </button>
      </div>
      <p className={styles.hint}>Separate several with commas; up to {MAX_TAGS}.</p>
      <FieldError errors={errors} field="tags" />
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
  );
}
