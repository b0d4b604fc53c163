"use client";

import { useId, useState } from "react";
import type { LiteratureJobResult, LiteratureReference, LiteratureResultsByTagEntry } from "@/lib/contracts";
import { describeSourceFailures, failureWords, sourceTitle } from "@/lib/contracts/source-words";
import { AnswerText, evidenceTypeLabel, safeHref, Warnings } from "./answer-view";
import styles from "./literature-panel.module.css";

/**
 * A completed literature search as the reader sees it: warnings, the cited answer, per-tag
 * coverage, the references with their grading, the rejected candidates, the sources used.
 */
/** Reading fields the contract does not type (extra reference fields, rejected items). */
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : []);
const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

const sourceName = sourceTitle;

const REASON_LABELS: Record<string, string> = {
  retracted: "retracted",
  out_of_date_range: "outside the dates",
  preprint_excluded: "preprint (excluded)",
  not_a_trial: "not a trial",
  off_topic: "off topic (relevance below 0.4)",
};
const FLAG_LABELS: Record<string, string> = {
  retracted: "retracted",
  preprint: "preprint",
  no_abstract: "no abstract",
  animal_only: "animal only",
  trial: "trial",
  derived_title: "title derived",
  off_topic: "off topic",
};
const words = (s: string) => s.replace(/_/g, " ");
const reasonLabel = (s: string) => REASON_LABELS[s] ?? words(s);
const flagLabel = (s: string) => FLAG_LABELS[s] ?? words(s);

/** The [N] of a reference, when its id is one (the answer's markers use it). */
function ordinalOf(id: unknown): number | null {
  const n = typeof id === "number" ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}
const anchorOf = (ordinal: number) => `literature-ref-${ordinal}`;

