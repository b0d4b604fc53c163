"use client";

import { useEffect, useRef, useState } from "react";
import type { DeepResearchConversation, DeepResearchStatus, DeepResearchTurn, EvidenceRole, EvidenceType, Verification } from "@/lib/contracts";
import type { EnclaveKeyInfo, PrivateModeError, PrivateResearchResult, Started } from "@/lib/sealing/client";
import { warnBeforeLeaving } from "@/lib/web/leave-warning";
import { anotherPaymentUnderWay, claimPayment } from "@/lib/web/payment-lock";
import { describeThrown, freeJson, paidPost, pollUntil, privateFailureAction, UserFacingError } from "@/lib/web/requests";
import { AnswerView, readGrading, safeHref } from "./answer-view";
import { MAX_MESSAGE_CHARS } from "@/lib/contracts/limits";
import { PriceNote, useApp } from "./context";
import styles from "./deep-research-panel.module.css";
import { ErrorNote, Progress } from "./status-bits";

/** The contract's limit of a message. */
const MAX_CHARS = MAX_MESSAGE_CHARS;
/** A run takes minutes: poll every 2 s (the contract's slowest pace) and give up after an hour, with a Retry. */
const POLL_MS = 2_000;
const LIMIT_MS = 60 * 60_000;
/** Consecutive failed polls tolerated during a run before the failure is shown. */
const MAX_MISSES = 4;

const TERMINAL: ReadonlySet<DeepResearchStatus> = new Set(["completed", "failed", "cancelled", "timeout"]);

type Phase =
  | { kind: "idle" }
  | { kind: "paying" }
  | { kind: "working"; stage: string }
  | { kind: "done"; note: string }
  | { kind: "failed"; error: UserFacingError; retry: (() => void) | null };

/** What the outcome region shows: a plain conversation as last polled, or one opened private run. */
type View = { kind: "plain"; conversation: DeepResearchConversation } | { kind: "private"; question: string; result: PrivateResearchResult };

type Reference = Parameters<typeof AnswerView>[0]["references"][number];

/**
 * Deep research for $1.00 (or $1.00 sealed): start or continue a conversation, watch its
 * iterations, read every turn's cited reply and the world state. The payment is authorized up
 * front and settled only when the result is delivered; failed, cancelled or timed-out runs cost
 * nothing.
 */
/** The plain run being followed, kept for this tab so a reload resumes it. */
const PENDING = "lra:pending:research";

function readPending(): { conversationId: string; messageId: string } | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(PENDING) ?? "null") as { conversationId?: unknown; messageId?: unknown } | null;
    return value && typeof value.conversationId === "string" && typeof value.messageId === "string" ? { conversationId: value.conversationId, messageId: value.messageId } : null;
  } catch {
    return null;
  }
}

