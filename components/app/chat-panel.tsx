"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { ChatResult, EngineStep } from "@/lib/shared/contracts";
import { sourcesInWords } from "@/lib/shared/contracts/source-words";
import { literatureSources, plannedSources } from "@/lib/shared/contracts/sources";
import { buildChatRequest } from "@/lib/web/message-request";
import { bottomLineOf, type FollowTarget } from "@/lib/web/thread";
import { WHAT_IT_BUYS } from "@/lib/web/what-it-buys";
import { whatWouldHelp } from "@/lib/web/what-would-help";
import { JobEndedError, usePaidJob, type StartedJob } from "@/lib/web/paid-job";
import { readChatStatus } from "@/lib/web/read-results";
import { followStatus, freeJson, paidPost } from "@/lib/web/api-requests";
import { UserFacingError } from "@/lib/web/user-facing-error";
import { AnswerView } from "./answer-view";
import { ExampleQuestions } from "./example-questions";
import { FollowOnButton } from "./follow-on";
import { useApp, type AskRequest } from "./context";
import { JobStatus, useAskRequest, useScrollToResult } from "./job-status";
import { MessageForm } from "./message-form";
import styles from "./message-form.module.css";
import { startSealedJob } from "./sealed-job";

/** Polling pace of the contract: every 750 ms to 2 s; give up after 60 s (with a retry). */
const POLL_MS = 1_000;
const LIMIT_MS = 60_000;

/** A plain chat being followed: its thread entry and the gateway's request id. */
type ChatHandle = { entryId: string; requestId: string };

/** The agent's stages and the engine's steps (agent/chat/job.ts) in words: what is being done, not a code and a percent. */
function chatStageWords(stage: string | null | undefined, step?: EngineStep): string {
  if (stage === "queued") return "Queued: waiting for a worker";
  if (step === "searching") return `Searching ${sourcesInWords(plannedSources({ mode: "fast" }, literatureSources))}`;
  if (step === "filtering") return "Checking each reference's relevance";
  if (step === "grading") return "Grading the evidence of each reference";
  if (step === "answering" || stage === "thinking") return "Writing the cited answer";
  if (stage === "literature") return `Searching ${sourcesInWords(plannedSources({ mode: "fast" }, literatureSources))}`;
  if (stage === "done") return "Opening the answer";
  return "Starting";
}

/**
 * Ask a question, pay $0.02 (or $0.02 sealed), watch the work, read the cited answer. A question
 * is its own (a new conversation) unless the person chose to follow up on an answer (`target`, set
 * by "Follow up on this" or a suggested follow-up): then it is sent in that answer's conversation,
 * once, and the box says which answer it follows until it is sent or dropped.
 */
