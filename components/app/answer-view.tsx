"use client";

import { useId, useState } from "react";
import type { ChatRejectedReference, GradedReference } from "@/lib/contracts/chat";
import type { Verdict, VerdictBasis } from "@/lib/contracts/evidence";
import { rowFromGraded } from "@/lib/web/evidence-rows";
import { plural, ROLE_WORDS } from "@/lib/web/evidence-words";
import { referenceLinks } from "@/lib/web/reference-links";
import { AnswerTools } from "./answer-tools";
import { BottomLine } from "./bottom-line";
import { EvidenceLegend, EvidenceTable } from "./evidence-table";
import { PRIMARY_DESIGNS } from "@/lib/contracts/designs";

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
                — {ROLE_WORDS[r.evidenceRole]?.label.toLowerCase() ?? r.evidenceRole.replace(/_/g, " ")}: {r.roleReason}
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

/** A whole cited answer: warnings, its bottom line, the text with linked markers, the tools to take it away, the evidence table, rejected candidates. */
export function AnswerView({
  answer,
  references,
  rejected = [],
  scope,
  verdict,
  verdictBasis,
}: {
  answer: string;
  references: Reference[];
  rejected?: Parameters<typeof Rejected>[0]["rejected"];
  scope: string;
  verdict?: Verdict | null;
  /** How the verdict was reached (ChatResult.verdictBasis), shown under it when given. */
  verdictBasis?: VerdictBasis | null;
}) {
  const rows = references.map(rowFromGraded);
  return (
    <div className="answer" data-testid="answer">
      <Warnings warnings={evidenceWarnings(references)} />
      {verdict ? <BottomLine verdict={verdict} basis={verdictBasis} references={references} /> : null}
      <AnswerText answer={answer} scope={scope} ordinals={new Set(references.map((r) => r.ordinal))} />
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