export function DeepResearchPanel() {
  const { getPayer, privateMode, recordPayment, markDelivered } = useApp();
  const [message, setMessage] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [view, setView] = useState<View | null>(null);
  /** The last plain conversation that completed: the one "Continue" adds a turn to. */
  const [continuable, setContinuable] = useState<string | null>(null);
  const [choice, setChoice] = useState<"continue" | "new">("continue");
  const abort = useRef<AbortController | null>(null);
  const busy = phase.kind === "paying" || phase.kind === "working";
  // Private runs are single questions (their plaintext has no conversationId): no continuing there.
  const canContinue = continuable !== null && !privateMode;
  const continuing = canContinue && choice === "continue";

  /**
   * Set while a sealed run is paid for but its result not opened (running, or failed with a
   * Retry): the page no longer knows where to poll for it after a reload, so leaving asks first.
   */
  const leaveWarning = useRef<(() => void) | null>(null);
  const keepWarning = () => void (leaveWarning.current ??= warnBeforeLeaving());
  const stopWarning = () => {
    leaveWarning.current?.();
    leaveWarning.current = null;
  };

  // Stop polling (and asking before leaving) when the panel goes away.
  useEffect(
    () => () => {
      abort.current?.abort();
      stopWarning();
    },
    [],
  );

  // A reload during a paid run picks it up again (plain runs; a sealed run needs keys kept only in memory).
  const resumed = useRef(false);
  useEffect(() => {
    const pending = readPending();
    if (!pending || resumed.current) return;
    resumed.current = true;
    const timer = setTimeout(() => void follow(pending.conversationId, pending.messageId), 0);
    return () => clearTimeout(timer);
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function freshSignal(): AbortSignal {
    abort.current?.abort();
    abort.current = new AbortController();
    return abort.current.signal;
  }

  /** Polls the conversation until it ends; `messageId` is the turn that was paid for. */
  async function follow(conversationId: string, messageId: string) {
    sessionStorage.setItem(PENDING, JSON.stringify({ conversationId, messageId }));
    const signal = freshSignal();
    setPhase({ kind: "working", stage: "Queued: waiting for a research worker" });
    const deadline = Date.now() + LIMIT_MS;
    let lastSeen = "";
    // A run lasts minutes: a few failed polls in a row (a network blip, a redeploy) are waited out
    // on the last snapshot before the failure is shown with a Retry.
    let last: DeepResearchConversation | null = null;
    let misses = 0;
    const read = async (): Promise<DeepResearchConversation> => {
      try {
        last = normalizeConversation(await freeJson(`/api/deep-research/${encodeURIComponent(conversationId)}`), conversationId);
        misses = 0;
        return last;
      } catch (err) {
        const notFound = err instanceof UserFacingError && err.status === 404;
        if (last && !notFound && ++misses < MAX_MISSES) return last;
        throw err;
      }
    };
    try {
      const final = await pollUntil<DeepResearchConversation>({
        read,
        // Our own deadline, checked inside `done`, so giving up says the right thing (nothing is charged yet).
        done: (c) => isFinished(c, messageId) || Date.now() > deadline,
        onUpdate: (c) => {
          if (signal.aborted) return;
          // Same snapshot as last time: no re-render while a long iteration runs.
          const seen = JSON.stringify(c);
          if (seen !== lastSeen) {
            lastSeen = seen;
            setView({ kind: "plain", conversation: c });
          }
          setPhase({ kind: "working", stage: misses > 0 ? "The service did not answer; trying again…" : stageText(c) });
        },
        intervalMs: POLL_MS,
        limitMs: LIMIT_MS + 10 * POLL_MS,
        signal,
      });
      if (signal.aborted) return;
      if (!isFinished(final, messageId)) {
        throw new UserFacingError("The research is still running after an hour.", {
          action: "Retry to keep watching it. Nothing is charged until the result is delivered.",
        });
      }
      sessionStorage.removeItem(PENDING);
      finish(final);
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof UserFacingError && err.status === 404) sessionStorage.removeItem(PENDING);
      setPhase({ kind: "failed", error: describeThrown(err), retry: () => void follow(conversationId, messageId) });
    }
  }

  /** The end of a plain run, in words: done, or why not (never charged unless delivered). */
  function finish(c: DeepResearchConversation) {
    switch (c.status) {
      case "completed":
        markDelivered("deepResearch");
        setContinuable(c.conversationId);
        setChoice("continue");
        setPhase({ kind: "done", note: `Delivered and paid. ${c.sessionStatus && c.sessionStatus !== "completed" ? `${c.sessionStatus}.` : ""}`.trim() });
        return;
      case "timeout":
        // The gateway keeps reporting `timeout` for this conversation, so it cannot be continued.
        setContinuable(null);
        setPhase({
          kind: "failed",
          error: new UserFacingError("The payment authorization expired before the research finished, so nothing was charged.", {
            action: "Start again: you will be asked to sign a new payment.",
          }),
          retry: null,
        });
        return;
      case "cancelled":
        setPhase({ kind: "failed", error: new UserFacingError("The research was cancelled before it finished.", { action: "Nothing was charged. Start again when you are ready." }), retry: null });
        return;
      default:
        setPhase({
          kind: "failed",
          error: new UserFacingError(`The research did not finish${c.sessionStatus ? `: ${c.sessionStatus}` : ""}.`, { action: "Nothing was charged for it. Start again." }),
          retry: null,
        });
    }
  }

  /** Private mode: sealed start, sealed polls with the recovery key, the result opened here. */
  async function researchPrivately(question: string, recoveryKey: string, releasePayment: () => void) {
    if (!privateMode) return;
    const payer = await getPayer();
    const client = await import("@/lib/sealing/client");
    setPhase({ kind: "paying" });
    // From signing on: only this page knows the run it will have to poll and open.
    keepWarning();
    const started = await client.startPrivate("deep-research", {
      gateway: location.origin,
      payFetch: payer.payFetch,
      enclave: privateMode.enclave,
      plaintext: { message: question, recoveryKey },
    });
    releasePayment();
    recordPayment("deepResearchEncrypted", { transaction: null, settled: false });
    setMessage("");
    await followPrivately(started, question, recoveryKey, privateMode.enclave);
  }

  async function followPrivately(started: Started<"deep-research">, question: string, recoveryKey: string, enclave: EnclaveKeyInfo) {
    keepWarning();
    const signal = freshSignal();
    setPhase({ kind: "working", stage: "Sealed: queued, waiting for the enclave" });
    try {
      const client = await import("@/lib/sealing/client");
      const result = await client.awaitPrivateDeepResearch(started, {
        gateway: location.origin,
        enclave,
        recoveryKey,
        onStatus: (status) => {
          if (!signal.aborted) setPhase({ kind: "working", stage: `Sealed: ${status}${status === "running" ? " (iterations take several minutes; the status is sealed, so no details)" : ""}` });
        },
        intervalMs: POLL_MS,
        limitMs: LIMIT_MS,
        signal,
      });
      if (signal.aborted) return;
      stopWarning();
      markDelivered("deepResearchEncrypted");
      setView({ kind: "private", question, result });
      setPhase({ kind: "done", note: `Delivered, paid and opened in this browser.${typeof result.sessionStatus === "string" ? ` ${result.sessionStatus}.` : ""}` });
    } catch (err) {
      if (signal.aborted) return;
      const error = privateError(err);
      // The run itself failed (the status route said so): polling again would not help.
      const runFailed = isPrivateModeError(err) && err.code === "request_failed" && err.status === undefined;
      // Otherwise Retry can still open the paid result, so leaving keeps asking first.
      if (runFailed) stopWarning();
      setPhase({ kind: "failed", error, retry: runFailed ? null : () => void followPrivately(started, question, recoveryKey, enclave) });
    }
  }

  async function start(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    const text = message.trim();
    if (!text) {
      setPhase({ kind: "failed", error: new UserFacingError("Write a question first.", { action: "Nothing was paid." }), retry: null });
      return;
    }
    if (privateMode && !privateMode.recoveryKey) {
      setPhase({
        kind: "failed",
        error: new UserFacingError("Private deep research needs a recovery key: only its holder can read the result.", {
          action: "Create or import one in the Private mode section above, then start again. Nothing was paid.",
        }),
        retry: null,
      });
      return;
    }
    // Claimed before anything is awaited: `busy` is not rendered yet for clicks in the same task.
    const payment = claimPayment("research");
    if (!payment.ok) {
      // A repeated click here changes nothing; a click while another panel pays is told why.
      if (payment.heldBy !== "research") setPhase({ kind: "failed", error: anotherPaymentUnderWay(), retry: null });
      return;
    }
    // A new run replaces a sealed one still waiting for a Retry: that result is given up.
    stopWarning();
    try {
      if (privateMode?.recoveryKey) {
        setView(null);
        await researchPrivately(text, privateMode.recoveryKey, payment.release);
        return;
      }
      const payer = await getPayer();
      const conversationId = continuing ? continuable : null;
      // A new conversation clears the page (and what could be continued); a continued one keeps its earlier turns in view.
      if (!conversationId) {
        setView(null);
        setContinuable(null);
      }
      setPhase({ kind: "paying" });
      const paid = await paidPost(payer, "/api/deep-research/start", { message: text, ...(conversationId ? { conversationId } : {}) });
      payment.release();
      // Authorized, not settled: the gateway settles when the result is delivered.
      recordPayment("deepResearch", { transaction: null, settled: false });
      const accepted = { conversationId: String(paid.body.conversationId ?? ""), messageId: String(paid.body.messageId ?? "") };
      if (!accepted.conversationId || !accepted.messageId) throw new UserFacingError("The service did not return a conversation id.", { action: "Nothing is charged until a result is delivered. Try again." });
      setMessage("");
      await follow(accepted.conversationId, accepted.messageId);
    } catch (err) {
      // Failed before a sealed run was accepted: there is no result to keep the page for.
      stopWarning();
      setPhase({ kind: "failed", error: privateError(err), retry: null });
    } finally {
      payment.release();
    }
  }

  const needsKey = privateMode !== null && !privateMode.recoveryKey;

  return (
    <section aria-labelledby="research-heading" className="panel">
      <h3 id="research-heading">Deep research</h3>
      <p className="muted small">
        Several rounds of literature search, each with its own objective, then one cited reply and a record of what was found. A run takes several minutes.
      </p>
      <form onSubmit={start}>
        {canContinue ? (
          <fieldset className={styles.choice}>
            <legend>Conversation</legend>
            <label className={styles.radio}>
              <input type="radio" name="research-conversation" value="continue" checked={choice === "continue"} onChange={() => setChoice("continue")} disabled={busy} />
              Continue this conversation
            </label>
            <label className={styles.radio}>
              <input type="radio" name="research-conversation" value="new" checked={choice === "new"} onChange={() => setChoice("new")} disabled={busy} />
              Start a new one
            </label>
          </fieldset>
        ) : null}
        <label htmlFor="research-message">{continuing ? "Your follow-up" : "Your research question"}</label>
        <textarea
          id="research-message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          maxLength={MAX_CHARS}
          rows={3}
          placeholder="What is the evidence that rapamycin extends lifespan, and in which species?"
          aria-describedby="research-message-count"
          required
        />
        <p id="research-message-count" className={`muted small ${styles.count}`}>
          {message.length} / {MAX_CHARS} characters
        </p>
        {needsKey ? (
          <p className={`small ${styles.keyNote}`} data-testid="research-needs-key">
            Private deep research needs a recovery key. Create or import one in the Private mode section above first.
          </p>
        ) : null}
        <PriceNote
          operation="deepResearch"
          buys="a multi-round research run with a cited reply and its findings; your signature authorizes the payment now, and it is settled only when the result is delivered (nothing is charged if the run fails or its authorization expires)"
        />
        <button type="submit" disabled={busy}>
          {busy ? "Working…" : continuing ? "Pay and continue" : "Pay and start research"}
        </button>
      </form>

      <div className={`outcome ${styles.outcome}`} aria-live="polite" data-testid="research-outcome">
        {/* Fixed-height slot: the status line changes every poll without moving what is below it. */}
        <div className={styles.status}>
          {phase.kind === "paying" ? <Progress stage="Waiting for the payment signature…" percent={null} /> : null}
          {phase.kind === "working" ? <Progress stage={phase.stage} percent={null} /> : null}
          {phase.kind === "failed" ? <ErrorNote error={phase.error} retry={phase.retry} /> : null}
          {phase.kind === "done" ? (
            <p className={styles.done} data-testid="research-done">
              {phase.note}
            </p>
          ) : null}
        </div>
        {view?.kind === "plain" ? <ConversationView conversation={view.conversation} /> : null}
        {view?.kind === "private" ? (
          <>
            <Timeline
              turns={[
                {
                  messageId: typeof view.result.messageId === "string" ? view.result.messageId : "private",
                  objective: view.question,
                  reply: view.result.reply,
                  citations: view.result.citations,
                  status: "completed",
                  isFinal: true,
                },
              ]}
            />
            <WorldStateView worldState={view.result.worldState} />
          </>
        ) : null}
      </div>
    </section>
  );
}

/** By name: the class itself lives in the sealing client, which is loaded only on demand. */
function isPrivateModeError(err: unknown): err is PrivateModeError {
  return err instanceof Error && err.name === "PrivateModeError";
}

/** A PrivateModeError (or any failure) as a sentence with a way forward. */
function privateError(err: unknown): UserFacingError {
  if (isPrivateModeError(err)) {
    if (/authorization expired/i.test(err.message)) {
      return new UserFacingError("The payment authorization expired before the research finished, so nothing was charged.", {
        action: "Start again: you will be asked to sign a new payment.",
      });
    }
    return new UserFacingError(err.message, { action: privateFailureAction(err) ?? "Try again." });
  }
  return describeThrown(err);
}

/** Finished when the conversation is terminal and the paid turn, if listed, is no longer in progress. */
function isFinished(c: DeepResearchConversation, messageId: string): boolean {
  if (!TERMINAL.has(c.status)) return false;
  if (c.status === "timeout") return true;
  const turn = c.turns?.find((t) => t.messageId === messageId);
  return !turn || TERMINAL.has(turn.status);
}

function stageText(c: DeepResearchConversation): string {
  const session = c.sessionStatus?.trim();
  if (!session || session === c.status) {
    if (c.status === "queued") return "Queued: waiting for a research worker";
    if (c.status === "cancelling") return "Cancelling";
    return STATUS_LABELS[c.status];
  }
  return session;
}

const STATUS_LABELS: Record<DeepResearchStatus, string> = {
  queued: "Queued",
  running: "Running",
  cancelling: "Cancelling",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  timeout: "Timed out",
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value : null);
const status = (value: unknown): DeepResearchStatus => (typeof value === "string" && value in STATUS_LABELS ? (value as DeepResearchStatus) : "running");

/**
 * The poll's JSON as a conversation, checked by hand (no zod in the page's JavaScript). While a
 * job is in progress the body may hold only id and status; unknown statuses read as running.
 */
function normalizeConversation(body: Record<string, unknown>, conversationId: string): DeepResearchConversation {
  const turns = Array.isArray(body.turns)
    ? body.turns.filter(isRecord).flatMap((t): DeepResearchTurn[] => {
        const messageId = str(t.messageId);
        if (!messageId) return [];
        const reply = typeof t.reply === "string" ? t.reply : undefined;
        return [
          {
            messageId,
            objective: typeof t.objective === "string" ? t.objective : "",
            ...(reply !== undefined ? { reply } : {}),
            citations: Array.isArray(t.citations) ? t.citations.filter(isRecord) : [],
            status: status(t.status),
            isFinal: t.isFinal === true,
          },
        ];
      })
    : undefined;
  const sessionStatus = str(body.sessionStatus);
  return {
    conversationId: str(body.conversationId) ?? conversationId,
    status: status(body.status),
    worldState: isRecord(body.worldState) ? body.worldState : null,
    ...(sessionStatus ? { sessionStatus } : {}),
    ...(turns ? { turns } : {}),
  };
}

const EVIDENCE_TYPES: Record<EvidenceType, true> = {
  randomized_controlled_trial: true,
  controlled_trial: true,
  single_arm_trial: true,
  observational: true,
  systematic_review: true,
  narrative_review: true,
  preclinical: true,
  commentary: true,
  unknown: true,
};
const ROLES: Record<EvidenceRole, true> = { supporting: true, context: true, lead_only: true };
const VERIFICATIONS: Record<Verification, true> = { verified: true, probable: true, unknown: true };

const oneOf = <T extends string>(allowed: Record<T, true>, value: unknown, fallback: T): T =>
  typeof value === "string" && Object.hasOwn(allowed, value) ? (value as T) : fallback;

/**
 * A turn's citation as a reference AnswerView can show. Citations are the final reply's
 * ChatReferences, but the contract types them as open objects: each field is checked and missing
 * ones get a neutral value rather than trusting the shape.
 */
function toReference(raw: Record<string, unknown>, index: number): Reference {
  const ordinal = typeof raw.ordinal === "number" && Number.isInteger(raw.ordinal) && raw.ordinal >= 1 ? raw.ordinal : index + 1;
  const confidence = typeof raw.confidence === "number" && Number.isFinite(raw.confidence) ? Math.min(1, Math.max(0, raw.confidence)) : 0;
  return {
    ordinal,
    title: str(raw.title) ?? "Untitled reference",
    url: typeof raw.url === "string" ? raw.url : "",
    source: typeof raw.source === "string" ? raw.source : "",
    year: typeof raw.year === "number" && Number.isInteger(raw.year) ? raw.year : null,
    doi: str(raw.doi),
    pmid: str(raw.pmid),
    evidenceType: oneOf(EVIDENCE_TYPES, raw.evidenceType, "unknown"),
    evidenceRole: oneOf(ROLES, raw.evidenceRole, "context"),
    verification: oneOf(VERIFICATIONS, raw.verification, "unknown"),
    confidence,
    roleReason: typeof raw.roleReason === "string" ? raw.roleReason : "",
    ...readGrading(raw),
  };
}

function ConversationView({ conversation }: { conversation: DeepResearchConversation }) {
  const turns = conversation.turns ?? [];
  const finishedUnpaid = turns.some((t) => t.status === "completed" && t.reply === undefined);
  return (
    <>
      {turns.length > 0 ? <Timeline turns={turns} activeMessageId={conversation.activeMessageId} /> : null}
      {conversation.worldState ? (
        <WorldStateView worldState={conversation.worldState} />
      ) : finishedUnpaid ? (
        <p className="muted small">The findings are shown once every finished turn&apos;s payment has settled.</p>
      ) : null}
    </>
  );
}

/** What a turn's status means for the reader (and for their money). */
function turnNote(turn: DeepResearchTurn): string | null {
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

function Timeline({ turns, activeMessageId }: { turns: DeepResearchTurn[]; activeMessageId?: string | undefined }) {
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
            {turn.reply !== undefined ? <AnswerView answer={turn.reply} references={turn.citations.map(toReference)} scope={`research-${turn.messageId}`} /> : null}
          </li>
        );
      })}
    </ol>
  );
}

