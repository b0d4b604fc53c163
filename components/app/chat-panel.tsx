"use client";

import { useEffect, useRef, useState } from "react";
import type { ChatResult } from "@/lib/contracts";
import { MAX_MESSAGE_CHARS } from "@/lib/contracts/limits";
import { warnBeforeLeaving } from "@/lib/web/leave-warning";
import { anotherPaymentUnderWay, claimPayment } from "@/lib/web/payment-lock";
import { describeThrown, freeJson, paidPost, pollUntil, privateFailureAction, transactionOf, UserFacingError } from "@/lib/web/requests";
import { AnswerView } from "./answer-view";
import { PriceNote, useApp } from "./context";
import { ErrorNote, Progress } from "./status-bits";

type Phase =
  | { kind: "idle" }
  | { kind: "paying" }
  | { kind: "working"; stage: string; percent: number | null }
  | { kind: "done"; result: Pick<ChatResult, "answer" | "references" | "rejectedReferences" | "verdict"> }
  | { kind: "failed"; error: UserFacingError; retry: (() => void) | null };

/** A paid request still being followed, kept for this tab so a reload resumes it (plain chat only). */
const PENDING = "lra:pending:chat";

/** Polling pace of the contract: every 750 ms to 2 s; give up after 60 s (with a retry). */
const POLL_MS = 1_000;
const LIMIT_MS = 60_000;

type ChatStatus = { status: string; progress?: { stage: string; percent: number } | null; result?: ChatResult | null; error?: string | null };

/** Ask a question, pay $0.02 (or $0.02 sealed), watch the work, read the cited answer. */
export function ChatPanel() {
  const { getPayer, privateMode, recordPayment } = useApp();
  const [message, setMessage] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const busy = phase.kind === "paying" || phase.kind === "working";
  const abort = useRef<AbortController | null>(null);

  // A reload during a paid request picks it up again instead of losing what was paid for.
  const resumed = useRef(false);
  useEffect(() => {
    const pending = sessionStorage.getItem(PENDING);
    if (!pending || resumed.current) return;
    resumed.current = true;
    const timer = setTimeout(() => void follow(pending), 0);
    return () => clearTimeout(timer);
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function follow(requestId: string) {
    sessionStorage.setItem(PENDING, requestId);
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: "working", stage: "queued", percent: null });
    try {
      const final = await pollUntil<ChatStatus>({
        read: async () => (await freeJson(`/api/chat/status/${encodeURIComponent(requestId)}`)) as ChatStatus,
        done: (s) => s.status === "completed" || s.status === "failed",
        onUpdate: (s) => setPhase({ kind: "working", stage: s.progress?.stage ?? s.status, percent: s.progress?.percent ?? null }),
        intervalMs: POLL_MS,
        limitMs: LIMIT_MS,
        signal: controller.signal,
      });
      sessionStorage.removeItem(PENDING);
      if (final.status === "failed" || !final.result) throw new UserFacingError(`The answer could not be produced: ${final.error ?? "unknown error"}.`, { action: "Ask again." });
      setPhase({ kind: "done", result: final.result });
    } catch (err) {
      // An unknown or expired request (404) is not coming back: stop resuming it.
      if (err instanceof UserFacingError && err.status === 404) sessionStorage.removeItem(PENDING);
      setPhase({ kind: "failed", error: describeThrown(err), retry: () => void follow(requestId) });
    }
  }

  async function askPrivately(question: string, releasePayment: () => void) {
    if (!privateMode) return;
    const payer = await getPayer();
    const client = await import("@/lib/sealing/client");
    setPhase({ kind: "paying" });
    const plaintext = { message: question, ...(privateMode.recoveryKey ? { recoveryKey: privateMode.recoveryKey } : {}) };
    // From signing until the answer is opened, only this page's memory holds the key that opens
    // it (a private chat has no Retry, so any end releases it).
    const stopWarning = warnBeforeLeaving();
    try {
      const started = await client.startPrivate("chat", { gateway: location.origin, payFetch: payer.payFetch, enclave: privateMode.enclave, plaintext });
      releasePayment();
      recordPayment("chatEncrypted", { transaction: transactionOf(started.response.headers.get("payment-response")), settled: true });
      setPhase({ kind: "working", stage: "sealed: waiting for the enclave", percent: null });
      const result = await client.awaitPrivateChat(started, {
        gateway: location.origin,
        onStatus: (status) => setPhase({ kind: "working", stage: `sealed: ${status}`, percent: null }),
        limitMs: LIMIT_MS,
        intervalMs: POLL_MS,
      });
      setPhase({ kind: "done", result });
    } finally {
      stopWarning();
    }
  }

  async function ask(event: React.FormEvent) {
    event.preventDefault();
    const question = message.trim();
    if (!question || busy) return;
    // Claimed before anything is awaited: `busy` is not rendered yet for clicks in the same task.
    const payment = claimPayment("chat");
    if (!payment.ok) {
      // A repeated click here changes nothing; a click while another panel pays is told why.
      if (payment.heldBy !== "chat") setPhase({ kind: "failed", error: anotherPaymentUnderWay(), retry: null });
      return;
    }
    try {
      if (privateMode) {
        await askPrivately(question, payment.release);
        return;
      }
      const payer = await getPayer();
      setPhase({ kind: "paying" });
      const paid = await paidPost(payer, "/api/chat", { message: question });
      payment.release();
      recordPayment("chat", { transaction: paid.transaction, settled: true });
      const requestId = String(paid.body.requestId ?? "");
      if (!requestId) throw new UserFacingError("The service did not return a request id.", { action: "Try again." });
      await follow(requestId);
    } catch (err) {
      const error = err instanceof Error && err.name === "PrivateModeError" ? new UserFacingError(err.message, { action: privateFailureAction(err) ?? "Try again." }) : describeThrown(err);
      setPhase({ kind: "failed", error, retry: null });
    } finally {
      payment.release();
    }
  }

  return (
    <section aria-labelledby="chat-heading" className="panel">
      <h3 id="chat-heading">Chat</h3>
      <form onSubmit={ask}>
        <label htmlFor="chat-message">Your question</label>
        <textarea
          id="chat-message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          maxLength={MAX_MESSAGE_CHARS}
          rows={3}
          placeholder="Does rapamycin extend lifespan in mice?"
          required
        />
        <PriceNote operation="chat" buys="one answer whose every [N] cites a checked reference" />
        <button type="submit" disabled={busy}>
          {busy ? "Working…" : "Pay and ask"}
        </button>
      </form>
      <div className="outcome" aria-live="polite">
        {phase.kind === "paying" ? <Progress stage="Waiting for the payment signature…" percent={null} /> : null}
        {phase.kind === "working" ? <Progress stage={phase.stage} percent={phase.percent} /> : null}
        {phase.kind === "failed" ? <ErrorNote error={phase.error} retry={phase.retry} /> : null}
        {phase.kind === "done" ? (
          <AnswerView answer={phase.result.answer} references={phase.result.references} rejected={phase.result.rejectedReferences} verdict={phase.result.verdict} scope="chat" />
        ) : null}
      </div>
    </section>
  );
}
