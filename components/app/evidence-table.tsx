"use client";

import type { EvidenceRow } from "@/lib/web/evidence-rows";
import {
  confidenceWords,
  DESIGN_WORDS,
  DIRECTION_WORDS,
  readableConfidenceReason,
  rejectionWords,
  relevanceFlagWords,
  ROLE_WORDS,
  sampleSizeWords,
  speciesWords,
  STANCE_WORDS,
  VERIFICATION_WORDS,
} from "@/lib/web/evidence-words";
import { referenceLinks, type ReferenceLink } from "@/lib/web/reference-links";
import styles from "./evidence-table.module.css";

/** A grade as a chip whose tooltip says what it means (and why this reference got it, when known). */
function Grade({ label, meaning, why, className }: { label: string; meaning: string; why?: string | undefined; className?: string | undefined }) {
  return (
    <span className={`${styles.grade} ${className ?? ""}`} title={why ? `${meaning}\nHere: ${why}` : meaning}>
      {label}
    </span>
  );
}

/** Who was studied: "1,200 older adults (humans)", "mice", or nothing stated. */
function Population({ row }: { row: EvidenceRow }) {
  const population = row.snapshot?.population ?? null;
  const species = speciesWords(row.snapshot?.species);
  if (!population && !species) return <span className="muted">not stated</span>;
  const showSpecies = species && (!population || !population.toLowerCase().includes(species.replace(/s$/, "")));
  return (
    <>
      {population ?? species}
      {population && showSpecies ? <span className="muted"> ({species})</span> : null}
    </>
  );
}

/** "Study: metformin — the finding sentence", the study at a glance under its title. */
function StudyLine({ row }: { row: EvidenceRow }) {
  const snapshot = row.snapshot;
  if (!snapshot || (!snapshot.intervention && !snapshot.finding)) return null;
  return (
    <div className={styles.study} data-testid="study-snapshot">
      Study: {snapshot.intervention ? <strong>{snapshot.intervention}</strong> : null}
      {snapshot.intervention && snapshot.finding ? " — " : null}
      {snapshot.finding ? <q>{snapshot.finding}</q> : null}
    </div>
  );
}

/**
 * What a study found, said once: its finding on the question (the stance) when it states one, with
 * what it found overall in the tooltip, since "Mixed" beside "Supports the claim" reads as a
 * contradiction though both are true (mixed results overall, for the claim on the question). A
 * study that states no finding on the question shows what it found overall instead.
 */
function Finding({ row }: { row: EvidenceRow }) {
  const direction = row.snapshot ? DIRECTION_WORDS[row.snapshot.direction] : null;
  const stance = row.stance ? STANCE_WORDS[row.stance] : null;
  if (stance && row.stance !== "unclear") {
    const overall = direction && row.snapshot?.direction !== "unclear" ? `What the study found overall: ${direction.label.toLowerCase()} (${direction.meaning})` : undefined;
    return <Grade label={stance.label} meaning={stance.meaning} why={overall} className={styles[`stance-${row.stance}`]} />;
  }
  if (!direction) return stance ? <Grade label={stance.label} meaning={stance.meaning} className={styles[`stance-${row.stance}`]} /> : <span className="muted">–</span>;
  return (
    <>
      <Grade label={direction.label} meaning={direction.meaning} className={styles[`direction-${row.snapshot?.direction}`]} />
      {stance ? (
        <div className={styles.second}>
          <Grade label={stance.label} meaning={stance.meaning} className={styles[`stance-${row.stance}`]} />
        </div>
      ) : null}
    </>
  );
}

/** Where to read a reference (lib/web/reference-links.ts): outside links in a new tab, this gateway's record page in place. */
export function ReferenceLinkList({ links, className }: { links: ReferenceLink[]; className?: string }) {
  if (links.length === 0) return null;
  return (
    <div className={className}>
      {links.map((l) => (
        <a key={l.href} href={l.href} target={l.kind === "record" ? undefined : "_blank"} rel={l.kind === "record" ? undefined : "noopener noreferrer"}>
          {l.text}
        </a>
      ))}
    </div>
  );
}

/** A literature reference's relevance checks: accepted or not (score and matched terms in the tooltip), its flags, why not. */
function RelevanceChecks({ row }: { row: EvidenceRow }) {
  const why = [
    row.relevanceScore !== undefined ? `relevance ${row.relevanceScore.toFixed(2)}` : null,
    row.matchedTerms && row.matchedTerms.length > 0 ? `matched ${row.matchedTerms.join(", ")}` : null,
  ].filter(Boolean);
  return (
    <>
      <Grade
        label={row.accepted ? "Accepted" : "Not accepted"}
        meaning={row.accepted ? "Passed the relevance checks: on topic, in range, not retracted." : "Did not pass the relevance checks; listed because the search asked for raw results."}
        why={why.length > 0 ? why.join("; ") : undefined}
        className={row.accepted ? styles["role-supporting"] : styles["role-lead_only"]}
      />
      {(row.flags ?? []).map((flag) => {
        const words = relevanceFlagWords(flag);
        return (
          <div key={flag} className={styles.second}>
            <Grade label={words.label} meaning={words.meaning} />
          </div>
        );
      })}
      {row.rejectionReason ? <div className={`muted ${styles.reason}`}>Not accepted: {rejectionWords(row.rejectionReason)}</div> : null}
    </>
  );
}

