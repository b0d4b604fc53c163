"use client";

import { useId, useState } from "react";
import type { ChatRejectedReference, GradedReference, StudySnapshot, Verdict } from "@/lib/contracts";

/** A link target only when it is http(s): text from the literature never becomes a script URL. */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** A graded reference as the page shows it: the contract's fields, and the grading when present. */
type Reference = Pick<GradedReference, "ordinal" | "title" | "url" | "source" | "year" | "doi" | "pmid" | "evidenceType" | "verification" | "confidence" | "roleReason" | "evidenceRole"> &
  Partial<Pick<GradedReference, "snapshot" | "stance">>;

const TYPE_LABELS: Record<string, string> = {
  randomized_controlled_trial: "Randomized controlled trial",
  controlled_trial: "Controlled trial",
  single_arm_trial: "Single-arm trial",
  observational: "Observational study",
  systematic_review: "Systematic review",
  narrative_review: "Narrative review",
  preclinical: "Preclinical",
  commentary: "Commentary",
  unknown: "Unknown design",
};

const VERIFICATION_LABELS: Record<string, string> = { verified: "verified", probable: "probably genuine", unknown: "not verified" };

const DIRECTION_LABELS: Record<string, string> = { positive: "effect found", negative: "harm found", null: "no effect", mixed: "mixed findings", unclear: "no clear finding" };
const STANCE_LABELS: Record<string, string> = { supports: "supports the question", contradicts: "contradicts the question", mixed: "mixed on the question", unclear: "no finding on the question" };
const VERDICT_LABELS: Record<Verdict, string> = {
  supports: "The evidence supports it",
  contradicts: "The evidence contradicts it",
  mixed: "The evidence is mixed",
  insufficient: "The evidence is insufficient",
};

const SNAPSHOT_DIRECTIONS = ["positive", "negative", "null", "mixed", "unclear"] as const;
const STANCES = ["supports", "contradicts", "mixed", "unclear"] as const;

/**
 * The grading of a reference that arrived as an open object (deep research's citations): each
 * field checked, anything malformed left out, so the page never renders what it cannot read.
 */
export function readGrading(raw: Record<string, unknown>): Partial<Pick<GradedReference, "snapshot" | "stance">> {
  const out: Partial<Pick<GradedReference, "snapshot" | "stance">> = {};
  const stance = STANCES.find((s) => s === raw.stance);
  if (stance) out.stance = stance;
  const s = raw.snapshot;
  if (typeof s === "object" && s !== null && !Array.isArray(s)) {
    const snap = s as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" && v.length <= 500 ? v : null);
    const direction = SNAPSHOT_DIRECTIONS.find((d) => d === snap.direction) ?? "unclear";
    out.snapshot = {
      design: (typeof snap.design === "string" ? snap.design : "unknown") as StudySnapshot["design"],
      species: (text(snap.species) as StudySnapshot["species"]) ?? null,
      population: text(snap.population),
      sampleSize: typeof snap.sampleSize === "number" && Number.isInteger(snap.sampleSize) && snap.sampleSize > 0 ? snap.sampleSize : null,
      intervention: text(snap.intervention),
      direction,
      finding: text(snap.finding),
    };
  }
  return out;
}

/** A study at a glance: "1,200 older adults · metformin · no effect". */
export function snapshotLine(snapshot: StudySnapshot): string {
  const who = snapshot.population ? `${snapshot.sampleSize ? `${snapshot.sampleSize.toLocaleString("en-US")} ` : ""}${snapshot.population}` : snapshot.sampleSize ? `n = ${snapshot.sampleSize.toLocaleString("en-US")}` : null;
  return [who, snapshot.intervention, DIRECTION_LABELS[snapshot.direction] ?? snapshot.direction].filter(Boolean).join(" · ");
}

/** A study design in words (shared by every panel that shows references). */
export const evidenceTypeLabel = (value: string) => TYPE_LABELS[value] ?? value.replace(/_/g, " ");
const label = evidenceTypeLabel;

/** The answer with its [N] markers as links to the numbered references below it (rendered as text). */
export function AnswerText({ answer, scope, ordinals }: { answer: string; scope: string; ordinals: Set<number> }) {
  const parts = answer.split(/(\[\d+\])/g);
  return (
    <p className="answer-text" data-testid="answer-text">
      {parts.map((part, i) => {
        const match = /^\[(\d+)\]$/.exec(part);
        if (match && ordinals.has(Number(match[1]))) {
          return (
            <a key={i} href={`#${scope}-ref-${match[1]}`} className="marker" aria-label={`Reference ${match[1]}`}>
              [{match[1]}]
            </a>
          );
        }
        return <span key={i}>{part}</span>;
      })}
    </p>
  );
}