export function ChatPanel({
  ask,
  target = null,
  onTarget = () => undefined,
  onFollowOn = () => undefined,
}: {
  ask?: AskRequest | null;
  target?: (FollowTarget & { nonce: number }) | null;
  onTarget?: (target: null) => void;
  onFollowOn?: (target: FollowTarget) => void;
}) {
  const app = useApp();
  const { getPayer, privateMode, recordPayment, thread } = app;
  const [message, setMessage] = useState("");
  const [inputError, setInputError] = useState<string | null>(null);
  // Sealed questions carry no conversation: private mode follows up on nothing.
  const following = target && !privateMode ? target : null;
  const box = useRef<HTMLTextAreaElement>(null);
  const followingId = useId();
  /** The plain answer on screen: its thread entry and question, for "Follow up on this" under it. */
  const [answered, setAnswered] = useState<FollowTarget["follows"] | null>(null);
  /** The answer on screen, plain or sealed: the question it answers and its thread entry (for its turn). */
  const [shown, setShown] = useState<{ question: string; entryId: string | null } | null>(null);
  // Chosen from an answer: the box is where the follow-up is written next.
  useEffect(() => {
    if (target) box.current?.focus();
  }, [target?.nonce]); // eslint-disable-line react-hooks/exhaustive-deps -- each choice once
  // A question that got no answer for good goes back in the box, to be asked again in one click.
  const restore = (question: string) => setMessage((typed) => typed || question);

  const followPlain = (handle: ChatHandle, question: string): StartedJob<ChatHandle, ChatResult> => ({
    handle,
    question,
    entryId: handle.entryId,
    sealed: false,
    firstStage: chatStageWords("queued"),
    // Ended for good without an answer (failed, or forgotten by the service: 404): the thread says why.
    ended: (error) => {
      thread.finish(handle.entryId, { failure: error.message });
      restore(question);
    },
    follow: async ({ signal, report }) => {
      const final = await followStatus({
        read: async () => readChatStatus(await freeJson(`/api/chat/status/${encodeURIComponent(handle.requestId)}`)),
        done: (s) => s.status === "completed" || s.status === "failed",
        onUpdate: (s) => report(chatStageWords(s.progress?.stage ?? s.status, s.progress?.step), s.progress?.percent ?? null),
        intervalMs: POLL_MS,
        limitMs: LIMIT_MS,
        signal,
      });
      if (final.status === "failed" || !final.result) {
        throw new JobEndedError(`The answer could not be produced: ${final.error ?? "unknown error"}.`, "Ask again.");
      }
      return final.result;
    },
  });

  const job = usePaidJob<ChatHandle, ChatResult>({
    panel: "chat",
    resume: ({ handle, question }) => followPlain(handle, question),
    onDone: (result, started) => {
      if (started.handle) thread.finish(started.handle.entryId, { outcome: { kind: "chat", result } });
      setAnswered(started.handle ? { entryId: started.handle.entryId, question: started.question } : null);
      setShown({ question: started.question, entryId: started.entryId ?? null });
    },
    onResume: ({ question }) => thread.resumed("chat", question),
  });

  function submit(typed: string, follow: FollowTarget | null) {
    if (job.busy) return;
    const built = buildChatRequest({ message: typed });
    if (!built.ok) {
      setInputError(built.error);
      return;
    }
    setInputError(null);
    const question = built.body.message;
    const sealed = privateMode;
    void job.run(
      async () => {
        const payer = await getPayer();
        if (sealed) {
          return startSealedJob({
            kind: "chat",
            app,
            payer,
            enclave: sealed.enclave,
            plaintext: { message: question, ...(sealed.recoveryKey ? { recoveryKey: sealed.recoveryKey } : {}) },
            question,
            firstStage: "Sealed: waiting for the enclave",
            stage: (status) => `Sealed: ${status}`,
            open: async (result) => ({ result, outcome: { kind: "chat", result } }),
            onAccepted: () => setMessage(""),
            restore,
            limitMs: LIMIT_MS,
            intervalMs: POLL_MS,
          });
        }
        const asked = buildChatRequest({ message: question, conversationId: follow?.conversationId ?? null });
        const body = asked.ok ? asked.body : built.body;
        const paid = await paidPost(payer, "/api/chat", body).catch((err: unknown) => {
          // A conversation the service forgot (a day after its last question), charged nothing. Asked
          // anew, a follow-up such as "And in women?" would lose what it follows: say so instead.
          if (!(body.conversationId && err instanceof UserFacingError && err.status === 404)) throw err;
          throw new UserFacingError("The service no longer keeps the answer this follows up on (a conversation is kept for a day after its last question). Nothing was paid.", {
            action: "Ask the question in full, as a new one.",
            status: 404,
          });
        });
        recordPayment("chat", { transaction: paid.transaction, settled: true, receipt: paid.receipt });
        const requestId = typeof paid.body.requestId === "string" ? paid.body.requestId : "";
        if (!requestId) throw new UserFacingError("The service did not return a request id.", { action: "Try again." });
        setMessage("");
        // Sent: the next question typed is a new one again, unless the person follows up again.
        if (follow) onTarget(null);
        const entryId = thread.begin({ kind: "chat", question, payer, sealed: false, ...(follow ? { followsUp: follow.follows } : {}) });
        return followPlain({ entryId, requestId }, question);
      },
      // A private chat has no Retry, so the leave warning ends with it either way.
      { sealed: sealed !== null },
    );
  }

  // A suggested follow-up asks here, one click away (its price was on its button).
  useAskRequest(ask, ({ question, conversationId, follows }) => {
    setMessage(question);
    submit(question, conversationId && follows ? { conversationId, follows } : null);
  });

  const resultRef = useScrollToResult(job.phase.kind === "done");
  const phase = job.phase;
  return (
    <section aria-labelledby="chat-heading" className="panel" data-testid="chat-panel">
      <h3 id="chat-heading">Chat</h3>
      <p className="muted small">One cited answer from the literature, usually within a few seconds.</p>
      <MessageForm
        id="chat-message"
        label="Your question"
        value={message}
        onChange={(v) => {
          setMessage(v);
          setInputError(null);
        }}
        error={inputError}
        placeholder="Does rapamycin extend lifespan in mice?"
        operation="chat"
        buys={WHAT_IT_BUYS.chat}
        submitLabel="Pay and ask"
        busy={job.busy}
        busyLabel="Working…"
        onSubmit={() => submit(message, following)}
        boxRef={box}
        describedBy={following ? followingId : undefined}
        afterButton={
          <ExampleQuestions
            onChoose={(question) => {
              setMessage(question);
              setInputError(null);
              box.current?.focus();
            }}
          />
        }
      >
        {following ? (
          <div className={styles.following} data-testid="following-up">
            <p id={followingId} className="small">
              Your next question follows up on the answer to <strong>“{following.follows.question}”</strong>: it is read with that question, in its conversation.
            </p>
            <button type="button" className="link-button" onClick={() => onTarget(null)}>
              Ask a new question instead
            </button>
          </div>
        ) : null}
      </MessageForm>
      <div className="outcome" aria-live="polite" ref={resultRef}>
        <JobStatus phase={phase} resumed={job.resumed} what="question" />
        {phase.kind === "done" ? (
          <>
            <AnswerView
              answer={phase.result.answer}
              references={phase.result.references}
              rejected={phase.result.rejectedReferences}
              verdict={phase.result.verdict}
              verdictBasis={phase.result.verdictBasis}
              bottomLine={bottomLineOf({ kind: "chat", result: phase.result })}
              heading={shown ? { question: shown.question, turn: shown.entryId ? thread.turnOf(shown.entryId) : null } : null}
              help={whatWouldHelp()}
              scope="chat"
            />
            <FollowOnButton target={answered && phase.result.conversationId ? { conversationId: phase.result.conversationId, follows: answered } : null} onFollowOn={onFollowOn} />
          </>
        ) : null}
      </div>
    </section>
  );
}
