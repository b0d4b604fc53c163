"use client";

import { useState } from "react";
import { answerWithCitations, toBibtex, toCsv, toRis, type ExportableReference } from "@/lib/web/export-references";
import styles from "./answer-tools.module.css";

const FORMATS = {
  bibtex: { label: "BibTeX", extension: "bib", type: "application/x-bibtex", build: toBibtex },
  ris: { label: "RIS", extension: "ris", type: "application/x-research-info-systems", build: toRis },
  csv: { label: "CSV", extension: "csv", type: "text/csv", build: toCsv },
} as const;

function download({ name, type, content }: { name: string; type: string; content: string }) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([content], { type: `${type};charset=utf-8` }));
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

/**
 * Take an answer away: copy it with its numbered sources, download its references for a reference
 * manager (BibTeX, RIS) or a spreadsheet (CSV), or print it (a printable view: the page's print
 * style keeps the answer and its evidence, and drops the controls).
 */
export function AnswerTools({ answer, references, fileName }: { answer: string; references: ExportableReference[]; fileName: string }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(answerWithCitations({ answer, references, origin: location.origin }));
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <div className={`${styles.tools} no-print`} data-testid="answer-tools">
      <button type="button" className={styles.tool} onClick={() => void copy()}>
        Copy answer with sources
      </button>
      {references.length > 0 ? (
        <span className={styles.group} role="group" aria-label="Export the references">
          <span className="muted small">Export references:</span>
          {Object.entries(FORMATS).map(([key, f]) => (
            <button
              key={key}
              type="button"
              className={styles.tool}
              onClick={() => download({ name: `${fileName}.${f.extension}`, type: f.type, content: f.build(references, { origin: location.origin }) })}
            >
              {f.label}
            </button>
          ))}
        </span>
      ) : null}
      <button type="button" className={styles.tool} onClick={() => window.print()}>
        Print
      </button>
      <span className="small" role="status">
        {copied === "yes" ? "Copied, with its sources." : copied === "failed" ? "This browser did not allow copying; select the text instead." : ""}
      </span>
    </div>
  );
}
