"use client";

import { useState } from "react";
import type { Verdict, VerdictConfidence } from "@/lib/shared/contracts/evidence";
import { VERDICT_WORDS, verdictLabel } from "@/lib/web/evidence-words";
import { bottomLineOf, excerptOf, followTargetOf, KIND_LABELS, OPERATION_OF, searchThreads, suggestFollowUps, type FollowTarget, type FollowUp, type ThreadEntry } from "@/lib/web/thread";
import type { WebConfig } from "@/lib/web/types";
import { AnswerView } from "./answer-view";
import { FollowOnButton } from "./follow-on";
import { LiteratureResults } from "./literature-results";
import { ConversationView } from "./research-results";
import styles from "./thread.module.css";
import type { WalletHistoryState } from "./use-wallet-history";
import { WalletSignIn, WalletThreads } from "./wallet-history";

/**
 * The questions of this thread and their answers, oldest first, each with the follow-ups it
 * suggests and, on a chat answer, "Follow up on this"; a follow-up says which question it follows.
 */
export function ThreadView({
  config,
  entries,
  onFollowUp,
  onFollowOn,
  onNew,
}: {
  config: WebConfig;
  entries: ThreadEntry[];
  onFollowUp: (followUp: FollowUp) => void;
  onFollowOn: (target: FollowTarget) => void;
  onNew: () => void;
}) {
  return (
    <section aria-labelledby="thread-heading" className="panel" data-testid="thread">
      <div className={styles.header}>
        <h2 id="thread-heading">This research thread</h2>
        {entries.length > 0 ? (
          <button type="button" onClick={onNew}>
            Start a new thread
          </button>
        ) : null}
      </div>
      {entries.length === 0 ? (
        <p className="muted">Your questions and their answers gather here, with suggested next questions. They are kept in this browser, for this wallet, and, signed in with the wallet, from any browser.</p>
      ) : (
        <ol className={styles.entries}>
          {entries.map((entry, i) => (
            <ThreadItem key={entry.id} config={config} entry={entry} turn={i + 1} onFollowUp={onFollowUp} onFollowOn={onFollowOn} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ThreadItem({
  config,
  entry,
  turn,
  onFollowUp,
  onFollowOn,
}: {
  config: WebConfig;
  entry: ThreadEntry;
  /** Its place in the thread, 1 for the first question. */
  turn: number;
  onFollowUp: (followUp: FollowUp) => void;
  onFollowOn: (target: FollowTarget) => void;
}) {
  const [open, setOpen] = useState(false);
  const followUps = suggestFollowUps(entry);
  const excerpt = excerptOf(entry);
  const verdict = verdictOf(entry);
  return (
    <li className={`${styles.entry} ${entry.followsUp ? styles.followUpEntry : ""}`} data-testid="thread-entry" data-kind={entry.kind} data-status={entry.status}>
      {entry.followsUp ? (
        <p className={`muted small ${styles.followsUp}`} data-testid="follows-up">
          ↳ Follow-up to “{entry.followsUp.question}”
        </p>
      ) : null}
      <p className={styles.question}>
        <span className={styles.turn} data-testid="thread-turn">
          Question {turn}
        </span>{" "}
        <span className="chip">{KIND_LABELS[entry.kind]}</span> {entry.sealed ? <span className="chip">sealed, not kept</span> : null} <strong data-testid="thread-question">{entry.question}</strong>
      </p>
      {entry.status === "running" ? <p className="muted small">Being answered…</p> : null}
      {entry.status === "failed" ? <p className="small">No answer: {entry.failure ?? "it ended without one"}</p> : null}
      {entry.status === "done" ? (
        <>
          {verdict ? (
            <p className={styles.verdict} data-testid="thread-verdict" title={VERDICT_WORDS[verdict.verdict].meaning}>
              {verdictLabel(verdict.verdict, verdict.confidence)}
            </p>
          ) : null}
          {excerpt ? (
            <p className={styles.excerpt} data-testid="thread-excerpt">
              {excerpt}
            </p>
          ) : null}
          <details className={styles.full} onToggle={(e) => setOpen(e.currentTarget.open)}>
            <summary>The full answer with its references</summary>
            {/* Rendered when opened: the panel above already shows the latest answer in full. */}
            {open ? <FullAnswer entry={entry} /> : null}
          </details>
          <FollowOnButton target={followTargetOf(entry)} onFollowOn={onFollowOn} />
        </>
      ) : null}
      {followUps.length > 0 ? (
        <div className={styles.followUps} data-testid="follow-ups">
          <p className="muted small">Next, each a paid request of its own:</p>
          <ul>
            {followUps.map((f) => (
              <li key={`${f.kind}-${f.question}`}>
                <button type="button" className={styles.followUp} onClick={() => onFollowUp(f)} data-testid="follow-up">
                  <span>
                    {f.label}
                    {f.kind === "research" && f.question !== entry.question ? `: ${f.question}` : ""}
                  </span>
                  <span className={styles.price}>{config.prices[OPERATION_OF[f.kind]].price}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}

/** A chat or literature answer's verdict and its confidence, for the line beside the excerpt. */
function verdictOf(entry: ThreadEntry): { verdict: Verdict; confidence: VerdictConfidence | undefined } | null {
  const outcome = entry.outcome;
  if (outcome?.kind === "chat" && outcome.result.verdict) return { verdict: outcome.result.verdict, confidence: outcome.result.verdictBasis?.confidence };
  if (outcome?.kind === "literature" && outcome.result.verdict) return { verdict: outcome.result.verdict, confidence: outcome.result.verdictBasis?.confidence };
  return null;
}

function FullAnswer({ entry }: { entry: ThreadEntry }) {
  const outcome = entry.outcome;
  if (!outcome) return null;
  if (outcome.kind === "chat") {
    const r = outcome.result;
    return <AnswerView answer={r.answer} references={r.references} rejected={r.rejectedReferences} verdict={r.verdict} verdictBasis={r.verdictBasis} bottomLine={bottomLineOf(outcome)} scope={`thread-${entry.id}`} />;
  }
  if (outcome.kind === "literature") return <LiteratureResults result={outcome.result} />;
  return <ConversationView conversation={outcome.result} />;
}

/**
 * This wallet's past threads: signed in with the wallet, as the service keeps them, from any
 * browser (wallet-history.tsx); otherwise those kept in this browser. Searchable, each opened or
 * deleted in one click.
 */
export function HistoryView({
  entries,
  currentThreadId,
  onOpen,
  onDelete,
  storeError,
  wallet,
}: {
  entries: ThreadEntry[];
  currentThreadId: string | null;
  onOpen: (threadId: string) => void;
  onDelete: (threadId: string) => void;
  storeError: string | null;
  wallet: WalletHistoryState;
}) {
  const [query, setQuery] = useState("");
  const signedIn = wallet.status === "signed-in";
  const threads = searchThreads(entries.filter((e) => !e.sealed), query);
  return (
    <section aria-labelledby="research-history-heading" className="panel" data-testid="research-history">
      <h2 id="research-history-heading">{signedIn ? "Your research history (this wallet, from any browser)" : "Your research history (this wallet, in this browser)"}</h2>
      <WalletSignIn wallet={wallet} />
      {storeError && !signedIn ? <p className="small">{storeError}</p> : null}
      <label htmlFor="history-search">Search your questions and answers</label>
      <input id="history-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="e.g. rapamycin" />
      {signedIn ? (
        <WalletThreads wallet={wallet} query={query} currentThreadId={currentThreadId} />
      ) : threads.length === 0 ? (
        <p className="muted">{query ? "Nothing matches." : "Nothing yet."}</p>
      ) : (
        <ul className={styles.history}>
          {threads.map((t) => (
            <li key={t.threadId} data-testid="history-thread">
              <span className={styles.historyTitle}>{t.title}</span>{" "}
              <span className="muted small">
                {new Date(t.startedAt).toLocaleString()} · {t.entries.length} question{t.entries.length === 1 ? "" : "s"}
              </span>{" "}
              {t.threadId === currentThreadId ? (
                <span className="chip">open</span>
              ) : (
                <button type="button" className="link-button" onClick={() => onOpen(t.threadId)}>
                  Open
                </button>
              )}{" "}
              <button type="button" className="link-button" onClick={() => onDelete(t.threadId)} aria-label={`Delete the thread “${t.title}”`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
