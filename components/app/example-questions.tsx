"use client";

import { EXAMPLE_QUESTIONS } from "@/lib/web/example-questions";
import styles from "./example-questions.module.css";

/** A few questions a longevity researcher might ask: a click writes one in the box, and asks (and pays) nothing. */
export function ExampleQuestions({ onChoose }: { onChoose: (question: string) => void }) {
  return (
    <div className={styles.examples} data-testid="example-questions">
      <p className="muted small">For example (a click writes it in the box; nothing is asked or paid):</p>
      <ul>
        {EXAMPLE_QUESTIONS.map((question) => (
          <li key={question}>
            <button type="button" className={styles.example} onClick={() => onChoose(question)}>
              {question}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
