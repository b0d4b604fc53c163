"use client";

import styles from "./answer-parts.module.css";

/**
 * Which question an answer answers, and which turn of the research thread it is: two answers in a
 * row ("insufficient", say) never look the same. `turn` is null outside a thread (the sample).
 */
export function AnswerHeading({ question, turn, label }: { question: string; turn: number | null; label?: string }) {
  return (
    <header className={styles.heading} data-testid="answer-heading">
      {turn !== null ? (
        <p className={styles.turn} data-testid="answer-turn">
          Question {turn} of this thread
        </p>
      ) : label ? (
        <p className={styles.turn}>{label}</p>
      ) : null}
      <p className={styles.question} data-testid="answer-question">
        {question}
      </p>
    </header>
  );
}

/** What may help when nothing found tests the question, said before anyone pays again (lib/web/what-would-help.ts). */
export function WhatWouldHelp({ hints }: { hints: string[] }) {
  if (hints.length === 0) return null;
  return (
    <div className={styles.help} data-testid="what-would-help">
      <p>Nothing found tests this question. Before asking again (each question is paid), what may help:</p>
      <ul>
        {hints.map((hint) => (
          <li key={hint}>{hint}</li>
        ))}
      </ul>
    </div>
  );
}