/** Where to read a reference: PubMed, the DOI, the trial, or its own URL. */
function links(ref: Pick<Reference, "pmid" | "doi" | "url" | "source">) {
  const out: { href: string; text: string }[] = [];
  if (ref.pmid) out.push({ href: `https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(ref.pmid)}/`, text: `PubMed ${ref.pmid}` });
  if (ref.doi) out.push({ href: `https://doi.org/${encodeURI(ref.doi)}`, text: `DOI ${ref.doi}` });
  const own = safeHref(ref.url);
  if (own && !out.some((l) => l.href === own)) out.push({ href: own, text: ref.source === "clinicaltrials" ? "Trial record" : "Source" });
  return out;
}

export function ReferenceList({ references, scope }: { references: Reference[]; scope: string }) {
  return (
    <ol className="references" data-testid="references">
      {references.map((ref) => (
        <li key={ref.ordinal} id={`${scope}-ref-${ref.ordinal}`} value={ref.ordinal}>
          <span className="ref-title">{ref.title}</span>
          {ref.year ? <span className="muted"> ({ref.year})</span> : null}
          <div className="ref-meta">
            <span className="chip">{label(ref.evidenceType)}</span>
            <span className={`chip role-${ref.evidenceRole}`}>{ref.evidenceRole.replace(/_/g, " ")}</span>
            <span className={`chip verification-${ref.verification}`}>{VERIFICATION_LABELS[ref.verification] ?? ref.verification}</span>
            <span className="chip">confidence {Math.round(ref.confidence * 100)}%</span>
            {ref.stance ? <span className={`chip stance-${ref.stance}`}>{STANCE_LABELS[ref.stance] ?? ref.stance}</span> : null}
          </div>
          {ref.snapshot ? (
            <div className="small" data-testid="study-snapshot">
              Study: {snapshotLine(ref.snapshot)}
            </div>
          ) : null}
          <div className="muted small">{ref.roleReason}</div>
          <div className="ref-links">
            {links(ref).map((l) => (
              <a key={l.href} href={l.href} target="_blank" rel="noopener noreferrer">
                {l.text}
              </a>
            ))}
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Warnings a reader should see before trusting the answer. */
export function evidenceWarnings(references: Reference[]): string[] {
  const warnings: string[] = [];
  const supporting = references.filter((r) => r.evidenceRole === "supporting");
  if (references.length === 0) warnings.push("No reference passed the relevance checks: there is no cited evidence for this answer.");
  else if (supporting.length < 2) warnings.push("Thin evidence: fewer than two supporting references.");
  const human = ["randomized_controlled_trial", "controlled_trial", "single_arm_trial", "observational", "systematic_review"];
  if (references.length > 0 && !references.some((r) => human.includes(r.evidenceType))) warnings.push("No human study among the references: the evidence is preclinical or indirect.");
  const low = references.filter((r) => r.confidence < 0.5);
  if (low.length > 0) warnings.push(`${low.length} reference${low.length === 1 ? " has" : "s have"} low confidence (below 50%).`);
  return warnings;
}

export function Rejected({ rejected }: { rejected: Pick<ChatRejectedReference, "candidateOrdinal" | "title" | "url" | "roleReason" | "evidenceRole">[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (rejected.length === 0) return null;
  return (
    <div className="rejected">
      <button type="button" className="link-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? "Hide" : "Show"} {rejected.length} rejected candidate{rejected.length === 1 ? "" : "s"}
      </button>
      {open ? (
        <ul id={id} className="muted small">
          {rejected.map((r) => (
            <li key={r.candidateOrdinal}>
              {safeHref(r.url) ? (
                <a href={safeHref(r.url)} target="_blank" rel="noopener noreferrer">
                  {r.title}
                </a>
              ) : (
                r.title
              )}{" "}
              — {r.evidenceRole.replace(/_/g, " ")}: {r.roleReason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Warnings a reader should see before trusting what follows; nothing when there are none. */
export function Warnings({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="warnings" aria-label="Evidence warnings">
      {warnings.map((w) => (
        <li key={w}>{w}</li>
      ))}
    </ul>
  );
}

/** The verdict the answer opens with, as a label a reader sees before the text. */
export function VerdictBadge({ verdict }: { verdict: Verdict | null | undefined }) {
  if (!verdict) return null;
  return (
    <p className={`chip verdict-${verdict}`} data-testid="verdict">
      {VERDICT_LABELS[verdict] ?? verdict}
    </p>
  );
}

/** A whole cited answer: warnings, the verdict, the text with linked markers, references, rejected candidates. */
export function AnswerView({
  answer,
  references,
  rejected = [],
  scope,
  verdict,
}: {
  answer: string;
  references: Reference[];
  rejected?: Parameters<typeof Rejected>[0]["rejected"];
  scope: string;
  verdict?: Verdict | null;
}) {
  return (
    <div className="answer" data-testid="answer">
      <Warnings warnings={evidenceWarnings(references)} />
      <VerdictBadge verdict={verdict} />
      <AnswerText answer={answer} scope={scope} ordinals={new Set(references.map((r) => r.ordinal))} />
      {references.length > 0 ? <h4>References</h4> : null}
      <ReferenceList references={references} scope={scope} />
      <Rejected rejected={rejected} />
    </div>
  );
}
