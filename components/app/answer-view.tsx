"use client";

import { useId, useState } from "react";
import type { ChatRejectedReference, GradedReference } from "@/lib/shared/contracts/chat";
import type { Verdict, VerdictBasis } from "@/lib/shared/contracts/evidence";
import { rowFromGraded } from "@/lib/web/evidence-rows";
import { plural } from "@/lib/web/evidence-words";
import { referenceLinks } from "@/lib/web/reference-links";
import { AnswerHeading, WhatWouldHelp } from "./answer-parts";
import { AnswerTools } from "./answer-tools";
import { BottomLine } from "./bottom-line";
import { EvidenceLegend, EvidenceTable } from "./evidence-table";
import { PRIMARY_DESIGNS } from "@/lib/shared/contracts/designs";

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
  Partial<Pick<GradedReference, "snapshot" | "stance" | "evidenceReason" | "verificationReason" | "confidenceReason" | "journal" | "authors" | "volume" | "issue" | "pages" | "titleDerived">>;

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

/** Warnings a reader should see before trusting the answer. */
function evidenceWarnings(references: Reference[]): string[] {
  const warnings: string[] = [];
  const supporting = references.filter((r) => r.evidenceRole === "supporting");
  if (references.length === 0) warnings.push("No reference passed the relevance checks: there is no cited evidence for this answer.");
  else if (supporting.length < 2) warnings.push(`Thin evidence: ${supporting.length === 0 ? "no reference is" : "only one reference is"} on topic enough to count as evidence.`);
  const inHumans = (r: Reference) => (r.snapshot?.species ? r.snapshot.species === "human" : PRIMARY_DESIGNS.includes(r.evidenceType));
  if (references.length > 0 && !references.some(inHumans)) warnings.push("No human study among the references: the evidence is from animals, cells, or studies that do not say.");
  const low = references.filter((r) => r.confidence < 0.5);
  if (low.length > 0) warnings.push(`${plural(low.length, "reference")} ${low.length === 1 ? "has" : "have"} low confidence (below 50%): see "What the grades mean" under the table.`);
  return warnings;
}

/** The candidates the checks did not accept, behind a toggle, each with why. */
export function Rejected({ rejected }: { rejected: (Pick<ChatRejectedReference, "candidateOrdinal" | "title" | "url" | "roleReason" | "evidenceRole"> & Partial<Pick<ChatRejectedReference, "pmid" | "doi" | "source">>)[] }) {
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
          {rejected.map((r) => {
            const link = referenceLinks(r)[0];
            return (
              <li key={r.candidateOrdinal}>
                {link ? (
                  <a href={link.href} target={link.kind === "record" ? undefined : "_blank"} rel={link.kind === "record" ? undefined : "noopener noreferrer"}>
                    {r.title}
                  </a>
                ) : (
                  r.title
                )}{" "}
                — {r.roleReason}
              </li>
            );
          })}
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

/**
 * The answer's text without its bottom-line paragraph when the bottom-line card says it (the
 * typed `bottomLine` the answer opens with, found whole in it): said once, not twice. Null when
 * the text does not hold it (an older answer, a writer that opened otherwise): the text stays whole.
 */
export function withoutBottomLine(answer: string, bottomLine: string | null | undefined): string | null {
  if (!bottomLine || !answer.includes(bottomLine)) return null;
  return answer.replace(bottomLine, "").replace(/^\s+/, "").replace(/\n\s*\n(\s*\n)+/g, "\n\n");
}

/**
 * A whole cited answer: the question it answers and its turn, warnings, its bottom line (said
 * once), the text with linked markers, what would help when nothing tests the question, the tools
 * to take it away, the evidence table, rejected candidates.
 */
export function AnswerView({
  answer,
  references,
  rejected = [],
  scope,
  verdict,
  verdictBasis,
  bottomLine,
  heading,
  help,
}: {
  answer: string;
  references: Reference[];
  rejected?: Parameters<typeof Rejected>[0]["rejected"];
  scope: string;
  verdict?: Verdict | null;
  /** How the verdict was reached (ChatResult.verdictBasis), shown under it when given. */
  verdictBasis?: VerdictBasis | null;
  /** The paragraph the answer opens with, stating the verdict (metadata.bottomLine): shown in the card, not again in the text. */
  bottomLine?: string | null;
  /** The question it answers and its turn in the thread. */
  heading?: Parameters<typeof AnswerHeading>[0] | null;
  /** What may help when nothing found tests the question (lib/web/what-would-help.ts); shown only then. */
  help?: string[];
}) {
  const rows = references.map(rowFromGraded);
  const rest = verdict ? withoutBottomLine(answer, bottomLine) : null;
  const nothingTestsIt = !references.some((r) => r.evidenceRole === "supporting");
  return (
    <div className="answer" data-testid="answer">
      {heading ? <AnswerHeading {...heading} /> : null}
      <Warnings warnings={evidenceWarnings(references)} />
      {verdict ? <BottomLine verdict={verdict} basis={verdictBasis} references={references} statement={rest !== null ? bottomLine : null} /> : null}
      {rest === null || rest.trim() ? <AnswerText answer={rest ?? answer} scope={scope} ordinals={new Set(references.map((r) => r.ordinal))} /> : null}
      {help && nothingTestsIt ? <WhatWouldHelp hints={help} /> : null}
      <AnswerTools answer={answer} references={rows} fileName={`references-${scope}`} />
      {references.length > 0 ? (
        <>
          <h4>Evidence ({plural(references.length, "reference")})</h4>
          <EvidenceTable rows={rows} scope={scope} />
          <EvidenceLegend />
        </>
      ) : null}
      <Rejected rejected={rejected} />
    </div>
  );
}
