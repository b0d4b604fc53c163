"use client";

import type { DeepResearchStatus } from "@/lib/shared/contracts";
import type { WorldAxis, WorldFinding, WorldFindingReference, WorldState } from "@/lib/shared/contracts/world-state";
import type { ReadConversation } from "@/lib/web/read-results";
import { AnswerView, safeHref } from "./answer-view";
import styles from "./deep-research-panel.module.css";

/**
 * A deep-research conversation as the reader sees it: the timeline of turns (objective, status,
 * cited reply) and the world state (axes, findings with their references, contradictions,
 * hypotheses, open questions, sources), read with the contract's schemas (lib/web/read-results.ts).
 */
type ReadTurn = ReadConversation["turns"][number];

export const TERMINAL: ReadonlySet<DeepResearchStatus> = new Set(["completed", "failed", "cancelled", "timeout"]);

export const STATUS_LABELS: Record<DeepResearchStatus, string> = {
  queued: "Queued",
  running: "Running",
  cancelling: "Cancelling",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  timeout: "Timed out",
};

export function ConversationView({ conversation }: { conversation: ReadConversation }) {
  const turns = conversation.turns ?? [];
  const finishedUnpaid = turns.some((t) => t.status === "completed" && t.reply === undefined);
  return (
    <>
      {turns.length > 0 ? <Timeline turns={turns} activeMessageId={conversation.activeMessageId} /> : null}
      {conversation.worldState ? (
        <WorldStateView world={conversation.worldState} />
      ) : finishedUnpaid ? (
        <p className="muted small">The findings are shown once every finished turn&apos;s payment has settled.</p>
      ) : null}
    </>
  );
}

/** What a turn's status means for the reader (and for their money). */
function turnNote(turn: ReadTurn): string | null {
  switch (turn.status) {
    case "completed":
      return turn.reply === undefined ? "Finished: the reply is released once the payment has settled." : null;
    case "queued":
      return "Waiting for a research worker.";
    case "running":
      return "Researching: the reply comes when every round is done.";
    case "cancelling":
      return "Being cancelled.";
    case "failed":
      return "This turn failed; nothing was charged for it.";
    case "cancelled":
      return "This turn was cancelled; nothing was charged for it.";
    case "timeout":
      return "The payment authorization expired before this turn finished; nothing was charged for it.";
  }
}

function Timeline({ turns, activeMessageId }: { turns: ReadTurn[]; activeMessageId?: string | undefined }) {
  return (
    <ol className={styles.turns} data-testid="research-turns" aria-label="Turns of this conversation">
      {turns.map((turn, i) => {
        const note = turnNote(turn);
        return (
          <li key={turn.messageId} className={styles.turn} data-testid="research-turn" data-status={turn.status}>
            <h4 className={styles.turnHeading}>
              <span className="muted">Turn {i + 1}:</span> {turn.objective || "(no objective recorded)"}
            </h4>
            <div className={styles.turnMeta}>
              <span className={`chip ${styles[`status_${turn.status}`] ?? ""}`}>{STATUS_LABELS[turn.status]}</span>
              {turn.messageId === activeMessageId && !TERMINAL.has(turn.status) ? <span className="chip">in progress</span> : null}
            </div>
            {note ? <p className="muted small">{note}</p> : null}
            {turn.reply !== undefined ? <AnswerView answer={turn.reply} references={turn.citations} scope={`research-${turn.messageId}`} /> : null}
          </li>
        );
      })}
    </ol>
  );
}

type World = WorldState;
type Finding = WorldFinding;

/** Evidence axes in the order the agent plans them (agent/deep-research/axes.ts); a world state names its own labels. */
const AXIS_ORDER = ["human_trials", "observational", "animal", "mechanism", "safety", "dose_timing"];
const AXIS_STATUS: Record<string, string> = { covered: "searched", not_covered: "not searched (budget)", not_applicable: "not applicable" };
const SPECIES: Record<string, string> = { mouse: "mice", rat: "rats", nonhuman_primate: "monkeys", dog: "dogs", fish: "fish", fly: "flies", worm: "worms", yeast: "yeast", cells: "cells", human: "people", other_mammal: "other mammals" };
const axisLabel = (a: WorldAxis) => a.label ?? a.axis.replace(/_/g, " ");

