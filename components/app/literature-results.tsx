"use client";

import { useId, useState } from "react";
import type { LiteratureJobResult, LiteratureResultsByTagEntry } from "@/lib/shared/contracts";
import { describeSourceFailures, failureWords, sourceTitle } from "@/lib/shared/contracts/source-words";
import { rowFromLiterature } from "@/lib/web/evidence-rows";
import { lowConfidenceWarning, plural, rejectionWords } from "@/lib/web/evidence-words";
import { plainText } from "@/lib/web/export-references";
import { referenceLinks, type LinkableReference } from "@/lib/web/reference-links";
import { AnswerTools } from "./answer-tools";
import { AnswerHeading, WhatWouldHelp } from "./answer-parts";
import { AnswerText, Warnings, withoutBottomLine } from "./answer-view";
import { BottomLine } from "./bottom-line";
import { EvidenceLegend, EvidenceTable, ReferenceLinkList } from "./evidence-table";
import styles from "./literature-panel.module.css";

/**
 * A completed literature search as the reader sees it: warnings, the bottom line, the cited
 * answer with the tools to take it away, per-tag coverage, the references as an evidence table
 * (the same one chat and deep research use), the rejected candidates, the sources used.
 */
/** Reading fields the contract does not type (rejected items). */
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : []);
const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

const sourceName = sourceTitle;

/** The [N] of a reference, when its id is one (the answer's markers use it). */
function ordinalOf(id: unknown): number | null {
  const n = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}
const anchorOf = (ordinal: number) => `literature-ref-${ordinal}`;

/** The open fields of a rejected item that links are built from, each checked. */
function linkable(item: Record<string, unknown>): LinkableReference {
  return { pmid: text(item.pmid) ?? num(item.pmid), doi: text(item.doi), nct: text(item.nct), url: text(item.url), source: text(item.source), publishedDoi: text(item.publishedDoi) };
}


