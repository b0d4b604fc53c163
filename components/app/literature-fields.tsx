"use client";

import { FIELD_IDS, type LiteratureErrors, type LiteratureField, type LiteratureForm as Form } from "@/lib/web/literature-request";
import styles from "./literature-panel.module.css";

/** What each part of the literature form reads and changes: the form, and its errors per field. */
export type LiteratureFields = {
  form: Form;
  errors: LiteratureErrors;
  change: (patch: Partial<Form>) => void;
  update: <K extends keyof Form>(key: K, value: Form[K]) => void;
  setError: (field: LiteratureField, message: string) => void;
  clearError: (...fields: LiteratureField[]) => void;
};

/** The form and its errors per field, as the panel holds them. */
export type LiteratureFormState = {
  form: Form;
  setForm: React.Dispatch<React.SetStateAction<Form>>;
  errors: LiteratureErrors;
  setErrors: React.Dispatch<React.SetStateAction<LiteratureErrors>>;
};

/** The form's state as its parts use it. */
export function literatureFields({ form, setForm, errors, setErrors }: LiteratureFormState): LiteratureFields {
  const change = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  return {
    form,
    errors,
    change,
    update: (key, value) => change({ [key]: value }),
    setError: (field, message) => setErrors((e) => ({ ...e, [field]: message })),
    clearError: (...fields) =>
      setErrors((e) => {
        if (!fields.some((f) => e[f])) return e;
        const next = { ...e };
        for (const f of fields) delete next[f];
        return next;
      }),
  };
}

/** A field's aria-invalid and aria-describedby (its error below it), when it has an error. */
export function errorProps(errors: LiteratureErrors, field: LiteratureField) {
  return {
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `${FIELD_IDS[field]}-error` : undefined,
  };
}

/** A field's error under it, in words; nothing when it has none. */
export function FieldError({ errors, field }: { errors: LiteratureErrors; field: LiteratureField }) {
  return errors[field] ? (
    <p id={`${FIELD_IDS[field]}-error`} className={styles.fieldError}>
      {errors[field]}
    </p>
  ) : null;
}