/**
 * The references of an answer as an evidence table: per study its design, who was studied and how
 * many, what it found (and its stance toward the question), its role in the answer, whether it
 * was verified, and how far to trust it. Each grade has a tooltip; EvidenceLegend explains them all.
 * Rows are anchored as `${scope}-ref-${N}` so an answer's [N] markers jump to them.
 */
export function EvidenceTable({ rows, scope }: { rows: EvidenceRow[]; scope: string }) {
  const literature = rows.some((r) => r.accepted !== undefined);
  return (
    <div className={styles.wrap}>
      <table className={styles.table} data-testid="references" aria-label="Evidence table">
        <thead>
          <tr>
            <th scope="col" className={styles.num}>
              #
            </th>
            <th scope="col">Reference</th>
            <th scope="col">Design</th>
            <th scope="col" className={styles.who}>
              Who
            </th>
            <th scope="col" className={styles.n}>
              <abbr title="Sample size: participants or animals (a registry's enrollment)">n</abbr>
            </th>
            <th scope="col">Finding</th>
            <th scope="col">{literature ? "Checks" : "Role"}</th>
            <th scope="col">Verification</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const design = DESIGN_WORDS[row.evidenceType] ?? DESIGN_WORDS.unknown;
            const role = row.evidenceRole ? ROLE_WORDS[row.evidenceRole] : null;
            const verification = VERIFICATION_WORDS[row.verification] ?? VERIFICATION_WORDS.unknown;
            const confidence = confidenceWords(row.confidence, row.confidenceReason);
            const links = referenceLinks(row);
            return (
              <tr key={row.ordinal} id={`${scope}-ref-${row.ordinal}`} data-testid="evidence-row" className={row.accepted === false ? styles.notAccepted : undefined}>
                <td className={styles.num} data-label="#">
                  {row.ordinal}
                </td>
                <td className={styles.reference} data-label="Reference">
                  <span className={styles.phoneNum}>{row.ordinal}. </span>
                  <span className={styles.title}>{row.title}</span>
                  {row.year || row.journal ? <span className="muted"> ({[row.journal, row.year].filter(Boolean).join(", ")})</span> : null}
                  <StudyLine row={row} />
                  {row.roleReason ? <div className={`muted ${styles.reason}`}>{row.roleReason}</div> : null}
                  <ReferenceLinkList links={links} className={styles.links} />
                </td>
                <td data-label="Design">
                  <div className={styles.value}>
                    <Grade label={design.label} meaning={design.meaning} why={row.evidenceReason} />
                  </div>
                </td>
                <td data-label="Who">
                  <div className={styles.value}>
                    <Population row={row} />
                  </div>
                </td>
                <td className={styles.n} data-label="Sample size">
                  <div className={styles.value}>
                    {sampleSizeWords(row.snapshot?.sampleSize) ?? <span className="muted">–</span>}
                  </div>
                </td>
                <td data-label="Finding">
                  <div className={styles.value}>
                    <Finding row={row} />
                  </div>
                </td>
                <td data-label={literature ? "Checks" : "Role"}>
                  <div className={styles.value}>
                    {role ? <Grade label={role.label} meaning={role.meaning} className={styles[`role-${row.evidenceRole}`]} /> : null}
                    {row.accepted !== undefined ? <RelevanceChecks row={row} /> : null}
                  </div>
                </td>
                <td data-label="Verification">
                  <div className={styles.value}>
                    <Grade label={verification.label} meaning={verification.meaning} why={row.verificationReason} className={styles[`verification-${row.verification}`]} />
                    <div className={styles.confidence}>
                      <Grade label={`confidence ${confidence.label}`} meaning={confidence.meaning} />
                  </div>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** What every grade in the table means: design, finding and stance, role, verification, confidence. */
export function EvidenceLegend() {
  const section = (title: string, entries: { label: string; meaning: string }[]) => (
    <div className={styles.legendGroup}>
      <h5>{title}</h5>
      <dl>
        {entries.map((e) => (
          <div key={e.label}>
            <dt>{e.label}</dt>
            <dd>{e.meaning}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
  return (
    <details className={styles.legend} data-testid="evidence-legend">
      <summary>What the grades mean</summary>
      {section("Design", Object.values(DESIGN_WORDS))}
      {section("Finding: what the study itself found", Object.values(DIRECTION_WORDS))}
      {section("Stance: what that finding says about your question", Object.values(STANCE_WORDS))}
      {section("Role in the answer", Object.values(ROLE_WORDS))}
      {section("Verification", Object.values(VERIFICATION_WORDS))}
      {section("Confidence", [{ label: "confidence N%", meaning: readableConfidenceReason(confidenceWords(0).meaning) }])}
    </details>
  );
}