/** The candidates the checks rejected (includeRejected), behind a toggle. */
function RejectedList({ items }: { items: Record<string, unknown>[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (items.length === 0) return null;
  return (
    <div>
      <button type="button" className="link-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? "Hide" : "Show"} {items.length} rejected candidate{items.length === 1 ? "" : "s"}
      </button>
      {open ? (
        <ul id={id} className={styles.list}>
          {items.map((item, i) => {
            const relevance = record(item.relevance);
            const reason = text(relevance.reason) ?? text(item.reason);
            const score = num(relevance.score) ?? num(item.score);
            const terms = texts(relevance.matchedTerms);
            const year = num(item.year);
            return (
              <li key={i} className={styles.item}>
                <span>{text(item.title) ?? "(untitled)"}</span>
                {year ? <span className="muted"> ({year})</span> : null}
                <div className={styles.detail}>
                  {[reason ? `Not accepted: ${rejectionWords(reason)}` : null, score !== null ? `relevance ${score.toFixed(2)}` : null, terms.length > 0 ? `matched: ${terms.join(", ")}` : null]
                    .filter(Boolean)
                    .join(" · ")}
                </div>
                <ReferenceLinkList links={referenceLinks(linkable(item))} className={styles.links} />
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

/** Per-tag coverage of a fanout search: covered only by accepted, source-grounded evidence. */
function TagCoverage({ entries, ordinals }: { entries: LiteratureResultsByTagEntry[]; ordinals: Set<number> }) {
  return (
    <section data-testid="tag-coverage" aria-labelledby="literature-coverage-heading">
      <h4 id="literature-coverage-heading">Coverage by tag</h4>
      <ul className={styles.coverage}>
        {entries.map((entry) => (
          <li key={entry.tag}>
            <strong>{entry.tag}</strong>:{" "}
            {entry.covered ? <span className={styles.covered}>covered</span> : <span className={styles.uncovered}>not covered</span>}
            <div className={styles.detail}>
              {entry.acceptedCount} accepted, {entry.rejectedCount} rejected
              {entry.matchedTerms.length > 0 ? ` · matched: ${entry.matchedTerms.join(", ")}` : ""}
            </div>
            {entry.acceptedReferences.length > 0 ? (
              <ul className={styles.list}>
                {entry.acceptedReferences.map((item, i) => {
                  const ordinal = ordinalOf(item.id);
                  const title = text(item.title) ?? "(untitled)";
                  return (
                    <li key={i} className="small">
                      {ordinal && ordinals.has(ordinal) ? <a href={`#${anchorOf(ordinal)}`}>[{ordinal}] {title}</a> : title}
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function SourcesUsed({ result }: { result: LiteratureJobResult }) {
  const sources = result.effectiveSources ?? [];
  const reasoning = result.reasoning ?? [];
  // Typed by the service ({source, kind}); the search log stays for people, never parsed.
  const failures = result.failedSources ?? [];
  return (
    <section data-testid="sources-used" aria-labelledby="literature-sources-heading">
      <h4 id="literature-sources-heading">Sources used</h4>
      <p className={styles.summary}>
        {result.effectiveSources == null
          ? "The service did not report which sources it used."
          : sources.length > 0
            ? sources.map((s) => (
                <span key={s} className="chip">
                  {sourceName(s)}
                </span>
              ))
            : "No source returned results."}
        {/* The backend only when it says more than the chips do ("local-library" is the local library chip alone). */}
        {result.retrievalBackend && !(result.retrievalBackend === "local-library" && sources.every((s) => s === "local")) ? (
          <span className="muted small"> ({result.retrievalBackend === "local-library" ? "local library only" : result.retrievalBackend})</span>
        ) : null}
      </p>
      {failures.length > 0 ? (
        <div className={styles.warn} data-testid="failed-sources">
          {describeSourceFailures({ failed: failures, used: sources })}
          <ul className={styles.list}>
            {failures.map((f) => (
              <li key={f.source} data-kind={f.kind}>
                {sourceName(f.source)}: {failureWords(f.kind)}
              </li>
            ))}
          </ul>
        </div>
      ) : result.fallbackUsed ? (
        <div className={styles.warn}>A source failed for part of the search, so some of its results may be missing; the others&apos; results stand.</div>
      ) : null}
      {reasoning.length > 0 ? (
        <details className={styles.log}>
          <summary>How the search ran</summary>
          <ol className={`${styles.list} small`}>
            {reasoning.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}

/**
 * A completed search: the question it answers and its turn, warnings, the bottom line (said once),
 * the cited answer, what would help when nothing tests the question, per-tag coverage, the evidence
 * table, sources.
 */
export function LiteratureResults({ result, heading = null, help = [] }: { result: LiteratureJobResult; heading?: Parameters<typeof AnswerHeading>[0] | null; help?: string[] }) {
  const references = result.references ?? [];
  const rows = references.map(rowFromLiterature);
  const rejected = (result.rejectedReferences ?? []).map(record);
  const quality = result.quality;
  const raw = quality ? !quality.filtered : rows.some((r) => r.accepted === false);
  const accepted = rows.filter((r) => r.accepted !== false);
  // Markers link only to accepted references present in the table (every [N] is one, by design).
  const ordinals = new Set(accepted.map((r) => r.ordinal));
  const coverage = result.resultsByTag ? Object.values(result.resultsByTag) : [];
  const reasons = quality ? Object.entries(quality.rejectionReasons).filter(([, n]) => n > 0) : [];
  const warnings: string[] = [];
  const low = lowConfidenceWarning({ lowConfidence: quality?.lowConfidence ?? false, acceptedConfidences: accepted.map((r) => r.confidence) });
  if (low) warnings.push(low);
  if (quality?.evidenceThin) warnings.push("Thin evidence: fewer than three accepted references, or none is primary evidence (a trial, an observational study or a systematic review).");
  const uncovered = coverage.filter((c) => !c.covered).map((c) => c.tag);
  if (uncovered.length > 0) warnings.push(`No accepted evidence for: ${uncovered.join(", ")}.`);
  // The bottom line counts where the references that test the question come from: their role is the engine's.
  const origins = rows.map((r) => ({ evidenceRole: r.evidenceRole, snapshot: r.snapshot }));
  const rest = result.verdict && result.answer ? withoutBottomLine(result.answer, result.bottomLine) : null;
  const nothingTestsIt = !accepted.some((r) => r.evidenceRole === "supporting");

  return (
    <div className={styles.results} data-testid="literature-results">
      {heading ? <AnswerHeading {...heading} /> : null}
      <Warnings warnings={warnings} />

      {result.verdict ? <BottomLine verdict={result.verdict} basis={result.verdictBasis} references={origins} statement={rest !== null ? result.bottomLine : null} /> : null}

      {quality ? (
        <p className={styles.summary}>
          {quality.acceptedCount} accepted of {plural(quality.rawCount, "candidate")} (duplicates merged)
          {quality.rejectedCount > 0 ? `; ${quality.rejectedCount} not accepted${reasons.length > 0 ? `: ${reasons.map(([r, n]) => `${rejectionWords(r)} ${n}`).join(", ")}` : ""}` : ""}
          {raw ? ". Raw list: every candidate, accepted first." : "."}
        </p>
      ) : null}

      {result.answer || result.formattedAnswer ? <h4>Answer</h4> : null}
      {result.answer && (rest === null || rest.trim()) ? <AnswerText answer={rest ?? result.answer} scope="literature" ordinals={ordinals} /> : null}
      {nothingTestsIt ? <WhatWouldHelp hints={help} /> : null}
      {result.formattedAnswer ? (
        <details className={styles.formatted} open={!result.answer}>
          <summary>The answer with its source list, as plain text</summary>
          <pre>{plainText(result.formattedAnswer)}</pre>
        </details>
      ) : null}
      {result.answer || rows.length > 0 ? <AnswerTools answer={result.answer ?? ""} references={rows} fileName="references-literature" /> : null}

      {coverage.length > 0 ? <TagCoverage entries={coverage} ordinals={ordinals} /> : null}
      {result.tagMode === "combined" ? <p className="muted small">The tags were searched together with the question (combined), so there is no coverage per tag.</p> : null}

      <h4>Evidence ({plural(rows.length, "reference")})</h4>
      {rows.length > 0 ? (
        <>
          <EvidenceTable rows={rows} scope="literature" />
          <EvidenceLegend />
        </>
      ) : (
        <p className="muted">No reference passed the relevance checks.</p>
      )}
      <RejectedList items={rejected} />

      <SourcesUsed result={result} />
    </div>
  );
}