/** Where to read a reference: PubMed by PMID, the DOI (and the journal version of a preprint), its own URL. */
function referenceLinks(ref: Record<string, unknown>): { href: string; text: string }[] {
  const out: { href: string; text: string }[] = [];
  const pmid = text(ref.pmid);
  if (pmid && /^\d+$/.test(pmid)) out.push({ href: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`, text: `PubMed ${pmid}` });
  const doiLink = (doi: string | null, label: string) => {
    if (!doi || !/^10\.\d+\/\S+$/.test(doi)) return;
    const href = safeHref(`https://doi.org/${doi.split("/").map(encodeURIComponent).join("/")}`);
    if (href) out.push({ href, text: label });
  };
  const doi = text(ref.doi);
  doiLink(doi, `DOI ${doi}`);
  const published = text(ref.publishedDoi);
  if (published !== doi) doiLink(published, "Published version");
  const own = safeHref(text(ref.url));
  if (own && !out.some((l) => l.href === own)) out.push({ href: own, text: ref.source === "clinicaltrials" ? "Trial record" : "Source record" });
  return out;
}

function LinkRow({ links }: { links: { href: string; text: string }[] }) {
  if (links.length === 0) return null;
  return (
    <div className={styles.links}>
      {links.map((l) => (
        <a key={l.href} href={l.href} target="_blank" rel="noopener noreferrer">
          {l.text}
        </a>
      ))}
    </div>
  );
}

/** One reference: title as text, date, where from, score, terms, flags, design, verification, links. */
function ReferenceItem({ reference, raw }: { reference: LiteratureReference; raw: boolean }) {
  const ref = reference as Record<string, unknown>;
  const ordinal = ordinalOf(reference.id);
  const relevance = reference.relevance;
  const accepted = relevance?.accepted ?? true;
  const when = reference.item_date ?? (reference.year != null ? String(reference.year) : null);
  const sources = texts(ref.sources);
  const from = [text(ref.journal), sources.length > 0 ? sources.map(sourceName).join(", ") : reference.source ? sourceName(reference.source) : null, text(ref.label)].filter(Boolean);
  const evidenceType = text(ref.evidenceType);
  const verification = text(ref.verification);
  const confidence = num(ref.confidence);
  const why = [text(ref.evidenceReason), text(ref.verificationReason), text(ref.confidenceReason)].filter(Boolean);
  return (
    <li
      className={accepted ? styles.item : `${styles.item} ${styles.below}`}
      id={ordinal ? anchorOf(ordinal) : undefined}
      value={ordinal ?? undefined}
      data-testid="literature-result"
    >
      <span className={styles.title}>{reference.title}</span>
      {when ? <span className="muted"> ({when})</span> : null}
      {from.length > 0 ? <div className={styles.detail}>{from.join(" · ")}</div> : null}
      <div className={styles.meta}>
        {raw || !accepted ? <span className={`chip ${accepted ? styles.accepted : styles.notAccepted}`}>{accepted ? "accepted" : "not accepted"}</span> : null}
        {relevance ? <span className="chip">relevance {relevance.score.toFixed(2)}</span> : null}
        {evidenceType ? <span className="chip">{evidenceTypeLabel(evidenceType)}</span> : null}
        {verification ? <span className={`chip verification-${verification}`}>{verification}</span> : null}
        {confidence !== null ? <span className="chip">confidence {Math.round(confidence * 100)}%</span> : null}
        {(relevance?.flags ?? []).map((f) => (
          <span key={f} className={`chip ${styles.flag}`}>
            {flagLabel(f)}
          </span>
        ))}
      </div>
      {relevance && relevance.matchedTerms.length > 0 ? <div className={styles.detail}>Matched terms: {relevance.matchedTerms.join(", ")}</div> : null}
      {relevance?.reason ? <div className={styles.detail}>Rejected: {reasonLabel(relevance.reason)}</div> : null}
      {why.length > 0 ? <div className={styles.detail}>{why.join("; ")}</div> : null}
      <LinkRow links={referenceLinks(ref)} />
    </li>
  );
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
                  {[reason ? `Rejected: ${reasonLabel(reason)}` : null, score !== null ? `relevance ${score.toFixed(2)}` : null, terms.length > 0 ? `matched: ${terms.join(", ")}` : null]
                    .filter(Boolean)
                    .join(" · ")}
                </div>
                <LinkRow links={referenceLinks(item)} />
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
        {result.retrievalBackend ? <span className="muted small"> ({result.retrievalBackend === "local-library" ? "local library only" : result.retrievalBackend})</span> : null}
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

/** A completed search: warnings, the cited answer, per-tag coverage, references, sources. */
export function LiteratureResults({ result }: { result: LiteratureJobResult }) {
  const references = result.references ?? [];
  const rejected = (result.rejectedReferences ?? []).map(record);
  const quality = result.quality;
  const raw = quality ? !quality.filtered : references.some((r) => r.relevance && !r.relevance.accepted);
  // Markers link only to accepted references present in the list (every [N] is one, by design).
  const ordinals = new Set(references.filter((r) => r.relevance?.accepted ?? true).flatMap((r) => ordinalOf(r.id) ?? []));
  const coverage = result.resultsByTag ? Object.values(result.resultsByTag) : [];
  const reasons = quality ? Object.entries(quality.rejectionReasons).filter(([, n]) => n > 0) : [];
  const warnings: string[] = [];
  if (quality?.lowConfidence) warnings.push("Low confidence: nothing was accepted, or the accepted references are weak (median confidence below 50%).");
  if (quality?.evidenceThin) warnings.push("Thin evidence: fewer than three accepted references, or none is primary evidence (a trial, an observational study or a systematic review).");
  const uncovered = coverage.filter((c) => !c.covered).map((c) => c.tag);
  if (uncovered.length > 0) warnings.push(`No accepted evidence for: ${uncovered.join(", ")}.`);

  return (
    <div className={styles.results} data-testid="literature-results">
      <Warnings warnings={warnings} />

      {quality ? (
        <p className={styles.summary}>
          {quality.acceptedCount} accepted of {quality.rawCount} candidate{quality.rawCount === 1 ? "" : "s"} (duplicates merged)
          {quality.rejectedCount > 0 ? `; ${quality.rejectedCount} rejected${reasons.length > 0 ? `: ${reasons.map(([r, n]) => `${reasonLabel(r)} ${n}`).join(", ")}` : ""}` : ""}
          {raw ? ". Raw list: every candidate, accepted first." : "."}
        </p>
      ) : null}

      {result.answer || result.formattedAnswer ? <h4>Answer</h4> : null}
      {result.answer ? <AnswerText answer={result.answer} scope="literature" ordinals={ordinals} /> : null}
      {result.formattedAnswer ? (
        <details className={styles.formatted} open={!result.answer}>
          <summary>The answer with its source list, as plain text</summary>
          <pre>{result.formattedAnswer}</pre>
        </details>
      ) : null}

      {coverage.length > 0 ? <TagCoverage entries={coverage} ordinals={ordinals} /> : null}
      {result.tagMode === "combined" ? <p className="muted small">The tags were searched together with the question (combined), so there is no coverage per tag.</p> : null}

      <h4>References</h4>
      {references.length > 0 ? (
        <ol className={styles.list}>
          {references.map((reference, i) => (
            <ReferenceItem key={`${String(reference.id)}-${i}`} reference={reference} raw={raw} />
          ))}
        </ol>
      ) : (
        <p className="muted">No reference passed the relevance checks.</p>
      )}
      <RejectedList items={rejected} />

      <SourcesUsed result={result} />
    </div>
  );
}