/** Findings by evidence axis, in the agent's order; findings of a world state written before axes go last, under "Findings". */
function groupFindings(world: World): { key: string; label: string; findings: Finding[] }[] {
  const labelOf = (axis: string) => { const found = world.axes.find((a) => a.axis === axis); return found ? axisLabel(found) : axis.replace(/_/g, " "); };
  const keys = [...new Set(world.findings.map((f) => f.axis ?? ""))].sort((a, b) => rank(a) - rank(b));
  return keys.map((key) => ({ key, label: key ? labelOf(key) : "Findings", findings: world.findings.filter((f) => (f.axis ?? "") === key) }));
}

function rank(axis: string): number {
  const i = AXIS_ORDER.indexOf(axis);
  return i < 0 ? AXIS_ORDER.length : i;
}

/** Where to read a finding's reference: its own http(s) URL, PubMed, the DOI. */
function findingLinks(ref: WorldFindingReference): { href: string; text: string }[] {
  const out: { href: string; text: string }[] = [];
  const own = safeHref(ref.url);
  if (own) out.push({ href: own, text: "Source" });
  if (ref.pmid) out.push({ href: `https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(ref.pmid)}/`, text: `PubMed ${ref.pmid}` });
  if (ref.doi) out.push({ href: `https://doi.org/${encodeURI(ref.doi)}`, text: `DOI ${ref.doi}` });
  return out.filter((l, i) => out.findIndex((o) => o.href === l.href) === i);
}

function WorldStateView({ world }: { world: WorldState }) {
  return (
    <section className={styles.world} data-testid="world-state" aria-labelledby="world-state-heading">
      <h4 id="world-state-heading">World state: what the research has found</h4>
      <h5>Objectives</h5>
      <TextList items={world.objectives} ordered empty="No objective recorded yet." />
      {world.axes.length > 0 ? (
        <>
          <h5>Evidence axes</h5>
          <ul className={styles.list} data-testid="world-axes">
            {[...world.axes].sort((a, b) => rank(a.axis) - rank(b.axis)).map((a) => (
              <li key={a.axis}>
                <span className={styles.refTitle}>{axisLabel(a)}</span> <span className="chip">{AXIS_STATUS[a.status] ?? a.status}</span>{" "}
                <span className="muted small">
                  {a.findings} finding{a.findings === 1 ? "" : "s"}
                  {a.queries.length > 0 ? ` · searched “${a.queries.join("”, “")}”` : ""}
                </span>
                {a.summary ? <p className={styles.statement}>{a.summary}</p> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h5>Findings</h5>
      {world.findings.length === 0 ? (
        <p className="muted small">No finding recorded yet.</p>
      ) : (
        groupFindings(world).map((group) => (
          <section key={group.key || "findings"} aria-label={group.label}>
            {group.key ? <h6 className={styles.axisHeading}>{group.label}</h6> : null}
            <ul className={styles.findings}>
              {group.findings.map((f, i) => (
                <li key={i}>
                  <p className={styles.statement}>
                    {f.axis === "animal" && f.species && SPECIES[f.species] ? <span className="chip">{SPECIES[f.species]}</span> : null} {f.statement}
                  </p>
                  {f.references.length > 0 ? (
                    <ul className={styles.findingRefs} aria-label="References of this finding">
                      {f.references.map((r, j) => (
                        <li key={j}>
                          <span className={styles.refTitle}>{r.title}</span>{" "}
                          {findingLinks(r).map((l) => (
                            <a key={l.href} href={l.href} target="_blank" rel="noopener noreferrer" className={styles.refLink}>
                              {l.text}
                            </a>
                          ))}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
      {world.contradictions.length > 0 ? (
        <>
          <h5>Contradictions</h5>
          <TextList items={world.contradictions.map((c) => c.statement)} empty="" />
        </>
      ) : null}
      <h5>Hypotheses</h5>
      <TextList items={world.hypotheses} empty="No hypothesis yet." />
      <h5>Open questions</h5>
      <TextList items={world.openQuestions} empty="No open question recorded." />
      <h5>Sources searched</h5>
      {world.sources.length === 0 ? (
        <p className="muted small">None recorded.</p>
      ) : (
        <p>
          {world.sources.map((s) => (
            <span key={s} className="chip">
              {s}
            </span>
          ))}
        </p>
      )}
    </section>
  );
}

function TextList({ items, ordered = false, empty }: { items: string[]; ordered?: boolean; empty: string }) {
  if (items.length === 0) return <p className="muted small">{empty}</p>;
  const children = items.map((item, i) => <li key={i}>{item}</li>);
  return ordered ? <ol className={styles.list}>{children}</ol> : <ul className={styles.list}>{children}</ul>;
}
