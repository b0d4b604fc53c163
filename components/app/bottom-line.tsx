"use client";

import type { EvidenceRole, StudySnapshot, Verdict, VerdictBasis } from "@/lib/contracts/evidence";
import { describeBasis, describeOrigins, VERDICT_CONFIDENCE_WORDS, VERDICT_WORDS, verdictLabel } from "@/lib/web/evidence-words";
import styles from "./bottom-line.module.css";

/**
 * The answer's bottom line before its text: the verdict in words (with what it means), how it was
 * reached when the service said (verdictBasis), and where the evidence comes from: human, animal
 * or cell studies, read from the on-topic references' study snapshots.
 */
export function BottomLine({
  verdict,
  basis,
  references,
}: {
  verdict: Verdict;
  basis?: VerdictBasis | null | undefined;
  references: { evidenceRole?: EvidenceRole | undefined; snapshot?: StudySnapshot | undefined }[];
}) {
  const words = VERDICT_WORDS[verdict];
  const confidence = basis?.confidence;
  const confidenceWords = confidence ? VERDICT_CONFIDENCE_WORDS[confidence] : null;
  const origins = describeOrigins(references.flatMap((r) => (r.evidenceRole ? [{ evidenceRole: r.evidenceRole, snapshot: r.snapshot }] : [])));
  // A low-confidence verdict is a muted card that only leans: it never looks like a firm one.
  const tone = confidence === "low" && verdict !== "insufficient" ? styles.low : (styles[verdict] ?? "");
  return (
    <section className={`${styles.box} ${tone}`} aria-label="Bottom line" data-testid="bottom-line" data-confidence={confidence}>
      <p className={styles.kicker}>Bottom line</p>
      <p className={styles.verdict} data-testid="verdict" title={words.meaning}>
        {verdictLabel(verdict, confidence)}
      </p>
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
      {origins ? (
        <p className={styles.detail} data-testid="evidence-origin">
          <strong>Evidence from:</strong> {origins}.
        </p>
      ) : null}
    </section>
  );
}
