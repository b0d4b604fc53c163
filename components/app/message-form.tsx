"use client";

import { useId } from "react";
import type { PaidOperation } from "@/lib/shared/operations";
import { messageCount } from "@/lib/web/message-request";
import { PriceNote } from "./context";
import styles from "./message-form.module.css";

/**
 * The question box of chat and deep research: the text as typed (never cut: a message over the
 * contract's limit is said under the box), what was wrong with the last try, the price, the button.
 */
export function MessageForm({
  id,
  label,
  value,
  onChange,
  error,
  placeholder,
  operation,
  buys,
  submitLabel,
  busy,
  busyLabel,
  onSubmit,
  children,
  afterButton,
  boxRef,
  describedBy,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  placeholder: string;
  operation: PaidOperation["id"];
  buys: string;
  submitLabel: string;
  busy: boolean;
  busyLabel: string;
  onSubmit: () => void;
  children?: React.ReactNode;
  /** Shown under the button (the chat's example questions): after it, so the box's Tab leads to the button. */
  afterButton?: React.ReactNode;
  /** The text box, for a caller that moves focus to it. */
  boxRef?: React.Ref<HTMLTextAreaElement>;
  /** An id of what else describes the box (what the next question follows up on). */
  describedBy?: string;
}) {
  const countId = useId();
  const errorId = useId();
  const count = messageCount(value);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        ref={boxRef}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={3}
        placeholder={placeholder}
        aria-describedby={[describedBy, countId, error ? errorId : null].filter(Boolean).join(" ")}
        aria-invalid={error || count.over ? true : undefined}
      />
      <p id={countId} className={`muted small ${styles.count} ${count.over ? styles.over : ""}`} data-testid="message-count">
        {count.text}
      </p>
      {error ? (
        <p id={errorId} className={styles.error} role="alert" data-testid="message-error">
          {error}
        </p>
      ) : null}
      <PriceNote operation={operation} buys={buys} />
      <button type="submit" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
      {afterButton}
    </form>
  );
}