type FindingReference = { ordinal: number | null; title: string; url: string | null; pmid: string | null; doi: string | null };
type Finding = { statement: string; references: FindingReference[]; axis: string | null; species: string | null };
type Axis = { axis: string; label: string; status: string; queries: string[]; findings: number; summary: string | null };
type World = { objectives: string[]; findings: Finding[]; hypotheses: string[]; openQuestions: string[]; sources: string[]; axes: Axis[]; contradictions: string[] };

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : []);

/** Evidence axes in the order the agent plans them (agent/deep-research/axes.ts); a world state names its own labels. */
const AXIS_ORDER = ["human_trials", "observational", "animal", "mechanism", "safety", "dose_timing"];
const AXIS_STATUS: Record<string, string> = { covered: "searched", not_covered: "not searched (budget)", not_applicable: "not applicable" };
const SPECIES: Record<string, string> = { mouse: "mice", rat: "rats", nonhuman_primate: "monkeys", dog: "dogs", fish: "fish", fly: "flies", worm: "worms", yeast: "yeast", cells: "cells", human: "people", other_mammal: "other mammals" };

/** The world state (an open object in the contract) read field by field; anything unexpected is left out. */
function readWorld(raw: Record<string, unknown>): World {
  const findings = Array.isArray(raw.findings)
    ? raw.findings.filter(isRecord).flatMap((f): Finding[] => {
        const statement = str(f.statement);
        if (!statement) return [];
        const references = Array.isArray(f.references)
          ? f.references.filter(isRecord).map((r) => ({
              ordinal: typeof r.ordinal === "number" ? r.ordinal : null,
              title: str(r.title) ?? "Untitled reference",
              url: str(r.url),
              pmid: str(r.pmid),
              doi: str(r.doi),
            }))
          : [];
        return [{ statement, references, axis: str(f.axis), species: str(f.species) }];
      })
    : [];
  const axes = Array.isArray(raw.axes)
    ? raw.axes.filter(isRecord).flatMap((a): Axis[] => {
        const axis = str(a.axis);
        if (!axis) return [];
        return [{ axis, label: str(a.label) ?? axis.replace(/_/g, " "), status: str(a.status) ?? "covered", queries: strings(a.queries), findings: typeof a.findings === "number" ? a.findings : 0, summary: str(a.summary) }];
      })
    : [];
  const contradictions = Array.isArray(raw.contradictions) ? raw.contradictions.filter(isRecord).flatMap((c) => (str(c.statement) ? [str(c.statement)!] : [])) : [];
  return { objectives: strings(raw.objectives), findings, hypotheses: strings(raw.hypotheses), openQuestions: strings(raw.openQuestions), sources: strings(raw.sources), axes, contradictions };
}

