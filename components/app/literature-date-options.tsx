"use client";

import { FIELD_IDS } from "@/lib/web/literature-request";
import { errorProps, FieldError, type LiteratureFields } from "./literature-fields";
import styles from "./literature-panel.module.css";

const DATE_FILTERS = [
  ["any", "Any time"],
  ["years", "Publication years"],
  ["dates", "Date range"],
] as const;

type RangeBound = "yearFrom" | "yearTo" | "dateFrom" | "dateTo";

/** One bound of a year or date range: its label, its input, its error; a change clears both bounds' errors. */
function Bound({ fields, field, label, pair, input }: { fields: LiteratureFields; field: RangeBound; label: string; pair: [RangeBound, RangeBound]; input: React.InputHTMLAttributes<HTMLInputElement> }) {
  const { form, errors, update, clearError } = fields;
  return (
    <div>
      <label htmlFor={FIELD_IDS[field]}>{label}</label>
      <input
        id={FIELD_IDS[field]}
        {...input}
        value={form[field]}
        onChange={(e) => {
          update(field, e.target.value);
          clearError(...pair);
        }}
        {...errorProps(errors, field)}
      />
      <FieldError errors={errors} field={field} />
    </div>
  );
}

/** Publication dates: any time, a range of years, or a range of dates. */
export function LiteratureDateOptions({ fields }: { fields: LiteratureFields }) {
  const { form, update, clearError } = fields;
  const year = { type: "number", inputMode: "numeric", min: 1800, max: 9999 } as const;
  return (
    <fieldset className={styles.group}>
      <legend>Publication dates</legend>
      {DATE_FILTERS.map(([value, text]) => (
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
          <Bound fields={fields} field="yearFrom" label="First year" pair={["yearFrom", "yearTo"]} input={{ ...year, placeholder: "2015" }} />
          <Bound fields={fields} field="yearTo" label="Last year" pair={["yearFrom", "yearTo"]} input={{ ...year, placeholder: "this year" }} />
        </div>
      ) : null}
      {form.dateFilter === "dates" ? (
        <div className={styles.pair}>
          <Bound fields={fields} field="dateFrom" label="From" pair={["dateFrom", "dateTo"]} input={{ type: "date" }} />
          <Bound fields={fields} field="dateTo" label="To" pair={["dateFrom", "dateTo"]} input={{ type: "date" }} />
        </div>
      ) : null}
      {form.dateFilter !== "any" ? <p className={styles.hint}>An undated record fails a date filter; one known only by its year is judged by the year.</p> : null}
    </fieldset>
  );
}
