"use client";

import type { EvidenceRole, StudySnapshot, Verdict, VerdictBasis } from "@/lib/shared/contracts/evidence";
import { describeBasis, describeOrigins, VERDICT_CONFIDENCE_WORDS, VERDICT_WORDS, verdictLabel } from "@/lib/web/evidence-words";
import { bottomLineAfterVerdict } from "@/lib/shared/contracts/bottom-line";
import styles from "./bottom-line.module.css";

/**
 * The answer's bottom line before its text, said once: the verdict in words (with what it means on
 * hover), then the answer's own bottom-line paragraph when the service gave it (`statement`, which
 * the answer's text then leaves out: answer-view.tsx), else the verdict's confidence and how it was
 * reached (verdictBasis); and where the evidence comes from: human, animal or cell studies, read
 * from the on-topic references' study snapshots.
 */
export function BottomLine({
  verdict,
  basis,
  references,
  statement,
}: {
  verdict: Verdict;
  basis?: VerdictBasis | null | undefined;
  references: { evidenceRole?: EvidenceRole | undefined; snapshot?: StudySnapshot | undefined }[];
  /** The answer's bottom-line paragraph (metadata.bottomLine), which says the confidence and why. */
  statement?: string | null | undefined;
}) {
  const words = VERDICT_WORDS[verdict];
  const confidence = basis?.confidence;
  const confidenceWords = confidence ? VERDICT_CONFIDENCE_WORDS[confidence] : null;
  const origins = describeOrigins(references.flatMap((r) => (r.evidenceRole ? [{ evidenceRole: r.evidenceRole, snapshot: r.snapshot }] : [])));
  // The heading names the verdict; the paragraph shown under it says what it adds (whose studies, why this confidence).
  const said = statement ? bottomLineAfterVerdict({ statement, verdict, confidence }) : null;
  // A low-confidence verdict is a muted card that only leans: it never looks like a firm one.
  const tone = confidence === "low" && verdict !== "insufficient" ? styles.low : (styles[verdict] ?? "");
  return (
    <section className={`${styles.box} ${tone}`} aria-label="Bottom line" data-testid="bottom-line" data-confidence={confidence}>
      <p className={styles.kicker}>Bottom line</p>
      <p className={styles.verdict} data-testid="verdict" title={words.meaning}>
        {verdictLabel(verdict, confidence)}
      </p>
      {said ? (
        <>
          {confidenceWords && verdict !== "insufficient" && !basis?.confidenceReason ? (
            <p className={styles.confidence} data-testid="verdict-confidence" title={confidenceWords.meaning}>
              {confidenceWords.label}
            </p>
          ) : null}
          <p className={styles.statement} data-testid="bottom-line-statement">
            {said}
          </p>
        </>
      ) : (
        <>
          {confidenceWords && verdict !== "insufficient" ? (
            <p className={styles.confidence} data-testid="verdict-confidence" title={confidenceWords.meaning}>
              {confidenceWords.label}
              {basis?.confidenceReason ? <span className={styles.because}>: it rests on {basis.confidenceReason}</span> : null}
            </p>
          ) : null}
          <p className={styles.meaning}>{words.meaning}</p>
          {basis ? (
            <p className={styles.detail} data-testid="verdict-basis">
              {describeBasis(basis)}
            </p>
          ) : null}
        </>
      )}
      {origins ? (
        <p className={styles.detail} data-testid="evidence-origin">
          <strong>Evidence from:</strong> {origins}.
        </p>
      ) : null}
    </section>
  );
}
