"use client";

import { useState } from "react";
import { buildResearchRequest } from "@/lib/web/message-request";
import { JobEndedError, usePaidJob, type StartedJob } from "@/lib/web/paid-job";
import { readCitations, readConversation, readWorldState, type ReadConversation } from "@/lib/web/read-results";
import { followStatus, freeJson, paidPost } from "@/lib/web/api-requests";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { WHAT_IT_BUYS } from "@/lib/web/what-it-buys";
import { useApp, type AskRequest } from "./context";
import styles from "./deep-research-panel.module.css";
import { JobStatus, useAskRequest, useScrollToResult } from "./job-status";
import { MessageForm } from "./message-form";
import { ConversationView, STATUS_LABELS, TERMINAL } from "./research-results";
import { startSealedJob } from "./sealed-job";
import { useSpendCheck } from "./spend-confirm";

/** A run takes about a minute: poll every 2 s (the contract's slowest pace) and give up after an hour, with a Retry. */
const POLL_MS = 2_000;
const LIMIT_MS = 60 * 60_000;
/** Consecutive failed polls tolerated during a run before the failure is shown. */
const MAX_MISSES = 4;

/** The body of a start or a continuation, as built from the box. */
type ResearchBody = { message: string; conversationId?: string };

/** A plain run being followed: its thread entry, the conversation and the paid turn. */
type ResearchHandle = { entryId: string; conversationId: string; messageId: string };

/** What a finished run brought: the conversation, and whether it was sealed (private runs cannot be continued). */
type ResearchOutcome = { conversation: ReadConversation; sealed: boolean; note: string };

/** Finished when the conversation is terminal and the paid turn, if listed, is no longer in progress. */
function isFinished(c: ReadConversation, messageId: string): boolean {
  if (!TERMINAL.has(c.status)) return false;
  if (c.status === "timeout") return true;
  const turn = c.turns.find((t) => t.messageId === messageId);
  return !turn || TERMINAL.has(turn.status);
}

function stageText(c: ReadConversation): string {
  const session = c.sessionStatus?.trim();
  if (!session || session === c.status) {
    if (c.status === "queued") return "Queued: waiting for a research worker";
    return STATUS_LABELS[c.status];
  }
  return session;
}

/** The end of a plain run: delivered, or why not, in words (never charged unless delivered). */
function ending(c: ReadConversation): string {
  switch (c.status) {
    case "completed":
      return `Delivered and paid. ${c.sessionStatus && c.sessionStatus !== "completed" ? `${c.sessionStatus}.` : ""}`.trim();
    case "timeout":
      throw new JobEndedError("The payment authorization expired before the research finished, so nothing was charged.", "Start again: you will be asked to sign a new payment.");
    case "cancelled":
      throw new JobEndedError("The research was cancelled before it finished.", "Nothing was charged. Start again when you are ready.");
    default:
      throw new JobEndedError(`The research did not finish${c.sessionStatus ? `: ${c.sessionStatus}` : ""}.`, "Nothing was charged for it. Start again.");
  }
}

/**
 * Deep research for $1.00 (or $1.00 sealed): start or continue a conversation, watch its rounds,
 * read every turn's cited reply and the world state. The payment is authorized up front and
 * settled only when the result is delivered; failed, cancelled or timed-out runs cost nothing.
 */