/** Findings by evidence axis, in the agent's order; findings of a world state written before axes go last, under "Findings". */
function groupFindings(world: World): { key: string; label: string; findings: Finding[] }[] {
  const labelOf = (axis: string) => world.axes.find((a) => a.axis === axis)?.label ?? axis.replace(/_/g, " ");
  const keys = [...new Set(world.findings.map((f) => f.axis ?? ""))].sort((a, b) => rank(a) - rank(b));
  return keys.map((key) => ({ key, label: key ? labelOf(key) : "Findings", findings: world.findings.filter((f) => (f.axis ?? "") === key) }));
}

function rank(axis: string): number {
  const i = AXIS_ORDER.indexOf(axis);
  return i < 0 ? AXIS_ORDER.length : i;
}

/** Where to read a finding's reference: its own http(s) URL, PubMed, the DOI. */
function findingLinks(ref: FindingReference): { href: string; text: string }[] {
  const out: { href: string; text: string }[] = [];
  const own = safeHref(ref.url);
  if (own) out.push({ href: own, text: "Source" });
  if (ref.pmid) out.push({ href: `https://pubmed.ncbi.nlm.nih.gov/${encodeURIComponent(ref.pmid)}/`, text: `PubMed ${ref.pmid}` });
  if (ref.doi) out.push({ href: `https://doi.org/${encodeURI(ref.doi)}`, text: `DOI ${ref.doi}` });
  return out.filter((l, i) => out.findIndex((o) => o.href === l.href) === i);
}

function WorldStateView({ worldState }: { worldState: Record<string, unknown> }) {
  const world = readWorld(worldState);
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
                <span className={styles.refTitle}>{a.label}</span> <span className="chip">{AXIS_STATUS[a.status] ?? a.status}</span>{" "}
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
          <TextList items={world.contradictions} empty="" />
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
