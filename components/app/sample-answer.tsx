"use client";

import type { ChatResult } from "@/lib/shared/contracts";
import { bottomLineOf } from "@/lib/web/thread";
import { AnswerView } from "./answer-view";
import styles from "./sample-answer.module.css";

/** The engine's stored answer to one question over the demo library (lib/web/sample-answer.json). */
export type Sample = { question: string; result: ChatResult };

/**
 * What an answer looks like, before anyone pays: the engine's own answer to a fixed question over
 * the demo's library, rendered as any answer is, and said to be a sample. Its studies are made up
 * (tests/fixtures/library), so nothing in it links to a real PubMed record or DOI. Open until this
 * thread has an answer of its own.
 */
export function SampleAnswer({ sample, open }: { sample: Sample; open: boolean }) {
  const { result } = sample;
  // Made-up records: their identifiers would lead to real, unrelated records.
  const unlinked = <T extends { url: string; doi?: string | null; pmid?: string | null; pmcid?: string | null }>(r: T): T => ({ ...r, url: "", doi: null, pmid: null, pmcid: null, ...("nct" in r ? { nct: null } : {}) });
  return (
    <details className={`panel ${styles.sample}`} open={open} data-testid="sample-answer">
      <summary>
        <h2 className={styles.heading}>What an answer looks like: a free sample</h2>
      </summary>
      <p className="muted small">
        A sample answer, free: what this service&apos;s engine answered to the question below over the demo&apos;s small library of made-up studies (written for
        testing), shown as it came. It shows the form of an answer, not evidence. Your own questions are searched in PubMed, Europe PMC and the local library.
      </p>
      <AnswerView
        answer={result.answer}
        references={result.references.map(unlinked)}
        rejected={result.rejectedReferences.map(unlinked)}
        verdict={result.verdict}
        verdictBasis={result.verdictBasis}
        bottomLine={bottomLineOf({ kind: "chat", result })}
        heading={{ question: sample.question, turn: null, label: "Sample answer" }}
        scope="sample"
      />
    </details>
  );
}