export function DeepResearchPanel({ ask }: { ask?: AskRequest | null }) {
  const app = useApp();
  const { getPayer, privateMode, recordPayment, markDelivered, thread } = app;
  const [message, setMessage] = useState("");
  const [inputError, setInputError] = useState<string | null>(null);
  /** The conversation on screen, as last polled (kept while a continued turn runs). */
  const [view, setView] = useState<ReadConversation | null>(null);
  /** The last plain conversation that completed: the one "Continue" adds a turn to. */
  const [continuable, setContinuable] = useState<string | null>(null);
  const [choice, setChoice] = useState<"continue" | "new">("new");
  // Private runs are single questions (their plaintext has no conversationId): no continuing there.
  const canContinue = continuable !== null && !privateMode;
  const spend = useSpendCheck();

  /** A question that got no reply for good goes back in the box (unless another is typed there). */
  const restore = (question: string) => setMessage((typed) => typed || question);
  /** A run that ended without a reply: the thread says why, and the question goes back in the box. */
  function endedWithout(entryId: string, question: string, error: Error) {
    thread.finish(entryId, { failure: error.message });
    restore(question);
  }

  const followPlain = (handle: ResearchHandle, question: string): StartedJob<ResearchHandle, ResearchOutcome> => ({
    handle,
    question,
    entryId: handle.entryId,
    sealed: false,
    firstStage: "Queued: waiting for a research worker",
    // Ended for good without a reply (failed, cancelled, expired, or forgotten by the service: 404).
    ended: (error) => endedWithout(handle.entryId, question, error),
    follow: async ({ signal, report }) => {
      let lastSeen = "";
      // A run lasts a while: a few failed polls in a row (a network blip, a redeploy) are waited out
      // on the last snapshot before the failure is shown with a Retry.
      let last: ReadConversation | null = null;
      let misses = 0;
      const read = async (): Promise<ReadConversation> => {
        try {
          last = await readConversation(await freeJson(`/api/deep-research/${encodeURIComponent(handle.conversationId)}`));
          misses = 0;
          return last;
        } catch (err) {
          const notFound = err instanceof UserFacingError && err.status === 404;
          if (last && !notFound && ++misses < MAX_MISSES) return last;
          throw err;
        }
      };
      const final = await followStatus({
        read,
        done: (c) => isFinished(c, handle.messageId),
        onUpdate: (c) => {
          if (signal.aborted) return;
          // Same snapshot as last time: no re-render while a long round runs.
          const seen = JSON.stringify(c);
          if (seen !== lastSeen) {
            lastSeen = seen;
            setView(c);
          }
          report(misses > 0 ? "The service did not answer; trying again…" : stageText(c));
        },
        intervalMs: POLL_MS,
        limitMs: LIMIT_MS,
        signal,
        // Said so: nothing is charged before the result is delivered.
        gaveUp: new UserFacingError("The research is still running after an hour.", { action: "Retry to keep watching it. Nothing is charged until the result is delivered." }),
      });
      try {
        const note = ending(final);
        markDelivered("deepResearch");
        setContinuable(final.conversationId);
        // Continuing is a choice: the next question starts a new conversation unless the person picks it.
        setChoice("new");
        return { conversation: final, sealed: false, note };
      } catch (err) {
        // The gateway keeps reporting `timeout` for this conversation, so it cannot be continued.
        if (final.status === "timeout") setContinuable(null);
        throw err;
      }
    },
  });

  const job = usePaidJob<ResearchHandle, ResearchOutcome>({
    panel: "research",
    resume: ({ handle, question }) => followPlain(handle, question),
    onDone: (outcome, started) => {
      if (started.handle) thread.finish(started.handle.entryId, { outcome: { kind: "research", result: outcome.conversation, messageId: started.handle.messageId } });
    },
    onResume: ({ question }) => thread.resumed("research", question),
  });

  function start(typed: string, conversationId: string | null) {
    if (job.busy) return;
    const built = buildResearchRequest({ message: typed, conversationId });
    if (!built.ok) {
      setInputError(built.error);
      return;
    }
    const sealed = privateMode;
    if (sealed && !sealed.recoveryKey) {
      setInputError("Private deep research needs a recovery key: only its holder can read the result. Create or import one in the Private mode section below, then start again. Nothing was paid.");
      return;
    }
    setInputError(null);
    const question = built.body.message;
    spend.request({
      operation: "deepResearch",
      question,
      buys: WHAT_IT_BUYS.deepResearch,
      action: conversationId ? "Continuing this research" : "Starting this research",
      proceed: () => pay(question, conversationId, built.body, sealed),
    });
  }

  function pay(question: string, conversationId: string | null, body: ResearchBody, sealed: typeof privateMode) {
    void job.run(
      async () => {
        const payer = await getPayer();
        if (sealed?.recoveryKey) {
          setView(null);
          return startSealedJob({
            kind: "deep-research",
            app,
            payer,
            enclave: sealed.enclave,
            plaintext: { message: question, recoveryKey: sealed.recoveryKey },
            question,
            firstStage: "Sealed: queued, waiting for the enclave",
            stage: (status) => `Sealed: ${status}${status === "running" ? " (a run usually takes about a minute; the status is sealed, so no details)" : ""}`,
            open: async (result) => {
              const messageId = typeof result.messageId === "string" ? result.messageId : "private";
              const conversation: ReadConversation = {
                conversationId: typeof result.conversationId === "string" ? result.conversationId : "private",
                status: "completed",
                turns: [{ messageId, objective: question, reply: result.reply, citations: await readCitations(result.citations), status: "completed", isFinal: true }],
                worldState: await readWorldState(result.worldState),
              };
              setView(conversation);
              const note = `Delivered, paid and opened in this browser.${typeof result.sessionStatus === "string" ? ` ${result.sessionStatus}.` : ""}`;
              return { result: { conversation, sealed: true, note }, outcome: { kind: "research", result: conversation, messageId } };
            },
            onAccepted: () => setMessage(""),
            restore,
            limitMs: LIMIT_MS,
            intervalMs: POLL_MS,
          });
        }
        // A new conversation clears the page (and what could be continued); a continued one keeps its earlier turns in view.
        if (!conversationId) {
          setView(null);
          setContinuable(null);
        }
        const paid = await paidPost(payer, "/api/deep-research/start", body);
        // Authorized, not settled: the gateway settles when the result is delivered.
        recordPayment("deepResearch", { transaction: null, settled: false });
        const accepted = { conversationId: String(paid.body.conversationId ?? ""), messageId: String(paid.body.messageId ?? "") };
        if (!accepted.conversationId || !accepted.messageId) throw new UserFacingError("The service did not return a conversation id.", { action: "Nothing is charged until a result is delivered. Try again." });
        setMessage("");
        const entryId = thread.begin({ kind: "research", question, payer, sealed: false, conversationId: accepted.conversationId });
        return followPlain({ entryId, ...accepted }, question);
      },
      { sealed: sealed !== null },
    );
  }

  // A suggested follow-up starts (or continues) research here, one click away (its price was on its button).
  useAskRequest(ask, ({ question, conversationId }) => {
    setMessage(question);
    if (conversationId) {
      setContinuable(conversationId);
      setChoice("continue");
    } else setChoice("new");
    start(question, conversationId ?? null);
  });

  const phase = job.phase;
  const continuing = canContinue && choice === "continue";
  const needsKey = privateMode !== null && !privateMode.recoveryKey;
  const resultRef = useScrollToResult(phase.kind === "done");

  return (
    <section aria-labelledby="research-heading" className="panel" data-testid="research-panel">
      <h3 id="research-heading">Deep research</h3>
      <p className="muted small">
        Several rounds of literature search, each with its own objective, then one cited reply and a record of what was found. A run usually takes under a minute (about 40 s on the demo); you can leave this tab and come back.
      </p>
      <MessageForm
        id="research-message"
        label={continuing ? "Your follow-up" : "Your research question"}
        value={message}
        onChange={(v) => {
          setMessage(v);
          setInputError(null);
        }}
        error={inputError}
        placeholder="What is the evidence that rapamycin extends lifespan, and in which species?"
        operation="deepResearch"
        buys={WHAT_IT_BUYS.deepResearch}
        submitLabel={continuing ? "Pay and continue" : "Pay and start research"}
        busy={job.busy}
        busyLabel="Working…"
        onSubmit={() => start(message, continuing ? continuable : null)}
      >
        {canContinue ? (
          <fieldset className={styles.choice}>
            <legend>Conversation</legend>
            <label className={styles.radio}>
              <input type="radio" name="research-conversation" value="continue" checked={choice === "continue"} onChange={() => setChoice("continue")} disabled={job.busy} />
              Continue this conversation
            </label>
            <label className={styles.radio}>
              <input type="radio" name="research-conversation" value="new" checked={choice === "new"} onChange={() => setChoice("new")} disabled={job.busy} />
              Start a new one
            </label>
          </fieldset>
        ) : null}
        {needsKey ? (
          <p className={`small ${styles.keyNote}`} data-testid="research-needs-key">
            Private deep research needs a recovery key. Create or import one in the Private mode section below first.
          </p>
        ) : null}
      </MessageForm>
      {spend.dialog}

      <div className={`outcome ${styles.outcome}`} aria-live="polite" data-testid="research-outcome" ref={resultRef}>
        {/* Fixed-height slot: the status line changes every poll without moving what is below it. */}
        <div className={styles.status}>
          <JobStatus phase={phase} resumed={job.resumed} what="research run" />
          {phase.kind === "done" ? (
            <p className={styles.done} data-testid="research-done">
              {phase.result.note}
            </p>
          ) : null}
        </div>
        {view ? <ConversationView conversation={view} /> : null}
      </div>
    </section>
  );
}
